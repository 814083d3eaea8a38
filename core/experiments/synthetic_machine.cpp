// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/experiments/synthetic_machine.h"

#include "core/workloads/io_interrupts.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <optional>

namespace idlescope {

namespace {

/// "12.345 s" or "0.630 ms": the stretches of the background's message.
std::string secondsText(Ns ns)
{
    char buf[48];
    if (ns >= NSEC_PER_SEC)
        std::snprintf(buf, sizeof buf, "%.3f s", static_cast<double>(ns) / 1e9);
    else
        std::snprintf(buf, sizeof buf, "%.3f ms", static_cast<double>(ns) / 1e6);
    return buf;
}

Ns streamTime(const IdleStream &s)
{
    Ns t = 0;
    for (const IdleSpan &span : s)
        t += span.gapNs + span.wakeNs;
    return t;
}

} // namespace

IdleStream withInterrupts(const IdleStream &in, std::span<const workloads::IoInterrupt> irqs)
{
    IdleStream out;
    out.reserve(in.size() + irqs.size());
    size_t next = 0;
    Ns busyFrom = 0; // when the CPU last left idle
    Ns busyEnd = 0;  // when its pending work (spans' gaps, handlers) is done
    Ns origT = 0;    // the end of the previous span on @p in's own axis
    auto absorb = [&] {
        while (next < irqs.size() && irqs[next].atNs <= busyEnd) {
            busyEnd = std::max(busyEnd, irqs[next].atNs) + irqs[next].handlerNs;
            ++next;
        }
    };
    for (const IdleSpan &s : in) {
        busyEnd = std::max(busyEnd, origT) + s.gapNs;
        absorb();
        const Ns idleStart = origT + s.gapNs;
        const Ns timerAt = idleStart + s.timerNs, wakeAt = idleStart + s.wakeNs;
        origT = wakeAt;
        // Each interrupt inside the idle ends it early. It wakes no task on this CPU (the
        // submitter is another), so the CPU stays in the idle loop: an in-idle wakeup, whose
        // handler is the next row's gap.
        while (busyEnd < wakeAt && next < irqs.size() && irqs[next].atNs < wakeAt) {
            const Ns at = irqs[next].atNs;
            IdleSpan cut{busyEnd - busyFrom, timerAt - busyEnd, at - busyEnd, s.latencyReqNs, s.util};
            cut.needResched = false;
            out.push_back(cut);
            busyFrom = at;
            busyEnd = at;
            absorb();
        }
        // What is left of the idle, unless the handlers ran past its wakeup. When they did,
        // a wakeup of a task during them ends the stay that the last row left open.
        if (busyEnd < wakeAt) {
            IdleSpan rest{busyEnd - busyFrom, timerAt - busyEnd, wakeAt - busyEnd, s.latencyReqNs, s.util};
            rest.needResched = s.needResched;
            out.push_back(rest);
            busyFrom = busyEnd = wakeAt;
        } else if (s.needResched && !out.empty()) {
            out.back().needResched = true;
        }
    }
    return out;
}

Result<IdleStream> streamCovering(const workloads::WorkloadSpec &spec, std::uint64_t seed, Ns durationNs,
                                  std::size_t maxSpans)
{
    IdleStream s = workloads::generateStreamCovering(spec, 0, seed, durationNs, maxSpans);
    // Cut here, the CPU would sit idle-less for the rest of the stretch and the
    // machine's sums would mix two lengths of time: refuse instead.
    if (streamTime(s) < durationNs)
        return Error{spec.text, 0, "background",
                     std::to_string(maxSpans) + " spans cover " + secondsText(streamTime(s)) + " of the "
                         + secondsText(durationNs)
                         + " the busiest workload CPU runs; give a background with longer idle periods, or fewer "
                           "--spans"};
    return s;
}

Result<std::vector<int>> parseWorkloadCpus(std::string_view text)
{
    std::vector<int> cpus;
    if (text.empty())
        return Error{"", 0, "workload-cpus", "is empty: give CPU numbers separated by commas, such as 0,2"};
    std::size_t b = 0;
    while (b <= text.size()) {
        const std::size_t c = std::min(text.find(',', b), text.size());
        const std::string item(text.substr(b, c - b));
        int cpu = -1;
        const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), cpu);
        if (item.empty() || ec != std::errc() || end != item.data() + item.size() || cpu < 0 || cpu > 4095)
            return Error{"", 0, "workload-cpus",
                         "'" + item + "' is not a CPU number (0..4095); expected CPU numbers separated by commas"};
        if (std::find(cpus.begin(), cpus.end(), cpu) != cpus.end())
            return Error{"", 0, "workload-cpus", "CPU " + std::to_string(cpu) + " is listed twice"};
        cpus.push_back(cpu);
        b = c + 1;
    }
    return cpus;
}

