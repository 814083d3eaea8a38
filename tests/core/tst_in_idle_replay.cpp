// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The reference replay across in-idle wakeups (need_resched = 0 rows,
 * shared/conformance/README.md "In-idle interrupts"), worked by hand on a
 * four-row stream: a tick that fires inside an interrupt handler, a polling
 * entry that runs on through two interrupts that wake no task, and a stopped
 * tick that stays stopped across them. A scripted governor makes the
 * decisions, so that every number below follows from the replay loop alone.
 */
#include "core/formats/stream_csv.h"
#include "core/governors/registry.h"
#include "core/io/table_json.h"
#include "core/machine/machine_replay.h"
#include "core/replay/entry_end.h"
#include "core/replay/governor_factory.h"
#include "core/replay/governor_run.h"
#include "core/replay/reference_replay.h"
#include "core/replay/tick_running_what_if.h"
#include "core/stats/governor_totals.h"

#include "tests/governor_rig.h"
#include "tests/scripted_governor.h"
#include "tests/test_paths.h"

#include <QTest>

#include <vector>

using namespace idlescope;

namespace {

// skx-like: POLL 0/0, C1 2/2, C1E 10/20, C6 133/600 us; 250 Hz, TICK_NSEC 4 ms;
// the v5.11 poll limit is C1E's 20 us. now starts at 1 s, a tick boundary.
//
// Row 0 (need_resched 0): gap 0, wake 3.985 ms, timer 10 ms.
// Row 1 (need_resched 0): handler 8 us, wake 6 us, timer 1 ms.
// Row 2 (need_resched 0): handler 2 us, wake 4 us, timer 1 ms.
// Row 3 (need_resched 1): handler 3 us, wake = timer = 50 us.
constexpr const char *kStream = "gap_ns,timer_ns,wake_ns,latency_req_ns,util,need_resched\n"
                                "0,10000000,3985000,-1,0,0\n"
                                "8000,1000000,6000,-1,0,0\n"
                                "2000,1000000,4000,-1,0,0\n"
                                "3000,50000,50000,-1,0,1\n";

} // namespace

