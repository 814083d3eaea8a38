// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * TeoGovernor (teo-5.14, teo-6.10, teo-6.14, teo-6.19, teo-latest) step by
 * step: every expected value below was worked out by hand from the kernel's
 * teo.c of the version named, and the comments show the arithmetic.
 *
 * Tables: skx = POLL(EL 0, TR 0), C1(2 us, 2 us), C1E(10 us, 20 us),
 * C6(133 us, 600 us) at 250 Hz (TICK_NSEC = 4 ms); tri = POLL, C1(1 us,
 * 2 us), C6(10 us, 10 ms); p10 = snooze(poll), CEDE(12 us, 120 us) at 100 Hz.
 * PULSE = 1024 and DECAY_SHIFT = 3 unless a test says otherwise.
 */
#include "tests/test_paths.h"

#include "core/formats/line_reader.h"
#include "core/formats/replay_output.h"
#include "core/formats/stream_csv.h"
#include "core/governors/explain.h"
#include "core/governors/registry.h"
#include "core/governors/teo_governor.h"
#include "core/io/table_json.h"
#include "core/replay/governor_factory.h"
#include "core/replay/reference_replay.h"

#include "tests/governor_rig.h"

#include <QTest>

#include <algorithm>
#include <memory>
#include <numeric>

using namespace idlescope;
using namespace Qt::StringLiterals;

namespace {

constexpr Ns MS = 1000000;
constexpr Ns US = 1000;

IdleStateTable makeTable(int hz, std::vector<IdleState> states)
{
    return test::makeTable("test", hz, std::move(states));
}

IdleStateTable skx()
{
    return test::skxLike(); // POLL, C1 2/2 us, C1E 10/20 us, C6 133/600 us at 250 Hz
}

IdleStateTable tri()
{
    return makeTable(250, {{"POLL", "", 0, 0, true, false},
                           {"C1", "", 1 * US, 2 * US, false, false},
                           {"C6", "", 10 * US, 10 * MS, false, false}});
}

IdleStateTable p10()
{
    return makeTable(100, {{"snooze", "", 0, 0, true, false}, {"CEDE", "", 12 * US, 120 * US, false, false}});
}

/// skl: two pairs of states share a target residency (C7s/C8, C9/C10).
IdleStateTable skl()
{
    return makeTable(250, {{"POLL", "", 0, 0, true, false},
                           {"C1", "", 2 * US, 2 * US, false, false},
                           {"C1E", "", 10 * US, 20 * US, false, false},
                           {"C3", "", 70 * US, 100 * US, false, false},
                           {"C6", "", 85 * US, 200 * US, false, false},
                           {"C7s", "", 124 * US, 800 * US, false, false},
                           {"C8", "", 200 * US, 800 * US, false, false},
                           {"C9", "", 480 * US, 5 * MS, false, false},
                           {"C10", "", 890 * US, 5 * MS, false, false}});
}

/// teo's metrics after 1000 wakeups that were all hits in skx's C6 bin (a CPU that always slept long).
TeoGovernor::Metrics hitsInC6()
{
    TeoGovernor::Metrics m;
    m.hits = {0, 0, 0, 1000};
    m.total = 1000;
    return m;
}

/// One governor driven by hand: select with a given context, reflect with a
/// given residency and the tick / poll-limit flags the replay would set.
struct Rig : test::GovernorRig {
    TeoGovernor *teo = nullptr;

    Rig(const char *id, IdleStateTable table) : GovernorRig(id, std::move(table))
    {
        teo = dynamic_cast<TeoGovernor *>(gov.get());
    }

    /// A rig seeded with @p m (see seed()).
    Rig(const char *id, IdleStateTable table, const TeoGovernor::Metrics &m) : Rig(id, std::move(table)) { seed(m); }

    Selection select(Ns sleepLength, Ns deltaNext, Ns latencyReq = PM_QOS_DEFAULT_LATENCY_NS, bool tickStopped = false,
                     int util = 0)
    {
        return GovernorRig::select({.sleepLengthNs = sleepLength,
                                    .deltaNextNs = deltaNext,
                                    .latencyReqNs = latencyReq,
                                    .tickStopped = tickStopped,
                                    .util = util,
                                    .nowNs = 0});
    }

