// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The menu governor family with hand-computed values: get_typical_interval()
 * in each kernel form (and the fast sorted implementation against a literal
 * per-round transcription on random windows), which_bucket() boundaries, the
 * correction factor, the 32-bit timer_us wrap, the KTIME_MAX/1000 ring slot,
 * the polling-override guard of each version, stopped-tick handling in
 * v6.19 / v7.0 / v7.1, the INTERVALS and other tunables, and the words.
 */
#include "core/governors/explain.h"
#include "core/governors/menu_governor.h"
#include "core/governors/menu_typical_interval.h"
#include "core/governors/registry.h"
#include "core/replay/governor_factory.h"

#include "tests/governor_rig.h"

#include <QTest>

#include <algorithm>
#include <bit>
#include <iterator>
#include <random>
#include <vector>

using namespace idlescope;
using Typical = MenuReasoning::Typical;
using Path = MenuReasoning::Path;

namespace {

constexpr std::uint32_t UMAX = UINT_MAX_U32;

IdleStateTable skx()
{
    return test::skxLike();
}

IdleStateTable pseries()
{
    return test::makeTable("pseries", 100,
                           {{"snooze", "", 0, 0, true, false}, {"CEDE", "", 12000, 120000, false, false}});
}

IdleStateTable skl()
{
    return test::makeTable("skl", 250,
                           {{"POLL", "", 0, 0, true, false},
                            {"C1", "", 2000, 2000, false, false},
                            {"C1E", "", 10000, 20000, false, false},
                            {"C3", "", 70000, 100000, false, false},
                            {"C6", "", 85000, 200000, false, false},
                            {"C7s", "", 124000, 800000, false, false},
                            {"C8", "", 200000, 800000, false, false},
                            {"C9", "", 480000, 5000000, false, false}});
}

// Drives one governor by hand: select with chosen helper values, then an
// "entry" that sets what cpuidle_enter_state() would and calls reflect.
struct Driver : test::GovernorRig {
    Driver(const char *id, IdleStateTable table) : GovernorRig(id, std::move(table)) {}

    /// delta_next defaults to the next tick when the sleep length is beyond it.
    Selection select(Ns sleepNs, Ns deltaNextNs = -1, Ns latencyNs = PM_QOS_DEFAULT_LATENCY_NS,
                     bool tickStopped = false)
    {
        return GovernorRig::select({.sleepLengthNs = sleepNs,
                                    .deltaNextNs = deltaNextNs >= 0 ? deltaNextNs : std::min(sleepNs, drv.tickNsec()),
                                    .latencyReqNs = latencyNs,
                                    .tickStopped = tickStopped});
    }

    void enter(int idx, Ns residencyNs, bool pollLimit = false, bool gotTick = false)
    {
        reflect(idx, {.residencyNs = residencyNs, .pollTimeLimit = pollLimit, .gotTick = gotTick});
    }

    // Fill the ring with @p n entries of POLL (exit latency 0) lasting @p us each.
    void warm(int n, Ns us, Ns sleepNs = 1000000)
    {
        for (int i = 0; i < n; ++i) {
            select(sleepNs);
            enter(0, us * 1000);
        }
    }

    const MenuReasoning &rec() const { return why<MenuReasoning>(); }
    MenuGovernor &menu() { return static_cast<MenuGovernor &>(*gov); }
};

MenuTypicalParams params(MenuTypicalAlgo algo, bool maxOfRemaining = false, std::uint32_t predictedUs = UMAX)
{
    MenuTypicalParams p;
    p.algo = algo;
    p.maxOfRemaining = maxOfRemaining;
    p.predictedUs = predictedUs;
    return p;
}

MenuTypicalResult typical(std::vector<std::uint32_t> v, const MenuTypicalParams &p)
{
    return menuTypicalIntervalUnsorted(v, p);
}

// A literal transcription of the kernel's get_typical_interval() forms
// (re-scan every round), for the cross-check of the sorted implementation.
struct Literal {
    std::uint32_t us;
    int rounds;
    unsigned divisor = 0;
    std::uint64_t avg = 0;
    std::uint64_t variance = 0;
};

Literal literalTypical(const std::vector<std::uint32_t> &v, MenuTypicalAlgo algo, bool maxOfRemaining,
                       std::uint32_t predictedUs)
{
    const unsigned N = unsigned(v.size());
    const bool twoSided = algo == MenuTypicalAlgo::TwoSided;
    const bool twoPass = algo == MenuTypicalAlgo::G1 || algo == MenuTypicalAlgo::G2;
    std::int64_t minThresh = -1;
    std::int64_t maxThresh = (algo == MenuTypicalAlgo::OnePassUintMax || twoSided) ? std::int64_t(UMAX) : -2;
    std::uint32_t thresh = 0x7fffffff; // INT_MAX, "value <= thresh" forms
    int rounds = 0;
    for (;;) {
        ++rounds;
        unsigned divisor = 0;
        std::uint32_t max = 0, min = UMAX;
        std::uint64_t sum = 0, sumSq = 0;
        auto kept = [&](std::uint32_t x) {
            if (maxThresh == -2)
                return x <= thresh;
            return std::int64_t(x) > minThresh && std::int64_t(x) < maxThresh;
        };
        for (std::uint32_t x : v) {
            if (!kept(x))
                continue;
            ++divisor;
            sum += x;
            sumSq += std::uint64_t(x) * x;
            max = std::max(max, x);
            min = std::min(min, x);
        }
        if (algo == MenuTypicalAlgo::G1) {
            if (min >= predictedUs)
                return {UMAX, rounds, divisor};
        } else if (!max) {
            return {UMAX, rounds, divisor};
        }
        std::uint64_t avg = sum / divisor;
        std::uint64_t variance = 0;
        if (twoPass) {
            avg = std::uint32_t(avg);
            for (std::uint32_t x : v) {
                if (!kept(x))
                    continue;
                const std::int64_t diff = std::int64_t(x) - std::int64_t(avg);
                variance += std::uint64_t(diff * diff);
            }
            variance /= divisor;
        } else {
            variance = sumSq / divisor - avg * avg;
        }
        if (variance <= ~std::uint64_t(0) / 36) {
            if ((avg * avg > variance * 36 && divisor * 4 >= N * 3) || variance <= 400)
                return {std::uint32_t(avg), rounds, divisor, avg, variance};
        }
        if (divisor * 4 <= N * 3) {
            if (maxOfRemaining && divisor >= N / 2)
                return {max, rounds, divisor, avg, variance};
            return {UMAX, rounds, divisor, avg, variance};
        }
        if (maxThresh == -2)
            thresh = max - 1;
        else if (twoSided && avg - min > max - avg)
            minThresh = min;
        else
            maxThresh = max;
    }
}

} // namespace

