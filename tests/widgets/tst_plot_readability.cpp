// SPDX-License-Identifier: GPL-3.0-or-later
// Plots that can be read in the default window: every state lane named with
// eight governors and state names on the lanes' axis, a miss-ratio plot of a
// usable height, and count axes that can go logarithmic so that 4 misses
// stand beside 197 k. Set IDLESCOPE_TEST_SHOTS=DIR to keep the windows as PNG.
#include "core/governors/registry.h"
#include "tests/widgets/window_fixture.h"
#include "widgets/main_window.h"
#include "widgets/plots/count_ticker.h"
#include "widgets/plots/miss_histogram_plot.h"
#include "widgets/plots/miss_ratio_plot.h"
#include "widgets/plots/state_timeline_plot.h"
#include "widgets/runner/builtin_scenario.h"

#include <QAction>
#include <QTest>

using namespace idlescope;

class TestPlotReadability : public QObject {
    Q_OBJECT
private slots:
    void stateLanesNameStatesAndGovernors();
    void eightGovernorsEveryLaneNamed();
    void missRatioPlotHasAUsableHeight();
    void logScaleShowsFourMissesBeside197k();
};

namespace {

constexpr int TIMEOUT_MS = test::WINDOW_TIMEOUT_MS;

template <typename T>
T *plotOf(MainWindow &w)
{
    for (PlotBase *p : w.plots())
        if (auto *t = qobject_cast<T *>(p))
            return t;
    return nullptr;
}

void keepShot(MainWindow &w, const char *name)
{
    const QString dir = qEnvironmentVariable("IDLESCOPE_TEST_SHOTS");
    if (!dir.isEmpty())
        w.saveScreenshot(dir + QLatin1Char('/') + QLatin1String(name) + QStringLiteral(".png"));
}

/// Shows the default scenario in a 1600 x 1000 window (the default size).
bool showDefault(MainWindow &w)
{
    w.resize(1600, 1000);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return false;
    if (!QTest::qWaitFor([&] { return w.snapshot() != nullptr && !w.isBusyShown(); }, TIMEOUT_MS))
        return false;
    w.refreshPlotsNow();
    QCoreApplication::processEvents();
    w.refreshPlotsNow();
    return true;
}

} // namespace

void TestPlotReadability::stateLanesNameStatesAndGovernors()
{
    // Audit: the state lanes had no state names on their axis. Default scenario: four lanes
    // on POWER10 (snooze, CEDE), each named on the left and its two states on the right.
    MainWindow w;
    QVERIFY(showDefault(w));
    auto *timeline = plotOf<StateTimelinePlot>(w);
    QVERIFY(timeline);
    QCOMPARE(w.snapshot()->governorCount(), 4);
    QCOMPARE(timeline->stateLabelStride(), 1);
    const QStringList states = timeline->stateLabels();
    QCOMPARE(states.count(QStringLiteral("snooze")), 4);
    QCOMPARE(states.count(QStringLiteral("CEDE")), 4);
    QCOMPARE(timeline->laneLabels(), QStringList({QStringLiteral("oracle"), QStringLiteral("teo-6.14"),
                                                  QStringLiteral("menu-6.19"), QStringLiteral("menu-6.14")}));
    keepShot(w, "default");
}