    void reflect(int idx, Ns residency, bool gotTick = false, bool pollLimit = false)
    {
        GovernorRig::reflect(idx, {.residencyNs = residency, .pollTimeLimit = pollLimit, .gotTick = gotTick});
    }

    /// Seed the metrics and skip the update at the next select.
    void seed(const TeoGovernor::Metrics &m)
    {
        teo->setMetrics(m);
        dev.lastStateIdx = -1;
    }

    const TeoReasoning &r() const { return why<TeoReasoning>(); }
};

std::uint32_t binSum(const TeoGovernor &t, int n)
{
    std::uint32_t s = 0;
    for (int i = 0; i < n; ++i)
        s += t.bin(i).hits + t.bin(i).intercepts;
    return s;
}

} // namespace

class TestTeo : public QObject {
    Q_OBJECT

private slots:
    void variantsRegistered()
    {
        for (const char *id : {"teo-5.14", "teo-6.10", "teo-6.14", "teo-6.19", "teo-latest"}) {
            const VariantInfo *v = findVariant(id);
            QVERIFY2(v, id);
            QCOMPARE(QString::fromUtf8(v->family), u"teo"_s);
            QCOMPARE(v->idleLoopReadsGotTick, std::string_view(id) == "teo-latest");
            Rig rig(id, skx());
            QVERIFY(rig.teo);
            QVERIFY(rig.gov->atKernelDefaults());
        }
    }

    // teo-5.14: the zeroed device's update, then an intercept, then the walk
    // to the middle of a bin.
    void v514BinsDecayAndIntercepts()
    {
        Rig rig("teo-5.14", skx());
        // Update on the zeroed device: time_span 0 >= sleep_length 0, so measured
        // is U64_MAX; TR(0) = 0 <= 0 puts timer and duration in bin 0: a hit.
        Selection s = rig.select(1 * MS, 1 * MS);
        QCOMPARE(rig.teo->bin(0).hits, 1024u);
        QCOMPARE(rig.teo->total(), 1024u); // 0 + PULSE
        QCOMPARE(rig.r().update, TeoReasoning::Update::Hit);
        QVERIFY(rig.r().measuredSafetyNet);
        // Candidate C6 (600 us <= 1 ms); 2 * 0 > 1024 - 1024 is false; 1 ms < TICK
        // keeps the tick, and C6 fits before delta_tick (1 ms).
        QCOMPARE(s.stateIndex, 3);
        QCOMPARE(s.stopTick, false);
        QCOMPARE(s.predictedNs, 1 * MS);

        // C6 for 300 us: measured = 300000 - 133000/2 = 233500, in bin C1E (20 us),
        // the sleep length (1 ms) in bin C6: an intercept in bin 2.
        rig.reflect(3, 300 * US);
        s = rig.select(1 * MS, 1 * MS);
        QCOMPARE(rig.r().update, TeoReasoning::Update::Intercept);
        QCOMPARE(rig.r().measuredNs, Ns(233500));
        QCOMPARE(rig.r().timerBin, 3);
        QCOMPARE(rig.r().durationBin, 2);
        QCOMPARE(rig.teo->bin(0).hits, 896u); // 1024 - 1024 >> 3
        QCOMPARE(rig.teo->bin(2).intercepts, 1024u);
        QCOMPARE(rig.teo->bin(2).recent, 1u);
        QCOMPARE(rig.teo->total(), 1920u); // 896 + PULSE
        // Below C6: intercepts 1024, hits 896; 2 * 1024 > 1920 - 896. Walking down,
        // bin 2 alone holds more than half of 1024: C1E, at the middle of its bin
        // (20 us + 600 us) / 2 = 310 us.
        QCOMPARE(rig.r().candidateIdx, 3);
        QCOMPARE(rig.r().idxInterceptSum, 1024u);
        QCOMPARE(rig.r().idxHitSum, 896u);
        QVERIFY(rig.r().altIntercepts);
        QVERIFY(!rig.r().altRecent);
        QCOMPARE(rig.r().walkIdx, 2);
        QCOMPARE(rig.r().path, TeoReasoning::Path::Intercepts);
        QCOMPARE(s.stateIndex, 2);
        QCOMPARE(s.predictedNs, Ns(310000));
        QCOMPARE(s.stopTick, false);

        const std::vector<std::string> words = explainTeo(rig.r(), rig.drv);
        const bool found = std::any_of(words.begin(), words.end(), [](const std::string &w) {
            return w.rfind("Intercepts in bins below C6 add up to 100%", 0) == 0;
        });
        QVERIFY2(found, words.front().c_str());
        const std::string line = describeTeo(rig.r());
        QVERIFY(line.find("chosen=2") != std::string::npos);
        QVERIFY(line.find("path=intercepts") != std::string::npos);
    }