class TestMenu : public QObject {
    Q_OBJECT

private slots:
    // ---- get_typical_interval() ---------------------------------------------

    void g2TightWindow()
    {
        // avg 800/8 = 100; squared deviations 0,4,4,1,1,9,9,0 = 28, /8 = 3 <= 400.
        const auto r = typical({100, 102, 98, 101, 99, 103, 97, 100}, params(MenuTypicalAlgo::G2));
        QCOMPARE(r.us, 100u);
        QCOMPARE(r.kind, Typical::Average);
        QCOMPARE(r.rounds, 1);
        QCOMPARE(r.variance, std::uint64_t(3));
    }

    void g2DropsTopOutliers()
    {
        // Round 1: avg 3600/8 = 450, variance 3,440,000/8 = 430,000: rejected.
        // Round 2 (thresh 1999): avg 1600/7 = 228, variance 694,288/7 = 99,184: rejected.
        // Round 3 (thresh 999): six 100s, variance 0: 100.
        const auto r = typical({100, 2000, 100, 100, 1000, 100, 100, 100}, params(MenuTypicalAlgo::G2));
        QCOMPARE(r.us, 100u);
        QCOMPARE(r.rounds, 3);
        QCOMPARE(r.divisor, 6);
        QCOMPARE(r.hi, std::int64_t(1000));
        // The same in the literal transcription, including the rejected round 2.
        QCOMPARE(literalTypical({100, 2000, 100, 100, 1000, 100, 100, 100}, MenuTypicalAlgo::G2, false, UMAX).rounds,
                 3);
    }

    void g2AllZeroIsNoPrediction()
    {
        const auto r = typical({0, 0, 0, 0, 0, 0, 0, 0}, params(MenuTypicalAlgo::G2));
        QCOMPARE(r.us, UMAX);
        QCOMPARE(r.kind, Typical::NoSamples);
        // G1 (v5.x) has no max == 0 exit: eight zeros average to 0 with variance 0.
        QCOMPARE(typical({0, 0, 0, 0, 0, 0, 0, 0}, params(MenuTypicalAlgo::G1, false, 500)).us, 0u);
    }

    void g1SkipsWhenTimerIsShorter()
    {
        // v5.x: the smallest sample (100) is not below the timer prediction (100): no work.
        const auto r = typical({100, 100, 100, 100, 100, 100, 100, 100}, params(MenuTypicalAlgo::G1, false, 100));
        QCOMPARE(r.us, UMAX);
        QCOMPARE(r.kind, Typical::AboveTimer);
        QCOMPARE(typical({100, 100, 100, 100, 100, 100, 100, 100}, params(MenuTypicalAlgo::G1, false, 101)).us, 100u);
    }

    void versionsDisagreeOnRounding()
    {
        // Five samples around 1000 (mean 1000.4) and three 5000s. Round 1 drops
        // the 5000s everywhere. With 5 left the 6x-stddev rule is not allowed
        // (5*4 < 24), so only "variance <= 400" can accept:
        //   G2:      sum of (v - 1000)^2 = 2, /5 = 0      -> 1000
        //   menu-2:  5,004,002/5 = 1,000,800 - 1000^2 = 800 -> rejected, UINT_MAX
        //   menu-5:  rejected, but 5 >= 8/2 samples remain -> their max, 1001
        const std::vector<std::uint32_t> w = {1000, 5000, 1000, 1001, 5000, 1000, 1001, 5000};
        QCOMPARE(typical(w, params(MenuTypicalAlgo::G2)).us, 1000u);
        const auto m2 = typical(w, params(MenuTypicalAlgo::OnePass));
        QCOMPARE(m2.us, UMAX);
        QCOMPARE(m2.variance, std::uint64_t(800));
        QCOMPARE(m2.kind, Typical::NoPattern);
        QCOMPARE(typical(w, params(MenuTypicalAlgo::OnePassUintMax)).us, UMAX);
        QCOMPARE(typical(w, params(MenuTypicalAlgo::TwoSided)).us, UMAX); // menu-4 and the v6.18 revert
        const auto m5 = typical(w, params(MenuTypicalAlgo::TwoSided, true));
        QCOMPARE(m5.us, 1001u);
        QCOMPARE(m5.kind, Typical::MaxOfRemaining);
        QCOMPARE(m5.divisor, 5);
    }

    void menu3ThresholdStartsAtUintMax()
    {
        // A stored UINT_MAX (v6.17+ placeholder) is never considered from menu-3 on.
        const auto r = typical({UMAX, 100, 100, 100, 100, 100, 100, 100}, params(MenuTypicalAlgo::OnePassUintMax));
        QCOMPARE(r.us, 100u);
        QCOMPARE(r.rounds, 1);
        QCOMPARE(r.neverConsidered, 1);
        // 3e9 is above INT_MAX: G2 and menu-2 never see it (one round, 7 samples),
        // menu-3 sees it, rejects round 1 and drops it as an outlier.
        const std::vector<std::uint32_t> w = {3000000000u, 100, 100, 100, 100, 100, 100, 100};
        const auto g2 = typical(w, params(MenuTypicalAlgo::G2));
        QCOMPARE(g2.us, 100u);
        QCOMPARE(g2.rounds, 1);
        QCOMPARE(g2.neverConsidered, 1);
        QCOMPARE(typical(w, params(MenuTypicalAlgo::OnePass)).rounds, 1);
        const auto m3 = typical(w, params(MenuTypicalAlgo::OnePassUintMax));
        QCOMPARE(m3.us, 100u);
        QCOMPARE(m3.rounds, 2);
        QCOMPARE(m3.neverConsidered, 0);
        QCOMPARE(m3.hi, std::int64_t(3000000000));
    }

