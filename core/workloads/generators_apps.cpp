// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Application-shaped generators: synchronous I/O at queue depth 1, a token
 * passed around N CPUs, video playback, a request/response server with few
 * timers (SPECjbb-like), a pgbench-like client/server pattern and network
 * packet bursts whose softirq mostly wakes no task.
 *
 * The device latencies are io_devices.h's, shared with the closed loop's io.
 */
#include "core/workloads/generator_base.h"
#include "core/workloads/io_devices.h"
#include "core/workloads/io_interrupts.h"

#include <algorithm>
#include <iterator>

namespace idlescope::workloads {

namespace {

// --- I/O completion ------------------------------------------------------------

constexpr const char *kIrqRoutes[] = {"auto", "local", "cpu0"};

constexpr ParamInfo kIoParams[] = {
    {"device", ParamUnit::Choice, 0, 0, 6,
     "latency profile: nvme 70+15, sata 150+40, emmc 300+150, mtd 700+300, nullblk 3+1, "
     "dmdelay 51070+15 (base + mean tail, us), custom = base_us/tail_us",
     kDevices},
    {"base_us", ParamUnit::Us, 100 * US, 0, MAX_US, "device=custom: fastest completion"},
    {"tail_us", ParamUnit::Us, 20 * US, 0, MAX_US, "device=custom: mean exponential tail"},
    {"submit_us", ParamUnit::Us, 8 * US, 0, MAX_US, "CPU time per I/O (completion + next submission)"},
    {"next_timer_us", ParamUnit::Us, NEXT_TIMER_DEFAULT, 0, MAX_US, kNextTimerHelp},
    {"numjobs", ParamUnit::Count, 1, 1, 4096, "fio jobs, one per CPU: the CPUs of a machine that submit (as cpus=)"},
    {"irq", ParamUnit::Choice, 0, 0, 2,
     "CPU that takes the completion interrupt on a machine: local (the submitting CPU: NVMe's "
     "per-queue vectors, null_blk), cpu0 (one vector routed to CPU 0: eMMC, SATA, MTD); auto = "
     "local for nvme, nullblk, dmdelay, custom, cpu0 for the others",
     kIrqRoutes},
    {"hardirq_us", ParamUnit::Us, 5 * US, 0, MAX_US, "irq=cpu0: CPU time of each completion interrupt on CPU 0"},
    {"waits", ParamUnit::Count, 0, 0, 64,
     "controller waits per I/O, the device time split evenly among them (0 = the device's: 4 for mtd, "
     "2 NAND pages x array read + transfer; 1 for the others)"},
    {"wait_cpu_us", ParamUnit::Us, 10 * US, 0, MAX_US,
     "waits > 1: the driver's CPU time between two waits of one I/O (next command, ECC, PIO copy)"},
};

class IoGenerator final : public GeneratorBase {
public:
    IoGenerator(const ParamValues &p, std::uint64_t seed)
        : GeneratorBase(seed, p.get("next_timer_us")), m_submitNs(p.get("submit_us")), m_waitCpuNs(p.get("wait_cpu_us"))
    {
        const auto d = static_cast<size_t>(p.get("device"));
        m_profile = d < std::size(kProfiles) ? kProfiles[d] : DeviceProfile{p.get("base_us"), p.get("tail_us")};
        m_waits = ioWaitsPerIo(p.get("device"), p.get("waits"));
    }

protected:
    IdleSpan produce() override
    {
        // The completion interrupt is announced by no timer. With several waits per I/O the
        // device time of the whole I/O is drawn once and split evenly (the last wait takes the
        // remainder); each wait ends with the controller's interrupt, and the driver runs
        // wait_cpu_us before the next one. The first wait follows the submission.
        // A wait of 0 ns (a device that answers at once, or an I/O shorter than its waits) is
        // no idle period: its CPU time joins the next span's gap (MAX_FOLDED_WAITS).
        return firstIdleWait([this] {
            if (m_step == 0)
                m_ioNs = drawDeviceNs(m_rng, m_profile);
            const Ns wait = ioWaitNs(m_ioNs, m_waits, m_step);
            const Ns gap = m_step == 0 ? m_submitNs : m_waitCpuNs;
            m_step = m_step + 1 < m_waits ? m_step + 1 : 0;
            return Wait{gap, wait};
        });
    }

private:
    Ns m_submitNs, m_waitCpuNs;
    DeviceProfile m_profile{};
    std::int64_t m_waits = 1, m_step = 0;
    Ns m_ioNs = 0;
};

/// The device waits of one I/O: waits, or the device's (ioWaitsPerIo()).
std::int64_t waitsPerIo(const ParamValues &p)
{
    return ioWaitsPerIo(p.get("device"), p.get("waits"));
}

std::string checkIo(const ParamValues &p, std::uint32_t written)
{
    const std::int64_t waits = waitsPerIo(p);
    if (waits <= 1 && isWritten(p, written, "wait_cpu_us"))
        return IO_WAIT_CPU_NEEDS_WAITS;
    // A device profile holds its own base and tail: a written base_us or tail_us would be
    // dropped without a word ("io:device=nvme,base_us=10" ran NVMe's 70 us). A value at its
    // default is not written (the window writes every parameter out).
    if (p.get("device") != IO_DEVICE_CUSTOM)
        for (const char *name : {"base_us", "tail_us"})
            if (isWritten(p, written, name))
                return std::string(name)
                       + " acts on device=custom only: device=" + kDevices[static_cast<size_t>(p.get("device"))]
                       + " has its own base and tail (write device=custom,base_us=...,tail_us=... for a "
                         "measured device)";
    if (p.get("device") == IO_DEVICE_CUSTOM && p.get("base_us") == 0 && p.get("tail_us") == 0)
        return "device=custom with base_us=0 and tail_us=0: no I/O ever waits for the device, so the CPU never "
               "idles";
    return {};
}

// --- token ping-pong ---------------------------------------------------------------

constexpr ParamInfo kPingPongParams[] = {
    {"cpus", ParamUnit::Count, 2, 2, 4096, "CPUs the token travels around"},
    {"work_us", ParamUnit::Us, 10 * US, 0, MAX_US, "work per hop (busy time on each CPU)"},
    {"hop_us", ParamUnit::Us, 3 * US, 0, MAX_US, "wakeup transfer time per hop (IPI + wakeup)"},
    {"jitter_us", ParamUnit::Us, 1 * US, 0, MAX_US, "uniform +/- jitter on each idle time"},
    {"next_timer_us", ParamUnit::Us, NEXT_TIMER_DEFAULT, 0, MAX_US, kNextTimerHelp},
};

class PingPongGenerator final : public GeneratorBase {
public:
    PingPongGenerator(const ParamValues &p, std::uint64_t seed)
        : GeneratorBase(seed, p.get("next_timer_us")), m_workNs(p.get("work_us")), m_jitterNs(p.get("jitter_us"))
    {
        // One CPU waits while the token does cpus-1 pieces of work elsewhere
        // and cpus hops (the last one back to it).
        const std::int64_t n = p.get("cpus");
        m_waitNs = (n - 1) * m_workNs + n * p.get("hop_us");
    }

protected:
    IdleSpan produce() override { return eventWake(m_workNs, m_rng.jitter(m_waitNs, m_jitterNs)); }

private:
    Ns m_workNs, m_jitterNs, m_waitNs = 0;
};

// --- video playback ------------------------------------------------------------------

constexpr ParamInfo kVideoParams[] = {
    {"fps", ParamUnit::Hz, 60000, 1000, 1000000, "frame rate; each frame ends on a timer (vsync)"},
    {"decode_us", ParamUnit::Us, 3000 * US, 0, MAX_US, "CPU time per frame, split into bursts"},
    {"hw_waits", ParamUnit::Count, 2, 0, 64, "waits for the hardware decoder's interrupt per frame"},
    {"hw_wait_us", ParamUnit::Us, 400 * US, 0, MAX_US, "length of each decoder wait (+/- 25 %)"},
    {"next_timer_us", ParamUnit::Us, NEXT_TIMER_DEFAULT, 0, MAX_US, kNextTimerHelp},
};

class VideoGenerator final : public GeneratorBase {
public:
    VideoGenerator(const ParamValues &p, std::uint64_t seed)
        : GeneratorBase(seed, p.get("next_timer_us")), m_frameNs(1000LL * NSEC_PER_SEC / p.get("fps")),
          m_waits(p.get("hw_waits")), m_waitNs(p.get("hw_wait_us"))
    {
        m_burstNs = p.get("decode_us") / (m_waits + 1);
    }

protected:
    IdleSpan produce() override
    {
        // Bursts of decode work separated by decoder waits, then idle until
        // the next frame boundary (absolute multiples of the frame period).
        if (m_step < m_waits) {
            ++m_step;
            const Ns wait = m_rng.jitter(m_waitNs, m_waitNs / 4);
            m_inFrameNs += m_burstNs + wait;
            return eventWake(m_burstNs, wait);
        }
        m_step = 0;
        m_inFrameNs += m_burstNs;
        Ns idle = m_frameNs - m_inFrameNs % m_frameNs; // a late frame waits for the next boundary
        m_inFrameNs = 0;
        return timerWake(m_burstNs, idle);
    }

private:
    Ns m_frameNs;
    std::int64_t m_waits;
    Ns m_waitNs, m_burstNs = 0;
    std::int64_t m_step = 0;
    Ns m_inFrameNs = 0;
};

// --- request/response server (SPECjbb-like) -------------------------------------------

constexpr ParamInfo kServerParams[] = {
    {"mean_idle_us", ParamUnit::Us, 50 * US, 1, MAX_US, "mean time between requests (exponential)"},
    {"service_us", ParamUnit::Us, 30 * US, 0, MAX_US, "mean service time per request (exponential)"},
    {"timer_pct", ParamUnit::Percent, 2 * PCT, 0, 100 * PCT, "share of spans ended by a timer"},
    {"next_timer_us", ParamUnit::Us, 4000 * US, 0, MAX_US, kNextTimerHelp},
};

class ServerGenerator final : public GeneratorBase {
public:
    ServerGenerator(const ParamValues &p, std::uint64_t seed)
        : GeneratorBase(seed, p.get("next_timer_us")), m_meanIdleNs(p.get("mean_idle_us")),
          m_serviceNs(p.get("service_us")), m_timerPpm(p.get("timer_pct") * 10)
    {
    }

protected:
    IdleSpan produce() override
    {
        const Ns busy = std::max<Ns>(NSEC_PER_USEC, m_rng.exponential(m_serviceNs));
        return exponentialWake(busy, m_meanIdleNs, m_timerPpm);
    }

private:
    Ns m_meanIdleNs, m_serviceNs;
    std::int64_t m_timerPpm;
};

// --- network bursts ---------------------------------------------------------------------

constexpr ParamInfo kNetParams[] = {
    {"burst_us", ParamUnit::Us, 2000 * US, 1, MAX_US, "mean time between the starts of packet bursts (exponential)"},
    {"packets", ParamUnit::Count, 4, 1, 1000, "packets per burst, each a NIC interrupt and its softirq"},
    {"packet_gap_us", ParamUnit::Us, 20 * US, 1, MAX_US, "time between the packets of a burst"},
    {"jitter_us", ParamUnit::Us, 5 * US, 0, MAX_US, "uniform +/- jitter on packet_gap_us"},
    {"softirq_us", ParamUnit::Us, 8 * US, 0, MAX_US, "CPU time of a packet's interrupt and softirq"},
    {"wake_pct", ParamUnit::Percent, 50 * PCT, 0, 100 * PCT,
     "share of bursts whose last packet wakes the receiving task (the others' softirq wakes nothing)"},
    {"run_us", ParamUnit::Us, 30 * US, 0, MAX_US, "busy time of the woken task"},
    {"next_timer_us", ParamUnit::Us, NEXT_TIMER_DEFAULT, 0, MAX_US,
     "distance of the CPU's next timer (drawn in [x/2, 3x/2]; its callback wakes no task; 0 = none)"},
};

/*
 * Network-like bursts on the CPU that takes a NIC's interrupts: packets come
 * in bursts, announced by no timer; each packet's hard interrupt and softirq
 * (NAPI) run softirq_us in the idle loop. Only the last packet of a burst can
 * wake the task that reads the socket (with probability wake_pct): every
 * other packet is an in-idle wakeup (a need_resched = 0 row, softirq_us the
 * next row's gap), as are ACKs, packets for other CPUs' sockets and a burst
 * that fills no read. The CPU's own timer (a callback that wakes nothing)
 * fires every next_timer_us/2..3*next_timer_us/2 in absolute time, as an
 * in-idle wakeup of TIMER_RUN_NS. Packets that arrive while the CPU is busy
 * are handled right after.
 */
class NetGenerator final : public GeneratorBase {
public:
    NetGenerator(const ParamValues &p, std::uint64_t seed)
        : GeneratorBase(seed, 0), m_burstNs(p.get("burst_us")), m_packets(p.get("packets")),
          m_packetGapNs(p.get("packet_gap_us")), m_jitterNs(p.get("jitter_us")), m_softirqNs(p.get("softirq_us")),
          m_wakePpm(p.get("wake_pct") * 10), m_runNs(p.get("run_us")), m_nextTimerNs(p.get("next_timer_us"))
    {
        m_nextPacketAt = m_rng.exponential(m_burstNs);
        m_left = m_packets;
        m_nextTimerAt = drawTimer(0);
        m_gapNs = m_runNs;
    }

protected:
    IdleSpan produce() override
    {
        const Ns idleStart = m_nowNs + m_gapNs;
        const Ns packetAt = std::max(m_nextPacketAt, idleStart + 1);
        const Ns timerAt = std::max(m_nextTimerAt, idleStart + 1);
        const bool timer = timerAt <= packetAt; // ties go to the timer
        const Ns wakeAt = timer ? timerAt : packetAt;
        IdleSpan span{m_gapNs, timerAt - idleStart, wakeAt - idleStart, NO_LATENCY_REQ, 0};
        m_nowNs = wakeAt;
        span.needResched = false;
        if (timer) {
            m_nextTimerAt = drawTimer(timerAt);
            m_gapNs = TIMER_RUN_NS;
            return span;
        }
        if (--m_left > 0) {
            m_nextPacketAt = packetAt + m_rng.jitter(m_packetGapNs, m_jitterNs, 1);
            m_gapNs = m_softirqNs;
            return span;
        }
        span.needResched = m_rng.chancePpm(m_wakePpm);
        m_gapNs = span.needResched ? m_softirqNs + m_runNs : m_softirqNs;
        m_left = m_packets;
        m_nextPacketAt = packetAt + std::max<Ns>(1, m_rng.exponential(m_burstNs));
        return span;
    }

private:
    Ns drawTimer(Ns from)
    {
        return m_nextTimerNs > 0 ? from + m_rng.range(m_nextTimerNs / 2, m_nextTimerNs + m_nextTimerNs / 2)
                                 : from + NO_TIMER_NS;
    }