class TestInIdleReplay : public QObject {
    Q_OBJECT

private slots:
    void fourRowsByHand()
    {
        Result<IdleStream> stream = parseStreamCsv(kStream, "hand.csv");
        QVERIFY2(stream.ok(), stream ? "" : stream.error().toString().c_str());
        QCOMPARE(stream->size(), std::size_t(4));
        QVERIFY(!(*stream)[0].needResched && !(*stream)[2].needResched && (*stream)[3].needResched);

        const IdleStateTable table = test::skxLike();
        // C1E with the tick running; POLL asking to stop the tick; C1.
        ScriptedGovernor gov({{2, false, -1}, {0, true, -1}, {1, false, -1}});
        std::vector<EntryRecord> entries;
        const ReplaySummary sum =
            replayStream(table, *stream, gov, [&](const EntryRecord &e, const Governor &) { entries.push_back(e); });

        // Row 0, select at 1.000000000 s: the tick is a full period away
        // (now is on a boundary), delta_next = min(4 ms, 10 ms).
        QCOMPARE(gov.contexts.size(), std::size_t(3));
        QCOMPARE(gov.contexts[0].nowNs, Ns(1000000000));
        QCOMPARE(gov.contexts[0].deltaNextNs, Ns(4000000));
        QVERIFY(!gov.contexts[0].tickStopped);
        // C1E stays 3.985 ms, before the tick at 4 ms: got_tick 0; residency
        // 3.985 + 0.010 = 3.995 ms; below: 3.995 - 0.010 >= C6's 600 us.
        QCOMPARE(entries.size(), std::size_t(3));
        const EntryRecord &c1e = entries[0];
        QCOMPARE(c1e.span, 0);
        QCOMPARE(c1e.state, 2);
        QCOMPARE(c1e.residencyNs, Ns(3995000));
        QVERIFY(!c1e.gotTick && c1e.below && !c1e.above);
        QVERIFY(c1e.inIdleWake && !c1e.endsAtWakeup);
        // The handler runs from 1.003995 s for 8 us: the tick at 1.004 s
        // (5 us later) fires inside it and sets the sticky flag before the
        // reflect, so the governor hears of a tick its entry never saw.
        QCOMPARE(gov.gotTicks[0], true);

        // Row 1 starts at 1.004003 s, with the tick still running: next tick
        // at 1.008 s, 3.997 ms away; delta_next = min(3.997 ms, 1 ms timer).
        QCOMPARE(gov.contexts[1].nowNs, Ns(1004003000));
        QVERIFY(!gov.contexts[1].tickStopped);
        QCOMPARE(gov.contexts[1].sleepLengthNs, Ns(1000000));
        QCOMPARE(gov.contexts[1].deltaNextNs, Ns(1000000));
        // POLL from t0 = 1.004003 s, limit 20 us (to 1.004023 s). Row 1's
        // interrupt at +6 us (1.004009) wakes no task: polling goes on; row 2
        // starts after its 2 us handler (1.004011), its interrupt at +4 us
        // (1.004015) too; row 3 starts at 1.004018, its wakeup at +50 us is
        // past the limit, so the limit ends the poll at 1.004023 s:
        // residency 20 us, poll_time_limit 1, below (20 us >= C1's 2 us).
        const EntryRecord &poll = entries[1];
        QCOMPARE(poll.span, 1); // the row where it was selected
        QCOMPARE(poll.entry, 0);
        QCOMPARE(poll.state, 0);
        QVERIFY(poll.stopTick && poll.tickStopped);
        QCOMPARE(poll.residencyNs, Ns(20000));
        QVERIFY(poll.pollTimeLimit && poll.below && !poll.gotTick);
        QVERIFY(!poll.endsAtWakeup && !poll.inIdleWake);
        QCOMPARE(gov.pollTimeLimits[1], true);
        QCOMPARE(gov.gotTicks[1], false);

        // Row 2 lies wholly inside the poll: no entry names it. Row 3's
        // select at 1.004023 s, 5 us into the row: the tick stopped by the
        // poll's select is still stopped across both interrupts, so
        // delta_next is the sleep length, 50 - 5 = 45 us.
        QCOMPARE(gov.contexts[2].nowNs, Ns(1004023000));
        QVERIFY(gov.contexts[2].tickStopped);
        QCOMPARE(gov.contexts[2].sleepLengthNs, Ns(45000));
        QCOMPARE(gov.contexts[2].deltaNextNs, Ns(45000));
        // C1 until the timer: 45 us + 2 us exit latency = 47 us; below
        // (45 us >= C1E's 20 us); it ends at the row's own timer.
        const EntryRecord &c1 = entries[2];
        QCOMPARE(c1.span, 3);
        QCOMPARE(c1.state, 1);
        QCOMPARE(c1.residencyNs, Ns(47000));
        QVERIFY(c1.below && c1.endsAtWakeup && c1.timerWake && !c1.inIdleWake);
        QVERIFY(c1.tickStopped && !c1.stopTick);

        QCOMPARE(sum.spans, std::int64_t(4));
        QCOMPARE(sum.entries, std::int64_t(3));
        QCOMPARE(sum.endNowNs, Ns(1004070000)); // 1.004023 + 0.000047
        QCOMPARE(sum.states[0].timeNs, Ns(20000));
        QCOMPARE(sum.states[1].timeNs, Ns(47000));
        QCOMPARE(sum.states[2].timeNs, Ns(3995000));
        QCOMPARE(sum.totalBelow(), std::int64_t(3));
        QCOMPARE(sum.totalAbove(), std::int64_t(0));
    }