namespace {

/// The CPU's stream of @p spec covering @p durationNs, or an error naming --duration when it
/// takes more than MAX_COVERING_SPANS rows.
Result<IdleStream> coveringStream(const workloads::WorkloadSpec &spec, std::uint64_t seed, Ns durationNs, int cpu,
                                  std::vector<workloads::IoInterrupt> *interrupts, std::int64_t *ioOps = nullptr)
{
    IdleStream s = workloads::generateStreamCovering(spec, 0, seed, durationNs, MAX_COVERING_SPANS, interrupts, ioOps);
    if (streamTime(s) < durationNs)
        return Error{spec.text, 0, "duration",
                     "CPU " + std::to_string(cpu) + " needs more than " + std::to_string(MAX_COVERING_SPANS)
                         + " idle spans to cover the duration: give a shorter one"};
    return s;
}

/// The one-point spec of point @p point of @p sweep: its tree with the point's value, no sweep.
workloads::WorkloadSpec pointSpec(const workloads::WorkloadSpec &sweep, int point)
{
    workloads::WorkloadSpec at = sweep;
    at.root = sweep.nodeAt(point);
    at.sweep.reset();
    return at;
}

/// Which CPUs of @p machine run the workload (the others run the background): cpus=N names N
/// CPUs, 0..N-1 unless --workload-cpus names them; without either, as many as a generator
/// counts as its own at its default (io's numjobs=1, pingpong's cpus=2), else every CPU.
Result<std::vector<bool>> workloadCpus(const Machine &machine, const SyntheticMachineSpec &spec)
{
    const int n = machine.cpuCount();
    const int wanted = spec.workload.cpuCount() > 0 || !spec.workloadCpus.empty() ? spec.workload.cpuCount()
                                                                                  : spec.workload.ownCpuCount();
    if (wanted > n)
        return Error{spec.workload.text, 0, "workload",
                     "cpus=" + std::to_string(wanted) + " but machine " + machine.id + " has " + std::to_string(n)
                         + " CPUs"};
    if (wanted > 0 && !spec.workloadCpus.empty() && spec.workloadCpus.size() != static_cast<size_t>(wanted))
        return Error{spec.workload.text, 0, "workload-cpus",
                     std::to_string(spec.workloadCpus.size())
                         + " CPUs listed but the workload says cpus=" + std::to_string(wanted)};
    std::vector<bool> runs(static_cast<size_t>(n), spec.workloadCpus.empty() && wanted == 0);
    if (spec.workloadCpus.empty())
        for (int cpu = 0; cpu < wanted; ++cpu)
            runs[static_cast<size_t>(cpu)] = true;
    for (int cpu : spec.workloadCpus) {
        if (cpu < 0 || cpu >= n)
            return Error{machine.id, 0, "workload-cpus",
                         "CPU " + std::to_string(cpu) + " is not a CPU of machine " + machine.id + " (CPUs 0.."
                             + std::to_string(n - 1) + ")"};
        runs[static_cast<size_t>(cpu)] = true;
    }
    return runs;
}

/// The run's wall-clock duration: --duration, or the busiest workload CPU's `spans` rows.
Ns machineDuration(const SyntheticMachineSpec &spec, const std::vector<bool> &runs)
{
    Ns duration = spec.durationNs;
    if (duration <= 0)
        for (std::size_t cpu = 0; cpu < runs.size(); ++cpu)
            if (runs[cpu])
                duration =
                    std::max(duration, streamTime(workloads::generateStream(spec.workload, 0,
                                                                            workloads::runSeed(spec.seed, spec.point,
                                                                                               static_cast<int>(cpu)),
                                                                            spec.spans)));
    return duration;
}

/// The background of CPU @p cpu over @p duration: with --duration capped as the workload
/// CPUs are; else within maxBackgroundSpans (an error then names the CPU).
Result<IdleStream> backgroundStream(const SyntheticMachineSpec &spec, int cpu, Ns duration)
{
    Result<IdleStream> s =
        spec.durationNs > 0
            ? coveringStream(spec.background, workloads::runSeed(spec.seed, 1, cpu), duration, cpu, nullptr)
            : streamCovering(spec.background, workloads::runSeed(spec.seed, 1, cpu), duration, spec.maxBackgroundSpans);
    if (!s && spec.durationNs <= 0) {
        Error e = s.error();
        e.message = "CPU " + std::to_string(cpu) + ": " + e.message;
        return e;
    }
    return s;
}

} // namespace

