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
 * A member whose row is an in-idle wakeup (need_resched = 0) goes on past its
 * block until a row wakes a task, so that no other member's busy time becomes
 * the handler time after it.
 *
 * In an overlay, a merged row is an in-idle wakeup when the event that ends
 * it is one and no event that the handler's time absorbs wakes a task.
 *
 * Routed I/O completions (io_interrupts.h): when asked for, every io generator
 * whose interrupts go to another CPU reports its completions, on its own time
 * axis, to an InterruptSink. An overlay's components share its axis, so it
 * passes its sink on; a mix plays a member's spans at other times than the
 * member's own, so it keeps each member's completions until the member's
 * span that holds them is played, then moves them by the same shift.
 */
#include "core/workloads/io_interrupts.h"
#include "core/workloads/rng.h"
#include "core/workloads/workload_spec.h"

#include <algorithm>
#include <optional>

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

/// Receives routed completion interrupts, on the time axis of the source it was given to.
class InterruptSink {
public:
    virtual ~InterruptSink() = default;
    virtual void interrupt(IoInterrupt irq) = 0;
};

/// The completions of an io generator: the end of each span no timer ends (a wait that an
/// unrelated timer cut ends in the span after, GeneratorBase::eventWake).
class CompletionTap final : public SpanSource {
public:
    CompletionTap(std::unique_ptr<SpanSource> inner, InterruptSink &sink, Ns hardirqNs)
        : m_inner(std::move(inner)), m_sink(sink), m_hardirqNs(hardirqNs)
    {
    }
    IdleSpan next() override
    {
        const IdleSpan s = m_inner->next();
        m_nowNs += s.gapNs + s.wakeNs;
        if (!s.timerWake())
            m_sink.interrupt({m_nowNs, m_hardirqNs});
        return s;
    }

private:
    std::unique_ptr<SpanSource> m_inner;
    InterruptSink &m_sink;
    Ns m_hardirqNs;
    Ns m_nowNs = 0; ///< the end of the last span, on the generator's own axis
};

/// The I/Os of an io generator: every `waits`-th completion (CompletionTap's rule) ends one; its
/// time, on the generator's own axis, goes to @p ends.
class IoOpsTap final : public SpanSource {
public:
    IoOpsTap(std::unique_ptr<SpanSource> inner, std::vector<Ns> &ends, std::int64_t waitsPerIo)
        : m_inner(std::move(inner)), m_ends(ends), m_waitsPerIo(waitsPerIo)
    {
    }
    IdleSpan next() override
    {
        const IdleSpan s = m_inner->next();
        m_nowNs += s.gapNs + s.wakeNs;
        if (!s.timerWake() && ++m_completions % m_waitsPerIo == 0)
            m_ends.push_back(m_nowNs);
        return s;
    }

private:
    std::unique_ptr<SpanSource> m_inner;
    std::vector<Ns> &m_ends;
    std::int64_t m_waitsPerIo;
    std::int64_t m_completions = 0;
    Ns m_nowNs = 0;
};

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
        out.needResched = m_cursors[e].span.needResched;
        m_lastWakeAbs = wakeAbs;
        m_busyUntil = wakeAbs + advance(e);
        // Events that arrive while the CPU is busy (or in a handler) extend the busy period
        // (bounded: a saturated CPU, or components whose spans are all zero-length, cannot
        // hold one span for ever). One that wakes a task during an in-idle wakeup's handler
        // ends the stay: the row then wakes a task too. (Absorbing here, after the row, and
        // not before the next one calls the components in the same order.)
        for (int absorbed = 0; absorbed < MAX_ABSORBED_EVENTS; ++absorbed) {
            const size_t i = earliest();
            if (m_cursors[i].eventAbs >= m_busyUntil)
                break;
            out.needResched = out.needResched || m_cursors[i].span.needResched;
            m_busyUntil += advance(i);
        }
        return out;
    }