    Ns m_burstNs;
    std::int64_t m_packets;
    Ns m_packetGapNs, m_jitterNs, m_softirqNs;
    std::int64_t m_wakePpm;
    Ns m_runNs, m_nextTimerNs;
    Ns m_nowNs = 0, m_gapNs = 0, m_nextPacketAt = 0, m_nextTimerAt = 0;
    std::int64_t m_left = 0;
};

// --- pgbench-like client/server ----------------------------------------------------------

constexpr ParamInfo kPgbenchParams[] = {
    {"queries", ParamUnit::Count, 4, 1, 1000, "queries per transaction"},
    {"query_us", ParamUnit::Us, 20 * US, 0, MAX_US, "CPU time per query"},
    {"rtt_us", ParamUnit::Us, 30 * US, 0, MAX_US, "wait for each query's answer (+/- 30 %)"},
    {"commit_us", ParamUnit::Us, 1000 * US, 0, MAX_US, "mean commit (fsync) wait: 80 % fixed + exponential 20 %"},
    {"next_timer_us", ParamUnit::Us, NEXT_TIMER_DEFAULT, 0, MAX_US, kNextTimerHelp},
    {"idle_pct", ParamUnit::Percent, 100 * PCT, 1 * PCT, 100 * PCT,
     "share of the waits that find the CPU idle; in the others another client or backend runs through "
     "the wait, which is then busy time"},
};

class PgbenchGenerator final : public GeneratorBase {
public:
    PgbenchGenerator(const ParamValues &p, std::uint64_t seed)
        : GeneratorBase(seed, p.get("next_timer_us")), m_queries(p.get("queries")), m_queryNs(p.get("query_us")),
          m_rttNs(p.get("rtt_us")), m_commitNs(p.get("commit_us")), m_idlePpm(p.get("idle_pct") * 10)
    {
    }

protected:
    IdleSpan produce() override
    {
        // With many clients per CPU a wakeup often finds the CPU running another client or
        // backend: the wait is then no idle period, and its time is busy time before the
        // next wait that does find the CPU idle. idle_pct=100 draws nothing more (the
        // former stream).
        // A wait of 0 ns (rtt_us=0) is no idle period either: the query's time is busy time.
        return firstIdleWait([this] {
            const Ns wait = nextWait();
            return Wait{m_queryNs, wait, m_rng.chancePpm(m_idlePpm)};
        });
    }

private:
    Ns nextWait()
    {
        if (m_step < m_queries) {
            ++m_step;
            return m_rng.jitter(m_rttNs, m_rttNs * 3 / 10);
        }
        m_step = 0;
        const Ns fixed = m_commitNs * 4 / 5;
        return fixed + m_rng.exponential(m_commitNs - fixed);
    }