    /// The same rows without the column are four separate idle periods: the
    /// tick restarts at each, and the poll ends at row 1's own wakeup.
    void aWakeupDuringATickEndedExitIsCountedOnce()
    {
        // A tick-ended entry whose exit runs past the row's wakeup (sqlite's WAL loop on
        // intel-skl: menu-6.14 counted 19,813 wakeups of 20,000 spans, teo-6.14 20,000).
        // The wakeup was neither counted nor charged. skx-like, with C6's wake delay 100 us
        // (its exit latency, which the governors and the replay's clock read, stays 133 us).
        //
        // Row 0: C6 with the tick running, selected at 1.000000 s (a tick boundary): the tick
        //   at 1.004000 ends it, the exit runs to 1.004133 (residency 4.133 ms), and the
        //   row's wakeup at 4.050 ms (1.004050) comes 50 us into it. The task waits the
        //   rest of the real wake delay: 100 - 50 = 50 us.
        // Row 1: 10 us gap (1.004143), C1E, its wakeup at +100 us before the tick: an
        //   ordinary wakeup, 10 us (C1E's exit latency, no wake delay of its own).
        // Row 2: 10 us gap, C1, woken by its own timer: not counted.
        // So 2 wakeups and 60 us; before the fix 1 wakeup and 10 us.
        Result<IdleStream> stream = parseStreamCsv("gap_ns,timer_ns,wake_ns,latency_req_ns\n"
                                                   "0,10000000,4050000,-1\n"
                                                   "10000,10000000,100000,-1\n"
                                                   "10000,50000,50000,-1\n",
                                                   "hand.csv");
        QVERIFY2(stream.ok(), stream ? "" : stream.error().toString().c_str());
        IdleStateTable table = test::skxLike();
        table.states[3].wakeDelayNs = 100000;
        const std::vector<Selection> script = {{3, false, -1}, {2, false, -1}, {1, false, -1}};

        ScriptedGovernor gov(script);
        std::vector<EntryRecord> entries;
        replayStream(table, *stream, gov, [&](const EntryRecord &e, const Governor &) { entries.push_back(e); });
        QCOMPARE(entries.size(), std::size_t(3));
        QVERIFY(entries[0].gotTick && !entries[0].endsAtWakeup);
        QCOMPARE(entries[0].residencyNs, Ns(4133000));
        QCOMPARE(entries[0].wakeInExitNs, Ns(50000));
        QVERIFY(entries[1].endsAtWakeup && entries[1].wakeInExitNs == 0);
        QVERIFY(entries[2].endsAtWakeup && entries[2].timerWake);
        // What the kernel's accounting gives is unchanged: row 1 starts after the whole
        // 133 us exit (1.004133 + 10 us), as before.
        QCOMPARE(gov.contexts[1].nowNs, Ns(1004143000));
        // The entries view still says the tick ended it.
        QCOMPARE(entryEnd(entries[0]), EntryEnd::Tick);

        // The machine's counters (compare --machine), with a fresh governor on the same script.
        ScriptedGovernor machineGov(script);
        CpuStream cs;
        cs.stream = *stream;
        const CpuRun cpu = replayCpu(table, cs, machineGov, IntervalKind::None);
        QCOMPARE(cpu.wakeups, std::int64_t(2));
        QCOMPARE(cpu.latencyCostNs, Ns(60000));

        // The window's totals, from a run's columns as GovernorRunBuilder keeps them.
        GovernorRun run;
        for (const EntryRecord &e : entries) {
            run.startNs.push_back(e.startNs - REPLAY_START_NS);
            run.residencyNs.push_back(e.residencyNs);
            run.predictedNs.push_back(e.predictedNs);
            run.sleepLengthNs.push_back(e.sleepLengthNs);
            run.span.push_back(e.span);
            run.state.push_back(static_cast<std::int8_t>(e.state));
            run.flags.push_back(entryFlags(e));
            run.wakeInExitNs.push_back(static_cast<std::int32_t>(e.wakeInExitNs));
        }
        QVERIFY(run.has(0, ENTRY_WAKE_IN_EXIT) && !run.has(0, ENTRY_WOKEN_BY_WAKEUP));
        const GovernorTotals t = governorTotals(run, table);
        QCOMPARE(t.latencyCostEntries, std::int64_t(2));
        QCOMPARE(t.latencyCostNs, Ns(60000));
        QCOMPARE(entryLatencyCostNs(run, table, 0), Ns(50000));
        QCOMPARE(entryLatencyCostNs(run, table, 1), Ns(10000));
        QCOMPARE(entryLatencyCostNs(run, table, 2), Ns(0));
    }

