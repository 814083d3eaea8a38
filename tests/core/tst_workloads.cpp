// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Workload generators: same seed -> byte-identical stream, each generator's
 * statistics against its parameters (stated tolerances), the spec grammar and
 * its errors, overlay and mix on hand-computed timelines, CSV round trips.
 */
#include "core/formats/stream_csv.h"
#include "core/workloads/rng.h"
#include "core/workloads/workload_spec.h"

#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

using namespace idlescope;
using namespace idlescope::workloads;

namespace {

IdleStream gen(const char *spec, std::size_t n, std::uint64_t seed = 7, int point = 0)
{
    Result<WorkloadSpec> s = parseWorkloadSpec(spec);
    if (!s) {
        qWarning("%s", s.error().toString().c_str());
        return {};
    }
    return generateStream(*s, point, seed, n);
}

struct Stats {
    double meanWakeNs = 0;
    double meanGapNs = 0;
    double timerShare = 0;
    Ns minWake = KTIME_MAX, maxWake = 0;
};

Stats stats(const IdleStream &st)
{
    Stats s;
    std::int64_t timers = 0;
    for (const IdleSpan &x : st) {
        s.meanWakeNs += double(x.wakeNs);
        s.meanGapNs += double(x.gapNs);
        timers += x.timerWake();
        s.minWake = std::min(s.minWake, x.wakeNs);
        s.maxWake = std::max(s.maxWake, x.wakeNs);
    }
    s.meanWakeNs /= double(st.size());
    s.meanGapNs /= double(st.size());
    s.timerShare = double(timers) / double(st.size());
    return s;
}

bool near(double value, double expected, double relTol)
{
    return std::fabs(value - expected) <= relTol * std::fabs(expected);
}

QString err(const char *spec)
{
    Result<WorkloadSpec> s = parseWorkloadSpec(spec);
    return s.ok() ? QString() : QString::fromStdString(s.error().toString());
}

} // namespace

class TestWorkloads : public QObject {
    Q_OBJECT

private slots:
    void rngKnownAnswers()
    {
        // Fixed outputs: the stream of a seed must never change (saved results
        // and golden tests depend on it) and is the same on every platform.
        Rng r(1);
        QCOMPARE(r.next(), Q_UINT64_C(0xb3f2af6d0fc710c5));
        QCOMPARE(r.next(), Q_UINT64_C(0x853b559647364cea));
        Rng u(2);
        std::int64_t counts[6] = {};
        for (int i = 0; i < 60000; ++i)
            ++counts[u.below(6)];
        for (std::int64_t c : counts)
            QVERIFY(c > 9500 && c < 10500);
        QCOMPARE(Rng(3).range(5, 5), std::int64_t(5));
        QVERIFY(deriveSeed(1, 0) != deriveSeed(1, 1));
        QVERIFY(deriveSeed(1, 0, 1) != deriveSeed(1, 1, 0));
    }

    void sameSeedSameBytes_data()
    {
        QTest::addColumn<QString>("spec");
        for (const GeneratorInfo &g : allGenerators())
            QTest::newRow(g.name) << QString(g.name);
        QTest::newRow("overlay") << "video + io:device=emmc + tick:idle_us=50000";
        QTest::newRow("mix") << "mix(3*poisson:mean_us=40 | 1*bimodal;block=10)";
        QTest::newRow("jittered periodic") << "periodic:kind=timer,interval_us=77,jitter_us=9";
    }

    void sameSeedSameBytes()
    {
        QFETCH(QString, spec);
        const QByteArray s = spec.toUtf8();
        const std::string a = formatStreamCsv(gen(s.constData(), 3000, 11));
        const std::string b = formatStreamCsv(gen(s.constData(), 3000, 11));
        QVERIFY(a.size() > 3000);
        QCOMPARE(a, b);
        // Every stream is valid input for the replay.
        Result<IdleStream> back = parseStreamCsv(a, "gen");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
        QCOMPARE(formatStreamCsv(*back), a);
        // A different seed gives a different stream wherever something is random.
        if (spec != "sweep" && spec != "periodic" && spec != "duty" && spec != "tick" && spec != "cpuidle_wakeup")
            QVERIFY(formatStreamCsv(gen(s.constData(), 3000, 12)) != a);
    }

    void periodicTimerKind()
    {
        // slack_us=0: a SCHED_FIFO sleeper; the timer fires at the requested 100 +/- 10 us.
        const IdleStream st = gen("periodic:kind=timer,interval_us=100,jitter_us=10,run_us=5,slack_us=0", 20000);
        const Stats s = stats(st);
        QCOMPARE(s.timerShare, 1.0);
        QVERIFY(near(s.meanWakeNs, 100000, 0.005));
        QCOMPARE(s.minWake >= 90000 && s.maxWake <= 110000, true);
        QCOMPARE(s.meanGapNs, 5000.0);
    }

    void periodicTimerSlack()
    {
        // The default: a SCHED_NORMAL task's 50 us hrtimer slack. nanosleep(100 us) arms the
        // hard expiry at 100 + 50 us; the CPU is woken there and the sleep length the governor
        // reads (timer_ns) is the same 150 us. By hand: 100000 + 50000 ns on every row.
        for (const IdleSpan &x : gen("periodic:kind=timer,interval_us=100,run_us=5", 50)) {
            QCOMPARE(x.timerNs, Ns(150000));
            QCOMPARE(x.wakeNs, Ns(150000));
            QCOMPARE(x.gapNs, Ns(5000));
        }
        // A jittered interval keeps the slack on top of each draw: 100 +/- 10 us + 20 us.
        const Stats j = stats(gen("periodic:kind=timer,interval_us=100,jitter_us=10,slack_us=20", 20000));
        QVERIFY(j.minWake >= 110000 && j.maxWake <= 130000);
        QVERIFY(near(j.meanWakeNs, 120000, 0.005));
        // The pipe kind has no timer of its own: a written slack_us is refused (it was
        // silently ignored), a default one is not.
        QCOMPARE(gen("periodic:kind=pipe,interval_us=50", 1).front().wakeNs, Ns(50000));
        // slack_us=0 is the former stream, draw for draw.
        QCOMPARE(gen("periodic:kind=timer,interval_us=77,slack_us=0", 1).front().wakeNs, Ns(77000));
    }

    void periodicIpiKind()
    {
        const IdleStream st = gen("periodic:kind=ipi,interval_us=50", 20000);
        const Stats s = stats(st);
        QCOMPARE(s.timerShare, 0.0);
        QCOMPARE(s.minWake, Ns(50000));
        QCOMPARE(s.maxWake, Ns(50000));
        double meanTimer = 0;
        for (const IdleSpan &x : st) {
            QVERIFY(x.timerNs >= 5000000 && x.timerNs <= 15000000);
            meanTimer += double(x.timerNs);
        }
        QVERIFY(near(meanTimer / double(st.size()), 10000000, 0.02));
        // pipe is the same kind as ipi.
        QCOMPARE(formatStreamCsv(gen("periodic:kind=pipe,interval_us=50", 100)),
                 formatStreamCsv(gen("periodic:kind=ipi,interval_us=50", 100)));
    }