    void v514ShortSleepAndTickDemotion()
    {
        // TR(1) = 2 us > sleep length 1.5 us: state 0 at once; polling keeps the tick.
        Rig a("teo-5.14", skx());
        Selection s = a.select(1500, 1500);
        QCOMPARE(s.stateIndex, 0);
        QCOMPARE(s.stopTick, false);
        QCOMPARE(s.predictedNs, Ns(1500));
        // With the tick already stopped, stop_tick is left as it was (true).
        Rig b("teo-5.14", skx());
        s = b.select(1500, 1500, PM_QOS_DEFAULT_LATENCY_NS, true);
        QCOMPARE(s.stateIndex, 0);
        QCOMPARE(s.stopTick, true);

        // Candidate C6 for a 1 ms sleep, tick kept (1 ms < 4 ms), but the tick
        // comes in 10 us: the deepest state with TR <= 10 us is C1.
        Rig c("teo-5.14", skx());
        s = c.select(1 * MS, 10 * US);
        QCOMPARE(s.stateIndex, 1);
        QCOMPARE(s.stopTick, false);
        QVERIFY(c.r().tickKeptDemotion);
        QCOMPARE(c.r().path, TeoReasoning::Path::TickKeptDemotion);
    }

    // v6.19's teo_decay() zeroes metrics whose decay step is 0; v6.14 keeps
    // them, and v6.14's total is decayed on its own.
    void decayToZeroAndTotal()
    {
        Rig old("teo-6.14", skx());
        Rig neu("teo-6.19", skx());
        std::string err;
        QVERIFY2(old.gov->setTunable("PULSE", 7, &err), err.c_str());
        QVERIFY2(neu.gov->setTunable("PULSE", 7, &err), err.c_str());
        for (Rig *rig : {&old, &neu}) {
            // Zeroed device: measured 0 (EL 0), a short idle, a hit in bin 0.
            Selection s = rig->select(1 * MS, 1 * MS);
            QCOMPARE(rig->teo->bin(0).hits, 7u);
            QCOMPARE(rig->teo->shortIdles(), 7u);
            QCOMPARE(rig->teo->total(), 7u);
            QCOMPARE(s.stateIndex, 3);
            // C6 for 800 us: measured 733500, same bin as the 1 ms sleep: a hit in bin 3.
            rig->reflect(3, 800 * US);
            s = rig->select(1 * MS, 1 * MS);
            QCOMPARE(rig->r().update, TeoReasoning::Update::Hit);
            QCOMPARE(rig->teo->bin(3).hits, 7u);
            QCOMPARE(s.stateIndex, 3);
            rig->reflect(3, 800 * US);
            rig->select(1 * MS, 1 * MS);
        }
        // v6.14: 7 - (7 >> 3) = 7 sticks; hits[3] = 7 + 7; total: 7 -> 14 -> 14 - 1 + 7.
        QCOMPARE(old.teo->bin(0).hits, 7u);
        QCOMPARE(old.teo->bin(3).hits, 14u);
        QCOMPARE(old.teo->shortIdles(), 7u);
        QCOMPARE(old.teo->total(), 20u);
        QCOMPARE(binSum(*old.teo, 4), 21u); // the decayed total drifts from the bins
        // v6.19: 7 -> 0 at once; hits[3] decays 7 -> 0 then gains 7; total = bins + PULSE.
        QCOMPARE(neu.teo->bin(0).hits, 0u);
        QCOMPARE(neu.teo->bin(3).hits, 7u);
        QCOMPARE(neu.teo->shortIdles(), 0u);
        QCOMPARE(neu.teo->total(), 7u);
        QCOMPARE(binSum(*neu.teo, 4), 7u);
    }

