// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The closed loops of closed_loop.h. Each CPU is a ReferenceReplay fed one
 * span at a time: a span starts when the CPU runs out of work (its gap is the
 * work since its last wakeup) and its wakeup is the moment the awaited event
 * happens, known by then because it depends only on what the other side did
 * before. The loop's clock starts at REPLAY_START_NS; a CPU's wakeup is the
 * event plus the wake delay of the state it was in (wake_delay.h), not the
 * table's exit latency, which the replay's own clock adds for the governors.
 */
#include "core/experiments/closed_loop.h"
#include "core/experiments/closed_loop_parts.h"

#include "core/energy/energy.h"
#include "core/experiments/synthetic_machine.h"
#include "core/machine/machine_replay.h"
#include "core/source_governor/source_governor.h"
#include "core/states/wake_delay.h"

#include "core/workloads/generator_base.h"
#include "core/workloads/parallel_for.h"
#include "core/workloads/rng.h"
#include "core/workloads/workload.h"
#include "core/workloads/workload_spec.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string_view>

namespace idlescope {

namespace {

using closed_loop::AddedLatency;
using closed_loop::LoopCpu;
using closed_loop::LoopPoll;

/// A duration in us with up to 3 decimals (the workload grammar's reader, readDecimal()) -> ns,
/// 0..MAX_US; nullopt when it is not one.
std::optional<Ns> readMicros(const std::string &v)
{
    const workloads::DecimalValue d = workloads::readDecimal(v, 1000);
    if (d.fault != workloads::DecimalFault::None || d.value > workloads::MAX_US)
        return std::nullopt;
    return d.value;
}

/// pingpong: CPU 0 works, sends; CPU 1 wakes, works, replies; CPU 0 wakes; one round trip.
Ns runPingPong(LoopCpu &a, LoopCpu &b, const ClosedLoopSpec &s, AddedLatency &added, const LoopPoll &poll)
{
    Ns aFree = REPLAY_START_NS + s.workNs; // CPU 0 prepares the first message
    Ns bIdleSince = REPLAY_START_NS;       // CPU 1 waits for it from the start
    for (std::int64_t op = 0; op < s.operations; ++op) {
        const Ns sent = aFree;
        const Ns bWoke = b.idleUntil(bIdleSince, sent);
        const Ns reply = bWoke + s.peerWorkNs;
        bIdleSince = reply;
        const Ns aWoke = a.idleUntil(sent, reply);
        added.add((bWoke - sent) + (aWoke - reply));
        aFree = aWoke + s.workNs;
        if (!poll.keepGoing(added))
            break;
    }
    return aFree;
}

} // namespace

int ClosedLoopSpec::irqCpu() const
{
    if (kind != Kind::Io || irq == Irq::Local)
        return -1;
    return irq == Irq::Cpu0 || (device >= 0 && workloads::ioIrqOnCpu0ByDefault(device)) ? 0 : -1;
}

double ClosedLoopRun::opsPerSecond() const
{
    return durationNs > 0 ? static_cast<double>(operations) / (static_cast<double>(durationNs) * 1e-9) : 0.0;
}

namespace {

/// The keys a spec wrote, for the checks of combinations that would mean nothing.
struct Written {
    bool work = false, service = false, jitter = false, device = false, base = false, tail = false, hardirq = false,
         waitCpu = false;
};

/// The open loop's io parameter @p name (generators_apps.cpp): its default and range, the one
/// definition both loops read.
const workloads::ParamInfo &openLoopIoParam(std::string_view name)
{
    const workloads::GeneratorInfo *io = workloads::findGenerator("io");
    return io->params[static_cast<std::size_t>(io->paramIndex(name))];
}

/// io's waits=N: a whole number in the open loop's range (0 = the device's, resolved later).
Status readWaits(ClosedLoopSpec &s, const std::string &value)
{
    const workloads::ParamInfo &p = openLoopIoParam("waits");
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || end != value.data() + value.size() || n < p.min || n > p.max)
        return Error{"closed-loop", 0, "waits",
                     "'" + value + "' is not a whole number in " + std::to_string(p.min) + ".." + std::to_string(p.max)
                         + " (0: the device's, 4 for mtd, 1 for the others)"};
    s.waits = n;
    return Ok{};
}

/// A whole-number key of @p s (ops, iodepth): checked and stored.
Status readCount(ClosedLoopSpec &s, const std::string &key, const std::string &value)
{
    std::int64_t n = 0;
    const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    const std::int64_t hi = key == "ops" ? 10000000 : key == "numjobs" ? 4096 : 1024;
    if (ec != std::errc() || p != value.data() + value.size() || n < 1 || n > hi)
        return Error{"closed-loop", 0, key, "'" + value + "' is not a whole number in 1.." + std::to_string(hi)};
    if (key == "ops")
        s.operations = n;
    else if (s.kind != ClosedLoopSpec::Kind::Io)
        return Error{"closed-loop", 0, key,
                     key == "iodepth" ? "pingpong has one message in flight" : "pingpong runs on CPUs 0 and 1"};
    else if (key == "iodepth")
        s.iodepth = static_cast<int>(n);
    else
        s.numjobs = static_cast<int>(n);
    return Ok{};
}

/// io's device=NAME: its profile (custom keeps base_us/tail_us, read apart).
Status readDevice(ClosedLoopSpec &s, const std::string &value)
{
    for (std::size_t d = 0; d < std::size(workloads::kDevices); ++d)
        if (value == workloads::kDevices[d]) {
            s.device = static_cast<int>(d);
            if (d < std::size(workloads::kProfiles))
                s.profile = workloads::kProfiles[d];
            return Ok{};
        }
    std::string names;
    for (const char *n : workloads::kDevices)
        names += (names.empty() ? "" : ", ") + std::string(n);
    return Error{"closed-loop", 0, "device", "'" + value + "' is not a device (" + names + ")"};
}

/// io's irq=auto|local|cpu0.
Status readIrq(ClosedLoopSpec &s, const std::string &value)
{
    if (value == "auto")
        s.irq = ClosedLoopSpec::Irq::Auto;
    else if (value == "local")
        s.irq = ClosedLoopSpec::Irq::Local;
    else if (value == "cpu0")
        s.irq = ClosedLoopSpec::Irq::Cpu0;
    else
        return Error{"closed-loop", 0, "irq", "'" + value + "' is not auto, local or cpu0"};
    return Ok{};
}

/// A duration key of @p s, stored; an error when @p key is none of its model's.
Status readDuration(ClosedLoopSpec &s, Written &w, const std::string &key, const std::string &value)
{
    const bool io = s.kind == ClosedLoopSpec::Kind::Io;
    Ns *target = key == "work_us"               ? &s.workNs
                 : io && key == "service_us"    ? &s.serviceNs
                 : io && key == "jitter_us"     ? &s.jitterNs
                 : io && key == "base_us"       ? &s.profile.baseNs
                 : io && key == "tail_us"       ? &s.profile.tailNs
                 : io && key == "hardirq_us"    ? &s.hardirqNs
                 : io && key == "next_timer_us" ? &s.nextTimerNs
                 : io && key == "wait_cpu_us"   ? &s.waitCpuNs
                 : !io && key == "peer_work_us" ? &s.peerWorkNs
                                                : nullptr;
    if (!target)
        return Error{"closed-loop", 0, key, std::string("not a parameter of ") + (io ? "io" : "pingpong")};
    const std::optional<Ns> ns = readMicros(value);
    if (!ns)
        return Error{"closed-loop", 0, key, "'" + value + "' is not a duration in us (0..100000000, up to 3 decimals)"};
    *target = *ns;
    w.work |= key == "work_us";
    w.service |= key == "service_us";
    w.jitter |= key == "jitter_us";
    w.base |= key == "base_us";
    w.tail |= key == "tail_us";
    w.hardirq |= key == "hardirq_us";
    w.waitCpu |= key == "wait_cpu_us";
    return Ok{};
}

/// The combinations of io's keys that would mean nothing, refused with the reason.
Status checkIoKeys(ClosedLoopSpec &s, const Written &w)
{
    if (w.device && (w.service || w.jitter))
        return Error{"closed-loop", 0, w.service ? "service_us" : "jitter_us",
                     "device= draws each request's time from its profile (base + exponential tail); "
                     "service_us/jitter_us are the other way (a fixed time +/- uniform): give one of them"};
    if ((w.base || w.tail) && s.device != workloads::IO_DEVICE_CUSTOM)
        return Error{"closed-loop", 0, w.base ? "base_us" : "tail_us",
                     "base_us and tail_us are device=custom's profile (a named device has its own)"};
    if (!w.device && !w.service)
        return Error{"closed-loop", 0, "service_us",
                     "give the device's time per request: service_us=S, or device=NAME (nvme, sata, emmc, ...)"};
    if (w.hardirq && s.irqCpu() < 0)
        return Error{"closed-loop", 0, "hardirq_us",
                     "hardirq_us is CPU 0's time per completion routed to it: it needs irq=cpu0 (auto routes "
                     "only sata, emmc and mtd there)"};
    if (w.hardirq && s.numjobs < 2)
        return Error{"closed-loop", 0, "hardirq_us",
                     "hardirq_us is CPU 0's time per completion of another CPU's request: with numjobs=1 "
                     "every request is CPU 0's own (its handler is part of work_us)"};
    // The waits of one request as the open loop's io counts them, and its refusal: wait_cpu_us
    // written at another value than its default would change nothing with one wait (at its
    // default it counts as not written, as there).
    s.waits = workloads::ioWaitsPerIo(s.device, s.waits);
    const Ns waitCpuDefault = openLoopIoParam("wait_cpu_us").def;
    if (s.waits <= 1 && w.waitCpu && s.waitCpuNs != waitCpuDefault)
        return Error{"closed-loop", 0, "wait_cpu_us", workloads::IO_WAIT_CPU_NEEDS_WAITS};
    if (!w.waitCpu)
        s.waitCpuNs = waitCpuDefault;
    if (s.device == workloads::IO_DEVICE_CUSTOM) {
        // The open loop's io defaults for device=custom.
        if (!w.base)
            s.profile.baseNs = openLoopIoParam("base_us").def;
        if (!w.tail)
            s.profile.tailNs = openLoopIoParam("tail_us").def;
    }
    return Ok{};
}

} // namespace

