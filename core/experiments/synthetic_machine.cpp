// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/experiments/synthetic_machine.h"

#include <algorithm>

namespace idlescope {

namespace {

Ns streamTime(const IdleStream &s)
{
    Ns t = 0;
    for (const IdleSpan &span : s)
        t += span.gapNs + span.wakeNs;
    return t;
}

} // namespace

IdleStream streamCovering(const workloads::WorkloadSpec &spec, std::uint64_t seed, Ns durationNs)
{
    // Generators are sequential: a longer stream of the same seed starts with the
    // shorter one, so growing the count and cutting gives the same spans.
    std::size_t count = 64;
    for (;;) {
        IdleStream s = workloads::generateStream(spec, 0, seed, count);
        Ns t = 0;
        for (std::size_t i = 0; i < s.size(); ++i) {
            t += s[i].gapNs + s[i].wakeNs;
            if (t >= durationNs) {
                s.resize(i + 1);
                return s;
            }
        }
        if (count >= 10000000 || s.size() < count)
            return s;
        count *= 2;
    }
}

Result<MachineWorkload> syntheticMachineWorkload(const Machine &machine, const SyntheticMachineSpec &spec)
{
    if (spec.workload.pointCount() > 1)
        return Error{spec.workload.text, 0, "--workload", "a sweep on a machine is not supported: give one point"};
    if (spec.background.pointCount() > 1)
        return Error{spec.background.text, 0, "--background", "a sweep is not a background: give one point"};
    const int n = machine.cpuCount();
    // cpus=N: the workload runs on N CPUs, 0..N-1 unless --workload-cpus names them.
    const int wanted = spec.workload.cpuCount();
    if (wanted > n)
        return Error{spec.workload.text, 0, "--workload", "cpus=" + std::to_string(wanted) + " but machine "
                                                              + machine.id + " has " + std::to_string(n) + " CPUs"};
    if (wanted > 0 && !spec.workloadCpus.empty() && spec.workloadCpus.size() != static_cast<size_t>(wanted))
        return Error{spec.workload.text, 0, "--workload-cpus", std::to_string(spec.workloadCpus.size())
                                                                   + " CPUs listed but the workload says cpus="
                                                                   + std::to_string(wanted)};
    std::vector<bool> runs(static_cast<size_t>(n), spec.workloadCpus.empty() && wanted == 0);
    if (spec.workloadCpus.empty())
        for (int cpu = 0; cpu < wanted; ++cpu)
            runs[static_cast<size_t>(cpu)] = true;
    for (int cpu : spec.workloadCpus) {
        if (cpu < 0 || cpu >= n)
            return Error{machine.id, 0, "--workload-cpus", "CPU " + std::to_string(cpu) + " is not a CPU of machine "
                                                               + machine.id + " (CPUs 0.." + std::to_string(n - 1) + ")"};
        runs[static_cast<size_t>(cpu)] = true;
    }
    MachineWorkload w;
    w.label = spec.workload.text;
    Ns busiest = 0;
    for (int cpu = 0; cpu < n; ++cpu)
        if (runs[static_cast<size_t>(cpu)]) {
            IdleStream s = workloads::generateStream(spec.workload, 0, workloads::runSeed(spec.seed, 0, cpu), spec.spans);
            busiest = std::max(busiest, streamTime(s));
            w.cpus.push_back({cpu, std::move(s), 0, {}});
        }
    if (w.cpus.size() < static_cast<size_t>(n)) {
        w.label += " (CPUs";
        for (const CpuStream &c : w.cpus)
            w.label += " " + std::to_string(c.cpu);
        w.label += "; background " + spec.background.text + ")";
    }
    for (int cpu = 0; cpu < n; ++cpu)
        if (!runs[static_cast<size_t>(cpu)])
            w.cpus.push_back({cpu, streamCovering(spec.background, workloads::runSeed(spec.seed, 1, cpu), busiest), 0, {}});
    std::sort(w.cpus.begin(), w.cpus.end(), [](const CpuStream &a, const CpuStream &b) { return a.cpu < b.cpu; });
    return w;
}

} // namespace idlescope