    void withoutTheColumnEachRowIsAStay()
    {
        Result<IdleStream> stream = parseStreamCsv(kStream, "hand.csv");
        QVERIFY(stream.ok());
        for (IdleSpan &s : *stream)
            s.needResched = true;
        ScriptedGovernor gov({{2, false, -1}, {0, true, -1}, {1, false, -1}, {1, false, -1}});
        std::vector<EntryRecord> entries;
        replayStream(test::skxLike(), *stream, gov,
                     [&](const EntryRecord &e, const Governor &) { entries.push_back(e); });
        QCOMPARE(entries.size(), std::size_t(4));
        // Row 0 ends at its own wakeup (3.995 ms of C1E), woken by a task.
        QVERIFY(entries[0].endsAtWakeup && !entries[0].inIdleWake);
        // POLL ends at row 1's wakeup, 6 us: no poll limit.
        QCOMPARE(entries[1].residencyNs, Ns(6000));
        QVERIFY(!entries[1].pollTimeLimit);
        // Row 2's select sees a running tick again.
        QVERIFY(!gov.contexts[2].tickStopped);
    }

    /// A trailing need_resched = 0 row ends the stay as a need_resched row would.
    void aLastRowEndsTheStay()
    {
        Result<IdleStream> stream = parseStreamCsv("gap_ns,timer_ns,wake_ns,latency_req_ns,need_resched\n"
                                                   "1000,100000,30000,-1,0\n",
                                                   "last.csv");
        QVERIFY(stream.ok());
        ScriptedGovernor gov({{1, true, -1}});
        std::vector<EntryRecord> entries;
        const ReplaySummary sum = replayStream(test::skxLike(), *stream, gov,
                                               [&](const EntryRecord &e, const Governor &) { entries.push_back(e); });
        QCOMPARE(entries.size(), std::size_t(1));
        QVERIFY(entries[0].endsAtWakeup && !entries[0].inIdleWake);
        QCOMPARE(sum.endNowNs, Ns(1000000000 + 1000 + 30000 + 2000));
    }

    /// Every variant runs the kit's irq-in-idle stream, those without expected files for it
    /// too: entries come in the order they were selected, a row without entries lies inside a
    /// polling entry begun before it, and every row is counted.
    void everyVariantRunsInIdleWakeups()
    {
        Result<IdleStream> stream = readStreamCsv((test::kitDir() + "/streams/irq-in-idle.csv").toStdString());
        QVERIFY2(stream.ok(), stream ? "" : stream.error().toString().c_str());
        Result<IdleStateTable> table = readTableJson((test::kitDir() + "/tables/intel-skx.json").toStdString());
        QVERIFY(table.ok());
        for (const VariantInfo *v : allVariants()) {
            std::unique_ptr<Governor> gov = createGovernor(v->id);
            QVERIFY2(gov, v->id);
            std::int64_t lastSpan = -1, lastEntry = -1, polledThrough = 0;
            bool ordered = true;
            std::vector<bool> rowHasEntry(stream->size(), false);
            const ReplaySummary sum = replayStream(*table, *stream, *gov, [&](const EntryRecord &e, const Governor &) {
                ordered = ordered && (e.span > lastSpan || (e.span == lastSpan && e.entry == lastEntry + 1));
                lastSpan = e.span;
                lastEntry = e.entry;
                rowHasEntry[static_cast<std::size_t>(e.span)] = true;
            });
            QVERIFY2(ordered, v->id);
            QCOMPARE(sum.spans, std::int64_t(stream->size()));
            // A row with no entry of its own follows one whose polling entry ran on into it.
            for (std::size_t row = 0; row < rowHasEntry.size(); ++row)
                if (!rowHasEntry[row]) {
                    QVERIFY2(row > 0 && !(*stream)[row - 1].needResched, v->id);
                    ++polledThrough;
                }
            QVERIFY2(sum.entries >= std::int64_t(stream->size()) - polledThrough, v->id);
        }
    }

