// SPDX-License-Identifier: GPL-3.0-or-later
// RunRecycler (widgets/runner/run_recycler.h): the largest spare run is
// taken first; a full recycler keeps the larger columns; prefill() makes
// spares with room for a longer stream and lets smaller ones go, also those
// given back while it works (seen in a user trial: after the workload grew from 200,000 to
// 2,000,000 spans the old snapshot's four small runs filled the recycler and
// only one large spare was made, so the first re-simulation faulted in fresh
// memory for three runs of four).
#include "widgets/runner/run_recycler.h"

#include <QTest>

#include <thread>

using namespace idlescope;

namespace {

GovernorRun runWithRoom(std::size_t entries)
{
    GovernorRun r;
    r.startNs.reserve(entries);
    r.flags.reserve(entries);
    return r;
}

} // namespace

class TestRunRecycler : public QObject {
    Q_OBJECT
private slots:
    void largestFirstAndKeepsTheLarger()
    {
        RunRecycler bin;
        QCOMPARE(bin.take().startNs.capacity(), std::size_t(0)); // empty: a fresh run
        for (std::size_t n : {100, 400, 200, 300})
            bin.give(runWithRoom(n));
        QCOMPARE(bin.capacities(), (std::vector<std::size_t>{400, 300, 200, 100}));
        bin.give(runWithRoom(50)); // full, smaller than all: not kept
        QCOMPARE(bin.capacities(), (std::vector<std::size_t>{400, 300, 200, 100}));
        bin.give(runWithRoom(1000)); // full, larger: replaces the smallest
        QCOMPARE(bin.capacities(), (std::vector<std::size_t>{1000, 400, 300, 200}));
        QCOMPARE(bin.take().startNs.capacity(), std::size_t(1000));
        QCOMPARE(bin.capacities(), (std::vector<std::size_t>{400, 300, 200}));
    }

    void prefillLetsSmallRunsGo()
    {
        RunRecycler bin;
        for (int i = 0; i < 4; ++i)
            bin.give(runWithRoom(2000));
        bin.prefill(3, 20000);
        QCOMPARE(bin.capacities(), (std::vector<std::size_t>{20000, 20000, 20000}));
        // Every column has the room, not only the first.
        const GovernorRun spare = bin.take();
        QVERIFY(spare.residencyNs.capacity() >= 20000 && spare.predictedNs.capacity() >= 20000
                && spare.sleepLengthNs.capacity() >= 20000 && spare.span.capacity() >= 20000
                && spare.state.capacity() >= 20000 && spare.flags.capacity() >= 20000);
        QVERIFY(spare.startNs.empty() && spare.state.empty()); // no stale entries
        // Room enough already: nothing made, nothing let go.
        bin.give(runWithRoom(50000));
        bin.prefill(2, 20000);
        QCOMPARE(bin.capacities(), (std::vector<std::size_t>{50000, 20000, 20000}));
        bin.prefill(10, 20000); // never more than KEEP
        QCOMPARE(bin.capacities().size(), RunRecycler::KEEP);
    }

    void smallRunsGivenBackDuringPrefill()
    {
        // The old snapshot lets go of its four small runs while prefill() makes
        // large spares (the order a user trial found): three large spares result.
        RunRecycler bin;
        std::thread old([&] {
            for (int i = 0; i < 4; ++i) {
                bin.give(runWithRoom(1000));
                std::this_thread::yield();
            }
        });
        bin.prefill(3, 2000000);
        old.join();
        // Small runs given after prefill() returned may sit beside the spares
        // (KEEP = 4), but the three largest are the spares.
        const std::vector<std::size_t> caps = bin.capacities();
        QVERIFY(caps.size() >= 3);
        QCOMPARE(caps[0], std::size_t(2000000));
        QCOMPARE(caps[1], std::size_t(2000000));
        QCOMPARE(caps[2], std::size_t(2000000));
    }
};

QTEST_GUILESS_MAIN(TestRunRecycler)
#include "tst_run_recycler.moc"