Result<ClosedLoopSpec> parseClosedLoopSpec(const std::string &text)
{
    ClosedLoopSpec s;
    s.text = text;
    const size_t colon = text.find(':');
    const std::string model = text.substr(0, colon);
    if (model == "io") {
        s.kind = ClosedLoopSpec::Kind::Io;
        s.waits = openLoopIoParam("waits").def; // 0: the device's, resolved by checkIoKeys()
    } else if (model == "pingpong")
        s.kind = ClosedLoopSpec::Kind::PingPong;
    else
        return Error{"closed-loop", 0, model, "unknown closed-loop model (io, pingpong)"};
    Written w;
    std::vector<std::string> given; // a key written twice is refused, as the workload grammar refuses it
    std::string rest = colon == std::string::npos ? "" : text.substr(colon + 1);
    while (!rest.empty()) {
        const size_t comma = rest.find(',');
        const std::string kv = rest.substr(0, comma);
        rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
        const size_t eq = kv.find('=');
        if (eq == std::string::npos)
            return Error{"closed-loop", 0, kv, "expected KEY=VALUE"};
        const std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
        if (std::find(given.begin(), given.end(), key) != given.end())
            return Error{"closed-loop", 0, key, "parameter '" + key + "' given twice"};
        given.push_back(key);
        Status st = Ok{};
        if (key == "ops" || key == "iodepth" || key == "numjobs") {
            st = readCount(s, key, value);
        } else if (key == "waits" && s.kind == ClosedLoopSpec::Kind::Io) {
            st = readWaits(s, value);
        } else if (key == "irq" && s.kind == ClosedLoopSpec::Kind::Io) {
            st = readIrq(s, value);
        } else if (key == "device" && s.kind == ClosedLoopSpec::Kind::Io) {
            st = readDevice(s, value);
            w.device = true;
        } else {
            st = readDuration(s, w, key, value);
        }
        if (!st)
            return st.error();
    }
    if (!w.work || s.workNs <= 0)
        return Error{"closed-loop", 0, "work_us", "give the CPU's work per operation (> 0 us)"};
    if (s.kind == ClosedLoopSpec::Kind::Io)
        if (Status st = checkIoKeys(s, w); !st)
            return st.error();
    if (s.kind == ClosedLoopSpec::Kind::PingPong && s.peerWorkNs <= 0)
        s.peerWorkNs = s.workNs;
    return s;
}

