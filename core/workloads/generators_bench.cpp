// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The benchmarks of the kernel PM threads, each modelled from what its source
 * does: the cpuidle_wakeup test of the POWER threads (a waker and a wakee, pipe
 * or timer wakeups), schbench (message threads waking workers) and SQLite
 * transactions that end in fsync(). Each class reads its parameters once (held units: ns,
 * milli-percent) and draws only from its own Rng, so a seed always gives the
 * same spans. docs/workloads.md says what each one models and leaves out.
 */
#include "core/workloads/generator_base.h"
#include "core/workloads/workload_spec.h"

#include <algorithm>

namespace idlescope::workloads {

namespace {

// --- cpuidle_wakeup ---------------------------------------------------------------

constexpr const char *kWakeupKinds[] = {"timer", "pipe"};

constexpr ParamInfo kCpuidleWakeupParams[] = {
    {"kind", ParamUnit::Choice, 0, 0, 1,
     "timer (-t, the default): the wakee nanosleeps period_us after its work; pipe (-p): the waker "
     "spins period_us, then writes to the wakee's pipe",
     kWakeupKinds},
    {"period_us", ParamUnit::Us, 100 * US, 1, MAX_US,
     "the test's -s sleep interval (100 by default). -s takes whole us (strtoul: -s 0.5 is 0 us); a "
     "fraction here has no -s that runs it"},
    {"busy_us", ParamUnit::Us, 5430, 0, MAX_US,
     "the wakee CPU's time out of idle per wakeup (wake path, read or nanosleep return, clock reads, "
     "the syscall back in)"},
    {"write_us", ParamUnit::Us, 1670, 0, MAX_US,
     "pipe: the waker's write and clock reads per cycle; its spin restarts after them, so a cycle "
     "is period_us + write_us"},
    {"slack_us", ParamUnit::Us, 0, 0, MAX_US,
     "timer: the wakee's hrtimer slack (0: it runs SCHED_FIFO; 50 for a SCHED_NORMAL wakee)"},
    {"jitter_us", ParamUnit::Us, 0, 0, MAX_US, "uniform +/- jitter on each period"},
    {"next_timer_us", ParamUnit::Us, 10000 * US, 0, MAX_US,
     "pipe: distance of the wakee CPU's next unrelated timer (drawn in [x/2, 3x/2]; 0 = none)"},
};

/*
 * The cpuidle_wakeup test (AboorvaDevarajan/linux-utils, cpuidle/cpuidle_wakeup),
 * seen from the wakee's CPU.
 *
 * pipe: the waker takes the time, spins until period_us has passed, takes the
 * time again and writes one byte to the pipe, then starts over; its cycle is
 * period + the write's cost, whatever the wakee does. The wakee, woken by the
 * write, runs busy_us and blocks in read() again, so its CPU idles
 * period + write - busy of each cycle, and no timer announces the wakeup.
 *
 * timer: the wakee calls nanosleep(period) after its own work: each cycle is
 * busy + period + slack, and the idle is period + slack (the hard expiry,
 * docs/workloads.md "hrtimer slack"). The wakee runs SCHED_FIFO, so its
 * slack is 0 unless slack_us says otherwise.
 */
class CpuidleWakeupGenerator final : public GeneratorBase {
public:
    CpuidleWakeupGenerator(const ParamValues &p, std::uint64_t seed)
        : GeneratorBase(seed, p.get("next_timer_us")), m_timerKind(p.get("kind") == 0), m_periodNs(p.get("period_us")),
          m_busyNs(p.get("busy_us")), m_writeNs(p.get("write_us")), m_slackNs(p.get("slack_us")),
          m_jitterNs(p.get("jitter_us"))
    {
    }

protected:
    IdleSpan produce() override
    {
        if (m_timerKind)
            return timerWake(m_busyNs, m_rng.jitter(m_periodNs, m_jitterNs, 1) + m_slackNs);
        // A wakee slower than this cycle of the waker finds the next byte already in the
        // pipe: read() returns at once and its CPU does not idle, so the wakeup's busy_us
        // joins the next span's gap (MAX_FOLDED_WAITS).
        return firstIdleWait([this] {
            return Wait{m_busyNs, m_rng.jitter(m_periodNs, m_jitterNs, 1) + m_writeNs - m_busyNs};
        });
    }

private:
    bool m_timerKind;
    Ns m_periodNs, m_busyNs, m_writeNs, m_slackNs, m_jitterNs;
};

std::string checkCpuidleWakeup(const ParamValues &p, std::uint32_t written)
{
    const bool timer = p.get("kind") == 0;
    if (!timer && isWritten(p, written, "slack_us"))
        return "slack_us acts on kind=timer only: the pipe's wakee is woken by the waker's write, no timer of "
               "its own";
    if (timer && isWritten(p, written, "write_us"))
        return "write_us acts on kind=pipe only: in timer mode the wakee's own nanosleep sets the cycle";
    if (timer && isWritten(p, written, "next_timer_us"))
        return "next_timer_us acts on kind=pipe only: in timer mode the wakee's own timer ends every idle period";
    // pipe: the longest cycle the waker can have is period + jitter + write; a wakee busy
    // that long finds every byte already in the pipe and never idles.
    if (p.get("kind") == 1 && p.get("period_us") + p.get("jitter_us") + p.get("write_us") <= p.get("busy_us"))
        return "kind=pipe with busy_us=" + formatParamValue(p.info->params[2], p.get("busy_us"))
               + " at least period_us + jitter_us + write_us: the wakee finds every byte already in the pipe "
                 "and never idles";
    return {};
}

// --- schbench -----------------------------------------------------------------------

constexpr const char *kSchbenchRoles[] = {"worker", "message"};

constexpr ParamInfo kSchbenchParams[] = {
    {"role", ParamUnit::Choice, 0, 0, 1,
     "the CPU seen: worker (a worker thread's CPU) or message (a message thread's CPU)", kSchbenchRoles},
    {"workers", ParamUnit::Count, 4, 1, 4096, "-t: worker threads per message thread (role=message)"},
    {"sleep_us", ParamUnit::Us, 100 * US, 0, MAX_US, "-s: the worker's usleep() before its work"},
    {"slack_us", ParamUnit::Us, TIMER_SLACK_DEFAULT_NS, 0, MAX_US,
     "the worker's hrtimer slack (50: SCHED_NORMAL): usleep(s) wakes after s + slack"},
    {"work_us", ParamUnit::Us, 50 * US, 0, MAX_US,
     "CPU time of the worker's -n operations of matrix arithmetic (measure with schbench -C)"},
    {"reply_us", ParamUnit::Us, 10 * US, 1, MAX_US,
     "the worker's futex wait from its post to the message thread's wake (+/- 30 %)"},
    {"run_us", ParamUnit::Us, 2 * US, 0, MAX_US, "the worker's time from that wake to its usleep()"},
    {"msg_us", ParamUnit::Us, 3 * US, 0, MAX_US, "the message thread's CPU time per post it answers"},
    {"next_timer_us", ParamUnit::Us, 10000 * US, 0, MAX_US,
     "distance of the CPU's next unrelated timer for its event waits (drawn in [x/2, 3x/2]; 0 = none)"},
};

/*
 * schbench (masoncl/schbench, schbench.c), its default mode (no -R, no -p). A
 * worker posts its message thread (puts itself on the thread's list, futex
 * wake) and waits on its own futex; the message thread wakes every listed
 * worker and waits again. The woken worker records its wakeup latency (from
 * the message thread's wake to its own run), then usleep(sleep_usec), then
 * its work, then posts again.
 *
 * role=worker: the worker's CPU alternates the futex wait (an event wake, the
 * message thread's answer after reply_us +/- 30 %) and the usleep (a timer
 * wake at sleep + slack, the worker being SCHED_NORMAL), with run_us before
 * the usleep and work_us after it.
 *
 * role=message: the message thread's CPU is woken by the posts of its workers,
 * each once per worker cycle (reply + run + sleep + slack + work); the workers
 * drift apart, so the posts are modelled as a Poisson stream of that rate times
 * workers, each answered in msg_us. The post interval, cycle / workers, is the
 * answer's msg_us plus an exponential idle of mean cycle / workers - msg_us, so
 * the thread answers workers posts a cycle (an idle drawn as 0 is a post already
 * waiting: folded). When msg_us is no shorter than cycle / workers the thread
 * never idles (the real one is saturated, its workers wait longer): refused.
 */
/// role=message: the mean time between two posts, one worker cycle over the workers.
Ns postIntervalNs(const ParamValues &p)
{
    const Ns sleep = p.get("sleep_us") > 0 ? p.get("sleep_us") + p.get("slack_us") : 0;
    const Ns cycle = p.get("reply_us") + p.get("run_us") + sleep + p.get("work_us");
    return cycle / p.get("workers");
}

class SchbenchGenerator final : public GeneratorBase {
public:
    SchbenchGenerator(const ParamValues &p, std::uint64_t seed)
        : GeneratorBase(seed, p.get("next_timer_us")), m_worker(p.get("role") == 0),
          m_sleepNs(p.get("sleep_us") > 0 ? p.get("sleep_us") + p.get("slack_us") : 0), m_workNs(p.get("work_us")),
          m_replyNs(p.get("reply_us")), m_runNs(p.get("run_us")), m_msgNs(p.get("msg_us"))
    {
        m_idleMeanNs = std::max<Ns>(1, postIntervalNs(p) - m_msgNs);
    }

protected:
    IdleSpan produce() override
    {
        if (!m_worker) {
            // A post that arrives while the thread still answers the previous one: no idle.
            return firstIdleWait([this] { return Wait{m_msgNs, m_rng.exponential(m_idleMeanNs)}; });
        }
        // schbench's worker calls usleep() only when sleep_usec > 0: with -s 0 its CPU
        // goes from the wake (run_us) straight to its work and the next futex wait.
        if (m_sleepNs == 0)
            return eventWake(m_runNs + m_workNs, m_rng.jitter(m_replyNs, m_replyNs * 3 / 10, 1));
        m_inSleep = !m_inSleep;
        if (m_inSleep)
            return timerWake(m_runNs, m_sleepNs);
        return eventWake(m_workNs, m_rng.jitter(m_replyNs, m_replyNs * 3 / 10, 1));
    }

private:
    bool m_worker;
    Ns m_sleepNs, m_workNs, m_replyNs, m_runNs, m_msgNs, m_idleMeanNs = 1;
    bool m_inSleep = true; ///< the stream starts with the futex wait
};

std::string checkSchbench(const ParamValues &p, std::uint32_t written)
{
    if (p.get("role") == 0) {
        for (const char *name : {"workers", "msg_us"})
            if (isWritten(p, written, name))
                return std::string(name) + " acts on role=message only: a worker's CPU does not run the message thread";
    }
    if (p.get("role") == 1 && postIntervalNs(p) <= p.get("msg_us")) {
        const ParamInfo &us = p.info->params[static_cast<size_t>(p.info->paramIndex("msg_us"))];
        return "role=message with workers=" + std::to_string(p.get("workers")) + ": a post every "
               + formatParamValue(us, postIntervalNs(p)) + " us (a worker cycle / workers), no longer than msg_us="
               + formatParamValue(us, p.get("msg_us")) + ": the message thread never idles";
    }
    if (p.get("sleep_us") == 0 && isWritten(p, written, "slack_us"))
        return "slack_us acts only when sleep_us > 0: with -s 0 the worker never calls usleep()";
    return {};
}

// --- SQLite commits and fsync() --------------------------------------------------------

constexpr const char *kJournalModes[] = {"delete", "wal"};

constexpr ParamInfo kSqliteParams[] = {
    {"journal", ParamUnit::Choice, 0, 0, 1,
     "delete (the default rollback journal: the journal's fsync, then the database's, a transaction) or "
     "wal (synchronous=FULL: one fsync of the WAL a transaction)",
     kJournalModes},
    {"stmt_us", ParamUnit::Us, 40 * US, 0, MAX_US, "CPU time of a transaction's statements (one INSERT)"},
    {"fsync_waits", ParamUnit::Count, 2, 1, 64,
     "device waits per fsync(): ext4 ordered mode writes the data, then jbd2 commits (journal block with "
     "a cache flush)"},
    {"write_us", ParamUnit::Us, 100 * US, 0, MAX_US, "fastest device write (each wait)"},
    {"tail_us", ParamUnit::Us, 50 * US, 0, MAX_US, "mean exponential tail above write_us"},
    {"fs_us", ParamUnit::Us, 10 * US, 0, MAX_US, "CPU time between two waits (file system, block layer, SQLite)"},
    {"next_timer_us", ParamUnit::Us, NEXT_TIMER_DEFAULT, 0, MAX_US, kNextTimerHelp},
};

/*
 * A loop of SQLite transactions, each one INSERT committed with
 * synchronous=FULL, seen from the inserting task's CPU. A rollback-journal
 * commit (journal_mode=DELETE, SQLite's default) writes and fsync()s the
 * journal, then writes and fsync()s the database (sqlite.org, "Atomic Commit
 * In SQLite"); a WAL commit fsync()s the WAL only ("WAL uses many fewer
 * fsync() operations", sqlite.org/wal.html). Each fsync() on ext4 waits for
 * fsync_waits device completions (the data, then jbd2's commit); every wait
 * ends with a completion interrupt, an event wake no timer announces.
 */
class SqliteGenerator final : public GeneratorBase {
public:
    SqliteGenerator(const ParamValues &p, std::uint64_t seed)
        : GeneratorBase(seed, p.get("next_timer_us")), m_stmtNs(p.get("stmt_us")), m_writeNs(p.get("write_us")),
          m_tailNs(p.get("tail_us")), m_fsNs(p.get("fs_us"))
    {
        const std::int64_t fsyncs = p.get("journal") == 0 ? 2 : 1;
        m_waits = fsyncs * p.get("fsync_waits");
    }

protected:
    IdleSpan produce() override
    {
        // A write the device finishes in 0 ns makes no wait: its CPU time joins the next gap.
        return firstIdleWait([this] {
            const Ns gap = m_step == 0 ? m_stmtNs : m_fsNs;
            m_step = m_step + 1 < m_waits ? m_step + 1 : 0;
            return Wait{gap, m_writeNs + m_rng.exponential(m_tailNs)};
        });
    }

private:
    Ns m_stmtNs, m_writeNs, m_tailNs, m_fsNs;
    std::int64_t m_waits = 1, m_step = 0;
};

std::string checkSqlite(const ParamValues &p, std::uint32_t)
{
    if (p.get("write_us") == 0 && p.get("tail_us") == 0)
        return "write_us=0 and tail_us=0: no fsync() ever waits for the device, so the CPU never idles";
    return {};
}

constexpr GeneratorInfo kBench[] = {
    {"cpuidle_wakeup",
     "the POWER threads' cpuidle_wakeup test: a waker wakes a wakee every period, by pipe or by its own "
     "nanosleep; the wakee's CPU",
     kCpuidleWakeupParams, makeGenerator<CpuidleWakeupGenerator>, checkCpuidleWakeup},
    {"schbench",
     "schbench: workers post a message thread and wait for its wake, then usleep and work; a worker's or a "
     "message thread's CPU",
     kSchbenchParams, makeGenerator<SchbenchGenerator>, checkSchbench},
    {"sqlite", "SQLite transactions committed with fsync(): rollback journal or WAL; the inserting CPU", kSqliteParams,
     makeGenerator<SqliteGenerator>, checkSqlite},
};

} // namespace

std::span<const GeneratorInfo> benchmarkGenerators()
{
    return kBench;
}

} // namespace idlescope::workloads
