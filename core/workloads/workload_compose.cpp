// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Building span sources from a spec tree, and the two ways to compose them.
 *
 * Overlay (a + b): the components run side by side on one CPU. Each
 * component's own spans are read as a timeline of wakeup events at absolute
 * times (event k at sum of gaps and wakes up to k), each bringing the busy
 * time of the component's next gap. The merged CPU idles from the end of its
 * busy time to the earliest pending event; events that arrive while it is busy
 * add their work to the busy period. The merged span's timer is the earliest
 * pending timer of any component, so a component's timer stays visible to the
 * governor while other events end spans, as a real next timer does.
 * latency_req_ns is the tightest limit of the components' current spans, util
 * the largest. One busy period absorbs at most MAX_ABSORBED_EVENTS events
 * (below): a saturated CPU then shows spans without idle time.
 *
 * Mix (mix(w1*a | w2*b)): each draw picks one member with probability w/sum(w)
 * and takes `block` consecutive spans from it; members not picked are paused.
 */
#include "core/workloads/rng.h"
#include "core/workloads/workload_spec.h"

#include <algorithm>

namespace idlescope::workloads {

namespace {

/*
 * The most component events one busy period of an overlay absorbs before a
 * span ends it. When the components bring work faster than one CPU does it
 * (busy shares adding up to 100 % or more: `video:fps=810 + sweep`, 61 % +
 * 50 %), the busy period never ends; and a component that wakes far more often
 * than the others' busy periods last (an IPI every 1 us next to 100 ms of work)
 * brings 100,000 events to one. Absorbed one by one, either cost time without
 * bound for a single span (the former guard, 1,000,000 events per span, took
 * 21 s for 300 spans under ASan). After this many, the span ends with no idle
 * time (the CPU re-enters idle with an event already due, as a saturated CPU
 * does) and the next span goes on with the events still due: none is dropped,
 * so the busy share stays right. 10,000 is 100 ms of busy time at one event per
 * 10 us, longer than any busy period of the generators at their defaults.
 */
constexpr int MAX_ABSORBED_EVENTS = 10000;

/// Applies a generator node's latency_req_us and util to its spans.
class QosSource final : public SpanSource {
public:
    QosSource(std::unique_ptr<SpanSource> inner, Ns latencyReqNs, int util)
        : m_inner(std::move(inner)), m_latencyReqNs(latencyReqNs), m_util(util)
    {
    }
    IdleSpan next() override
    {
        IdleSpan s = m_inner->next();
        s.latencyReqNs = m_latencyReqNs;
        s.util = m_util;
        return s;
    }

private:
    std::unique_ptr<SpanSource> m_inner;
    Ns m_latencyReqNs;
    int m_util;
};

class OverlaySource final : public SpanSource {
public:
    explicit OverlaySource(std::vector<std::unique_ptr<SpanSource>> parts) : m_parts(std::move(parts))
    {
        m_cursors.resize(m_parts.size());
        for (size_t i = 0; i < m_parts.size(); ++i) {
            const IdleSpan first = m_parts[i]->next();
            load(i, first.gapNs, first);
        }
    }

    IdleSpan next() override
    {
        // Events that arrived while the CPU was busy extend the busy period
        // (bounded: a saturated CPU, or components whose spans are all
        // zero-length, cannot hold one span for ever).
        for (int absorbed = 0; absorbed < MAX_ABSORBED_EVENTS; ++absorbed) {
            const size_t i = earliest();
            if (m_cursors[i].eventAbs >= m_busyUntil)
                break;
            m_busyUntil += advance(i);
        }
        const Ns start = m_busyUntil;
        const size_t e = earliest();
        Ns timerAbs = m_cursors[e].timerAbs;
        Ns latency = NO_LATENCY_REQ;
        int util = 0;
        for (const Cursor &c : m_cursors) {
            timerAbs = std::min(timerAbs, c.timerAbs);
            if (c.span.latencyReqNs >= 0 && (latency < 0 || c.span.latencyReqNs < latency))
                latency = c.span.latencyReqNs;
            util = std::max(util, c.span.util);
        }
        const Ns wakeAbs = std::max(m_cursors[e].eventAbs, start);
        IdleSpan out{start - m_lastWakeAbs, std::max(timerAbs, wakeAbs) - start, wakeAbs - start, latency, util};
        m_lastWakeAbs = wakeAbs;
        m_busyUntil = wakeAbs + advance(e);
        return out;
    }

private:
    struct Cursor {
        IdleSpan span;      ///< the component's current span
        Ns eventAbs = 0;    ///< absolute time of its wakeup
        Ns timerAbs = 0;    ///< absolute time of its next timer
    };