    void eventCutByTimerKeepsItsAbsoluteTime()
    {
        // 300 us waits, unrelated timers 50..150 us away: a timer cuts each wait;
        // the rest follows after TIMER_RUN_NS (2 us), and wake-to-wake stays 300 + 5 us
        // (up to 2 us later when a timer fires less than 2 us before the event).
        const IdleStream st = gen("periodic:kind=ipi,interval_us=300,run_us=5,next_timer_us=100", 5000);
        Ns t = 0;
        std::vector<Ns> events;
        for (const IdleSpan &x : st) {
            t += x.gapNs + x.wakeNs;
            if (!x.timerWake())
                events.push_back(t);
            else
                QVERIFY(x.wakeNs >= 50000 && x.wakeNs <= 150000);
        }
        QVERIFY(events.size() > 1000);
        std::int64_t exact = 0;
        for (size_t i = 1; i < events.size(); ++i) {
            const Ns d = events[i] - events[i - 1];
            QVERIFY(d >= 305000 - 2000 && d <= 305000 + 2000);
            exact += d == 305000;
        }
        QVERIFY(double(exact) > 0.95 * double(events.size()));
    }

    void cpuidleWakeupByHand()
    {
        // Timer mode (the test's default): the SCHED_FIFO wakee nanosleeps 100 us after its
        // 5.43 us of work; no slack, so the timer and the wake are 100 us after the idle entry.
        for (const IdleSpan &x : gen("cpuidle_wakeup", 20)) {
            QCOMPARE(x.gapNs, Ns(5430));
            QCOMPARE(x.timerNs, Ns(100000));
            QCOMPARE(x.wakeNs, Ns(100000));
        }
        // A SCHED_NORMAL wakee: 100 + 50 us.
        QCOMPARE(gen("cpuidle_wakeup:slack_us=50", 1).front().wakeNs, Ns(150000));
        // Pipe mode at -s 50: the waker's cycle is 50 + 1.67 us whatever the wakee does, so the
        // wakee's CPU idles 51670 - 5430 = 46240 ns a cycle, woken by no timer. The defaults are
        // the README's run of -s 50 -p: 5 s / 96775 wakeups = 51.67 us a cycle, and
        // 4,474,899 us in snooze / 96,767 entries = 46.24 us idle a cycle (sysfs stateN/time is
        // in us; the test prints it as "ns").
        for (const IdleSpan &x : gen("cpuidle_wakeup:kind=pipe,period_us=50,next_timer_us=0", 20)) {
            QCOMPARE(x.gapNs, Ns(5430));
            QCOMPARE(x.wakeNs, Ns(46240));
            QCOMPARE(x.timerNs, Ns(1000) * NSEC_PER_SEC); // next_timer_us=0: none (1000 s away)
            QCOMPARE(x.gapNs + x.wakeNs, Ns(51670));
        }
        // A wakee busier than every cycle of the waker never idles: the byte is already in
        // the pipe and read() returns at once. That is refused (it once gave 1 ns spans, each
        // counted as an idle entry), naming busy_us: -s 0.5 is a 0.5 + 1.67 us cycle against
        // 5.43 us of busy time; busy_us=200 is more than the default 100 + 1.67 us.
        QVERIFY(err("cpuidle_wakeup:kind=pipe,period_us=0.5").contains("busy_us=5.43 at least period_us"));
        QVERIFY(err("cpuidle_wakeup:kind=pipe,busy_us=200").contains("never idles"));
        QVERIFY(err("cpuidle_wakeup:kind=pipe,period_us=50,busy_us=60").contains("busy_us=60"));
        // The timer kind sleeps whatever its busy time: accepted.
        QCOMPARE(gen("cpuidle_wakeup:busy_us=200", 1).front().wakeNs, Ns(100000));
        // The test reads -s with strtoul() and multiplies by 1000: whole us only. The help
        // says so, since period_us itself takes 3 decimals.
        QVERIFY(QString::fromStdString(workloadReference()).contains("-s takes whole us (strtoul: -s 0.5 is 0 us)"));
        // period_us sweeps like the test's -s.
        Result<WorkloadSpec> sweep = parseWorkloadSpec("cpuidle_wakeup:kind=pipe,period_us=50/100,next_timer_us=0");
        QVERIFY(sweep.ok());
        QCOMPARE(sweep->pointCount(), 2);
        QCOMPARE(generateStream(*sweep, 1, 1, 1).front().wakeNs, Ns(100000 + 1670 - 5430));
    }

    void schbenchByHand()
    {
        // A worker's CPU, no jitter on the reply (reply_us=10 +/- 3 us: checked as a range),
        // no unrelated timer: the futex wait (event, after the previous work_us), then the
        // usleep(100) as a SCHED_NORMAL task, a timer at 100 + 50 us after run_us = 2 us.
        const IdleStream st = gen("schbench:next_timer_us=0", 10);
        for (size_t i = 0; i < st.size(); i += 2) {
            QVERIFY(!st[i].timerWake());
            QCOMPARE(st[i].gapNs, Ns(50000));
            QVERIFY(st[i].wakeNs >= 7000 && st[i].wakeNs <= 13000);
            QVERIFY(st[i + 1].timerWake());
            QCOMPARE(st[i + 1].gapNs, Ns(2000));
            QCOMPARE(st[i + 1].wakeNs, Ns(150000));
        }
        QCOMPARE(gen("schbench:slack_us=0", 2)[1].wakeNs, Ns(100000));
        // The message thread's CPU: 4 workers of a 10 + 2 + 150 + 50 = 212 us cycle post it
        // every 212 / 4 = 53 us on average; each post costs it msg_us = 3 us, so its idle
        // between two answers is 53 - 3 = 50 us on average and the posts come every 53 us.
        // (The idle was 53 us, a post every 56 us: 5.7 % fewer posts than the workers make.)
        const IdleStream msg = gen("schbench:role=message,next_timer_us=0", 40000);
        double idle = 0, total = 0, posts = 0;
        for (const IdleSpan &x : msg) {
            QCOMPARE(x.gapNs % 3000, Ns(0)); // whole answers (a 0 ns idle folds one more in)
            QVERIFY(!x.timerWake());
            idle += double(x.wakeNs);
            total += double(x.gapNs + x.wakeNs);
            posts += double(x.gapNs / 3000);
        }
        QVERIFY2(near(idle / double(msg.size()), 50000, 0.02), qPrintable(QString::number(idle / 40000.0)));
        QVERIFY2(near(total / posts, 53000, 0.02), qPrintable(QString::number(total / posts)));
        // 70 workers: a post every 212 / 70 = 3.028 us, idle 28 ns on average: most draws are
        // tens of ns, some 0 (folded), and the posts still come every 3.028 us.
        const IdleStream busy = gen("schbench:role=message,workers=70,next_timer_us=0", 40000);
        total = posts = 0;
        for (const IdleSpan &x : busy) {
            total += double(x.gapNs + x.wakeNs);
            posts += double(x.gapNs / 3000);
        }
        QVERIFY2(near(total / posts, 3028, 0.02), qPrintable(QString::number(total / posts)));
        QVERIFY(posts > double(busy.size()));
        // 4096 workers post every 212 / 4096 = 0.051 us, less than the 3 us answer: the
        // message thread is saturated and never idles, refused (it gave idles of ~50 ns).
        QVERIFY2(err("schbench:role=message,workers=4096").contains("a post every 0.051 us"),
                 qPrintable(err("schbench:role=message,workers=4096")));
        QVERIFY(err("schbench:role=message,workers=71").contains("never idles")); // 2.985 us < 3
    }

