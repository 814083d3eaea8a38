// SPDX-License-Identifier: GPL-3.0-or-later
// The inspector's chart read at the inspector's width: nothing but its title
// when no entry is selected, level labels that never overlap when two lines
// are close (skx: residency threshold 15 us and C1E's 20 us; Juno: 2 ms and
// 2.5 ms target residencies), and the KTIME_MAX / 1000 artefact (2783 s)
// noted where it appears.
#include "core/governors/explain.h"
#include "widgets/inspector/inspector_html.h"
#include "widgets/inspector/reasoning_chart.h"
#include "widgets/plots/qcp.h"

#include <QFontMetricsF>
#include <QSignalSpy>
#include <QTest>

using namespace idlescope;

class TestInspectorReadability : public QObject {
    Q_OBJECT
private slots:
    void emptyChartDrawsOnlyItsTitle();
    void closeLevelsDoNotOverlap_data();
    void closeLevelsDoNotOverlap();
    void ktimeMaxIntervalIsNoted();
    void entryWithinASpanIsNoIteration();
};

namespace {

IdleState state(const char *name, Ns exitUs, Ns targetUs, bool polling = false)
{
    IdleState s;
    s.name = name;
    s.exitLatencyNs = exitUs * 1000;
    s.targetResidencyNs = targetUs * 1000;
    s.polling = polling;
    return s;
}

/// intel_idle's skx_cstates (tests/data/state-tables.json, intel-skx): exit / target us.
IdleStateTable skx()
{
    IdleStateTable t;
    t.id = "intel-skx";
    t.states = {state("POLL", 0, 0, true), state("C1", 2, 2), state("C1E", 10, 20), state("C6", 133, 600)};
    return t;
}

/// juno.dts (tests/data/state-tables.json, arm-juno-r0): exit = entry + exit latency, target = min-residency.
IdleStateTable juno()
{
    IdleStateTable t;
    t.id = "arm-juno-r0";
    t.states = {state("WFI", 1, 1), state("cpu-sleep-0", 1500, 2000), state("cluster-sleep-0", 1600, 2500)};
    return t;
}

/// A menu record with eight samples of @p sampleUs, no typical interval, and
/// RESIDENCY_THRESHOLD_NS @p thresholdNs drawn (the timer was not queried).
EntryDetail menuDetail(std::uint32_t sampleUs, Ns thresholdNs)
{
    MenuReasoning r;
    r.intervalCount = 8;
    for (int k = 0; k < 8; ++k)
        r.intervalsUs[static_cast<std::size_t>(k)] = sampleUs;
    r.typicalUs = UINT_MAX_U32;
    r.residencyThresholdNs = thresholdNs;
    r.timerQueried = false;
    EntryDetail d;
    d.reasoning = r;
    return d;
}

} // namespace

void TestInspectorReadability::emptyChartDrawsOnlyItsTitle()
{
    // Audit: the empty chart drew a stub (0..5 axes, an empty legend) with overlapping labels.
    ReasoningChart chart;
    chart.resize(400, 300);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QCOMPARE(chart.kind(), ReasoningChart::Kind::None);
    QCustomPlot *plot = chart.customPlot();
    QVERIFY(!plot->xAxis->visible());
    QVERIFY(!plot->yAxis->visible());
    QVERIFY(!plot->legend->visible());
    QCOMPARE(static_cast<QCPTextElement *>(plot->plotLayout()->element(0, 0))->text(),
             QStringLiteral("Select an entry"));
    // A detail brings the axes back, clear() takes them away again.
    chart.showDetail(menuDetail(18, 15000), skx(), Qt::blue);
    QVERIFY(plot->xAxis->visible() && plot->yAxis->visible());
    chart.clear();
    QVERIFY(!plot->yAxis->visible());
    // Each new snapshot clears the inspector when no entry is selected: the empty chart is
    // replotted once, not again at every snapshot (2-3 ms of every re-simulation's hand-over).
    QSignalSpy replots(plot, &QCustomPlot::afterReplot);
    chart.clear();
    chart.clear();
    QCOMPARE(replots.count(), 0);
    chart.showDetail(menuDetail(18, 15000), skx(), Qt::blue);
    chart.clear();
    QCOMPARE(replots.count(), 2);
    QVERIFY(!plot->yAxis->visible());
}

void TestInspectorReadability::closeLevelsDoNotOverlap_data()
{
    QTest::addColumn<QString>("table");
    QTest::addColumn<uint>("sampleUs");
    QTest::addColumn<qint64>("thresholdNs");
    QTest::addColumn<double>("closeA"); // two levels (us) whose labels collided
    QTest::addColumn<double>("closeB");
    QTest::addColumn<int>("labels");
    // C1 2, C1E 20, C6 600 us target residencies and the 15 us threshold: four labels.
    QTest::newRow("skx threshold 15 us, C1E 20 us")
        << QStringLiteral("skx") << 18u << qint64(15000) << 15.0 << 20.0 << 4;
    // cpu-sleep-0 2 ms and cluster-sleep-0 2.5 ms (state 0 gets no line): two labels.
    QTest::newRow("juno 2 ms, 2.5 ms") << QStringLiteral("juno") << 2200u << qint64(0) << 2000.0 << 2500.0 << 2;
}