    void menu4TwoSidedTieDropsMax()
    {
        // {0 x4, 1100 x4}: avg 550, variance 302,500: rejected. avg - min = 550
        // = max - avg: the tie drops the maximum, leaving zeros: no prediction
        // (dropping the minimum would have left 1100).
        const auto tie = typical({0, 1100, 0, 1100, 0, 1100, 0, 1100}, params(MenuTypicalAlgo::TwoSided));
        QCOMPARE(tie.us, UMAX);
        QCOMPARE(tie.rounds, 2);
        QCOMPARE(tie.hi, std::int64_t(1100));
        QCOMPARE(tie.lo, std::int64_t(-1));
        // {0, 500 x6, 1000}: avg 500, variance 62,500: rejected.
        // avg - min = 500 = max - avg: a tie drops the maximum.
        // {0, 500 x6}: avg 3000/7 = 428, variance 1,500,000/7 - 428^2 = 31,101: rejected;
        // avg - min = 428 > max - avg = 72: the minimum goes. Six 500s: 500.
        const std::vector<std::uint32_t> w = {500, 0, 500, 1000, 500, 500, 500, 500};
        const auto r = typical(w, params(MenuTypicalAlgo::TwoSided));
        QCOMPARE(r.us, 500u);
        QCOMPARE(r.rounds, 3);
        QCOMPARE(r.lo, std::int64_t(0));
        QCOMPARE(r.hi, std::int64_t(1000));
        // G2 only ever drops the top: 1000, then all six 500s, leaving {0}: no prediction.
        QCOMPARE(typical(w, params(MenuTypicalAlgo::G2)).us, UMAX);
    }

    void menu5MaxNeedsHalfTheSamples()
    {
        // Five UINT_MAX placeholders (failed entries, v6.17) leave three real
        // samples: too few to return their maximum.
        const auto three =
            typical({UMAX, 100, UMAX, 5000, UMAX, 90000, UMAX, UMAX}, params(MenuTypicalAlgo::TwoSided, true));
        QCOMPARE(three.us, UMAX);
        QCOMPARE(three.divisor, 3);
        QCOMPARE(three.kind, Typical::NoPattern);
        // Four real samples: 4 >= INTERVALS/2, so the maximum is the prediction.
        const auto four =
            typical({UMAX, 100, 200, 5000, UMAX, 90000, UMAX, UMAX}, params(MenuTypicalAlgo::TwoSided, true));
        QCOMPARE(four.us, 90000u);
        QCOMPARE(four.kind, Typical::MaxOfRemaining);
    }

    void sortedMatchesLiteralTranscription()
    {
        // Random windows with duplicates, zeros, values above INT_MAX and
        // UINT_MAX placeholders, INTERVALS 8 and others: the O(1)-per-round
        // implementation must agree with re-scanning the window every round.
        std::mt19937_64 rng(20250206);
        const MenuTypicalAlgo algos[] = {MenuTypicalAlgo::G1, MenuTypicalAlgo::G2, MenuTypicalAlgo::OnePass,
                                         MenuTypicalAlgo::OnePassUintMax, MenuTypicalAlgo::TwoSided};
        auto sample = [&]() -> std::uint32_t {
            switch (rng() % 8) {
            case 0: return 0;
            case 1: return UMAX;
            case 2: return std::uint32_t(0x80000000u + rng() % 0x7fffffffu);
            case 3: return std::uint32_t(100 + rng() % 3);
            case 4: return std::uint32_t(rng() % 100000);
            default: return std::uint32_t(1000 + rng() % 40);
            }
        };
        int compared = 0;
        for (int iter = 0; iter < 4000; ++iter) {
            const unsigned n = iter % 4 == 0 ? unsigned(1 + rng() % 64) : 8u;
            std::vector<std::uint32_t> w(n);
            for (auto &x : w)
                x = sample();
            const std::uint32_t pred = std::uint32_t(rng() % 3 == 0 ? UMAX : rng() % 200000);
            for (MenuTypicalAlgo a : algos) {
                for (bool maxRem : {false, true}) {
                    const Literal want = literalTypical(w, a, maxRem, pred);
                    const auto got = typical(w, params(a, maxRem, pred));
                    if (got.us != want.us || got.rounds != want.rounds || unsigned(got.divisor) != want.divisor
                        || got.avg != want.avg || got.variance != want.variance) {
                        QString msg =
                            QStringLiteral("algo %1 maxRem %2 pred %3 window").arg(int(a)).arg(maxRem).arg(pred);
                        for (auto x : w)
                            msg += QStringLiteral(" %1").arg(x);
                        QFAIL(qPrintable(msg
                                         + QStringLiteral(": want %1/%2 got %3/%4")
                                               .arg(want.us)
                                               .arg(want.rounds)
                                               .arg(got.us)
                                               .arg(got.rounds)));
                    }
                    ++compared;
                }
            }
        }
        QCOMPARE(compared, 4000 * 10);
    }