    // tick_intercepts: v6.14–v6.18 count intercepts with measured >= TICK_NSEC,
    // v6.19+ those with measured <= TICK_NSEC.
    void tickInterceptsPerVersion()
    {
        Rig old("teo-6.14", tri());
        Rig neu("teo-6.19", tri());
        for (Rig *rig : {&old, &neu}) {
            // Hit in bin 0 from the zeroed device; candidate C6 (10 ms <= 20 ms):
            // 20 ms >= TICK_NSEC lets the tick stop.
            Selection s = rig->select(20 * MS, 4 * MS);
            QCOMPARE(s.stateIndex, 2);
            QCOMPARE(s.stopTick, true);
            // An irq after 5 ms: measured 5010000 - 5000 = 5005000, bin C1, while the
            // 20 ms sleep length is in bin C6: an intercept in bin 1.
            rig->reflect(2, 5 * MS + 10 * US);
            s = rig->select(20 * MS, 4 * MS);
            QCOMPARE(rig->r().update, TeoReasoning::Update::Intercept);
            QCOMPARE(rig->r().updateBin, 1);
            QCOMPARE(rig->teo->bin(1).intercepts, 1024u);
            QCOMPARE(rig->teo->total(), 1920u);
            // 2 * 1024 > 1920 - 896: the walk takes C1; 2 us < 15 us but short idles
            // (896) are not half of 1920, so the timer is queried; 20 ms: stop.
            QCOMPARE(s.stateIndex, 1);
            QCOMPARE(s.stopTick, true);
        }
        QCOMPARE(old.teo->tickIntercepts(), 1024u); // 5005000 >= 4 ms
        QCOMPARE(neu.teo->tickIntercepts(), 0u);
        // An irq after 1 ms in C1: measured 1000500, again an intercept in bin 1.
        for (Rig *rig : {&old, &neu}) {
            rig->reflect(1, 1 * MS + 1 * US);
            rig->select(20 * MS, 4 * MS);
            QCOMPARE(rig->teo->bin(1).intercepts, 1920u); // 1024 - 128 + 1024
            QCOMPARE(rig->teo->total(), 2704u);
        }
        QCOMPARE(old.teo->tickIntercepts(), 896u);  // decayed, not counted
        QCOMPARE(neu.teo->tickIntercepts(), 1024u); // 1000500 <= 4 ms
    }