    std::int64_t m_queries;
    Ns m_queryNs, m_rttNs, m_commitNs;
    std::int64_t m_idlePpm;
    std::int64_t m_step = 0;
};

std::string checkPgbench(const ParamValues &p, std::uint32_t)
{
    if (p.get("rtt_us") == 0 && p.get("commit_us") == 0)
        return "rtt_us=0 and commit_us=0: no query or commit ever waits, so the CPU never idles";
    return {};
}

constexpr GeneratorInfo kApps[] = {
    {"io", "synchronous 4 KiB I/O at queue depth 1; completion interrupts no timer announces", kIoParams,
     makeGenerator<IoGenerator>, checkIo},
    {"pingpong", "a token passed around N CPUs with work per hop (seen from one CPU)", kPingPongParams,
     makeGenerator<PingPongGenerator>},
    {"video", "video playback: decode bursts with decoder waits, then idle to the next frame", kVideoParams,
     makeGenerator<VideoGenerator>},
    {"server", "request/response server with few timers (SPECjbb-like)", kServerParams, makeGenerator<ServerGenerator>},
    {"pgbench", "database client/server: short query round trips, then a commit wait", kPgbenchParams,
     makeGenerator<PgbenchGenerator>, checkPgbench},
    {"net", "network-like packet bursts whose softirq mostly wakes no task (in-idle wakeups)", kNetParams,
     makeGenerator<NetGenerator>},
};

} // namespace

std::optional<IoInterruptRoute> ioInterruptRoute(const WorkloadNode &generator)
{
    if (generator.kind != WorkloadNode::Kind::Generator || std::string_view(generator.params.info->name) != "io")
        return std::nullopt;
    const std::int64_t route = generator.params.get("irq");
    const std::int64_t device = generator.params.get("device");
    // Single-vector controllers route to CPU 0 by default (io_devices.h).
    const bool onCpu0 = route == 2 || (route == 0 && ioIrqOnCpu0ByDefault(device));
    if (!onCpu0)
        return std::nullopt;
    return IoInterruptRoute{0, generator.params.get("hardirq_us")};
}

std::int64_t ioWaitsPerIo(const WorkloadNode &generator)
{
    if (generator.kind != WorkloadNode::Kind::Generator || std::string_view(generator.params.info->name) != "io")
        return 0;
    return waitsPerIo(generator.params);
}

std::optional<int> ioInterruptCpu(const WorkloadNode &root)
{
    if (const std::optional<IoInterruptRoute> route = ioInterruptRoute(root))
        return route->cpu;
    for (const WorkloadNode &c : root.children)
        if (const std::optional<int> cpu = ioInterruptCpu(c))
            return cpu;
    return std::nullopt;
}

std::span<const GeneratorInfo> applicationGenerators()
{
    return kApps;
}

} // namespace idlescope::workloads