    void benchmarksFoldWaitsWithoutIdle()
    {
        // pipe, -s 30..70 us (50 +/- 20), write 1.67, busy 60 us: a cycle shorter than 60 us
        // finds the byte in the pipe, no idle; that wakeup's 60 us joins the next gap. So
        // every gap is a whole number of 60 us wakeups, every idle is 0 < period + 1.67 - 60
        // <= 70 + 1.67 - 60 = 11.67 us, and some gaps hold folded wakeups (a cycle is shorter
        // than 60 us with probability (58.33 - 30) / 40 = 71 %).
        const IdleStream pipe =
            gen("cpuidle_wakeup:kind=pipe,period_us=50,jitter_us=20,busy_us=60,next_timer_us=0", 2000);
        QCOMPARE(pipe.size(), size_t(2000));
        Ns longest = 0;
        for (const IdleSpan &x : pipe) {
            QCOMPARE(x.gapNs % 60000, Ns(0));
            QVERIFY(x.wakeNs > 0 && x.wakeNs <= 11670);
            longest = std::max(longest, x.gapNs);
        }
        QVERIFY(longest >= 180000);
        // schbench -s 0: the worker never calls usleep(), so no timer row (it once gave timer
        // rows of 0 ns). Each row is the futex wait (10 +/- 3 us) after run + work = 2 + 50 us.
        for (const IdleSpan &x : gen("schbench:sleep_us=0,next_timer_us=0", 20)) {
            QVERIFY(!x.timerWake());
            QCOMPARE(x.gapNs, Ns(52000));
            QVERIFY(x.wakeNs >= 7000 && x.wakeNs <= 13000);
        }
        // io: an I/O of 2 ns in 4 waits is 0, 0, 0 and 2 ns: the three empty waits are busy
        // time, so each I/O is one row of 8 + 3 x 10 = 38 us and a 2 ns wait.
        for (const IdleSpan &x : gen("io:device=custom,base_us=0.002,tail_us=0,waits=4,next_timer_us=0", 6)) {
            QCOMPARE(x.gapNs, Ns(38000));
            QCOMPARE(x.wakeNs, Ns(2));
        }
        // A device that never waits is refused (it gave rows of wake_ns 0).
        QVERIFY(err("io:device=custom,base_us=0,tail_us=0,waits=4").contains("base_us=0 and tail_us=0"));
        // pgbench with rtt_us=0: the 4 query waits are 0, so a transaction is one row of
        // 5 x 20 us of queries, then the commit wait (at least 80 % of 1000 us).
        for (const IdleSpan &x : gen("pgbench:rtt_us=0,next_timer_us=0", 20)) {
            QCOMPARE(x.gapNs, Ns(100000));
            QVERIFY(x.wakeNs >= 800000);
        }
        QVERIFY(err("pgbench:rtt_us=0,commit_us=0").contains("never idles"));
        // sqlite: a write of 0 + exp(1 ns) is often 0 ns; such waits are busy time: every idle
        // is at least 1 ns and every gap is 40 us + whole 10 us steps, some more than one.
        const IdleStream sq = gen("sqlite:write_us=0,tail_us=0.001,next_timer_us=0", 2000);
        Ns most = 0;
        for (const IdleSpan &x : sq) {
            QVERIFY(x.wakeNs >= 1);
            QCOMPARE(x.gapNs % 10000, Ns(0));
            most = std::max(most, x.gapNs);
        }
        QVERIFY(most >= 50000);
        QVERIFY(err("sqlite:write_us=0,tail_us=0").contains("write_us=0 and tail_us=0"));
    }

    void writtenParametersThatDoNothingAreRefused()
    {
        // Each of these was accepted and changed no span. The message names the parameter
        // and the mode it needs.
        QVERIFY(err("periodic:kind=pipe,slack_us=20").contains("slack_us acts on kind=timer only"));
        QVERIFY(err("periodic:kind=ipi,slack_us=0").contains("slack_us acts on kind=timer only"));
        QVERIFY(err("sweep:kind=pipe,slack_us=70").contains("slack_us acts on kind=timer only"));
        QVERIFY(err("cpuidle_wakeup:kind=pipe,slack_us=50").contains("slack_us acts on kind=timer only"));
        QVERIFY(err("cpuidle_wakeup:kind=timer,write_us=9").contains("write_us acts on kind=pipe only"));
        QVERIFY(err("cpuidle_wakeup:next_timer_us=0").contains("next_timer_us acts on kind=pipe only"));
        QVERIFY(err("schbench:role=worker,workers=9").contains("workers acts on role=message only"));
        QVERIFY(err("schbench:msg_us=7").contains("msg_us acts on role=message only"));
        QVERIFY(err("schbench:sleep_us=0,slack_us=20").contains("slack_us acts only when sleep_us > 0"));
        QVERIFY(err("io:wait_cpu_us=50").contains("wait_cpu_us acts only between two waits"));
        QVERIFY(err("io:device=mtd,waits=1,wait_cpu_us=50").contains("needs waits > 1"));
        // A device profile has its own base and tail: io:device=nvme,base_us=10 ran NVMe's
        // 70 + 15 us and dropped the 10 without a word.
        QVERIFY(err("io:device=nvme,base_us=10").contains("base_us acts on device=custom only: device=nvme"));
        QVERIFY(err("io:device=emmc,tail_us=5").contains("tail_us acts on device=custom only: device=emmc"));
        QVERIFY(err("io:base_us=10").contains("base_us acts on device=custom only"));
        // In a sweep it is refused when no point uses it, accepted when one does.
        QVERIFY(err("io:device=nvme/emmc,base_us=10").contains("base_us acts on device=custom only"));
        QVERIFY(err("io:device=nvme/custom,base_us=10").isEmpty());
        // At their defaults (100 and 20 us) they count as not written.
        QVERIFY(err("io:device=emmc,base_us=100,tail_us=20").isEmpty());
        // Where they act, they are accepted; so are the defaults of every one of them.
        for (const char *ok : {"periodic:kind=timer,slack_us=20", "periodic:kind=pipe", "sweep:kind=timer,slack_us=0",
                               "cpuidle_wakeup:kind=pipe,write_us=9,next_timer_us=0", "cpuidle_wakeup:slack_us=50",
                               "schbench:role=message,workers=9,msg_us=7", "schbench:sleep_us=0",
                               "io:device=mtd,wait_cpu_us=50", "io:waits=2,wait_cpu_us=50", "io"})
            QVERIFY2(err(ok).isEmpty(), ok);
        // A value written at its default counts as not written: the window writes every
        // parameter out, so a pipe loop it sends carries slack_us=50 (periodic's default);
        // the window's text of each generator's defaults is accepted.
        QVERIFY(err("periodic:kind=pipe,slack_us=50").isEmpty());
        QVERIFY(err("schbench:role=worker,workers=4,msg_us=3").isEmpty());
        QVERIFY(err("io:device=nvme,waits=0,wait_cpu_us=10").isEmpty());
        QVERIFY(err("cpuidle_wakeup:kind=timer,write_us=1.67,next_timer_us=10000,slack_us=0").isEmpty());
        for (const GeneratorInfo &g : allGenerators()) {
            std::string all = std::string(g.name) + ":";
            for (const ParamInfo &p : g.params)
                all += std::string(p.name) + "=" + formatParamValue(p, p.def) + ",";
            all.pop_back();
            QVERIFY2(err(all.c_str()).isEmpty(), all.c_str());
        }
        // A sweep keeps a parameter that acts at one of its points (workers at role=message)
        // and refuses one that acts at none.
        QVERIFY(err("schbench:role=worker/message,workers=8").isEmpty());
        QVERIFY(err("periodic:kind=ipi/pipe,slack_us=40").contains("at kind=ipi: slack_us"));
        // A never-idling point is refused even when other points idle: busy 60 us against
        // pipe cycles of 50 + 1.67 and 100 + 1.67 us.
        QVERIFY(err("cpuidle_wakeup:kind=pipe,busy_us=60,period_us=50/100").contains("at period_us=50: kind=pipe"));
    }

