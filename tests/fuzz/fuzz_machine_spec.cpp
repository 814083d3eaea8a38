// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libFuzzer target: the options of a synthetic machine (compare --machine with
 * --workload, --workload-cpus and --background). The input's lines are the
 * machine (a built-in id, or a CPU count of intel-skx's table, at most 8 here),
 * the workload spec, the background spec and the CPU list (optional); 20 spans
 * per workload CPU. Any input
 * is a machine workload or an Error; a workload has one stream per CPU, sorted,
 * every span one the stream reader accepts, and every background CPU covers the
 * busiest workload CPU's time (the background is never cut short: here at most
 * 4096 spans, a stretch it cannot cover being an Error).
 */
#include "core/experiments/synthetic_machine.h"
#include "core/formats/stream_csv.h"
#include "core/targets/builtin_machines.h"
#include "core/targets/builtin_targets.h"

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

using namespace idlescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    std::vector<std::string> lines;
    std::size_t b = 0;
    while (b <= text.size() && lines.size() < 4) {
        const std::size_t nl = std::min(text.find('\n', b), text.size());
        lines.emplace_back(text.substr(b, nl - b));
        b = nl + 1;
    }
    lines.resize(4);

    Machine machine;
    int count = 0;
    const auto [end, ec] = std::from_chars(lines[0].data(), lines[0].data() + lines[0].size(), count);
    if (ec == std::errc() && end == lines[0].data() + lines[0].size()) {
        if (count < 1 || count > 8)
            return 0;
        static const IdleStateTable skx = builtinTarget("intel-skx").value();
        machine = Machine::uniform(skx, count);
    } else {
        Result<Machine> m = builtinMachine(lines[0]);
        if (!m)
            return 0;
        machine = std::move(*m);
    }

    SyntheticMachineSpec spec;
    Result<workloads::WorkloadSpec> w = workloads::parseWorkloadSpec(lines[1]);
    if (!w)
        return 0;
    spec.workload = std::move(*w);
    Result<workloads::WorkloadSpec> bg = workloads::parseWorkloadSpec(lines[2].empty() ? "idle" : lines[2]);
    if (!bg)
        return 0;
    spec.background = std::move(*bg);
    if (!lines[3].empty()) {
        Result<std::vector<int>> cpus = parseWorkloadCpus(lines[3]);
        if (!cpus)
            return 0;
        spec.workloadCpus = std::move(*cpus);
    }
    // A workload the CPU cannot keep up with (two 910 fps videos and an emmc) makes each span's
    // busy part longer than the last, and generating it costs the time it covers, not its
    // spans: 100 spans on six CPUs took over 30 s under ASan (a timeout, not a hang: 2.5 s in
    // a release build of compare for the whole machine). 20 spans keep every input fast.
    spec.spans = 20;
    spec.maxBackgroundSpans = 4096;
    Result<MachineWorkload> made = syntheticMachineWorkload(machine, spec);
    if (!made)
        return 0;
    if (made->cpus.size() != static_cast<std::size_t>(machine.cpuCount()))
        std::abort();
    for (std::size_t c = 0; c < made->cpus.size(); ++c) {
        const CpuStream &s = made->cpus[c];
        if (s.cpu != static_cast<int>(c))
            std::abort();
        for (std::size_t i = 0; i < s.stream.size(); ++i)
            if (!validateSpan(s.stream[i], "fuzz", static_cast<std::int64_t>(i) + 2).ok())
                std::abort();
    }
    return 0;
}