private:
    struct Cursor {
        IdleSpan span;   ///< the component's current span
        Ns eventAbs = 0; ///< absolute time of its wakeup
        Ns timerAbs = 0; ///< absolute time of its next timer
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

/*
 * A mix member's completions, held on the member's own axis until the mix
 * plays the span that holds them (a member may report a completion before:
 * an overlay reads each component's next span ahead), then handed on moved to
 * the mix's axis: the member's span [from, to) plays at [at, at + to - from).
 */
class MemberInterrupts final : public InterruptSink {
public:
    void interrupt(IoInterrupt irq) override { m_held.push_back(irq); }

    /// The member played [m_playedNs, m_playedNs + lengthNs) of its axis from @p atNs of the mix's.
    void played(Ns atNs, Ns lengthNs, InterruptSink &out)
    {
        const Ns to = m_playedNs + lengthNs;
        size_t kept = 0;
        for (const IoInterrupt &irq : m_held) {
            if (irq.atNs <= to)
                out.interrupt({atNs + irq.atNs - m_playedNs, irq.handlerNs});
            else
                m_held[kept++] = irq;
        }
        m_held.resize(kept);
        m_playedNs = to;
    }

private:
    std::vector<IoInterrupt> m_held;
    Ns m_playedNs = 0;
};

class MixSource final : public SpanSource {
public:
    /// @p sink and @p members (one per part, whose completions they hold): routed completions,
    /// or nullptr and none.
    MixSource(std::vector<std::unique_ptr<SpanSource>> parts, std::vector<std::int64_t> weights, std::int64_t block,
              std::uint64_t seed, InterruptSink *sink, std::vector<std::unique_ptr<MemberInterrupts>> members)
        : m_parts(std::move(parts)), m_weights(std::move(weights)), m_block(block), m_rng(seed), m_sink(sink),
          m_members(std::move(members))
    {
        for (std::int64_t w : m_weights)
            m_total += static_cast<std::uint64_t>(w);
    }

    IdleSpan next() override
    {
        // A draw never falls inside a stay in the idle loop: after an in-idle wakeup the member
        // that made it goes on until a row wakes a task, as its next row's gap is a handler's.
        if (m_left <= 0 && !m_inStay) {
            std::uint64_t r = m_rng.below(m_total);
            m_current = 0;
            while (r >= static_cast<std::uint64_t>(m_weights[m_current])) {
                r -= static_cast<std::uint64_t>(m_weights[m_current]);
                ++m_current;
            }
            m_left = m_block;
        }
        --m_left;
        const IdleSpan s = m_parts[m_current]->next();
        m_inStay = !s.needResched;
        if (m_sink) {
            m_members[m_current]->played(m_nowNs, s.gapNs + s.wakeNs, *m_sink);
            m_nowNs += s.gapNs + s.wakeNs;
        }
        return s;
    }

private:
    std::vector<std::unique_ptr<SpanSource>> m_parts;
    std::vector<std::int64_t> m_weights;
    std::int64_t m_block;
    Rng m_rng;
    std::uint64_t m_total = 0;
    size_t m_current = 0;
    std::int64_t m_left = 0;
    bool m_inStay = false; ///< the last row was an in-idle wakeup
    InterruptSink *m_sink;
    std::vector<std::unique_ptr<MemberInterrupts>> m_members;
    Ns m_nowNs = 0; ///< the end of the last span played, on the mix's axis
};

/// The source of @p node; with @p sink, its routed io generators report their completions there,
/// and with @p ioEnds every io generator the ends of its I/Os.
std::unique_ptr<SpanSource> build(const WorkloadNode &node, std::uint64_t seed, std::uint64_t &stream,
                                  InterruptSink *sink, std::vector<Ns> *ioEnds = nullptr)
{
    const std::uint64_t own = ++stream;
    switch (node.kind) {
    case WorkloadNode::Kind::Generator: {
        auto src = node.params.info->make(node.params, deriveSeed(seed, own));
        if (node.latencyReqNs != NO_LATENCY_REQ || node.util != 0)
            src = std::make_unique<QosSource>(std::move(src), node.latencyReqNs, node.util);
        if (const std::optional<IoInterruptRoute> route = ioInterruptRoute(node); sink && route)
            src = std::make_unique<CompletionTap>(std::move(src), *sink, route->hardirqNs);
        if (const std::int64_t waits = ioWaitsPerIo(node); ioEnds && waits > 0)
            src = std::make_unique<IoOpsTap>(std::move(src), *ioEnds, waits);
        return src;
    }
    case WorkloadNode::Kind::Overlay:
    case WorkloadNode::Kind::Mix: {
        const bool mix = node.kind == WorkloadNode::Kind::Mix;
        std::vector<std::unique_ptr<SpanSource>> parts;
        std::vector<std::unique_ptr<MemberInterrupts>> members;
        for (const WorkloadNode &c : node.children) {
            InterruptSink *childSink = sink;
            if (mix && sink)
                childSink = members.emplace_back(std::make_unique<MemberInterrupts>()).get();
            parts.push_back(build(c, seed, stream, childSink, ioEnds));
        }
        if (!mix)
            return std::make_unique<OverlaySource>(std::move(parts));
        return std::make_unique<MixSource>(std::move(parts), node.weights, node.block, deriveSeed(seed, own), sink,
                                           std::move(members));
    }
    }
    return nullptr;
}

/// Whether the tree @p node holds an io generator.
bool hasIoGenerator(const WorkloadNode &node)
{
    return ioWaitsPerIo(node) > 0 || std::any_of(node.children.begin(), node.children.end(), [](const WorkloadNode &c) {
               return hasIoGenerator(c);
           });
}

/// Gathers the routed completions of a whole stream.
class InterruptList final : public InterruptSink {
public:
    explicit InterruptList(std::vector<IoInterrupt> &out) : m_out(out) {}
    void interrupt(IoInterrupt irq) override { m_out.push_back(irq); }

private:
    std::vector<IoInterrupt> &m_out;
};

} // namespace