    void load(size_t i, Ns spanStartAbs, const IdleSpan &s)
    {
        Cursor &c = m_cursors[i];
        c.span = s;
        c.eventAbs = spanStartAbs + s.wakeNs;
        c.timerAbs = spanStartAbs + s.timerNs;
    }

    /// Moves component i past its current event; returns the work that event brings.
    Ns advance(size_t i)
    {
        const IdleSpan s = m_parts[i]->next();
        load(i, m_cursors[i].eventAbs + s.gapNs, s);
        return s.gapNs;
    }

    size_t earliest() const
    {
        size_t best = 0;
        for (size_t i = 1; i < m_cursors.size(); ++i)
            if (m_cursors[i].eventAbs < m_cursors[best].eventAbs)
                best = i;
        return best;
    }

    std::vector<std::unique_ptr<SpanSource>> m_parts;
    std::vector<Cursor> m_cursors;
    Ns m_busyUntil = 0;
    Ns m_lastWakeAbs = 0;
};

class MixSource final : public SpanSource {
public:
    MixSource(std::vector<std::unique_ptr<SpanSource>> parts, std::vector<std::int64_t> weights,
              std::int64_t block, std::uint64_t seed)
        : m_parts(std::move(parts)), m_weights(std::move(weights)), m_block(block), m_rng(seed)
    {
        for (std::int64_t w : m_weights)
            m_total += static_cast<std::uint64_t>(w);
    }

    IdleSpan next() override
    {
        if (m_left == 0) {
            std::uint64_t r = m_rng.below(m_total);
            m_current = 0;
            while (r >= static_cast<std::uint64_t>(m_weights[m_current])) {
                r -= static_cast<std::uint64_t>(m_weights[m_current]);
                ++m_current;
            }
            m_left = m_block;
        }
        --m_left;
        return m_parts[m_current]->next();
    }

private:
    std::vector<std::unique_ptr<SpanSource>> m_parts;
    std::vector<std::int64_t> m_weights;
    std::int64_t m_block;
    Rng m_rng;
    std::uint64_t m_total = 0;
    size_t m_current = 0;
    std::int64_t m_left = 0;
};

std::unique_ptr<SpanSource> build(const WorkloadNode &node, std::uint64_t seed, std::uint64_t &stream)
{
    const std::uint64_t own = ++stream;
    switch (node.kind) {
    case WorkloadNode::Kind::Generator: {
        auto src = node.params.info->make(node.params, deriveSeed(seed, own));
        if (node.latencyReqNs != NO_LATENCY_REQ || node.util != 0)
            src = std::make_unique<QosSource>(std::move(src), node.latencyReqNs, node.util);
        return src;
    }
    case WorkloadNode::Kind::Overlay:
    case WorkloadNode::Kind::Mix: {
        std::vector<std::unique_ptr<SpanSource>> parts;
        for (const WorkloadNode &c : node.children)
            parts.push_back(build(c, seed, stream));
        if (node.kind == WorkloadNode::Kind::Overlay)
            return std::make_unique<OverlaySource>(std::move(parts));
        return std::make_unique<MixSource>(std::move(parts), node.weights, node.block, deriveSeed(seed, own));
    }
    }
    return nullptr;
}

} // namespace

std::uint64_t runSeed(std::uint64_t seed, int point, int iteration)
{
    return deriveSeed(seed, static_cast<std::uint64_t>(point), static_cast<std::uint64_t>(iteration), 0x5eed);
}

std::unique_ptr<SpanSource> buildSource(const WorkloadNode &node, std::uint64_t seed)
{
    std::uint64_t stream = 0;
    return build(node, seed, stream);
}

IdleStream generateStream(const WorkloadSpec &spec, int point, std::uint64_t seed, std::size_t spans)
{
    const WorkloadNode node = spec.nodeAt(point);
    std::unique_ptr<SpanSource> src = buildSource(node, seed);
    IdleStream out;
    out.reserve(spans);
    for (std::size_t i = 0; i < spans; ++i)
        out.push_back(src->next());
    return out;
}

IdleStream seededStream(const WorkloadSpec &spec, int point, int iteration, std::uint64_t seed, std::size_t spans)
{
    return generateStream(spec, point, runSeed(seed, point, iteration), spans);
}

IdleStream legacyDirectSeedStream(const WorkloadNode &node, std::uint64_t seed, std::size_t spans)
{
    std::unique_ptr<SpanSource> src = node.params.info->make(node.params, seed);
    IdleStream out(spans);
    for (IdleSpan &span : out)
        span = src->next();
    return out;
}

} // namespace idlescope::workloads