    // v7.0: a hit also needs the wakeup within EL/2 of the timer.
    void v70Classification()
    {
        Rig v619("teo-6.19", skx());
        v619.select(1 * MS, 1 * MS);
        QCOMPARE(v619.r().update, TeoReasoning::Update::Hit);
        QCOMPARE(v619.teo->bin(0).hits, 1024u);
        QCOMPARE(v619.teo->tickIntercepts(), 0u);

        Rig v70("teo-latest", skx());
        // Same bin 0, but sleep_length - measured = 0 is not < EL(POLL)/2 = 0.
        Selection s = v70.select(1 * MS, 1 * MS);
        QCOMPARE(v70.r().update, TeoReasoning::Update::Intercept);
        QCOMPARE(v70.teo->bin(0).intercepts, 1024u);
        QCOMPARE(v70.teo->tickIntercepts(), 1024u); // measured 0 <= TICK_NSEC
        // 2 * 1024 > 1024: the busiest intercepts bin is 0 = min_idx and POLL is
        // enabled, so POLL; short idles 1024 * 2 >= total 1024: no timer query.
        QCOMPARE(v70.r().interceptMaxIdx, 0);
        QCOMPARE(v70.r().minIdx, 0);
        QVERIFY(v70.r().skippedQuery);
        QCOMPARE(s.stateIndex, 0);
        QCOMPARE(s.stopTick, false);
        QCOMPARE(s.predictedNs, Ns(-1));

        // POLL for 800 us with no timer known (KTIME_MAX): both in bin C6, but
        // KTIME_MAX - 800000 is not < 0: an intercept in the deepest bin.
        v70.reflect(0, 800 * US);
        s = v70.select(1 * MS, 1 * MS);
        QCOMPARE(v70.r().update, TeoReasoning::Update::Intercept);
        QCOMPARE(v70.r().updateSleepLengthNs, KTIME_MAX);
        QCOMPARE(v70.r().timerBin, 3);
        QCOMPARE(v70.r().durationBin, 3);
        QCOMPARE(v70.teo->bin(3).intercepts, 1024u);
        QCOMPARE(v70.teo->tickIntercepts(), 1920u); // 1024 - 128 + 1024
        QCOMPARE(v70.teo->total(), 1920u);
        // 2 * 896 > 1920 fails: candidate C6, queried; 3 * 1920 >= 2 * 1920: half a
        // tick expected, tick kept.
        QVERIFY(v70.r().tickInterceptsRule);
        QCOMPARE(s.stateIndex, 3);
        QCOMPARE(s.stopTick, false);
        QCOMPARE(s.predictedNs, 2 * MS);
    }

    // Rafael Wysocki's example for "Refine intercepts-based idle state lookup":
    // intercepts 400, 250, 251 below the deepest of four states, total 1000.
    void interceptWalkPicks()
    {
        TeoGovernor::Metrics m;
        m.intercepts = {400, 250, 251, 0};
        m.hits = {0, 0, 0, 99};
        m.total = 1000;
        // v6.19: 2 * 251 > 901 no, 2 * 501 > 901 yes: C1.
        Rig a("teo-6.19", skx(), m);
        Selection s = a.select(1 * MS, 1 * MS);
        QCOMPARE(s.stateIndex, 1);
        QCOMPARE(a.r().walkIdx, 1);
        // v7.0: the busiest bin (0) is at min_idx: POLL directly.
        Rig b("teo-latest", skx(), m);
        s = b.select(1 * MS, 1 * MS);
        QCOMPARE(s.stateIndex, 0);
        QCOMPARE(b.r().interceptMaxIdx, 0);
        QCOMPARE(s.stopTick, false);
        // v6.14 (first suitable walk): C1 as well.
        Rig c("teo-6.14", skx(), m);
        QCOMPARE(c.select(1 * MS, 1 * MS).stateIndex, 1);

        // Tick stopped on skl, candidate C10: min_idx is C9 (first TR >= 4 ms).
        // v6.19 walks to C9; v7.0 sees C9 and C10 share 5 ms (an empty bin) and stays.
        TeoGovernor::Metrics k;
        k.intercepts = {1000};
        k.total = 1000;
        Rig d("teo-6.19", skl(), k);
        s = d.select(100 * MS, 100 * MS, PM_QOS_DEFAULT_LATENCY_NS, true);
        QCOMPARE(d.r().minIdx, 7);
        QCOMPARE(s.stateIndex, 7);
        QCOMPARE(s.stopTick, true);
        Rig e("teo-latest", skl(), k);
        s = e.select(100 * MS, 100 * MS, PM_QOS_DEFAULT_LATENCY_NS, true);
        QCOMPARE(s.stateIndex, 8);
        QCOMPARE(s.stopTick, true);
    }

