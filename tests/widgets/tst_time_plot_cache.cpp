// SPDX-License-Identifier: GPL-3.0-or-later
// The time plots keep the decimated points of a run shared with the previous
// snapshot (a slider release re-runs one governor only) and keep their
// graphs when the variants, colours and table are unchanged. What they then
// show must be exactly what a plot that saw only the new snapshot shows:
// pipe-wakeups on POWER10 through menu-6.14 and teo-6.14, then menu-6.14
// again with INTERVALS = 2 (a different run; teo's run shared).
#include "replay_fixture.h"
#include "widgets/plots/miss_ratio_plot.h"
#include "widgets/plots/prediction_plot.h"
#include "widgets/plots/state_timeline_plot.h"
#include "widgets/view_state.h"

#include <QTest>

#include <memory>

using namespace idlescope;

namespace {

std::shared_ptr<SimulationSnapshot> first()
{
    auto snap = test::conformanceSnapshot("pipe-wakeups", "pseries-p10", {"menu-6.14", "teo-6.14"});
    if (snap)
        test::addRunSummaries(*snap);
    return snap;
}

/// @p prev with run 0 replaced by menu-6.14 at INTERVALS = 2 and run 1 shared, as a runner makes it.
std::shared_ptr<SimulationSnapshot> afterSlider(const SimulationSnapshot &prev)
{
    auto snap = std::make_shared<SimulationSnapshot>(prev);
    snap->generation = prev.generation + 1;
    Result<GovernorRun> menu = runGovernor(prev.table, *prev.stream, "menu-6.14", {.settings = {{"INTERVALS", 2}}});
    if (!menu)
        return nullptr;
    snap->governors.resize(2);
    snap->governors[0].run = std::make_shared<const GovernorRun>(std::move(*menu));
    snap->governors[1].run = prev.governors[1].run;
    test::addRunSummaries(*snap);
    return snap;
}

/// Every graph's points, in graph order.
QList<QList<QPointF>> graphData(PlotBase &plot)
{
    QList<QList<QPointF>> out;
    QCustomPlot *qcp = plot.customPlot();
    for (int i = 0; i < qcp->graphCount(); ++i) {
        QList<QPointF> pts;
        const auto data = qcp->graph(i)->data();
        for (auto it = data->constBegin(); it != data->constEnd(); ++it)
            pts.append(QPointF(it->key, it->value));
        out.append(pts);
    }
    return out;
}

/// Plot @p kind of the _data rows (0 prediction, 1 state timeline, 2 miss ratio) on @p view.
std::unique_ptr<PlotBase> makePlot(int kind, ViewState *view)
{
    switch (kind) {
    case 0: return std::make_unique<PredictionPlot>(view);
    case 1: return std::make_unique<StateTimelinePlot>(view);
    default: return std::make_unique<MissRatioPlot>(view);
    }
}

} // namespace

class TestTimePlotCache : public QObject {
    Q_OBJECT
private slots:
    void theSliderChangesMenusRun()
    {
        auto a = first();
        QVERIFY(a && a->errors.isEmpty() && a->governorCount() == 2);
        auto b = afterSlider(*a);
        QVERIFY(b);
        QCOMPARE(b->governors[1].run, a->governors[1].run);
        QVERIFY(b->governors[0].run != a->governors[0].run);
        // The test means something only if menu's points do change.
        QVERIFY(b->governors[0].run->predictedNs != a->governors[0].run->predictedNs);
    }

    void sameAsAFreshPlot_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("prediction") << 0;
        QTest::newRow("state timeline") << 1;
        QTest::newRow("miss ratio") << 2;
    }

    void sameAsAFreshPlot()
    {
        QFETCH(int, kind);
        auto a = first();
        QVERIFY(a);
        auto b = afterSlider(*a);
        QVERIFY(b);
        const auto make = [kind](ViewState *view) { return makePlot(kind, view); };
        ViewState view;
        view.setFullRange(0, a->durationNs());
        auto seen = make(&view);
        seen->resize(700, 260);
        seen->setSnapshot(a);
        seen->refreshNow();
        const QList<QList<QPointF>> before = graphData(*seen);
        QVERIFY(!before.isEmpty());
        QCPGraph *graph0 = seen->customPlot()->graph(0);

        seen->setSnapshot(b);
        seen->refreshNow();
        // Same variants, colours and table: the graphs stay, only their data changes.
        QCOMPARE(seen->customPlot()->graph(0), graph0);
        auto fresh = make(&view);
        fresh->resize(700, 260);
        fresh->setSnapshot(b);
        fresh->refreshNow();
        const QList<QList<QPointF>> after = graphData(*seen);
        QCOMPARE(after, graphData(*fresh));
        QVERIFY(after != before); // menu's run changed

        // Zoomed in, the shared run is decimated again for the new window.
        view.setRange(a->durationNs() / 4, a->durationNs() / 2);
        seen->refreshNow();
        fresh->refreshNow();
        QCOMPARE(graphData(*seen), graphData(*fresh));

        // New colours: the graphs are made again, with the same points.
        auto c = std::make_shared<SimulationSnapshot>(*b);
        c->generation = b->generation + 1;
        std::swap(c->governors[0].color, c->governors[1].color);
        seen->setSnapshot(c);
        seen->refreshNow();
        fresh->setSnapshot(c);
        fresh->refreshNow();
        QCOMPARE(graphData(*seen), graphData(*fresh));
    }

    // Audit: after a resize the state timeline kept the old width's column layout
    // (nothing marked the plot dirty). A resized plot decimates again for its new
    // width: its points equal those of a plot that was that wide from the start.
    void resizeDecimatesForTheNewWidth_data() { sameAsAFreshPlot_data(); }

    void resizeDecimatesForTheNewWidth()
    {
        QFETCH(int, kind);
        auto a = first();
        QVERIFY(a);
        const auto make = [kind](ViewState *view) { return makePlot(kind, view); };
        ViewState view;
        view.setFullRange(0, a->durationNs());
        view.setRange(a->durationNs() / 4, a->durationNs() / 2); // zoomed
        // Shown, so that resizes reach the plots (offscreen) and lay them out.
        auto resized = make(&view);
        resized->resize(900, 260);
        resized->show();
        resized->setSnapshot(a);
        resized->refreshNow();
        const int wideColumns = resized->customPlot()->axisRect()->width();
        const QList<QList<QPointF>> wide = graphData(*resized);

        resized->resize(450, 260);
        const int narrowColumns = resized->customPlot()->axisRect()->width();
        QCOMPARE(narrowColumns, wideColumns - 450); // the plot area lost the 450 px
        resized->refreshNow();                      // what the refresh timer does next

        auto fresh = make(&view);
        fresh->resize(450, 260);
        fresh->show();
        fresh->setSnapshot(a);
        fresh->refreshNow();
        QCOMPARE(fresh->customPlot()->axisRect()->width(), narrowColumns);
        const QList<QList<QPointF>> narrow = graphData(*fresh);
        QVERIFY(narrow != wide); // the test means something: the width changes the points
        QCOMPARE(graphData(*resized), narrow);
    }
};

QTEST_MAIN(TestTimePlotCache)
#include "tst_time_plot_cache.moc"