void TestPlotReadability::eightGovernorsEveryLaneNamed()
{
    // Audit: with 8 governors every other lane was unlabelled.
    MainWindow w;
    QVERIFY(showDefault(w));
    std::vector<GovernorSpec> govs;
    for (const VariantInfo *v : allVariants())
        if (govs.size() < 8)
            govs.push_back(GovernorSpec{v->id, {}, governorColor(static_cast<int>(govs.size()), v->id)});
    ScenarioSpec spec = w.currentSpec();
    spec.governors = govs;
    w.applySpec(spec);
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot()->governorCount() == 8 && !w.isBusyShown(), TIMEOUT_MS);
    w.refreshPlotsNow();
    QCoreApplication::processEvents();
    w.refreshPlotsNow();
    auto *timeline = plotOf<StateTimelinePlot>(w);
    QCOMPARE(timeline->laneLabelStep(), 1);
    QStringList want;
    for (auto it = govs.rbegin(); it != govs.rend(); ++it) // ticks bottom-up: the first governor is on top
        want << QString::fromStdString(it->variant);
    QCOMPARE(timeline->laneLabels(), want);
    // Every label fits its lane.
    const QFontMetricsF fm(timeline->customPlot()->yAxis->tickLabelFont());
    const double lanePx = timeline->customPlot()->yAxis->axisRect()->height() / 8.0;
    QVERIFY2(fm.height() <= lanePx + 0.5,
             qPrintable(QStringLiteral("label %1 px, lane %2 px").arg(fm.height()).arg(lanePx)));
    // Each lane still names a state (its deepest when two do not fit).
    QVERIFY2(timeline->stateLabels().count(QStringLiteral("CEDE")) == 8, qPrintable(timeline->stateLabels().join(',')));
    QCOMPARE(w.width(), 1600);
    keepShot(w, "eight-governors");
}

void TestPlotReadability::missRatioPlotHasAUsableHeight()
{
    // Audit: the miss-ratio plot was ~40 px tall in the default window.
    MainWindow w;
    QVERIFY(showDefault(w));
    auto *ratio = plotOf<MissRatioPlot>(w);
    QVERIFY(ratio);
    const int axisPx = ratio->customPlot()->axisRect()->height();
    QVERIFY2(axisPx >= 60, qPrintable(QString::number(axisPx))); // 0, 50, 100 % two lines apart
}

void TestPlotReadability::logScaleShowsFourMissesBeside197k()
{
    // Audit: bar charts were linear only, so 4 misses next to 197 k were invisible.
    // Default scenario (POWER10, IPI every 100 us, 200000 spans): menu-6.14 has 197419
    // CEDE entries above, menu-6.19 4 (the comparison table's 'aboves' column).
    MainWindow w;
    QVERIFY(showDefault(w));
    auto *misses = plotOf<MissHistogramPlot>(w);
    QVERIFY(misses && misses->logScaleAction());
    const int g614 = w.snapshot()->indexOf("menu-6.14"), g619 = w.snapshot()->indexOf("menu-6.19");
    const int cede = 1;
    QCOMPARE(misses->values(true)[g614][cede], 197419.0);
    QCOMPARE(misses->values(true)[g619][cede], 4.0);
    QCPAxis *counts = misses->customPlot()->axisRects().at(0)->axis(QCPAxis::atLeft);
    const auto barPx = [&](double v) { return counts->coordToPixel(counts->range().lower) - counts->coordToPixel(v); };
    QVERIFY2(barPx(4) < 1.0, qPrintable(QString::number(barPx(4)))); // linear: under a pixel
    QVERIFY(counts->ticker().dynamicCast<CountTicker>());
    misses->logScaleAction()->setChecked(true); // the plot's context menu
    misses->refreshNow();
    QCOMPARE(counts->scaleType(), QCPAxis::stLogarithmic);
    // log10(4 / 0.5) / log10(2 x 197419 / 0.5) = 0.903 / 5.897: 15 % of the axis.
    const double axisPx = counts->axisRect()->height();
    QVERIFY2(barPx(4) >= 0.14 * axisPx, qPrintable(QStringLiteral("%1 of %2 px").arg(barPx(4)).arg(axisPx)));
    QVERIFY(barPx(197419) <= axisPx);
    keepShot(w, "log-counts");
    // Back to linear: whole-number ticks again.
    misses->setLogScale(false);
    misses->refreshNow();
    QCOMPARE(counts->scaleType(), QCPAxis::stLinear);
    QVERIFY(counts->ticker().dynamicCast<CountTicker>());
}

QTEST_MAIN(TestPlotReadability)
#include "tst_plot_readability.moc"