    void latencyCap()
    {
        const TeoGovernor::Metrics m = hitsInC6();
        // 5 us: C1 (EL 2 us) is the deepest within it; its TR (2 us) is below
        // 15 us and the limit below 7.5 us, so the timer is not queried.
        Rig a("teo-6.14", skx(), m);
        Selection s = a.select(1 * MS, 1 * MS, 5 * US);
        QCOMPARE(s.stateIndex, 1);
        QCOMPARE(s.stopTick, false);
        QCOMPARE(s.predictedNs, Ns(-1));
        QVERIFY(a.r().latencyCapped);
        QVERIFY(a.r().skippedQuery);
        QCOMPARE(a.r().constraintIdx, 1);
        // 10 us admits C1E (EL 10 us, not strictly above): queried, tick kept (1 ms).
        Rig b("teo-6.14", skx(), m);
        s = b.select(1 * MS, 1 * MS, 10 * US);
        QCOMPARE(s.stateIndex, 2);
        QCOMPARE(s.predictedNs, 1 * MS);
        QCOMPARE(b.r().path, TeoReasoning::Path::LatencyLimit);
        const std::vector<std::string> words = explainTeo(b.r(), b.drv);
        QVERIFY(std::any_of(words.begin(), words.end(), [](const std::string &w) {
            return w == "The latency limit of 10 us allows at most C1E, so teo capped the choice there.";
        }));
    }

    // teo-6.10 alone reads util, against 1024 >> 6 = 16.
    void utilAwareness()
    {
        const TeoGovernor::Metrics m = hitsInC6();
        Rig busy("teo-6.10", skx(), m);
        // Utilized: the deepest enabled non-polling state below C6 is C1E.
        Selection s = busy.select(1 * MS, 1 * MS, PM_QOS_DEFAULT_LATENCY_NS, false, 17);
        QCOMPARE(s.stateIndex, 2);
        QVERIFY(busy.r().utilized);
        QCOMPARE(busy.r().utilThreshold, 16);
        QCOMPARE(busy.r().path, TeoReasoning::Path::Utilized);
        Rig idle("teo-6.10", skx(), m);
        QCOMPARE(idle.select(1 * MS, 1 * MS, PM_QOS_DEFAULT_LATENCY_NS, false, 16).stateIndex, 3);
        QVERIFY(!idle.r().utilized);
        Rig other("teo-6.14", skx(), m);
        QCOMPARE(other.select(1 * MS, 1 * MS, PM_QOS_DEFAULT_LATENCY_NS, false, 1024).stateIndex, 3);

        // Two states, utilized: state 0 polls, so CEDE with duration TR(1) = 120 us;
        // the tick is kept unless already stopped.
        Rig two("teo-6.10", p10());
        s = two.select(50 * MS, 10 * MS, PM_QOS_DEFAULT_LATENCY_NS, false, 17);
        QCOMPARE(s.stateIndex, 1);
        QCOMPARE(s.stopTick, false);
        QCOMPARE(s.predictedNs, 120 * US);
        Rig twoStopped("teo-6.10", p10());
        s = twoStopped.select(50 * MS, 50 * MS, PM_QOS_DEFAULT_LATENCY_NS, true, 17);
        QCOMPARE(s.stateIndex, 1);
        QCOMPARE(s.stopTick, true);

        // A higher shift lowers the threshold's reach: 1024 >> 4 = 64 > 17.
        std::string err;
        Rig tuned("teo-6.10", skx());
        QVERIFY2(tuned.gov->setTunable("UTIL_THRESHOLD_SHIFT", 4, &err), err.c_str());
        tuned.seed(m);
        QCOMPARE(tuned.select(1 * MS, 1 * MS, PM_QOS_DEFAULT_LATENCY_NS, false, 17).stateIndex, 3);
        QCOMPARE(tuned.r().utilThreshold, 64);
    }

