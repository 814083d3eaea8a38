// SPDX-License-Identifier: GPL-3.0-or-later
// ViewState::updateFullRange(): a re-simulation of the same run moves its end
// (exit latencies are part of the timeline); the user's window and zoom stack
// stay, clamped into the new range, and "everything" stays everything.
#include "widgets/view_state.h"

#include <QSignalSpy>
#include <QTest>

using namespace idlescope;

class TestViewState : public QObject {
    Q_OBJECT
private slots:
    void longerRunKeepsTheWindowAndStack()
    {
        ViewState v;
        v.setFullRange(0, 20000000000);
        v.zoomTo(10000000000, 10002000000);
        QSignalSpy spy(&v, &ViewState::rangeChanged);
        v.updateFullRange(0, 21000000000);
        QCOMPARE(v.fullEndNs(), qint64(21000000000));
        QCOMPARE(v.rangeStartNs(), qint64(10000000000));
        QCOMPARE(v.rangeEndNs(), qint64(10002000000));
        QCOMPARE(v.zoomDepth(), 1);
        QCOMPARE(spy.count(), 1); // the full range changed: scroll bars follow
        // The stacked "whole run" is the new whole run.
        QVERIFY(v.zoomOut());
        QCOMPARE(v.rangeStartNs(), qint64(0));
        QCOMPARE(v.rangeEndNs(), qint64(21000000000));
    }

    void shorterRunClampsTheWindowKeepingItsWidth()
    {
        ViewState v;
        v.setFullRange(0, 20000000000);
        v.zoomTo(19000000000, 19500000000);
        v.updateFullRange(0, 19200000000);
        QCOMPARE(v.rangeStartNs(), qint64(18700000000));
        QCOMPARE(v.rangeEndNs(), qint64(19200000000));
        QCOMPARE(v.zoomDepth(), 1);
        // Wider than the new run: all of it.
        v.setRange(1000000000, 19000000000);
        v.updateFullRange(0, 5000000000);
        QCOMPARE(v.rangeStartNs(), qint64(0));
        QCOMPARE(v.rangeEndNs(), qint64(5000000000));
    }

    void wholeRunShownShowsTheWholeNewRun()
    {
        ViewState v;
        v.setFullRange(0, 20000000000);
        v.updateFullRange(0, 23000000000);
        QCOMPARE(v.rangeStartNs(), qint64(0));
        QCOMPARE(v.rangeEndNs(), qint64(23000000000));
        QCOMPARE(v.zoomDepth(), 0);
        // Unchanged: nothing emitted.
        QSignalSpy spy(&v, &ViewState::rangeChanged);
        v.updateFullRange(0, 23000000000);
        QCOMPARE(spy.count(), 0);
    }
};

QTEST_GUILESS_MAIN(TestViewState)
#include "tst_view_state.moc"
