// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The pieces TeoGovernor's steps pass between them, for teo_governor.cpp and
 * the version families it includes (teo_v5_14.h, teo_v6_6.h, teo_v6_19.h).
 * Private to those files: nothing else includes it.
 */
#pragma once

#include "core/governors/teo_governor.h"

#include <cstdint>

// The steps are functions of their own for the reader; for the compiler they
// are one function again: each runs once per select, and inlined, the structs
// passed between them and select()'s TeoSteps stay in registers (left to the
// compiler, some went through memory and TeoSteps was cleared with a rep
// stos: 5-13% more instructions per select). This is also why a family's
// steps sit in a header of teo_governor.cpp's one translation unit rather
// than in a .cpp of their own: across translation units they could not be
// inlined into select().
#define TEO_STEP [[gnu::always_inline]] inline

namespace idlescope {

// ---- teo_update() ----------------------------------------------------------------

/// Step 1's outcome: measured_ns, the exit latency it was corrected by, and
/// whether a safety net set it to the maximum.
struct TeoGovernor::Measured {
    Ns ns;
    Ns exitLatencyNs;
    bool safetyNet;
};

/// Step 2's outcome (and step 3's tick bin): the sum of the decayed bins,
/// idx_timer, idx_duration, and whether the wakeup was a v6.6–v6.10 tick hit.
struct TeoGovernor::Bins {
    std::uint32_t total;
    int timer;
    int duration;
    bool tickHit;
};
// ---- teo_select() ----------------------------------------------------------------

/// What select() notes on the way for the reasoning record: TeoGovernor's
/// block, and the fields of the original record decided in the steps.
struct TeoGovernor::Notes {
    TeoSteps &st; ///< a local of select() of its own (kept in memory: updateWith() fills it)
    Ns measuredNs = 0;
    std::uint32_t idxInterceptSum = 0;
    std::uint32_t idxHitSum = 0;
    int candidateIdx = 0;
    int constraintIdx = 0;
    int idx0 = 0;
    TeoReasoning::Path path = TeoReasoning::Path::Candidate;
    bool sleepLengthQueried = false;
};

/// The state picked so far, duration_ns (valid when hasDuration), delta_tick,
/// and where teo_select() goes next.
struct TeoGovernor::Choice {
    enum class Exit : std::uint8_t {
        End,     ///< its "end:" label: the tick decision
        OutTick, ///< its "out_tick:" label: keep the tick, return idx
    };
    int idx;
    Ns durationNs;
    Ns deltaTickNs;
    bool hasDuration;
    Exit exit;
};

/// Step 2's outcome: the candidate (-1 if nothing is enabled), idx0, the
/// deepest state within the latency limit and the bin sums below the candidate.
struct TeoGovernor::Candidate {
    int idx = -1;
    int idx0 = 0;
    int constraintIdx = 0;
    int interceptMaxIdx = -1;       ///< v7.0: the bin with the most intercepts
    std::uint32_t interceptSum = 0; ///< intercepts of the bins the walk passed
    std::uint32_t idxInterceptSum = 0;
    std::uint32_t idxHitSum = 0;
    std::uint32_t idxRecentSum = 0;
};

/// Step 6: the state and the value left in *stop_tick.
struct TeoGovernor::TickChoice {
    int idx;
    bool stopTick;
};

} // namespace idlescope