namespace {

/// Whether @p cpu keeps when it was in each state (24 bytes an entry): only where its cluster's
/// shared logic has power data, which energy.h charges from them; elsewhere the loop keeps none.
bool keepsIntervals(const Machine &machine, int cpu)
{
    return hasClusterPower(machine.clusters[static_cast<std::size_t>(machine.clusterOf(cpu))]);
}

/// The background's CPUs (those after the loop's) of every run in @p out, each covering its
/// run's duration and replayed by its governor (runClosedLoop()).
Status replayBackground(const Machine &machine, const ClosedLoopSpec &spec, const std::vector<std::string> &governors,
                        const std::vector<std::vector<TunableSetting>> &settings,
                        const workloads::WorkloadSpec &background, std::uint64_t seed, int threads,
                        const ClosedLoopWatch *watch, std::vector<ClosedLoopRun> &out)
{
    const int first = spec.cpus();
    const auto others = static_cast<std::size_t>(machine.cpuCount() - first);
    std::vector<CpuRun> rows(out.size() * others);
    std::vector<Error> errors(rows.size());
    std::vector<char> failed(rows.size(), 0);
    workloads::parallelFor(static_cast<int>(rows.size()), threads, [&](int job) {
        const auto k = static_cast<std::size_t>(job);
        const std::size_t g = k / others;
        const int cpu = first + static_cast<int>(k % others);
        Result<IdleStream> s = streamCovering(background, workloads::runSeed(seed, 1, cpu), out[g].durationNs);
        if (!s) {
            errors[k] = s.error();
            errors[k].message = "CPU " + std::to_string(cpu) + ": " + errors[k].message;
            failed[k] = 1;
            return;
        }
        // Only the spans that end within the run: the sysfs counters read at its end hold the
        // entries finished by then, and the energy prices the rest of the window in the
        // cheapest state (as it does a loop CPU's end).
        Ns t = 0;
        std::size_t within = 0;
        for (; within < s->size() && t + (*s)[within].gapNs + (*s)[within].wakeNs <= out[g].durationNs; ++within)
            t += (*s)[within].gapNs + (*s)[within].wakeNs;
        s->resize(within);
        const std::vector<TunableSetting> none;
        std::unique_ptr<Governor> gov =
            std::move(makeConfiguredGovernor(governors[g], g < settings.size() ? settings[g] : none).value());
        const CpuStream stream{cpu, std::move(*s), 0, {}};
        rows[k] = replayCpu(machine.tableOf(cpu), stream, *gov,
                            keepsIntervals(machine, cpu) ? IntervalKind::InState : IntervalKind::None,
                            watch ? watch->cancel : nullptr);
    });
    for (std::size_t k = 0; k < rows.size(); ++k)
        if (failed[k])
            return errors[k];
    for (std::size_t g = 0; g < out.size(); ++g) {
        for (std::size_t i = 0; i < others; ++i)
            out[g].counters.cpus.push_back(std::move(rows[g * others + i]));
        out[g].counters.othersIdle = false;
    }
    return Ok{};
}

} // namespace

