// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file frequency_stats.h
 * Time at each CPU frequency, from power:cpu_frequency, as idlestat reports
 * its P-states: only the time the CPU was running counts (a CPU inside an
 * idle entry runs at no frequency, whatever cpufreq last asked for), and each
 * stretch of running at one frequency is one "hit" (it starts at an idle exit
 * or a frequency change and ends at an idle enter, a change or the end of
 * the CPU's trace). Running before a CPU's first cpu_frequency event is at an
 * unknown frequency and is left out.
 */
#pragma once

#include "core/common/kernel_types.h"
#include "core/trace/trace_model.h"

#include <cstdint>
#include <vector>

namespace idlescope::trace {

struct FrequencyResidency {
    std::int64_t khz = 0;
    std::int64_t hits = 0; ///< stretches of running at this frequency
    Ns timeNs = 0;         ///< their total length
    Ns minNs = 0;          ///< the shortest stretch
    Ns maxNs = 0;          ///< the longest stretch

    Ns meanNs() const { return hits > 0 ? timeNs / hits : 0; }
};

/// The frequencies @p cpu ran at, lowest first; empty when its trace has no cpu_frequency events.
std::vector<FrequencyResidency> frequencyResidency(const CpuTrace &cpu);

/// Adds @p from into @p into, frequency by frequency (the all-CPUs row); both stay sorted by khz.
void mergeFrequencies(std::vector<FrequencyResidency> &into, const std::vector<FrequencyResidency> &from);

} // namespace idlescope::trace
