// SPDX-License-Identifier: GPL-3.0-or-later
// The state-indexed bar plots (above/below histograms, time share) on a
// nine-state Intel table: in a narrow dock the state names did not fit side
// by side and were drawn over each other (audit); they are turned by 45
// degrees then (90 when narrower still), and level again when the plot is wide
// enough.
#include "core/stats/run_counts.h"
#include "core/stats/run_lod.h"
#include "replay_fixture.h"
#include "widgets/plots/miss_histogram_plot.h"
#include "widgets/plots/time_share_plot.h"
#include "widgets/view_state.h"

#include <QTest>

using namespace idlescope;

class TestCountsPlots : public QObject {
    Q_OBJECT
private slots:
    void stateNamesTurnWhenNarrow()
    {
        auto snap = test::conformanceSnapshot("pipe-wakeups", "intel-skl", {"menu-6.14", "teo-6.14"});
        QVERIFY(snap && snap->errors.isEmpty());
        QCOMPARE(snap->table.count(), 9); // POLL to C10
        for (const GovernorRun &run : snap->runs) {
            snap->counts.emplace_back(run);
            snap->lods.emplace_back(run, snap->counts.back());
        }
        snap->durations = DurationHistogram(*snap->stream);
        QVERIFY(snap->isComplete());
        ViewState view;
        view.setFullRange(0, snap->durationNs());
        MissHistogramPlot misses(&view);
        TimeSharePlot share(&view);
        const auto bottom = [](QCustomPlot *p, int rect) {
            return p->axisRects().at(rect)->axis(QCPAxis::atBottom);
        };
        // Shown, so that a resize reaches the QCustomPlot inside (as in the window).
        const auto resize = [](PlotBase &p, int width) {
            p.resize(width, 240);
            QCoreApplication::processEvents();
            p.refreshNow();
        };
        for (PlotBase *p : {static_cast<PlotBase *>(&misses), static_cast<PlotBase *>(&share)}) {
            p->setSnapshot(snap);
            p->show();
            resize(*p, 360); // a narrow dock
        }
        // 360 px: ~13 px per state under each histogram (upright names), ~33 under
        // the time share (turned by 45 degrees).
        QCOMPARE(bottom(misses.customPlot(), 0)->tickLabelRotation(), -90.0);
        QCOMPARE(bottom(misses.customPlot(), 1)->tickLabelRotation(), -90.0);
        QCOMPARE(bottom(share.customPlot(), 0)->tickLabelRotation(), -45.0);
        resize(misses, 1400);
        resize(share, 1400);
        QCOMPARE(bottom(misses.customPlot(), 0)->tickLabelRotation(), 0.0);
        QCOMPARE(bottom(misses.customPlot(), 1)->tickLabelRotation(), 0.0);
        QCOMPARE(bottom(share.customPlot(), 0)->tickLabelRotation(), 0.0);
        // 700 px: the histograms' two axes share it ("C10" and "POLL" need
        // ~34 px each, ~31 px are left), the time share has it all.
        resize(misses, 700);
        resize(share, 700);
        QCOMPARE(bottom(misses.customPlot(), 0)->tickLabelRotation(), -45.0);
        QCOMPARE(bottom(share.customPlot(), 0)->tickLabelRotation(), 0.0);

        const QByteArray shots = qgetenv("IDLESCOPE_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            resize(misses, 360);
            misses.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/misses-narrow.png"));
            resize(share, 360);
            share.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/time-share-narrow.png"));
        }
    }
};

QTEST_MAIN(TestCountsPlots)
#include "tst_counts_plots.moc"
