// SPDX-License-Identifier: GPL-3.0-or-later
// The "Predicted idle duration vs measured residency" plot on the default
// scenario's shape (POWER10: snooze 0/0, CEDE 12/120 us; an IPI 100 us after
// every span start): menu's dots are its own prediction (100 us), not the
// 120 us the polling override writes into predicted_ns; teo, which predicts
// no idle duration (its duration_ns is the 5 ms sleep length), gets rings
// only and the title says so; the oracle's "prediction" is not drawn.
#include "core/stats/run_counts.h"
#include "core/stats/run_lod.h"
#include "replay_fixture.h"
#include "widgets/plots/prediction_plot.h"
#include "widgets/plots/state_timeline_plot.h"
#include "widgets/view_state.h"

#include <QTest>

using namespace idlescope;

namespace {

std::shared_ptr<SimulationSnapshot> ipiSnapshot(std::initializer_list<const char *> variants)
{
    auto t = readTableJson(test::conformancePath(QStringLiteral("tables/pseries-p10.json")).toStdString());
    if (!t)
        return nullptr;
    auto snap = test::makeSnapshot(*t, IdleStream(300, IdleSpan{5000, 5000000, 100000, -1, 0}), variants);
    // What a runner adds to every snapshot (the plots refuse one without).
    for (GovernorResult &g : snap->governors) {
        g.counts = RunCounts(*g.run);
        g.lod = RunLod::fromRun(*g.run);
    }
    return snap;
}

/// A @p Plot over the whole of a snapshot, 900 x 300 px, drawn once.
template <typename Plot>
struct DrawnPlot {
    explicit DrawnPlot(std::shared_ptr<SimulationSnapshot> snap)
    {
        view.setFullRange(0, snap->durationNs());
        plot.resize(900, 300);
        plot.setSnapshot(std::move(snap));
        plot.refreshNow();
    }
    ViewState view;
    Plot plot{&view};
};

} // namespace

class TestPredictionPlot : public QObject {
    Q_OBJECT
private slots:
    void whatEachFamilyDraws()
    {
        QCOMPARE(predictionDrawFor("menu-6.14"), PredictionDraw::Dots);
        QCOMPARE(predictionDrawFor("menu-resthresh"), PredictionDraw::Dots);
        QCOMPARE(predictionDrawFor("teo-6.14"), PredictionDraw::NoPrediction);
        QCOMPARE(predictionDrawFor("teo-latest"), PredictionDraw::NoPrediction);
        QCOMPARE(predictionDrawFor("teo-5.13"), PredictionDraw::Dots); // it does estimate the idle time
        QCOMPARE(predictionDrawFor("oracle"), PredictionDraw::Known);
    }

    void menuDotsAreItsOwnPredictionTeoHasRingsOnly()
    {
        auto snap = ipiSnapshot({"menu-6.14", "teo-6.14", "oracle"});
        QVERIFY(snap && snap->errors.isEmpty());
        DrawnPlot<PredictionPlot> drawn(snap);
        PredictionPlot &plot = drawn.plot;
        // Rings for all three runs, dots for menu only.
        QCustomPlot *qcp = plot.customPlot();
        QCOMPARE(qcp->graphCount(), 4);
        QVERIFY2(plot.title().contains(QStringLiteral("teo: \u25cb only (teo predicts no duration)")),
                 qPrintable(plot.title()));
        // menu's dots: 100 us once warmed up (the typical interval), never the
        // 120 us that predicted_ns holds after the polling override.
        const auto dots = qcp->graph(3)->data();
        QVERIFY(dots->size() > 10);
        int at100 = 0;
        for (auto it = dots->constBegin(); it != dots->constEnd(); ++it) {
            QVERIFY2(it->value != 120000.0, "a dot at CEDE's target residency");
            at100 += it->value == 100000.0;
        }
        QVERIFY(at100 > dots->size() / 2);
        // The run's column agrees: menu-6.14 chose CEDE at a 100 us prediction.
        const GovernorRun &menu = *snap->governors[0].run;
        QCOMPARE(menu.state[200], std::int8_t(1));
        QCOMPARE(menu.predictedNs[200], Ns(100000));
        // Without teo the title is the plain one.
        auto menuOnly = ipiSnapshot({"menu-6.14", "oracle"});
        menuOnly->generation = 2; // a runner numbers its snapshots
        plot.setSnapshot(menuOnly);
        plot.refreshNow();
        QCOMPARE(plot.title(), predictionPlotTitle(false));
        QCOMPARE(qcp->graphCount(), 3);
    }

    /// The state lanes mark the entries an in-idle interrupt ended, one mark per pixel column,
    /// each at such an entry's start; a stream without in-idle wakeups has no marks.
    void stateLanesMarkInIdleWakeups()
    {
        for (const char *stream : {"irq-in-idle", "pipe-wakeups"}) {
            auto snap = test::conformanceSnapshot(stream, "intel-skx", {"menu-7.1"});
            QVERIFY(snap && snap->errors.isEmpty());
            test::addRunSummaries(*snap);
            DrawnPlot<StateTimelinePlot> drawn(snap);
            StateTimelinePlot &plot = drawn.plot;
            QCPGraph *marks = nullptr;
            for (int g = 0; g < plot.customPlot()->graphCount(); ++g)
                if (plot.customPlot()->graph(g)->name().endsWith(QStringLiteral("ended by an in-idle interrupt")))
                    marks = plot.customPlot()->graph(g);
            QVERIFY(marks);
            const GovernorRun &run = *snap->governors[0].run;
            std::size_t flagged = 0;
            for (std::size_t i = 0; i < run.size(); ++i)
                flagged += run.has(i, ENTRY_IN_IDLE_WAKE);
            const int points = marks->data()->size();
            if (QByteArray(stream) == "pipe-wakeups") {
                QCOMPARE(flagged, std::size_t(0));
                QCOMPARE(points, 0);
                continue;
            }
            // irq-in-idle: hundreds of such entries, fewer marks (one per pixel column at most).
            QVERIFY2(flagged > 500, qPrintable(QString::number(flagged)));
            QVERIFY2(points > 0 && std::size_t(points) < flagged, qPrintable(QString::number(points)));
            for (auto it = marks->data()->constBegin(); it != marks->data()->constEnd(); ++it) {
                const auto k =
                    std::lower_bound(run.startNs.begin(), run.startNs.end(), Ns(it->key)) - run.startNs.begin();
                QVERIFY(std::size_t(k) < run.size() && run.startNs[size_t(k)] == Ns(it->key));
                QVERIFY(run.has(size_t(k), ENTRY_IN_IDLE_WAKE));
            }
        }
    }
};

QTEST_MAIN(TestPredictionPlot)
#include "tst_prediction_plot.moc"