    void sqliteCommitsByHand()
    {
        // No tail, no unrelated timer: every wait is the 100 us write. A rollback-journal
        // commit is 2 fsyncs x 2 waits = 4 waits: the first after the 40 us of statements,
        // the others after 10 us of file-system time. By hand: (40, 100), (10, 100) x 3.
        const IdleStream del = gen("sqlite:tail_us=0,next_timer_us=0", 8);
        const Ns delGaps[4] = {40000, 10000, 10000, 10000};
        for (size_t i = 0; i < del.size(); ++i) {
            QCOMPARE(del[i].gapNs, delGaps[i % 4]);
            QCOMPARE(del[i].wakeNs, Ns(100000));
            QVERIFY(!del[i].timerWake());
        }
        // WAL: one fsync, 2 waits: (40, 100), (10, 100).
        const IdleStream wal = gen("sqlite:journal=wal,tail_us=0,next_timer_us=0", 4);
        for (size_t i = 0; i < wal.size(); ++i)
            QCOMPARE(wal[i].gapNs, i % 2 == 0 ? Ns(40000) : Ns(10000));
        // One wait per fsync (a file system without a separate journal commit): WAL is 1 wait.
        for (const IdleSpan &x : gen("sqlite:journal=wal,fsync_waits=1,tail_us=0,next_timer_us=0", 3))
            QCOMPARE(x.gapNs, Ns(40000));
        // The tail: mean 100 + 50 us.
        const Stats s = stats(gen("sqlite:next_timer_us=0", 40000));
        QVERIFY2(near(s.meanWakeNs, 150000, 0.03), qPrintable(QString::number(s.meanWakeNs)));
        QVERIFY(s.minWake >= 100000);
    }

    void pgbenchIdleShare()
    {
        // idle_pct=100 is the former stream, draw for draw.
        QCOMPARE(formatStreamCsv(gen("pgbench:idle_pct=100", 500)), formatStreamCsv(gen("pgbench", 500)));
        // One query round trip (30 us +/- 30 %) and a commit of 24 + exp(6) us: every wait has a
        // mean of 30 us, every piece of work is 20 us. With half the waits finding the CPU busy,
        // each idle span follows on average 1/0.5 - 1 = 1 busy wait and its work: the mean gap is
        // 20 + 1 x (20 + 30) = 70 us; the waits that are idle keep their 30 us mean.
        const Stats half = stats(gen("pgbench:queries=1,commit_us=30,idle_pct=50,next_timer_us=0", 40000));
        QVERIFY2(near(half.meanGapNs, 70000, 0.03), qPrintable(QString::number(half.meanGapNs)));
        QVERIFY2(near(half.meanWakeNs, 30000, 0.03), qPrintable(QString::number(half.meanWakeNs)));
        const Stats all = stats(gen("pgbench:queries=1,commit_us=30,next_timer_us=0", 40000));
        QCOMPARE(all.meanGapNs, 20000.0);
        QVERIFY(err("pgbench:idle_pct=0").contains("idle_pct = 0 is outside 1..100"));
    }

    void dutyCycle()
    {
        const IdleStream st = gen("duty:hz=347,busy_pct=20", 1000);
        const Ns period = 1000000000000LL / 347000; // 2881844 ns
        for (const IdleSpan &x : st) {
            QVERIFY(x.timerWake());
            QCOMPARE(x.gapNs, period / 5);
            QCOMPARE(x.gapNs + x.wakeNs, period);
        }
        QCOMPARE(gen("duty:hz=73,busy_pct=0", 1).front().wakeNs, Ns(1000000000000LL / 73000));
    }

    void poissonMix()
    {
        const Stats s = stats(gen("poisson:mean_us=200,timer_pct=25", 40000));
        QVERIFY2(near(s.meanWakeNs, 200000, 0.03), qPrintable(QString::number(s.meanWakeNs)));
        QVERIFY2(std::fabs(s.timerShare - 0.25) < 0.015, qPrintable(QString::number(s.timerShare)));
    }

    void bimodal()
    {
        const IdleStream st = gen("bimodal:short_us=20,long_us=3000,short_pct=70,long_timer_pct=50", 40000);
        std::int64_t shorts = 0, longTimers = 0;
        for (const IdleSpan &x : st) {
            if (x.wakeNs <= 30000) {
                ++shorts;
                QVERIFY(x.wakeNs >= 10000);
            } else {
                QVERIFY(x.wakeNs >= 1500000 && x.wakeNs <= 4500000);
                longTimers += x.timerWake();
            }
        }
        const double shortShare = double(shorts) / double(st.size());
        QVERIFY(std::fabs(shortShare - 0.70) < 0.015);
        QVERIFY(std::fabs(double(longTimers) / double(st.size() - size_t(shorts)) - 0.5) < 0.03);
    }

    void tickOnly()
    {
        const IdleStream st = gen("tick", 10);
        for (const IdleSpan &x : st) {
            QVERIFY(x.timerWake());
            QCOMPARE(x.wakeNs, Ns(1000000000));
            QCOMPARE(x.gapNs, Ns(20000));
        }
    }

    void idleSystem()
    {
        // Waking timers only (irq_us=0, callback_us=0, rcu_ticks=0), and a 100 s mean capped
        // at 600 us: every draw of this seed is longer than the cap (P(exp < 600 us) = 6e-6 a
        // draw), so a timer fires every 600 us; each span is 15 us of its task, then the 585 us
        // left to the next one.
        for (const IdleSpan &x :
             gen("idle:timer_us=100000000,max_idle_us=600,irq_us=0,callback_us=0,rcu_ticks=0,run_us=15", 50)) {
            QVERIFY(x.timerWake());
            QVERIFY(x.needResched);
            QCOMPARE(x.gapNs, Ns(15000));
            QCOMPARE(x.wakeNs, Ns(585000));
        }
        // The defaults (docs/workloads.md, tst_idle_calibration): compare's first iteration of
        // seed 1, 73000 rows, against the same stream exported by this build's
        // `idlescope-cli compare --table intel-skx --governors menu-6.14 --workload idle
        // --spans 73000 --seed 1 --iterations 1 --export-streams DIR`, summed by a Python
        // one-liner: 41423 rows with need_resched 0, 3,932,460,000,000 ns of gap + wake.
        // Every row's gap is the task's 20 us after a row that woke one, a handler of
        // 2.5..7.5 us after an in-idle wakeup; every timer within the 500 ms cap.
        const IdleStream st = seededStream(parseWorkloadSpec("idle").value(), 0, 0, 1, 73000);
        std::int64_t inIdle = 0;
        Ns t = 0;
        for (size_t i = 0; i < st.size(); ++i) {
            const IdleSpan &x = st[i];
            QVERIFY(x.timerNs <= 500000000);
            QVERIFY(x.wakeNs <= x.timerNs);
            t += x.gapNs + x.wakeNs;
            if (i == 0 || st[i - 1].needResched)
                QCOMPARE(x.gapNs, Ns(20000));
            else
                QVERIFY2(x.gapNs >= 2500 && x.gapNs <= 7500, qPrintable(QString::number(x.gapNs)));
            inIdle += !x.needResched;
        }
        QCOMPARE(inIdle, 41423);
        QCOMPARE(t, Ns(3932460000000));
    }