    void firstRoundShortcutMatchesSortedPath()
    {
        // Windows in ring order are decided in round 1 without sorting when
        // they can be; the result, every field, must be the one the sorted
        // implementation gives. Steady patterns with jitter (accepted at once),
        // wide ones (stopped or rejected), zeros, samples at or above the
        // first threshold, INTERVALS 8 and others, every form.
        std::mt19937_64 rng(20261130);
        const MenuTypicalAlgo algos[] = {MenuTypicalAlgo::G1, MenuTypicalAlgo::G2, MenuTypicalAlgo::OnePass,
                                         MenuTypicalAlgo::OnePassUintMax, MenuTypicalAlgo::TwoSided};
        int firstRound = 0, later = 0;
        for (int iter = 0; iter < 6000; ++iter) {
            const unsigned n = iter % 3 == 0 ? unsigned(1 + rng() % 64) : 8u;
            const std::uint32_t base = std::uint32_t(rng() % 3 == 0 ? rng() % 50 : 50 + rng() % 200000);
            const std::uint32_t spread = std::uint32_t(1 + rng() % (rng() % 2 ? 40 : 5000));
            std::vector<std::uint32_t> w(n);
            for (auto &x : w) {
                switch (rng() % 40) {
                case 0: x = UMAX; break;
                case 1: x = 0x80000000u + std::uint32_t(rng() % 1000); break;
                case 2: x = 0; break;
                default: x = base + std::uint32_t(rng() % spread);
                }
            }
            std::vector<std::uint32_t> sorted = w;
            std::sort(sorted.begin(), sorted.end());
            const std::uint32_t pred = std::uint32_t(rng() % 2 ? UMAX : rng() % 250000);
            for (MenuTypicalAlgo a : algos) {
                for (bool maxRem : {false, true}) {
                    const MenuTypicalParams p = params(a, maxRem, pred);
                    const MenuTypicalResult want = menuTypicalInterval(sorted, p);
                    const MenuTypicalResult got = typical(w, p);
                    const bool same = got.us == want.us && got.kind == want.kind && got.rounds == want.rounds
                                      && got.divisor == want.divisor && got.avg == want.avg
                                      && got.variance == want.variance && got.min == want.min && got.max == want.max
                                      && got.lo == want.lo && got.hi == want.hi && got.firstHi == want.firstHi
                                      && got.neverConsidered == want.neverConsidered;
                    if (!same) {
                        QString msg =
                            QStringLiteral("algo %1 maxRem %2 pred %3 window").arg(int(a)).arg(maxRem).arg(pred);
                        for (auto x : w)
                            msg += QStringLiteral(" %1").arg(x);
                        QFAIL(qPrintable(msg));
                    }
                    ++(want.rounds == 1 ? firstRound : later);
                }
            }
        }
        // Both paths were exercised, the first-round one for most windows.
        QCOMPARE(firstRound + later, 6000 * 10);
        QVERIFY2(firstRound > 30000 && later > 5000, qPrintable(QStringLiteral("%1 / %2").arg(firstRound).arg(later)));
    }

    void repeatedWindowKeepsVerdict()
    {
        // The governor reuses the detector's last verdict while the window
        // holds the same samples (the sample that leaves equals the one that
        // arrives). After every select the record must still equal a fresh
        // detector run on the record's window: steady runs, patterns whose
        // period divides INTERVALS (same set, other order), tick wakeups and
        // polling limits, and tunables changed between selects.
        std::mt19937_64 rng(7);
        for (const char *id : {"menu-5.10", "menu-6.14", "menu-2", "menu-3", "menu-5", "menu-6.19"}) {
            const MenuOptions &o = *menuOptionsFor(id);
            Driver d(id, skx());
            std::string err;
            int repeated = 0, checked = 0;
            std::vector<std::uint32_t> previous;
            for (int i = 0; i < 6000; ++i) {
                if (i % 1000 == 400) { // in the two-value pattern: the verdict depends on them
                    QVERIFY(d.gov->setTunable("STDDEV_RATIO", 2 + std::int64_t(rng() % 8), &err));
                    QVERIFY(d.gov->setTunable("STDDEV_MAX_US", i % 2000 == 400 ? 30 : 10, &err));
                }
                if (i == 3000)
                    QVERIFY(d.gov->setTunable("INTERVALS", 6, &err));
                d.select(i % 97 == 0 ? 3000000 : 400000);
                const MenuReasoning &r = d.rec();
                const std::vector<std::uint32_t> window(r.intervalsUs.begin(), r.intervalsUs.begin() + r.intervalCount);
                if (r.rounds > 0) {
                    MenuTypicalParams p = params(o.typical, o.maxOfRemaining, o.typicalFirst ? UMAX : r.timerUs);
                    p.setRatio(std::uint64_t(d.gov->tunable("STDDEV_RATIO")));
                    const std::uint64_t maxUs = std::uint64_t(d.gov->tunable("STDDEV_MAX_US"));
                    p.stddevMaxSq = maxUs * maxUs;
                    const MenuTypicalResult want = typical(window, p);
                    QCOMPARE(r.typicalUs, want.us);
                    QCOMPARE(int(r.typical), int(want.kind));
                    QCOMPARE(r.rounds, want.rounds);
                    QCOMPARE(r.divisor, want.divisor);
                    QCOMPARE(r.avgUs, want.avg);
                    QCOMPARE(r.varianceUs2, want.variance);
                    QCOMPARE(r.minUs, want.min);
                    QCOMPARE(r.maxUs, want.max);
                    ++checked;
                    std::vector<std::uint32_t> a = window, b = previous;
                    std::sort(a.begin(), a.end());
                    std::sort(b.begin(), b.end());
                    repeated += a == b;
                }
                previous = window;
                // Residencies: a steady 300 us, 40 and 90 us in turn (stddev
                // 25 us), random noise, a tick wakeup now and then.
                const int phase = (i / 250) % 4;
                const Ns us = phase == 0   ? 300
                              : phase == 1 ? (i % 2 == 0 ? 40 : 90)
                              : phase == 2 ? Ns(50 + rng() % 400)
                                           : 300;
                const bool tick = phase == 3 && i % 11 == 0;
                d.enter(0, us * 1000, false, tick);
            }
            // Most windows repeat the previous one as a set; every form was checked.
            QVERIFY2(checked > 5000 && repeated > 2000,
                     qPrintable(QStringLiteral("%1: %2 checked, %3 repeated").arg(id).arg(checked).arg(repeated)));
        }
    }

