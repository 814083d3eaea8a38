// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file latency_limit.h
 * A scenario's latency limit (compare --latency-limit, the window's slider) on
 * a stream: the PM QoS resume-latency limit every span is replayed under, in
 * place of the stream's own column. One function for every front end, so that
 * a trace, a stream file and a generated workload are limited alike.
 */
#pragma once

#include "core/stream/idle_span.h"

namespace idlescope {

/// @p limitNs as the latency limit of every span of @p stream, when >= 0 (-1: none).
inline void applyLatencyLimit(IdleStream &stream, Ns limitNs)
{
    if (limitNs < 0)
        return;
    for (IdleSpan &s : stream)
        s.latencyReqNs = limitNs;
}

} // namespace idlescope