void TestInspectorReadability::closeLevelsDoNotOverlap()
{
    QFETCH(QString, table);
    QFETCH(uint, sampleUs);
    QFETCH(qint64, thresholdNs);
    QFETCH(double, closeA);
    QFETCH(double, closeB);
    QFETCH(int, labels);
    ReasoningChart chart;
    chart.resize(400, 300); // the inspector dock's width
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.showDetail(menuDetail(sampleUs, thresholdNs), table == QLatin1String("skx") ? skx() : juno(), Qt::blue);
    chart.customPlot()->replot();
    const QList<QRectF> rects = chart.levelLabelRects();
    QCOMPARE(rects.size(), labels);
    // The premise: the two lines are closer than a label is tall (each label sat on its line).
    QCPAxis *y = chart.customPlot()->yAxis;
    const double gap = std::abs(y->coordToPixel(closeA) - y->coordToPixel(closeB));
    const double labelPx = QFontMetricsF(QFont(chart.font().family(), 8)).height();
    QVERIFY2(gap < labelPx, qPrintable(QStringLiteral("lines %1 px apart, label %2 px").arg(gap).arg(labelPx)));
    for (int i = 0; i < rects.size(); ++i)
        for (int j = i + 1; j < rects.size(); ++j)
            QVERIFY2(!rects[i].intersects(rects[j]),
                     qPrintable(QStringLiteral("label %1 (%2,%3 %4x%5) overlaps label %6 (%7,%8)")
                                    .arg(i)
                                    .arg(rects[i].x())
                                    .arg(rects[i].y())
                                    .arg(rects[i].width())
                                    .arg(rects[i].height())
                                    .arg(j)
                                    .arg(rects[j].x())
                                    .arg(rects[j].y())));
    // Inside the axis rect still.
    const QRect area = chart.customPlot()->axisRect()->rect();
    for (const QRectF &r : rects)
        QVERIFY(r.top() >= area.top() - 1 && r.bottom() <= area.bottom() + 1);
}

void TestInspectorReadability::ktimeMaxIntervalIsNoted()
{
    // Audit: the inspector showed a 2783 s interval with no note. KTIME_MAX / 1000 =
    // 9223372036854775 us; mod 2^32 that is 2783138807 us (python: (2**63-1)//1000 % 2**32).
    QCOMPARE(KTIME_MAX_US_U32, std::uint32_t(2783138807u));
    EntryDetail d = menuDetail(100, 0);
    auto &r = std::get<MenuReasoning>(d.reasoning);
    r.intervalsUs[7] = KTIME_MAX_US_U32;
    const std::vector<std::string> sentences = explainReasoning(d.reasoning, skx());
    int noted = 0;
    for (const std::string &s : sentences)
        if (s.find("KTIME_MAX / 1000 cut to 32 bits") != std::string::npos)
            ++noted;
    QCOMPARE(noted, 1); // once, after the list of intervals
    QCOMPARE(formatMicros(KTIME_MAX_US_U32).find("KTIME_MAX / 1000 cut to 32 bits") != std::string::npos, true);
    ReasoningChart chart;
    chart.showDetail(d, skx(), Qt::blue);
    QVERIFY2(chart.customPlot()->xAxis->label().contains(QStringLiteral("KTIME_MAX / 1000 cut to 32 bits")),
             qPrintable(chart.customPlot()->xAxis->label()));
}

void TestInspectorReadability::entryWithinASpanIsNoIteration()
{
    // Audit: "iteration" named two things: the inspector's n-th entry within a span and the
    // CLI's seeded repetition (compare --iterations). The inspector now says "entry k within the span".
    EntryDetail d = menuDetail(100, 0);
    d.variant = "menu-6.14";
    d.entryIndex = 1002;
    d.entry.span = 1000;
    d.entry.entry = 2;    // the span's third entry (the tick woke the CPU twice before)
    d.axisNs = 116800000; // where the plots draw it
    const QString title = entryTitle(d);
    QCOMPARE(title, QStringLiteral(
                        "menu-6.14 \u00b7 entry 1002 \u00b7 span 1000 (entry 2 within the span) \u00b7 at 116.8 ms"));
    QVERIFY(!title.contains(QStringLiteral("iteration")));
}

QTEST_MAIN(TestInspectorReadability)
#include "tst_inspector_readability.moc"