    void sortingNetwork()
    {
        // The 8-sample path sorts with a network: by the 0-1 principle, all
        // 256 binary windows coming out sorted means every window does.
        for (unsigned bits = 0; bits < 256; ++bits) {
            std::vector<std::uint32_t> w(8);
            for (unsigned k = 0; k < 8; ++k)
                w[k] = (bits >> k) & 1;
            menuSortWindow(w);
            QVERIFY(std::is_sorted(w.begin(), w.end()));
            QCOMPARE(unsigned(std::count(w.begin(), w.end(), 1u)), unsigned(std::popcount(bits)));
        }
        std::vector<std::uint32_t> w = {UMAX, 7, 0, 7, 3000000000u, 1, 2, 0};
        menuSortWindow(w);
        QCOMPARE(w, (std::vector<std::uint32_t>{0, 0, 1, 2, 7, 7, 3000000000u, UMAX}));
    }

    void sortingSmallSizes()
    {
        // INTERVALS 1..16 other than 8 sort with compare-exchanges too (the
        // network for the first 8, insertion for the rest): every binary
        // window of each size must come out sorted (0-1 principle).
        int checked = 0;
        for (unsigned n = 1; n <= 16; ++n) {
            for (unsigned bits = 0; bits < (1u << n); bits += (n > 12 ? 7 : 1)) {
                std::vector<std::uint32_t> w(n);
                for (unsigned k = 0; k < n; ++k)
                    w[k] = (bits >> k) & 1 ? UMAX : 0;
                menuSortWindow(w);
                QVERIFY(std::is_sorted(w.begin(), w.end()));
                QCOMPARE(unsigned(std::count(w.begin(), w.end(), UMAX)), unsigned(std::popcount(bits)));
                ++checked;
            }
        }
        QCOMPARE(checked, 25747);
        std::vector<std::uint32_t> nine = {9, UMAX, 0, 5, 5, 3000000000u, 1, 8, 2};
        menuSortWindow(nine);
        QCOMPARE(nine, (std::vector<std::uint32_t>{0, 1, 2, 5, 5, 8, 9, 3000000000u, UMAX}));
    }

    // ---- timer prediction ---------------------------------------------------

    void whichBucketBoundaries_data()
    {
        QTest::addColumn<qint64>("sleepNs");
        QTest::addColumn<int>("bucket");
        QTest::newRow("9999") << qint64(9999) << 0;
        QTest::newRow("10 us") << qint64(10000) << 1;
        QTest::newRow("99.999 us") << qint64(99999) << 1;
        QTest::newRow("100 us") << qint64(100000) << 2;
        QTest::newRow("999.999 us") << qint64(999999) << 2;
        QTest::newRow("1 ms") << qint64(1000000) << 3;
        QTest::newRow("10 ms") << qint64(10000000) << 4;
        QTest::newRow("99.99 ms") << qint64(99999999) << 4;
        QTest::newRow("100 ms") << qint64(100000000) << 5;
    }

    void whichBucketBoundaries()
    {
        QFETCH(qint64, sleepNs);
        QFETCH(int, bucket);
        // A fresh ring has no pattern, so the timer is always queried.
        Driver d("menu-6.14", skx());
        d.select(sleepNs);
        QVERIFY(d.rec().timerQueried);
        QCOMPARE(d.rec().bucket, bucket);
        QCOMPARE(d.rec().bucketCount, 6);
    }

    void correctionFactorUpdate()
    {
        Driver d("menu-6.14", skx());
        // 1 ms timer, bucket 3, factor 8192: (4,096,000 + 8,192,000,000)/8,192,000 = 1000 us.
        d.select(1000000);
        QCOMPARE(d.rec().timerUs, 1000u);
        // C1E (exit latency 10 us) for 500 us: measured 490 us;
        // 8192 - 8192/8 + 1024 * 490,000 / 1,000,000 = 7168 + 501 = 7669.
        d.enter(2, 500000);
        d.select(1000000);
        QVERIFY(d.rec().updated);
        QCOMPARE(d.rec().measuredNs, Ns(490000));
        QCOMPARE(d.rec().storedUs, 490u);
        QCOMPARE(d.menu().correctionFactor(3), 7669u);
        // The next 1 ms timer is now corrected: (4,096,000 + 1e6 * 7669) / 8,192,000 = 936 us.
        QCOMPARE(d.rec().timerUs, 936u);
        // An entry no longer than twice the exit latency is halved: 15 us in C1E -> 7.5 us.
        d.enter(2, 15000);
        d.select(1000000);
        QCOMPARE(d.rec().measuredNs, Ns(7500));
        QCOMPARE(d.rec().measuredKind, MenuReasoning::Measured::ResidencyHalved);
        QCOMPARE(d.menu().intervals()[0], 490u);
        QCOMPARE(d.menu().intervals()[1], 7u);
    }

    void tickWakeupCountsAsLongIdle()
    {
        Driver d("menu-6.14", skx());
        d.select(100000000);              // 100 ms timer: beyond the 4 ms tick
        d.enter(3, 4000000, false, true); // woken by the tick
        d.select(100000000);
        QCOMPARE(d.rec().measuredKind, MenuReasoning::Measured::TickWakeup);
        QCOMPARE(d.rec().measuredNs, Ns(45000000));
        QCOMPARE(d.rec().storedUs, 45000u);
    }

    void timerUsWrapsAt32Bits()
    {
        // edge-cases' 1e13 ns timers: 1e10 us does not fit an unsigned int.
        Driver d("menu-6.14", skx());
        d.select(10000000000000LL);
        QCOMPARE(d.rec().timerUs, 1410065408u); // 1e10 mod 2^32
        QCOMPARE(d.rec().predictedInitialNs, Ns(1410065408000LL));
        // ~46 days: next_timer_ns * 8192 wraps in u64 before the division.
        Driver e("menu-6.14", skx());
        e.select(4000000000000000LL);
        QCOMPARE(e.rec().timerUs, 148496843u);
    }