std::uint64_t runSeed(std::uint64_t seed, int point, int iteration)
{
    return deriveSeed(seed, static_cast<std::uint64_t>(point), static_cast<std::uint64_t>(iteration), 0x5eed);
}

std::unique_ptr<SpanSource> buildSource(const WorkloadNode &node, std::uint64_t seed)
{
    std::uint64_t stream = 0;
    return build(node, seed, stream, nullptr);
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

IdleStream generateStreamCovering(const WorkloadSpec &spec, int point, std::uint64_t seed, Ns durationNs,
                                  std::size_t maxSpans, std::vector<IoInterrupt> *interrupts, std::int64_t *ioOps)
{
    std::optional<InterruptList> list;
    if (interrupts) {
        interrupts->clear();
        list.emplace(*interrupts);
    }
    std::uint64_t stream = 0;
    std::vector<Ns> ioEnds;
    const WorkloadNode node = spec.nodeAt(point);
    std::unique_ptr<SpanSource> src = build(node, seed, stream, list ? &*list : nullptr, ioOps ? &ioEnds : nullptr);
    IdleStream out;
    Ns endNs = 0;
    while (out.size() < maxSpans && (durationNs < 0 || endNs < durationNs)) {
        out.push_back(src->next());
        endNs += out.back().gapNs + out.back().wakeNs;
    }
    if (interrupts) {
        // An overlay reads its components' next spans ahead: completions after the stream's
        // end belong to spans it never played.
        std::erase_if(*interrupts, [endNs](const IoInterrupt &irq) { return irq.atNs > endNs; });
        sortByTime(*interrupts);
    }
    if (ioOps)
        // As the completions: an I/O an overlay read ahead of the stream's end is not in it.
        *ioOps = hasIoGenerator(node)
                     ? std::count_if(ioEnds.begin(), ioEnds.end(), [endNs](Ns t) { return t <= endNs; })
                     : -1;
    return out;
}

IdleStream generateStreamWithInterrupts(const WorkloadSpec &spec, int point, std::uint64_t seed, std::size_t spans,
                                        std::vector<IoInterrupt> &interrupts)
{
    return generateStreamCovering(spec, point, seed, -1, spans, &interrupts);
}

void sortByTime(std::vector<IoInterrupt> &irqs)
{
    std::stable_sort(irqs.begin(), irqs.end(),
                     [](const IoInterrupt &a, const IoInterrupt &b) { return a.atNs < b.atNs; });
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