Status closedLoopFits(const Machine &machine, const ClosedLoopSpec &spec)
{
    if (machine.cpuCount() < spec.cpus())
        return Error{machine.id, 0, "machine", spec.text + " needs " + std::to_string(spec.cpus()) + " CPUs"};
    return Ok{};
}

Result<std::vector<ClosedLoopRun>> runClosedLoop(const Machine &machine, const ClosedLoopSpec &spec,
                                                 const std::vector<std::string> &governors,
                                                 const std::vector<std::vector<TunableSetting>> &settings,
                                                 std::uint64_t seed, int threads, const ClosedLoopWatch *watch,
                                                 const workloads::WorkloadSpec *background)
{
    if (Status v = machine.validate(); !v)
        return v.error();
    if (Status fits = closedLoopFits(machine, spec); !fits)
        return fits.error();
    if (governors.empty()) // as replayMachine() says it: a run of no governor is no comparison
        return Error{"", 0, "governors", "name at least one governor variant"};
    auto settingsOf = [&](size_t g) { return g < settings.size() ? settings[g] : std::vector<TunableSetting>{}; };
    for (size_t g = 0; g < governors.size(); ++g)
        if (isSourceGovernorId(governors[g]))
            return Error{"", 0, governors[g],
                         "a governor built from source replays a recorded stream, not a closed "
                         "loop (whose wakeups depend on each decision as it is made)"};
    for (size_t g = 0; g < governors.size(); ++g)
        if (Result<std::unique_ptr<Governor>> gov = makeConfiguredGovernor(governors[g], settingsOf(g)); !gov) {
            Error e = gov.error();
            e.message = governors[g] + ": " + e.message;
            return e;
        }
    std::vector<ClosedLoopRun> out(governors.size());
    if (watch && watch->spans)
        watch->spans->assign(governors.size(), std::vector<IdleStream>(static_cast<std::size_t>(spec.cpus())));
    workloads::parallelFor(static_cast<int>(governors.size()), threads, [&](int job) {
        const auto g = static_cast<size_t>(job);
        AddedLatency added(spec.totalOperations());
        std::vector<std::unique_ptr<LoopCpu>> cpus;
        for (int c = 0; c < spec.cpus(); ++c)
            cpus.push_back(
                std::make_unique<LoopCpu>(machine.tableOf(c),
                                          std::move(makeConfiguredGovernor(governors[g], settingsOf(g)).value()), c,
                                          keepsIntervals(machine, c)));
        if (watch && watch->spans)
            for (int c = 0; c < spec.cpus(); ++c)
                cpus[static_cast<std::size_t>(c)]->spans = &(*watch->spans)[g][static_cast<std::size_t>(c)];
        const LoopPoll poll(watch, g);
        const bool io = spec.kind == ClosedLoopSpec::Kind::Io;
        const Ns end =
            io ? closed_loop::runIo(cpus, spec, seed, added, poll) : runPingPong(*cpus[0], *cpus[1], spec, added, poll);
        ClosedLoopRun &r = out[g];
        r.governor = governors[g];
        r.counters.name = governors[g];
        r.counters.othersIdle = true; // the loop puts nothing on the machine's other CPUs
        for (std::unique_ptr<LoopCpu> &c : cpus) {
            // An io CPU's own end (its last handling; runIo() kept it), a pingpong's the run's.
            c->finish(io ? c->ownEndNs : end);
            c->run.ioDurationNs = io ? c->run.durationNs : 0;
            r.counters.cpus.push_back(std::move(c->run)); // its intervals are not copied (24 B an entry)
        }
        r.operations = added.count();
        r.durationNs = end - REPLAY_START_NS;
        r.meanAddedNs = added.mean();
        if (added.count() > 0) {
            r.p99AddedNs = added.p99();
            r.maxAddedNs = added.max();
        }
    });
    if (watch && watch->cancel && watch->cancel->load())
        return Error::cancelled();
    if (background && machine.cpuCount() > spec.cpus()) {
        if (Status st = replayBackground(machine, spec, governors, settings, *background, seed, threads, watch, out);
            !st)
            return st.error();
        if (watch && watch->cancel && watch->cancel->load())
            return Error::cancelled();
    }
    // Every run's energy over the same time: the slowest one's.
    Ns window = 0;
    for (const ClosedLoopRun &r : out)
        window = std::max(window, r.durationNs);
    for (ClosedLoopRun &r : out)
        r.energyWindowNs = window;
    return out;
}

} // namespace idlescope