    void ktimeMaxRingSlot()
    {
        // Short typical interval (8 us): no timer query, next_timer_ns = KTIME_MAX.
        Driver d("menu-6.14", skx());
        d.warm(9, 8);
        d.select(1000000);
        QVERIFY(!d.rec().timerQueried);
        QCOMPARE(d.rec().nextTimerNs, KTIME_MAX);
        QCOMPARE(d.rec().deltaTickNs, Ns(2000000)); // TICK_NSEC / 2
        QCOMPARE(d.rec().bucket, 5);
        // Polling that hit its time limit: measured = next_timer_ns = KTIME_MAX,
        // stored as ktime_to_us() truncated to 32 bits.
        d.enter(0, 20000, true);
        d.select(1000000);
        QCOMPARE(d.rec().measuredKind, MenuReasoning::Measured::PollTimeLimit);
        QCOMPARE(d.rec().measuredNs, KTIME_MAX);
        QCOMPARE(d.rec().storedUs, 2783138807u); // (2^63 - 1) / 1000 mod 2^32
        // ... which is above INT_MAX, so G2 never considers it.
        QCOMPARE(d.rec().invalidMask, std::uint64_t(1) << 7);
        QCOMPARE(d.rec().typicalUs, 8u);
    }

    // ---- state selection ----------------------------------------------------