    void idleSystemInIdleRowsByHand()
    {
        // Waking timers every 10 ms (the cap; the 100 s mean makes every draw longer), the tick
        // kept for 2 periods of 4 ms after each task, no handler time. From time 0:
        //   task 20 us; idle 20 us..10 ms, the timer wakes a task         (20, 9980, 9980, 1)
        //   task to 10.02 ms; the kept tick at 12 ms, nothing woken       (20, 1980, 1980, 0)
        //   the tick at 16 ms (the timer at 20 ms is later)               (0, 4000, 4000, 0)
        //   no tick kept any more: the timer at 20 ms wakes a task        (0, 4000, 4000, 1)
        //   task to 20.02 ms; ticks at 24 and 28 ms; the timer at 30 ms   (20, 3980, 3980, 0) ...
        const IdleStream st = gen(
            "idle:timer_us=100000000,max_idle_us=10000,irq_us=0,callback_us=0,rcu_ticks=2,tick_us=4000,tick_wake_pct=0,"
            "handler_us=0,run_us=20",
            8);
        const std::array<std::array<Ns, 4>, 8> expected = {{{20, 9980, 9980, 1},
                                                            {20, 1980, 1980, 0},
                                                            {0, 4000, 4000, 0},
                                                            {0, 4000, 4000, 1},
                                                            {20, 3980, 3980, 0},
                                                            {0, 4000, 4000, 0},
                                                            {0, 2000, 2000, 1},
                                                            {20, 1980, 1980, 0}}};
        for (size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(st[i].gapNs, expected[i][0] * 1000);
            QCOMPARE(st[i].timerNs, expected[i][1] * 1000);
            QCOMPARE(st[i].wakeNs, expected[i][2] * 1000);
            QCOMPARE(st[i].needResched, expected[i][3] == 1);
        }
    }

    void idleSystemFormerModelDrawForDraw()
    {
        // callback_us=0, rcu_ticks=0, irq_wake_pct=100 and the former timer_us=50000 give the
        // former default stream: these rows and sums are the base commit's (f3a3e81)
        // `idlescope-cli compare --table intel-skx --governors menu-6.14 --workload idle
        // --spans 200 --seed 1 --iterations 1 --export-streams DIR` file, read with awk
        // (rows 0, 58 and 168; 'sum gap + wake' and 'sum timer' over the 200 rows).
        const WorkloadSpec spec =
            parseWorkloadSpec("idle:timer_us=50000,callback_us=0,rcu_ticks=0,irq_wake_pct=100").value();
        const IdleStream st = seededStream(spec, 0, 0, 1, 200);
        QCOMPARE(st[0].timerNs, Ns(73960872));
        QCOMPARE(st[0].wakeNs, Ns(73960872));
        QCOMPARE(st[58].timerNs, Ns(82029301));
        QCOMPARE(st[58].wakeNs, Ns(23740970));
        QCOMPARE(st[168].timerNs, Ns(270736766));
        QCOMPARE(st[168].wakeNs, Ns(131976403));
        Ns time = 0, timers = 0;
        for (const IdleSpan &x : st) {
            QCOMPARE(x.gapNs, Ns(20000));
            QVERIFY(x.needResched);
            time += x.gapNs + x.wakeNs;
            timers += x.timerNs;
        }
        QCOMPARE(time, Ns(8791334221));
        QCOMPARE(timers, Ns(9095112478));
    }

    void netBurstsByHand()
    {
        // Bursts of 3 packets 50 us apart (no jitter), 8 us of softirq each; the last packet of
        // every burst wakes the task (wake_pct=100), which runs 30 us after its softirq; no
        // timer but the 1000 s one. Inside a burst: 8 us of softirq, then 42 us to the next
        // packet; the first packet of a burst comes after an exponential gap.
        const IdleStream st =
            gen("net:burst_us=1000,packets=3,packet_gap_us=50,jitter_us=0,softirq_us=8,wake_pct=100,run_us=30,"
                "next_timer_us=0",
                30);
        Ns t = 0;
        for (size_t i = 0; i < st.size(); ++i) {
            const IdleSpan &x = st[i];
            QCOMPARE(x.gapNs, i == 0 ? Ns(30000) : i % 3 == 0 ? Ns(38000) : Ns(8000));
            if (i % 3 != 0)
                QCOMPARE(x.wakeNs, Ns(42000));
            QCOMPARE(x.needResched, i % 3 == 2);
            t += x.gapNs;
            QCOMPARE(t + x.timerNs, 1000 * NSEC_PER_SEC); // the one timer (next_timer_us=0: 1000 s), from each row
            t += x.wakeNs;
        }
        // wake_pct=0: no packet wakes a task; the CPU never leaves the idle loop.
        for (const IdleSpan &x : gen("net:wake_pct=0", 500))
            QVERIFY(!x.needResched);
    }

    void overlayInIdleWakeups()
    {
        // idleSystemInIdleRowsByHand's CPU (its rows: a task at 10 ms, kept ticks at 12 and 16 ms)
        // with a 1000 us handler (drawn in 500..1500 us), beside a timer-woken task (10 us of work,
        // then an interval, slack_us=0 so that it fires at the interval): the overlay's row that the tick at 12 ms ends is an in-idle wakeup,
        // unless the other task's timer fires inside that tick's handler (at 12.1 ms: inside
        // whatever the draw; at 13.6 ms: after it whatever the draw), which ends the stay.
        const char *idle = "idle:timer_us=100000000,max_idle_us=10000,irq_us=0,callback_us=0,rcu_ticks=2,"
                           "tick_wake_pct=0,"
                           "tick_us=4000,handler_us=1000,run_us=20";
        for (const auto &[intervalUs, wakesTask] : {std::pair{12090, true}, std::pair{13590, false}}) {
            const std::string spec = std::string(idle) + " + periodic:kind=timer,run_us=10,slack_us=0,interval_us="
                                     + std::to_string(intervalUs);
            const IdleStream st = gen(spec.c_str(), 3);
            // Rows: the task at 10 ms (from 0: the overlay starts idle), then the tick at 12 ms.
            QCOMPARE(st[0].wakeNs, Ns(10000000));
            QVERIFY(st[0].needResched);
            QCOMPARE(st[1].gapNs, Ns(20000));
            QCOMPARE(st[1].wakeNs, Ns(1980000));
            QCOMPARE(st[1].needResched, wakesTask);
        }
    }

    void mixKeepsAStayInOneMember()
    {
        // After an in-idle row the next row's gap is its handler's time: here 0 (handler_us=0),
        // never the other member's 500 us of work, though the mix draws a member every row.
        const IdleStream st = gen(
            "mix(idle:timer_us=100000000,max_idle_us=10000,irq_us=0,callback_us=0,rcu_ticks=2,tick_wake_pct=0,handler_us=0 | "
            "periodic:kind=timer,interval_us=300,run_us=500;block=1)",
            2000);
        std::int64_t inIdle = 0;
        for (size_t i = 0; i + 1 < st.size(); ++i)
            if (!st[i].needResched) {
                ++inIdle;
                QCOMPARE(st[i + 1].gapNs, Ns(0));
            }
        QVERIFY(inIdle > 100);
    }