    // teo-6.10 reproduces the kernel's recent-intercepts underflow: a tick hit
    // advances the ring without clearing the slot, which is decremented again
    // NR_RECENT updates later.
    void v610RecentUnderflow()
    {
        Rig rig("teo-6.10", skx());
        // Every select: sleep length 100 ms (>= TICK_NSEC, so idx_timer becomes the
        // tick bin) and C6 with the tick stopped.
        Selection s = rig.select(100 * MS, 4 * MS);
        QCOMPARE(s.stateIndex, 3);
        QCOMPARE(s.stopTick, true);
        // 1 ms: measured 1066500 < TICK_NSEC: an intercept in bin 3 at ring slot 1.
        rig.reflect(3, 1 * MS + 133 * US);
        rig.select(100 * MS, 4 * MS);
        QCOMPARE(rig.r().update, TeoReasoning::Update::Intercept);
        QCOMPARE(rig.teo->bin(3).recent, 1u);
        // 6 ms idles: measured 6066500 >= TICK_NSEC: tick hits (updates 2..19).
        for (int update = 2; update <= 19; ++update) {
            rig.reflect(3, 6 * MS + 133 * US);
            s = rig.select(100 * MS, 4 * MS);
            QCOMPARE(rig.r().update, TeoReasoning::Update::TickHit);
            QCOMPARE(s.stateIndex, 3);
            if (update == 10) // slot 1 again: 1 -> 0, the slot keeps "bin 3"
                QCOMPARE(rig.teo->bin(3).recent, 0u);
        }
        // Update 19 is slot 1 once more: 0 - 1 wraps as unsigned int.
        QCOMPARE(rig.teo->bin(3).recent, 4294967295u);
    }

    // Before v6.19 a poll time limit answers first and tick_nohz_idle_got_tick()
    // is not called; from v6.19 every reflect reads (and clears) it.
    void gotTickCallPattern()
    {
        Rig old("teo-6.14", skx());
        old.select(1 * MS, 1 * MS);
        old.reflect(0, 250 * US, true, true);
        QVERIFY(old.dev.gotTickFlag);    // not read
        QVERIFY(!old.dev.pollTimeLimit); // cleared by teo
        old.select(1 * MS, 1 * MS);
        QVERIFY(old.r().measuredSafetyNet); // artificial wakeup
        old.reflect(3, 250 * US);
        QVERIFY(!old.dev.gotTickFlag); // read (and cleared) at the next plain reflect

        Rig neu("teo-6.19", skx());
        neu.select(1 * MS, 1 * MS);
        neu.reflect(0, 250 * US, true, true);
        QVERIFY(!neu.dev.gotTickFlag);
        QVERIFY(neu.dev.pollTimeLimit); // left for teo_update()
        neu.select(1 * MS, 1 * MS);
        QVERIFY(!neu.dev.pollTimeLimit);
        QVERIFY(neu.r().measuredSafetyNet);
        QVERIFY(neu.r().tickWakeup);
        QCOMPARE(neu.teo->totalTick(), 1024u);
    }

    void singleState()
    {
        const IdleStateTable one = makeTable(250, {{"WFI", "", 1 * US, 1 * US, false, false}});
        // v7.0: the core answers; the governor's data are not touched.
        Rig v70("teo-latest", one);
        Selection s = v70.select(10 * MS, 4 * MS);
        QCOMPARE(s.stateIndex, 0);
        QCOMPARE(s.stopTick, false);
        QCOMPARE(s.predictedNs, Ns(-1));
        QCOMPARE(v70.r().path, TeoReasoning::Path::CoreSingleState);
        QCOMPARE(v70.teo->total(), 0u);
        // v6.19: teo_update() still runs, then state 0 with the tick kept.
        Rig v619("teo-6.19", one);
        s = v619.select(10 * MS, 4 * MS);
        QCOMPARE(s.stateIndex, 0);
        QCOMPARE(s.stopTick, false);
        QCOMPARE(v619.teo->total(), 1024u);
    }