    void pollingOverrideGuards_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<int>("cedeState"); // 50 us pattern, 1 ms timer, pseries
        QTest::addColumn<int>("c1State");   // 5 us pattern, skx-like C1 with EL 8 us / TR 10 us
        // <= v6.17-rc2: EL <= latency_req, and latency_req is lowered to predicted_ns (5 us < 8 us).
        QTest::newRow("menu-5.10") << QStringLiteral("menu-5.10") << 1 << 0;
        QTest::newRow("menu-6.6") << QStringLiteral("menu-6.6") << 1 << 0;
        QTest::newRow("menu-6.14") << QStringLiteral("menu-6.14") << 1 << 0;
        QTest::newRow("menu-nooverride") << QStringLiteral("menu-nooverride") << 0 << 0;
        QTest::newRow("menu-6.16") << QStringLiteral("menu-6.16") << 1 << 0;
        // v6.17-rc3: no guard beyond the next timer.
        QTest::newRow("menu-6.17") << QStringLiteral("menu-6.17") << 1 << 1;
        // v3 patch: TR < 15 us.
        QTest::newRow("menu-resthresh") << QStringLiteral("menu-resthresh") << 0 << 1;
        // v6.18-rc4: EL <= predicted_ns.
        QTest::newRow("menu-6.18") << QStringLiteral("menu-6.18") << 1 << 0;
        // v6.19+: both.
        QTest::newRow("menu-6.19") << QStringLiteral("menu-6.19") << 0 << 0;
        QTest::newRow("menu-latest") << QStringLiteral("menu-latest") << 0 << 0;
        QTest::newRow("menu-7.1") << QStringLiteral("menu-7.1") << 0 << 0;
    }

    void pollingOverrideGuards()
    {
        QFETCH(QString, variant);
        QFETCH(int, cedeState);
        QFETCH(int, c1State);
        const std::string id = variant.toStdString();

        // pseries: 50 us pattern, 1 ms timer; CEDE (EL 12 us, TR 120 us) does
        // not fit 50 us but fits before the timer.
        Driver p(id.c_str(), pseries());
        QVERIFY(p.gov);
        p.warm(9, 50);
        const Selection s = p.select(1000000);
        QCOMPARE(s.stateIndex, cedeState);
        const MenuReasoning &r = p.rec();
        if (cedeState == 1) {
            QCOMPARE(r.path, Path::PollingOverride);
            QCOMPARE(r.predictedNs, Ns(120000)); // predicted_ns := CEDE's TR
            QCOMPARE(s.predictedNs, Ns(50000));  // the caller sees menu's own prediction
            QVERIFY(!s.stopTick);                // below the 10 ms tick: kept
        } else if (id == "menu-nooverride") {
            QCOMPARE(r.overrideBlock, MenuReasoning::OverrideBlock::Disabled);
        } else {
            QCOMPARE(r.path, Path::ResidencyThreshold);
        }

        // A C1 with EL 8 us, TR 10 us and a 5 us pattern (no timer query).
        IdleStateTable t = skx();
        t.states[1].exitLatencyNs = 8000;
        t.states[1].targetResidencyNs = 10000;
        Driver q(id.c_str(), t);
        q.warm(9, 5);
        const Selection s2 = q.select(1000000);
        QCOMPARE(s2.stateIndex, c1State);
    }

    void earlyState0()
    {
        Driver d("menu-6.14", skx());
        // latency_req == 0: state 0, tick kept because it polls.
        Selection s = d.select(1000000, -1, 0);
        QCOMPARE(s.stateIndex, 0);
        QVERIFY(!s.stopTick);
        QCOMPARE(d.rec().path, Path::EarlyState0);
        // Timer before C1's 2 us target residency.
        s = d.select(1500);
        QCOMPARE(s.stateIndex, 0);
        // v5.x decides before any prediction exists.
        Driver old("menu-5.10", skx());
        s = old.select(1000000, -1, 0);
        QCOMPARE(s.stateIndex, 0);
        QCOMPARE(s.predictedNs, Ns(-1));
    }

    void tickDecision()
    {
        // 10 ms timer, no pattern: C6, tick stopped.
        Driver d("menu-6.14", skx());
        Selection s = d.select(10000000, 300000);
        QCOMPARE(s.stateIndex, 3);
        QVERIFY(s.stopTick);
        // 3 ms timer (below the 4 ms tick): the tick is kept, and C6 (600 us)
        // does not fit the 300 us to the tick, so menu demotes to C1E.
        Driver e("menu-6.14", skx());
        s = e.select(3000000, 300000);
        QVERIFY(!s.stopTick);
        QCOMPARE(s.stateIndex, 2);
        QCOMPARE(e.rec().candidateIdx, 3);
        QCOMPARE(e.rec().path, Path::TickKeptDemotion);
        // skl, 4.5 ms timer: C9 (5 ms) does not fit, prediction >= tick, tick
        // running: predicted := TR(C8) = 800 us, so the tick is kept in C8.
        Driver f("menu-6.14", skl());
        s = f.select(4500000, 4000000);
        QCOMPARE(s.stateIndex, 6);
        QVERIFY(!s.stopTick);
        QCOMPARE(f.rec().predictedNs, Ns(800000));
        QCOMPARE(s.predictedNs, f.rec().predictedInitialNs); // menu's own prediction, not the TR
        QVERIFY(s.predictedNs > f.rec().predictedNs);
        QCOMPARE(f.rec().loopEnd, MenuReasoning::LoopEnd::ShallowKeepTick);
    }

    void stoppedTickByVersion()
    {
        // 5 us pattern, tick already stopped, next timer 300 us away.
        // v6.19: the timer is not queried (pattern <= 15 us), predicted_ns is
        // replaced by next_timer_ns = KTIME_MAX: the deepest state, C6.
        Driver a("menu-6.19", skx());
        a.warm(9, 5);
        Selection s = a.select(300000, 300000, PM_QOS_DEFAULT_LATENCY_NS, true);
        QVERIFY(!a.rec().timerQueried);
        QCOMPARE(s.stateIndex, 3);
        QVERIFY(s.stopTick);
        // v7.0: always query with the tick stopped: predicted := 300 us: C1E.
        Driver b("menu-latest", skx());
        b.warm(9, 5);
        s = b.select(300000, 300000, PM_QOS_DEFAULT_LATENCY_NS, true);
        QVERIFY(b.rec().timerQueried);
        QVERIFY(b.rec().stoppedTickReplaced);
        QCOMPARE(s.stateIndex, 2);
        QCOMPARE(s.predictedNs, Ns(300000));
        // v7.1: a timer within SAFE_TIMER_RANGE_NS (8 ms) is a safety net: keep 5 us: C1.
        Driver c("menu-7.1", skx());
        c.warm(9, 5);
        s = c.select(300000, 300000, PM_QOS_DEFAULT_LATENCY_NS, true);
        QVERIFY(!c.rec().stoppedTickReplaced);
        QCOMPARE(s.stateIndex, 1);
        // ... but not one 9 ms away: C6.
        s = c.select(9000000, 9000000, PM_QOS_DEFAULT_LATENCY_NS, true);
        QCOMPARE(s.stateIndex, 3);
    }

    void invalidIntervalsAppendUintMax()
    {
        // v6.17+: the first select (no update pending, last_residency_ns 0) records UINT_MAX.
        Driver a("menu-6.17", skx());
        a.select(1000000);
        QCOMPARE(a.menu().intervals()[0], UMAX);
        QCOMPARE(a.rec().measuredKind, MenuReasoning::Measured::Invalid);
        Driver b("menu-6.16", skx());
        b.select(1000000);
        QCOMPARE(b.menu().intervals()[0], 0u);
        QVERIFY(!b.rec().updated);
    }

    void singleStateDriver()
    {
        IdleStateTable one;
        one.tickHz = 250;
        one.states = {{"POLL", "", 0, 0, true, false}};
        // Before v7.0 menu returns state 0 itself, keeping the tick for polling.
        Driver a("menu-6.19", one);
        Selection s = a.select(1000000);
        QCOMPARE(s.stateIndex, 0);
        QCOMPARE(a.rec().path, Path::EarlyState0);
        // v7.0: the core does not ask the governor.
        Driver b("menu-latest", one);
        s = b.select(1000000);
        QCOMPARE(s.stateIndex, 0);
        QVERIFY(!s.stopTick);
        QCOMPARE(b.rec().path, Path::CoreSingleState);
    }

    // ---- tunables -----------------------------------------------------------

    void intervalsTunable()
    {
        // Four 100 us entries. With INTERVALS = 8 the ring still holds four zeros:
        // avg 50, variance 2500, rejected; dropping the 100s leaves zeros: none.
        Driver a("menu-6.14", skx());
        a.warm(4, 100, 10000000);
        a.select(10000000);
        QCOMPARE(a.rec().typicalUs, UMAX);
        // With INTERVALS = 4 the same four entries are the whole window: 100 us.
        Driver b("menu-6.14", skx());
        std::string err;
        QVERIFY(b.gov->setTunable("INTERVALS", 4, &err));
        QCOMPARE(b.gov->tunable("INTERVALS"), std::int64_t(4));
        QVERIFY(!b.gov->atKernelDefaults());
        b.warm(4, 100, 10000000);
        b.select(10000000);
        QCOMPARE(b.rec().typicalUs, 100u);
        QCOMPARE(b.rec().intervalCount, 4);
        QCOMPARE(b.menu().intervals().size(), size_t(4));
        // INTERVALS = 16: twelve equal samples are needed for the 6x-stddev rule
        // (4 * divisor >= 48); one outlier among sixteen is dropped, fifteen remain.
        Driver c("menu-6.14", skx());
        QVERIFY(c.gov->setTunable("INTERVALS", 16, &err));
        c.warm(15, 1000, 10000000);
        c.select(10000000);
        c.enter(0, 90000000); // one 90 ms outlier (clamped to the 10 ms timer)
        c.select(10000000);
        QCOMPARE(c.rec().typicalUs, 1000u);
        QCOMPARE(c.rec().divisor, 15);
        QCOMPARE(std::popcount(c.rec().discardedMask), 1);
        // Four 100s and four 102s: avg 101, variance 1. With STDDEV_MAX_US = 0
        // only the ratio can accept: 101^2 = 10201 > 100^2 * 1, but not > 101^2 * 1,
        // and then the 102s are dropped and four 100s (variance 0 <= 0) remain.
        for (int ratio : {100, 101}) {
            Driver e("menu-6.14", skx());
            QVERIFY(e.gov->setTunable("STDDEV_MAX_US", 0, &err));
            QVERIFY(e.gov->setTunable("STDDEV_RATIO", ratio, &err));
            for (int i = 0; i < 9; ++i) {
                e.select(10000000);
                e.enter(0, (i % 2 ? 102 : 100) * 1000);
            }
            e.select(10000000);
            QCOMPARE(e.rec().typicalUs, ratio == 100 ? 101u : 100u);
            QCOMPARE(e.rec().rounds, ratio == 100 ? 1 : 2);
            QCOMPARE(e.rec().stddevRatio, std::uint32_t(ratio));
        }
    }

    void residencyThresholdTunable()
    {
        // RESIDENCY_THRESHOLD_NS = 4000: a 5 us pattern now queries the timer.
        Driver d("menu-6.14", skx());
        std::string err;
        QVERIFY(d.gov->setTunable("RESIDENCY_THRESHOLD_NS", 4000, &err));
        d.warm(9, 5);
        d.select(1000000);
        QVERIFY(d.rec().timerQueried);
        QCOMPARE(d.rec().residencyThresholdNs, Ns(4000));
    }

    void setTunableErrors()
    {
        auto gov = createGovernor("menu-6.19");
        std::string err;
        QVERIFY(!gov->setTunable("INTERVALS", 0, &err));
        // The one wording of tunable_check.h (ladder, haltpoll, teo say the same).
        QCOMPARE(err, std::string("INTERVALS = 0 is out of range 1..64 for menu-6.19 (kernel default 8)"));
        QVERIFY(!gov->setTunable("INTERVALS", 65, &err));
        QVERIFY(!gov->setTunable("STDDEV_RATIO", 0, &err));
        QCOMPARE(err, std::string("STDDEV_RATIO = 0 is out of range 1..1000 for menu-6.19 (kernel default 6)"));
        QVERIFY(!gov->setTunable("STDDEV_MAX_US", -1, &err));
        QVERIFY(!gov->setTunable("RESIDENCY_THRESHOLD_NS", 100000001, &err));
        QVERIFY(!gov->setTunable("DECAY", 8, &err));
        QCOMPARE(err, std::string("unknown parameter 'DECAY' for menu-6.19 (known: INTERVALS, STDDEV_RATIO, "
                                  "STDDEV_MAX_US, RESIDENCY_THRESHOLD_NS)"));
        QVERIFY(gov->atKernelDefaults());
        QCOMPARE(gov->tunable("INTERVALS"), std::int64_t(8));
        QCOMPARE(gov->tunable("RESIDENCY_THRESHOLD_NS"), std::int64_t(15000));
        // v5.x has no residency threshold.
        auto old = createGovernor("menu-5.10");
        QCOMPARE(old->tunables().size(), size_t(3));
        QVERIFY(!old->setTunable("RESIDENCY_THRESHOLD_NS", 1000, &err));
        QCOMPARE(old->tunable("RESIDENCY_THRESHOLD_NS"), std::int64_t(0)); // not one of its tunables
    }

    // ---- variants and words -------------------------------------------------

    void variantTable()
    {
        const char *ids[] = {"menu-5.10",      "menu-6.6",  "menu-6.14", "menu-nooverride", "menu-1",    "menu-2",
                             "menu-3",         "menu-4",    "menu-5",    "menu-6.15",       "menu-6.16", "menu-6.17",
                             "menu-resthresh", "menu-6.18", "menu-6.19", "menu-latest",     "menu-7.1"};
        QCOMPARE(menuVariants().size(), std::size(ids));
        for (const char *id : ids) {
            const VariantInfo *v = findVariant(id);
            QVERIFY2(v, id);
            QCOMPARE(std::string(v->family), std::string("menu"));
            QVERIFY(std::string(v->kernel).size() > 1);
            QVERIFY(std::string(v->summary).size() > 10);
            QCOMPARE(v->pollTime, std::string(id) == "menu-5.10" ? PollTimeRule::V5_5 : PollTimeRule::V5_11);
            const bool v70 = std::string(id) == "menu-latest" || std::string(id) == "menu-7.1";
            QCOMPARE(v->idleLoopReadsGotTick, v70);
            QVERIFY(createGovernor(id));
        }
        QCOMPARE(menuOptionsFor("menu-6.6")->buckets, 12);
        QVERIFY(!menuOptionsFor("teo-6.14"));
    }

    void explainPollingOverride()
    {
        Driver p("menu-6.14", pseries());
        p.warm(9, 50);
        p.select(1000000);
        const std::string line = describeMenu(p.rec());
        QVERIFY(line.find("path=polling-override") != std::string::npos);
        QVERIFY(line.find("chosen=1") != std::string::npos);
        QVERIFY(line.find("intervals=[50,50,50,50,50,50,50,50]") != std::string::npos);
        const std::vector<std::string> words = explainMenu(p.rec(), p.drv);
        const std::string all = [&] {
            std::string s;
            for (const auto &w : words)
                s += w + "\n";
            return s;
        }();
        QVERIFY2(all.find("The polling state fitted, but the first non-polling state CEDE (target residency "
                          "120 us) fits before the next timer, so menu chose CEDE.")
                     != std::string::npos,
                 all.c_str());
        QVERIFY2(all.find("The last 8 idle intervals were 50 us") != std::string::npos, all.c_str());
        QVERIFY2(all.find("so the typical interval is 50 us") != std::string::npos, all.c_str());
    }

    void explainOutliers()
    {
        Driver d("menu-6.14", skx());
        const Ns us[] = {100, 2000, 100, 100, 1000, 100, 100, 100};
        for (Ns u : us) {
            d.select(10000000);
            d.enter(0, u * 1000);
        }
        d.select(10000000);
        QCOMPARE(d.rec().typicalUs, 100u);
        QCOMPARE(std::popcount(d.rec().discardedMask), 2);
        std::string all;
        for (const auto &w : explainMenu(d.rec(), d.drv))
            all += w + "\n";
        QVERIFY2(all.find("2 were dropped as outliers (2 ms and 1 ms)") != std::string::npos, all.c_str());
    }
};

QTEST_GUILESS_MAIN(TestMenu)
#include "tst_menu.moc"