    void cpusOfAWorkload()
    {
        // cpus= on any generator: the CPUs of a machine that run it; pingpong's ring counts
        // as its own; an overlay runs on as many CPUs as its widest generator; none given: 0.
        QCOMPARE(parseWorkloadSpec("io:device=emmc,cpus=6")->cpuCount(), 6);
        QCOMPARE(parseWorkloadSpec("pingpong:cpus=4")->cpuCount(), 4);
        QCOMPARE(parseWorkloadSpec("pingpong")->cpuCount(), 0);
        QCOMPARE(parseWorkloadSpec("video:cpus=1 + pingpong:cpus=3")->cpuCount(), 3);
        QCOMPARE(parseWorkloadSpec("tick")->cpuCount(), 0);
        // The stream is one CPU's: cpus= changes nothing in it.
        QCOMPARE(formatStreamCsv(gen("io:device=emmc,cpus=6", 100)), formatStreamCsv(gen("io:device=emmc", 100)));
        QVERIFY(err("io:cpus=0").contains("cpus = 0 is outside 1..4096"));
        QVERIFY(err("io:cpus=2/4").contains("cpus cannot be swept"));
    }

    void ioDevices_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<double>("meanUs");
        QTest::addColumn<double>("minUs");
        QTest::newRow("nvme") << "nvme" << 85.0 << 70.0;
        QTest::newRow("sata") << "sata" << 190.0 << 150.0;
        QTest::newRow("emmc") << "emmc" << 450.0 << 300.0;
        // waits=1: the profile's whole I/O as one wait (mtd's own 4 waits: ioWaitsPerOperation).
        QTest::newRow("mtd") << "mtd,waits=1" << 1000.0 << 700.0;
        QTest::newRow("nullblk") << "nullblk" << 4.0 << 3.0;
    }

    void ioDevices()
    {
        QFETCH(QString, device);
        QFETCH(double, meanUs);
        QFETCH(double, minUs);
        const QByteArray spec = ("io:device=" + device).toUtf8();
        const Stats s = stats(gen(spec.constData(), 40000));
        QCOMPARE(s.timerShare, 0.0); // completions are not timers, and all waits end before 5 ms
        QVERIFY2(near(s.meanWakeNs, meanUs * 1000, 0.03), qPrintable(QString::number(s.meanWakeNs)));
        QVERIFY(double(s.minWake) >= minUs * 1000);
        QCOMPARE(s.meanGapNs, 8000.0);
    }

    void ioWaitsPerOperation()
    {
        // A 400 us I/O (no tail) in 4 controller waits: 100 us each, the first after the 8 us
        // submission, the others after 10 us of driver time; every wait ends with an interrupt
        // (an event wake, no timer with next_timer_us=0). By hand: rows (8, 100), (10, 100),
        // (10, 100), (10, 100) us, then again.
        const IdleStream st = gen("io:device=custom,base_us=400,tail_us=0,waits=4,wait_cpu_us=10,next_timer_us=0", 8);
        const Ns gaps[4] = {8000, 10000, 10000, 10000};
        for (size_t i = 0; i < st.size(); ++i) {
            QCOMPARE(st[i].gapNs, gaps[i % 4]);
            QCOMPARE(st[i].wakeNs, Ns(100000));
            QVERIFY(!st[i].timerWake());
        }
        // An uneven split: 400003 ns in 4 waits is 100000, 100000, 100000 and 100003 ns.
        const IdleStream odd = gen("io:device=custom,base_us=400.003,tail_us=0,waits=4,next_timer_us=0", 4);
        QCOMPARE(odd[0].wakeNs, Ns(100000));
        QCOMPARE(odd[3].wakeNs, Ns(100003));
        // mtd's default is 4 waits: the 700 + 300 us profile as four quarter waits, each I/O's
        // 4 waits summing to its device time (mean 1000 us, at least 700), and 8 + 3 x 10 us of
        // CPU per I/O. The other devices keep one wait: nvme's stream is what it was.
        const IdleStream mtd = gen("io:device=mtd,next_timer_us=0", 40000);
        double sum = 0;
        for (size_t i = 0; i < mtd.size(); i += 4) {
            const Ns io = mtd[i].wakeNs + mtd[i + 1].wakeNs + mtd[i + 2].wakeNs + mtd[i + 3].wakeNs;
            QVERIFY(io >= 700000);
            QVERIFY(mtd[i + 3].wakeNs - mtd[i].wakeNs < 4); // the remainder of a split by 4
            QCOMPARE(mtd[i].gapNs + mtd[i + 1].gapNs + mtd[i + 2].gapNs + mtd[i + 3].gapNs, Ns(38000));
            sum += double(io);
        }
        QVERIFY2(near(sum / 10000.0, 1000000, 0.03), qPrintable(QString::number(sum / 10000.0)));
        QCOMPARE(formatStreamCsv(gen("io:device=nvme,waits=1", 200)), formatStreamCsv(gen("io:device=nvme", 200)));
        QVERIFY(err("io:waits=65").contains("waits = 65 is outside 0..64"));
    }

    void ioDmDelay()
    {
        // 51 ms completions with a timer every 5..15 ms: timers cut every wait;
        // completions still come every 51.07 ms + tail + 8 us of CPU time.
        const IdleStream st = gen("io:device=dmdelay", 20000);
        Ns t = 0, last = 0;
        std::int64_t completions = 0;
        double sum = 0;
        for (const IdleSpan &x : st) {
            t += x.gapNs + x.wakeNs;
            if (!x.timerWake()) {
                if (completions++ > 0)
                    sum += double(t - last);
                last = t;
            }
        }
        QVERIFY(completions > 1000);
        QVERIFY(near(sum / double(completions - 1), 51070000 + 15000 + 8000, 0.002));
    }

    void pingPong()
    {
        const IdleStream st = gen("pingpong:cpus=4,work_us=10,hop_us=3,jitter_us=1", 5000);
        for (const IdleSpan &x : st) {
            QVERIFY(!x.timerWake());
            QCOMPARE(x.gapNs, Ns(10000));
            QVERIFY(x.wakeNs >= 41000 && x.wakeNs <= 43000); // 3 * 10 + 4 * 3 = 42 us
        }
    }

    void video()
    {
        // 60 fps, 2 decoder waits per frame: three spans a frame, the last one
        // timer-ended on the frame boundary, each frame exactly 16666666 ns.
        const IdleStream st = gen("video:fps=60,decode_us=3000,hw_waits=2,hw_wait_us=400", 3000);
        for (size_t i = 0; i + 3 <= st.size(); i += 3) {
            QVERIFY(!st[i].timerWake());
            QVERIFY(!st[i + 1].timerWake());
            QVERIFY(st[i + 2].timerWake());
            QVERIFY(st[i].wakeNs >= 300000 && st[i].wakeNs <= 500000);
            Ns frame = 0;
            for (size_t k = i; k < i + 3; ++k)
                frame += st[k].wakeNs + (k == i + 2 ? st[k].gapNs : 0) + (k == i + 2 ? 0 : st[k].gapNs);
            QCOMPARE(frame, Ns(16666666));
        }
    }

    void serverAndPgbench()
    {
        const Stats s = stats(gen("server:mean_idle_us=50,service_us=30,timer_pct=2", 50000));
        QVERIFY(near(s.meanWakeNs, 50000, 0.03));
        QVERIFY(std::fabs(s.timerShare - 0.02) < 0.004);
        QVERIFY(near(s.meanGapNs, 30000, 0.05));

        const IdleStream pg = gen("pgbench:queries=4,rtt_us=30,commit_us=1000", 25000);
        double commit = 0, rtt = 0;
        for (size_t i = 0; i < pg.size(); ++i) {
            QVERIFY(!pg[i].timerWake());
            if (i % 5 == 4)
                commit += double(pg[i].wakeNs);
            else {
                QVERIFY(pg[i].wakeNs >= 21000 && pg[i].wakeNs <= 39000);
                rtt += double(pg[i].wakeNs);
            }
        }
        QVERIFY(near(commit / 5000.0, 1000000, 0.03));
        QVERIFY(near(rtt / 20000.0, 30000, 0.01));
    }

    void specSweeps()
    {
        Result<WorkloadSpec> s = parseWorkloadSpec("periodic:kind=ipi,interval_us=30..100:8,jitter_us=1");
        QVERIFY(s.ok());
        QCOMPARE(s->pointCount(), 8);
        QCOMPARE(QString::fromStdString(s->pointLabel(0)), QString("interval_us=30"));
        QCOMPARE(QString::fromStdString(s->pointLabel(7)), QString("interval_us=100"));
        QCOMPARE(s->sweep->values[1], std::int64_t(40000));
        QCOMPARE(generateStream(*s, 3, 5, 1).front().wakeNs >= 59000, true);

        Result<WorkloadSpec> list = parseWorkloadSpec("poisson:mean_us=2.5/10/100.125");
        QVERIFY(list.ok());
        QCOMPARE(list->sweep->values, (std::vector<std::int64_t>{2500, 10000, 100125}));
        QCOMPARE(QString::fromStdString(list->pointLabel(2)), QString("mean_us=100.125"));

        // Words sweep like numbers: one point per device, in the order written; point p's
        // stream is the single-device spec's for the same seed (every wake of a device is at
        // least its base time: emmc 300 us, nvme 70 us, sata 150 us).
        Result<WorkloadSpec> words = parseWorkloadSpec("io:device=emmc/nvme/sata,submit_us=5");
        QVERIFY2(words.ok(), words.ok() ? "" : words.error().toString().c_str());
        QCOMPARE(words->pointCount(), 3);
        QCOMPARE(words->sweep->values, (std::vector<std::int64_t>{2, 0, 1}));
        QCOMPARE(QString::fromStdString(words->pointLabel(0)), QString("device=emmc"));
        QCOMPARE(QString::fromStdString(words->pointLabel(1)), QString("device=nvme"));
        QCOMPARE(QString::fromStdString(words->pointLabel(2)), QString("device=sata"));
        const char *single[] = {"io:device=emmc,submit_us=5", "io:device=nvme,submit_us=5",
                                "io:device=sata,submit_us=5"};
        const Ns base[] = {300000, 70000, 150000};
        for (int p = 0; p < 3; ++p) {
            const IdleStream swept = generateStream(*words, p, 9, 200);
            QCOMPARE(formatStreamCsv(swept), formatStreamCsv(gen(single[p], 200, 9)));
            for (const IdleSpan &x : swept)
                QVERIFY(x.wakeNs >= base[p] || x.timerWake());
        }
        QVERIFY(err("io:device=emmc/ssd")
                    .contains("device is one of: nvme, sata, emmc, mtd, nullblk, dmdelay, custom (got 'ssd')"));
        QVERIFY(err("io:device=emmc/nvme,submit_us=1/2").contains("only one parameter may be swept"));

        Result<WorkloadSpec> sweep = parseWorkloadSpec("sweep:kind=timer");
        QVERIFY(sweep.ok());
        QCOMPARE(sweep->pointCount(), 28);
        QCOMPARE(QString::fromStdString(sweep->pointLabel(0)), QString("interval_us=5"));
        QCOMPARE(QString::fromStdString(sweep->pointLabel(27)), QString("interval_us=1000"));
        // The 1000 us point of a SCHED_NORMAL sleeper: 1000 + 50 us of slack.
        QCOMPARE(generateStream(*sweep, 27, 1, 1).front().wakeNs, Ns(1050000));
        QVERIFY(generateStream(*sweep, 27, 1, 1).front().timerWake());

        Result<WorkloadSpec> none = parseWorkloadSpec("tick");
        QVERIFY(none.ok());
        QCOMPARE(none->pointCount(), 1);
        QCOMPARE(QString::fromStdString(none->pointLabel(0)), QString("all"));
    }

    void decimalsReadAsTheGrammarWritesThem()
    {
        // readDecimal(): the grammar's one number reader (compare's --duration and
        // --latency-limit too); formatParamValue() writes what it reads.
        using F = DecimalFault;
        const auto read = [](const char *t, std::int64_t scale) { return readDecimal(t, scale); };
        QCOMPARE(read("12.5", 1000).value, 12500);
        QCOMPARE(read("0.001", 1000).value, 1);
        QCOMPARE(read("7", 1000).value, 7000);
        QCOMPARE(read("7", 1).value, 7);
        QCOMPARE(read("1.2345", 1000).fault, F::TooManyDecimals);
        QCOMPARE(read("-5", 1000).fault, F::Negative);
        QCOMPARE(read("-", 1000).fault, F::NotANumber);
        QCOMPARE(read("", 1000).fault, F::NotANumber);
        QCOMPARE(read("5us", 1000).fault, F::NotANumber);
        QCOMPARE(read("5.", 1000).fault, F::NotANumber); // --duration refused it; the grammar now too
        QCOMPARE(read("2.5", 1).fault, F::NotANumber);   // a count has no decimals
        // INT64_MAX is 9223372036854775807: 9223372036854775.807 thousandths fit, .808 and
        // ten times the whole part do not (the reader overflowed on the decimals before).
        QCOMPARE(read("9223372036854775.807", 1000).value, std::numeric_limits<std::int64_t>::max());
        QCOMPARE(read("9223372036854775.808", 1000).fault, F::TooLarge);
        QCOMPARE(read("92233720368547758", 1000).fault, F::TooLarge);
        const ParamInfo us{"x", ParamUnit::Us, 0, 0, 0, ""};
        for (const std::int64_t held : {std::int64_t(0), std::int64_t(1), std::int64_t(12500), std::int64_t(86400000)})
            QCOMPARE(read(formatParamValue(us, held).c_str(), 1000).value, held);
    }

    void specErrors()
    {
        QVERIFY(err("").contains("empty workload"));
        QVERIFY(err("perodic").contains("column 1: unknown generator 'perodic'"));
        QVERIFY(err("periodic:intervl_us=5").contains("column 10: periodic has no parameter 'intervl_us'"));
        QVERIFY(err("periodic:kind=irq").contains("kind is one of: timer, ipi, pipe"));
        QVERIFY(err("periodic:interval_us=1.2345").contains("at most 3 decimals"));
        QVERIFY(err("periodic:interval_us=5us").contains("not a number in us"));
        QVERIFY(err("pingpong:cpus=1").contains("cpus = 1 is outside 2..4096"));
        QVERIFY(err("pingpong:cpus=2.5").contains("whole numbers only"));
        QVERIFY(err("periodic:interval_us=1..5:3,jitter_us=1/2").contains("only one parameter may be swept"));
        QVERIFY(err("periodic:interval_us=5..1:3").contains("FROM <= TO"));
        QVERIFY(err("periodic:interval_us=1..5").contains("needs a point count"));
        QVERIFY(err("periodic:interval_us=5,interval_us=6").contains("given twice"));
        QVERIFY(err("mix(periodic)").contains("at least two members"));
        QVERIFY(err("mix(periodic | tick").contains("expected '|', ';block=N' or ')'"));
        QVERIFY(err("periodic extra").contains("unexpected 'e'"));
        QVERIFY(err("periodic:util=2000").contains("util = 2000 is outside 0..1024"));
        QVERIFY(err("periodic:util=1/2").contains("util cannot be swept"));
        QCOMPARE(QString::fromStdString(parseWorkloadSpec("tick:idle_us=0").error().field), QString("workload"));
    }

    void latencyReqAndUtil()
    {
        const IdleStream st = gen("periodic:latency_req_us=20,util=300", 3);
        for (const IdleSpan &x : st) {
            QCOMPARE(x.latencyReqNs, Ns(20000));
            QCOMPARE(x.util, 300);
        }
        QCOMPARE(gen("periodic:latency_req_us=none", 1).front().latencyReqNs, NO_LATENCY_REQ);
    }

    void overlayTimeline()
    {
        // IPIs every 300 us and a 1 ms timer, no busy time: the timer stays
        // visible as the sleep length and ends the span at each millisecond
        // (slack_us=0: the test is about the overlay, not the timer's slack).
        const IdleStream st = gen("periodic:kind=ipi,interval_us=300,run_us=0,next_timer_us=0 + "
                                  "periodic:kind=timer,interval_us=1000,run_us=0,slack_us=0",
                                  6);
        const Ns expect[6][3] = {// gap, timer, wake
                                 {0, 700000 + 300000, 300000}, {0, 700000, 300000},  {0, 400000, 300000},
                                 {0, 100000, 100000},          {0, 1000000, 200000}, {0, 800000, 300000}};
        for (int i = 0; i < 6; ++i) {
            QCOMPARE(st[size_t(i)].gapNs, expect[i][0]);
            QCOMPARE(st[size_t(i)].timerNs, expect[i][1]);
            QCOMPARE(st[size_t(i)].wakeNs, expect[i][2]);
        }
    }

    void overlayBusyAbsorbsEvents()
    {
        // Events every 10 us with 4 us of work each, plus a 50 us event stream with
        // 30 us of work: events that arrive during the 30 us run extend it.
        const IdleStream st = gen("periodic:kind=ipi,interval_us=6,run_us=4,next_timer_us=0 + "
                                  "periodic:kind=ipi,interval_us=20,run_us=30,next_timer_us=0",
                                  200);
        Ns t = 0;
        for (const IdleSpan &x : st) {
            QVERIFY(x.wakeNs <= x.timerNs);
            QVERIFY(x.gapNs >= 0 && x.wakeNs >= 0);
            t += x.gapNs + x.wakeNs;
        }
        QVERIFY(t > 200 * 4000);
        // The merged CPU starts idle; the components' first gaps only place their first events
        // (10 us and 50 us). Wakes at 10, 20, 30, 40 and 50 us each bring 4 us of work ...
        QCOMPARE(st[0].gapNs, Ns(0));
        QCOMPARE(st[0].wakeNs, Ns(10000));
        for (int i = 1; i <= 4; ++i) {
            QCOMPARE(st[size_t(i)].gapNs, Ns(4000));
            QCOMPARE(st[size_t(i)].wakeNs, Ns(6000));
        }
        // ... then the 50 us event's 30 us run absorbs the events at 60..90 us (4 us each):
        // busy from 50 to 100 us, and the events due at 100 us end a zero-length span.
        QCOMPARE(st[5].gapNs, Ns(50000));
        QCOMPARE(st[5].wakeNs, Ns(0));
    }

    void saturatedOverlayEndsASpanEvery10000Events()
    {
        // Issue 15 (fuzz_workload_spec, `video:fps=810 +sweep`): components that bring more work
        // than the CPU does make a busy period that never ends; each span absorbed up to
        // 1,000,000 events (21 s for 300 spans under ASan). Now 10,000 (MAX_ABSORBED_EVENTS).
        // A, B and C: an event every 2 us each (interval 1 + run 1) bringing 1 us of work, 150 %
        // in all, so that a busy period never ends. All first wake at 2 us (first gap + wake).
        // By hand, with ties going to the first component:
        //  span 0: idle 0..2 us; A@2's work makes the CPU busy until 3 us;
        //  span 1: B@2, C@2, A@4, B@4, C@4 ... are absorbed, 1 us each: after 10,000 events
        //    (the last B@6668) busy until 3 + 10000 = 10003 us, C@6668 long due: no idle;
        //    gap 10003 - 2 = 10001 us; C@6668's event brings 1 us (busy until 10004);
        //  span 2: 10,000 more: busy until 20004, the next event due long before: no idle,
        //    gap 20004 - 10003 = 10001 us; and so on, every 10,001 us, the backlog growing.
        // (With the old bound each gap was 100 times longer: 1000 s in 100 spans.)
        // (interval_us=0 is refused since issue 14: a span of no idle time is no idle period.)
        const std::string every2us = "periodic:kind=ipi,interval_us=1,run_us=1,next_timer_us=0";
        const IdleStream st = gen((every2us + " + " + every2us + " + " + every2us).c_str(), 8);
        QCOMPARE(st.size(), size_t(8));
        QCOMPARE(st[0].gapNs, Ns(0));
        QCOMPARE(st[0].wakeNs, Ns(2000));
        for (size_t i = 1; i < st.size(); ++i) {
            QCOMPARE(st[i].gapNs, Ns(10001000));
            QCOMPARE(st[i].wakeNs, Ns(0));
        }
    }

    void mixShares()
    {
        // slack_us=0: the test counts the members' exact intervals, not the timers' slack.
        const IdleStream st = gen(
            "mix(1*periodic:kind=timer,interval_us=10,slack_us=0 | 3*periodic:kind=timer,interval_us=20,slack_us=0)",
            40000);
        std::int64_t tens = 0;
        for (const IdleSpan &x : st)
            tens += x.wakeNs == 10000;
        QVERIFY(std::fabs(double(tens) / 40000.0 - 0.25) < 0.015);
        // block=5: members come in runs of exactly 5.
        const IdleStream blocks =
            gen("mix(periodic:kind=timer,interval_us=10 | periodic:kind=timer,interval_us=20;block=5)", 1000);
        for (size_t i = 0; i < blocks.size(); i += 5)
            for (size_t k = i + 1; k < i + 5; ++k)
                QCOMPARE(blocks[k].wakeNs, blocks[i].wakeNs);
    }

    void referenceListsEveryGenerator()
    {
        const std::string ref = workloadReference();
        for (const GeneratorInfo &g : allGenerators()) {
            QVERIFY(ref.find(std::string("  ") + g.name + ": ") != std::string::npos);
            for (const ParamInfo &p : g.params)
                QVERIFY(ref.find(std::string(p.name) + "=") != std::string::npos);
        }
        // At least 1 ns: a span of no idle time is refused (the GUI accepted interval 0, audit).
        QVERIFY(ref.find("interval_us=100 (us, 0.001..100000000)") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestWorkloads)
#include "tst_workloads.moc"