    void tunables()
    {
        Rig rig("teo-6.14", skx());
        std::vector<std::string> names;
        for (const TunableInfo &t : rig.gov->tunables())
            names.emplace_back(t.name);
        QCOMPARE(names,
                 (std::vector<std::string>{"PULSE", "DECAY_SHIFT", "RESIDENCY_THRESHOLD_NS", "LATENCY_THRESHOLD_NS"}));
        QCOMPARE(rig.gov->tunable("LATENCY_THRESHOLD_NS"), std::int64_t(7500));
        QCOMPARE(rig.gov->tunable("RESIDENCY_THRESHOLD_NS"), std::int64_t(15000));

        std::string err;
        QVERIFY(!rig.gov->setTunable("NR_RECENT", 9, &err));
        QCOMPARE(QString::fromStdString(err), u"unknown parameter 'NR_RECENT' for teo-6.14 (known: PULSE, DECAY_SHIFT, "
                                              "RESIDENCY_THRESHOLD_NS, LATENCY_THRESHOLD_NS)"_s);
        QVERIFY(!rig.gov->setTunable("PULSE", 0, &err));
        QCOMPARE(QString::fromStdString(err),
                 u"PULSE = 0 is out of range 1..1048576 for teo-6.14 (kernel default 1024)"_s);
        QVERIFY(!rig.gov->setTunable("DECAY_SHIFT", 17, &err));
        QVERIFY(rig.gov->atKernelDefaults());
        QVERIFY(rig.gov->setTunable("DECAY_SHIFT", 4, &err));
        QCOMPARE(rig.gov->tunable("DECAY_SHIFT"), std::int64_t(4));
        QVERIFY(!rig.gov->atKernelDefaults());

        Rig r514("teo-5.14", skx());
        QCOMPARE(r514.gov->tunable("NR_RECENT"), std::int64_t(9));
        QVERIFY(!r514.gov->setTunable("NR_RECENT", 65, &err));
        QVERIFY(!r514.gov->setTunable("UTIL_THRESHOLD_SHIFT", 6, &err));
        QVERIFY(r514.gov->setTunable("NR_RECENT", 3, &err));
        Rig r610("teo-6.10", skx());
        QCOMPARE(r610.gov->tunable("UTIL_THRESHOLD_SHIFT"), std::int64_t(6));
        QVERIFY(!r610.gov->setTunable("LATENCY_THRESHOLD_NS", 1, &err));
    }

    // The kit's decisions need the kernel defaults: with them a stream matches
    // the expected rows, with another DECAY_SHIFT it does not.
    void defaultsMatterForConformance()
    {
        auto gov = createGovernor("teo-6.14");
        QCOMPARE(mismatches(*gov, "teo-6.14"), std::int64_t(0));
        std::string err;
        QVERIFY2(gov->setTunable("DECAY_SHIFT", 5, &err), err.c_str());
        QVERIFY(mismatches(*gov, "teo-6.14") > 0);
    }

    // Option sets other than the five kernel ones run the same code with
    // run-time checks: teo-6.14's options plus a flag that only matters for
    // one-state drivers must still decide exactly as the kernel.
    void runtimeOptionsPath()
    {
        for (const char *id : {"teo-5.14", "teo-6.10", "teo-6.14", "teo-6.19", "teo-latest"}) {
            auto kernel = createGovernor(id);
            TeoOptions opt = dynamic_cast<TeoGovernor &>(*kernel).options();
            opt.singleStateInCore = !opt.singleStateInCore;
            TeoGovernor runtime(*findVariant(id), opt);
            QCOMPARE(mismatches(runtime, id), std::int64_t(0));
        }
    }

private:
    /// Rows of bimodal on intel-skx where @p gov differs from the kit's @p variant.
    static std::int64_t mismatches(Governor &gov, const char *variant)
    {
        const QString root = test::kitDir();
        auto table = readTableJson((root + u"/tables/intel-skx.json"_s).toStdString());
        auto stream = readStreamCsv((root + u"/streams/bimodal.csv"_s).toStdString());
        if (!table.ok() || !stream.ok()) {
            qWarning("conformance kit not readable under %s", qPrintable(root));
            return -1;
        }
        LineReader expected(
            (root + u"/expected/"_s + QString::fromUtf8(variant) + u"/bimodal__intel-skx.csv.gz"_s).toStdString());
        std::string_view line;
        if (!expected.next(line)) { // header
            qWarning("no expected rows for %s", variant);
            return -1;
        }
        std::int64_t bad = 0;
        std::string row;
        replayStream(*table, *stream, gov, [&](const EntryRecord &e, const Governor &) {
            row.clear();
            appendEntryCsv(row, e);
            row.pop_back();
            if (!expected.next(line) || line != row)
                ++bad;
        });
        return bad;
    }
};

QTEST_GUILESS_MAIN(TestTeo)
#include "tst_teo.moc"