Result<MachineWorkload> syntheticMachineWorkload(const Machine &machine, const SyntheticMachineSpec &swept)
{
    if (swept.point < 0 || swept.point >= swept.workload.pointCount())
        return Error{swept.workload.text, 0, "workload",
                     "point " + std::to_string(swept.point) + " is not one of the workload's "
                         + std::to_string(swept.workload.pointCount())};
    if (swept.background.pointCount() > 1)
        return Error{swept.background.text, 0, "background", "a sweep is not a background: give one point"};
    // A point of a sweep is a workload of its own (numjobs=1..4 runs on 1 to 4 CPUs); only its
    // seeds say which point it is, as a one-CPU sweep's do.
    SyntheticMachineSpec spec = swept;
    spec.workload = pointSpec(swept.workload, swept.point);
    const int n = machine.cpuCount();
    const Result<std::vector<bool>> runs = workloadCpus(machine, spec);
    if (!runs)
        return runs.error();
    MachineWorkload w;
    w.label = spec.workload.text;
    const Ns duration = machineDuration(spec, *runs);
    // A single-vector controller: every other submitter's completions interrupt that CPU too
    // (the io generators' own completions, wherever they sit in the spec's tree).
    const std::optional<int> irqCpu = workloads::ioInterruptCpu(spec.workload.root);
    std::vector<workloads::IoInterrupt> routed, one;
    // Every CPU covers the duration, so that the machine's sums hold each CPU's idle over the
    // same stretch: the workload CPUs with their seeds (the busiest one makes its `spans`
    // rows again), the others the background.
    for (int cpu = 0; cpu < n; ++cpu)
        if ((*runs)[static_cast<size_t>(cpu)]) {
            std::int64_t ioOps = -1;
            Result<IdleStream> s = coveringStream(spec.workload, workloads::runSeed(spec.seed, spec.point, cpu),
                                                  duration, cpu, &one, &ioOps);
            if (!s)
                return s.error();
            if (cpu != irqCpu)
                routed.insert(routed.end(), one.begin(), one.end());
            w.cpus.push_back({cpu, std::move(*s), 0, {}, {}, ioOps});
        }
    if (w.cpus.size() < static_cast<size_t>(n)) {
        w.label += " (CPUs";
        for (const CpuStream &c : w.cpus)
            w.label += " " + std::to_string(c.cpu);
        w.label += "; background " + spec.background.text + ")";
    }
    for (int cpu = 0; cpu < n; ++cpu)
        if (!(*runs)[static_cast<size_t>(cpu)]) {
            Result<IdleStream> s = backgroundStream(spec, cpu, duration);
            if (!s)
                return s.error();
            w.cpus.push_back({cpu, std::move(*s), 0, {}});
        }
    std::sort(w.cpus.begin(), w.cpus.end(), [](const CpuStream &a, const CpuStream &b) { return a.cpu < b.cpu; });
    if (irqCpu && *irqCpu < n) {
        workloads::sortByTime(routed);
        IdleStream &target = w.cpus[static_cast<size_t>(*irqCpu)].stream;
        target = withInterrupts(target, routed);
        w.label += " (completion interrupts on CPU " + std::to_string(*irqCpu) + ")";
    }
    return w;
}

} // namespace idlescope