    /// What menu and teo would have chosen with the tick running, at every entry of the kit's
    /// irq-in-idle stream they selected with it stopped: the what-if select really saw a
    /// running tick (its record says so), and the stopped-tick rules (v7.0's timer
    /// replacement, v7.1's SAFE_TIMER_RANGE_NS move) never act in it; where neither acted
    /// in the real select and the real choice came out of the same branch, nothing else
    /// differs.
    void whatIfTheTickWereRunning()
    {
        Result<IdleStream> stream = readStreamCsv((test::kitDir() + "/streams/irq-in-idle.csv").toStdString());
        QVERIFY(stream.ok());
        Result<IdleStateTable> table = readTableJson((test::kitDir() + "/tables/intel-skx.json").toStdString());
        QVERIFY(table.ok());
        for (const char *variant : {"menu-latest", "menu-7.1", "teo-7.1"}) {
            std::unique_ptr<Governor> gov = createGovernor(variant);
            std::vector<EntryRecord> entries;
            replayStream(*table, *stream, *gov, [&](const EntryRecord &e, const Governor &) { entries.push_back(e); });
            int asked = 0, replaced = 0;
            for (std::size_t i = 0; i < entries.size() && asked < 25; ++i) {
                const auto index = static_cast<std::int64_t>(i);
                Result<EntryReasoning> w = reasoningWithTickRunning(*table, *stream, variant, {}, index);
                if (!entries[i].tickStoppedAtSelect) {
                    QVERIFY2(!w.ok(), variant); // nothing to ask
                    continue;
                }
                QVERIFY2(w.ok(), w ? "" : w.error().toString().c_str());
                ++asked;
                QCOMPARE(w->entry.startNs, entries[i].startNs);
                Result<EntryReasoning> real = reasoningAt(*table, *stream, variant, {}, index);
                QVERIFY(real.ok());
                if (const auto *m = std::get_if<MenuReasoning>(&w->reasoning)) {
                    const auto &r = std::get<MenuReasoning>(real->reasoning);
                    QVERIFY(r.tickStopped && !m->tickStopped);
                    QVERIFY(!m->stoppedTickReplaced && !m->safeTimerKept);
                    replaced += r.stoppedTickReplaced;
                } else {
                    const auto &t = std::get<TeoReasoning>(w->reasoning);
                    const auto &r = std::get<TeoReasoning>(real->reasoning);
                    QVERIFY(r.tickStopped && !t.tickStopped);
                    QVERIFY(!t.safeTimerRangeDeeper);
                    replaced += r.safeTimerRangeDeeper;
                }
            }
            QVERIFY2(asked == 25, variant);
            // The stopped-tick rule acted in some of them, or the stream would not test it.
            QVERIFY2(replaced > 0, variant);
        }
        // A governor built from source cannot be asked twice.
        QVERIFY(!reasoningWithTickRunning(*table, *stream, "src:menu.c", {}, 0).ok());
    }

    /// Rows made from a trace (gap_from_wake) keep the trace's clock: a row starts gap_ns after
    /// the previous row's wakeup whatever exit latency the replay's choice added, and an exit
    /// that runs past that start shortens the row instead of moving its wakeup.
    void gapFromWakeKeepsTheTraceClock()
    {
        // skx-like (C1 2/2, C1E 10/20, C6 133/600 us), now = 1 s, ticks every 4 ms.
        // Row 0: gap 0, wake 1000 us: C6 with the tick stopped ends at the wakeup, 1 s + 1000 us,
        //        and its exit latency makes the exit 1 s + 1133 us.
        // Row 1: 100 us after that wakeup, due at 1 s + 1100 us; the exit is 33 us later, so
        //        the row starts at 1 s + 1133 us with 500 - 33 = 467 us left to its wakeup
        //        (and timer); C1 (exit 2 us): exit at 1 s + 1602 us, wakeup at 1 s + 1600 us.
        // Row 2: 2400 us after row 1's wakeup, 1 s + 4000 us, on a tick; C1E until its wakeup
        //        3000 us later, plus 10 us of exit latency: the run ends at 1 s + 7010 us.
        const char *text = "gap_ns,timer_ns,wake_ns,latency_req_ns,util,gap_from_wake\n"
                           "0,10000000,1000000,-1,0,1\n"
                           "100000,500000,500000,-1,0,1\n"
                           "2400000,5000000,3000000,-1,0,1\n";
        Result<IdleStream> stream = parseStreamCsv(text, "trace.csv");
        QVERIFY(stream.ok());
        QVERIFY((*stream)[1].gapFromWake);
        const std::vector<Selection> script{{3, true, -1}, {1, false, -1}, {2, false, -1}};
        ScriptedGovernor gov(script);
        std::vector<EntryRecord> entries;
        const ReplaySummary sum = replayStream(test::skxLike(), *stream, gov,
                                               [&](const EntryRecord &e, const Governor &) { entries.push_back(e); });
        QCOMPARE(entries.size(), std::size_t(3));
        QCOMPARE(entries[1].startNs, Ns(1001133000));
        QCOMPARE(gov.contexts[1].sleepLengthNs, Ns(467000));
        QCOMPARE(entries[1].residencyNs, Ns(469000)); // 467 us + C1's 2 us
        QVERIFY(entries[1].endsAtWakeup);
        QCOMPARE(gov.contexts[2].nowNs, Ns(1004000000));
        // On a tick, to_tick is a full period: delta_next = min(4 ms, the 5 ms sleep length).
        QCOMPARE(gov.contexts[2].deltaNextNs, Ns(4000000));
        QCOMPARE(sum.endNowNs, Ns(1007010000));

        // Without the column each gap counts from the replay's exit: row 2 starts 135 us
        // later (C6's 133 us and C1's 2 us of exit latency): 1 s + 1133 + 100 + 502 + 2400 us.
        IdleStream plain = *stream;
        for (IdleSpan &s : plain)
            s.gapFromWake = false;
        ScriptedGovernor again(script);
        replayStream(test::skxLike(), plain, again);
        QCOMPARE(again.contexts[2].nowNs, Ns(1004135000));
    }

    void streamColumnErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown column") << "gap_ns,timer_ns,wake_ns,latency_req_ns,cpu\n1,2,2,-1,0\n"
                                        << "s.csv:1: field 'cpu': unknown column 5";
        QTest::newRow("need_resched 2") << "gap_ns,timer_ns,wake_ns,latency_req_ns,need_resched\n1,2,2,-1,1\n"
                                           "1,2,2,-1,2\n"
                                        << "s.csv:3: field 'need_resched': must be 0";
        QTest::newRow("need_resched -1") << "gap_ns,timer_ns,wake_ns,latency_req_ns,need_resched\n1,2,2,-1,-1\n"
                                         << "s.csv:2: field 'need_resched': must be 0";
        QTest::newRow("gap_from_wake 2") << "gap_ns,timer_ns,wake_ns,latency_req_ns,gap_from_wake\n1,2,2,-1,2\n"
                                         << "s.csv:2: field 'gap_from_wake': must be 0";
    }

    void streamColumnErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const QByteArray bytes = text.toUtf8();
        Result<IdleStream> r = parseStreamCsv(std::string_view(bytes.constData(), size_t(bytes.size())), "s.csv");
        QVERIFY(!r.ok());
        const QString message = QString::fromStdString(r.error().toString());
        QVERIFY2(message.startsWith(expected), qPrintable(message));
    }

    /// formatStreamCsv() writes the column only for a stream that needs it,
    /// and what it writes reads back the same.
    void formatRoundTrip()
    {
        Result<IdleStream> stream = parseStreamCsv(kStream, "hand.csv");
        QVERIFY(stream.ok());
        const std::string text = formatStreamCsv(*stream);
        QVERIFY(
            text.starts_with("gap_ns,timer_ns,wake_ns,latency_req_ns,util,need_resched\n0,10000000,3985000,-1,0,0\n"));
        Result<IdleStream> again = parseStreamCsv(text, "again.csv");
        QVERIFY(again.ok());
        QCOMPARE(again->size(), stream->size());
        for (std::size_t i = 0; i < stream->size(); ++i)
            QCOMPARE((*again)[i].needResched, (*stream)[i].needResched);
        IdleStream plain = *stream;
        for (IdleSpan &s : plain)
            s.needResched = true;
        QVERIFY(formatStreamCsv(plain).starts_with("gap_ns,timer_ns,wake_ns,latency_req_ns,util\n0,"));
        // A trace's rows carry gap_from_wake, written after need_resched and read back.
        IdleStream fromTrace = *stream;
        fromTrace[1].gapFromWake = true;
        const std::string traced = formatStreamCsv(fromTrace);
        QVERIFY(traced.starts_with("gap_ns,timer_ns,wake_ns,latency_req_ns,util,need_resched,gap_from_wake\n"
                                   "0,10000000,3985000,-1,0,0,0\n8000,1000000,6000,-1,0,0,1\n"));
        Result<IdleStream> back = parseStreamCsv(traced, "traced.csv");
        QVERIFY(back.ok());
        QVERIFY(!(*back)[0].gapFromWake && (*back)[1].gapFromWake);
    }
};

QTEST_GUILESS_MAIN(TestInIdleReplay)
#include "tst_in_idle_replay.moc"
