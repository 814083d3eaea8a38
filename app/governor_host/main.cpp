// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * idlescope-governor-host GOVERNOR.so [PARENT_PID]: runs the reference
 * replay with a governor that idlescope built from a kernel source file.
 * Confines itself first (sandbox.h), then reads the table on stdin and the
 * stream from the ring on fd 4, replaying each slot as it is filled, and
 * writes one decision per entry on fd 5 (core/source_governor/host_protocol.h);
 * stdout and stderr are the governor's text, and its own refusals go to
 * stderr with exit status HOST_EXIT_REFUSED. Not meant to be run by hand:
 * idlescope starts it, watches it, and reports its crashes.
 */
#include "app/governor_host/sandbox.h"
#include "app/governor_host/shim_governor.h"

#include "core/replay/reference_replay.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using namespace idlescope;
using namespace idlescope::source_governor;

#if defined(__SANITIZE_ADDRESS__)
/*
 * In a sanitizer build the host would otherwise report a crash of the user's
 * governor as an AddressSanitizer SEGV and exit with status 1; idlescope tells
 * a crash from a refusal by the signal that ended the host, so the signals stay
 * the kernel's. ASan still checks the host's own memory accesses.
 */
extern "C" const char *__asan_default_options()
{
    // No leak check at exit either: LeakSanitizer stops the world with clone() and ptrace(),
    // which the host's seccomp filter (sandbox.h) forbids.
    return "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_abort=0:handle_sigill=0:detect_leaks=0";
}
#endif

namespace {

[[noreturn]] void refuse(const std::string &message)
{
    std::fprintf(stderr, "%s%s\n", HOST_ERROR_PREFIX, message.c_str());
    std::exit(HOST_EXIT_REFUSED);
}

/// Reads exactly @p n bytes of stdin; false at its end (or on an error) before them.
bool readExactly(void *to, std::size_t n)
{
    auto *p = static_cast<unsigned char *>(to);
    while (n > 0) {
        const ssize_t got = ::read(STDIN_FILENO, p, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return false;
        p += got;
        n -= static_cast<std::size_t>(got);
    }
    return true;
}

/// The number of ring slots idlescope has filled since the last call (at least one,
/// waiting for it); 0 when stdin ends first.
std::size_t slotsFilled()
{
    std::uint8_t tokens[RING_SLOTS];
    for (;;) {
        const ssize_t got = ::read(STDIN_FILENO, tokens, sizeof tokens);
        if (got < 0 && errno == EINTR)
            continue;
        return got > 0 ? static_cast<std::size_t>(got) : 0;
    }
}

/// Gives a replayed slot back. An idlescope that has sent every slot closed its end
/// already: nothing is lost then, and MSG_NOSIGNAL keeps the host from its SIGPIPE.
void freeSlot()
{
    const std::uint8_t token = RING_FREED;
    while (::send(STDIN_FILENO, &token, 1, MSG_NOSIGNAL) < 0 && errno == EINTR) {}
}

HostProgress &mapProgress()
{
    void *m = ::mmap(nullptr, sizeof(HostProgress), PROT_READ | PROT_WRITE, MAP_SHARED, HOST_PROGRESS_FD, 0);
    if (m == MAP_FAILED) {
        // Run by hand: keep the progress to ourselves.
        static HostProgress local{};
        return local;
    }
    return *static_cast<HostProgress *>(m);
}

template <typename T>
T *symbol(void *lib, const char *name, const char *so)
{
    void *p = ::dlsym(lib, name);
    if (!p)
        refuse(std::string(so) + " has no " + name + ": it was not built by idlescope");
    return static_cast<T *>(p);
}

/// The input's header, from this idlescope build, with a state and span count in range.
HostHeader readHeader()
{
    HostHeader header{};
    if (!readExactly(&header, sizeof header) || std::memcmp(header.magic, HOST_MAGIC, sizeof HOST_MAGIC) != 0)
        refuse("bad input header (not from this idlescope build)");
    if (header.stateCount < 1 || header.stateCount > CPUIDLE_STATE_MAX || header.spanCount < 0)
        refuse("bad input header (state or span count)");
    return header;
}

/// The idle-state table that follows the header, one HostState each.
IdleStateTable readStateTable(const HostHeader &header)
{
    IdleStateTable table;
    table.tickHz = header.tickHz;
    for (int i = 0; i < header.stateCount; ++i) {
        HostState s{};
        if (!readExactly(&s, sizeof s))
            refuse("input ends inside the state table");
        IdleState st;
        st.name.assign(s.name, strnlen(s.name, sizeof s.name));
        st.exitLatencyNs = s.exitLatencyNs;
        st.targetResidencyNs = s.targetResidencyNs;
        st.polling = s.polling != 0;
        st.disabled = s.disabled != 0;
        table.states.push_back(st);
    }
    return table;
}

/// The built governor's shim, driver and device, and the one governor its initcalls
/// registered.
struct LoadedGovernor {
    idlescope_shim_state *shim;
    cpuidle_driver *drv;
    cpuidle_device *dev;
    cpuidle_governor *gov;
};

/// Loads @p governorPath (named @p so in messages), which runs its initcalls: they must
/// have registered exactly one governor, as the kernel's cpuidle_register_governor() would.
LoadedGovernor loadGovernor(const std::string &governorPath, const char *so)
{
    void *lib = ::dlopen(governorPath.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        refuse(std::string("cannot load the built governor: ") + ::dlerror());
    auto *shim = symbol<idlescope_shim_state>(lib, "idlescope_shim", so);
    auto *drv = symbol<cpuidle_driver>(lib, "idlescope_driver", so);
    auto *dev = symbol<cpuidle_device>(lib, "idlescope_device", so);
    if (shim->initcall_error)
        refuse("the file's initcall returned " + std::to_string(shim->initcall_error)
               + " (the kernel would not register the governor)");
    if (shim->governor_count == 0)
        refuse(std::string(HOST_NO_GOVERNOR)
               + ": it needs an initcall (postcore_initcall(), module_init()) that calls "
                 "cpuidle_register_governor()");
    if (shim->governor_count > 1) {
        std::string names;
        for (int i = 0; i < shim->governor_count; ++i)
            names += std::string(i ? ", " : "") + shim->governors[i]->name;
        refuse("the file registers " + std::to_string(shim->governor_count) + " governors (" + names
               + "); idlescope runs one governor per file");
    }
    return LoadedGovernor{shim, drv, dev, shim->governors[0]};
}

/// The tick and the table into the shim, the driver and CPU 0's device, as the kernel's
/// cpuidle_register_driver() and cpuidle_register_device() leave them for a governor.
void registerDriver(const LoadedGovernor &loaded, const IdleStateTable &table, std::int32_t pollRule)
{
    idlescope_shim_state *shim = loaded.shim;
    shim->hz = table.tickHz;
    shim->tick_nsec = table.tickNsec();
    shim->tick_usec = (1000000 + table.tickHz / 2) / table.tickHz;
    shim->poll_rule = pollRule;
    loaded.drv->name = "idlescope";
    loaded.drv->state_count = table.count();
    for (int i = 0; i < table.count(); ++i) {
        cpuidle_state &s = loaded.drv->states[i];
        std::snprintf(s.name, sizeof s.name, "%s", table[i].name.c_str());
        s.exit_latency_ns = table[i].exitLatencyNs;
        s.target_residency_ns = table[i].targetResidencyNs;
        // The driver core's microsecond copies: ns / 1000, truncated.
        s.exit_latency = static_cast<unsigned int>(table[i].exitLatencyNs / NSEC_PER_USEC);
        s.target_residency = static_cast<unsigned int>(table[i].targetResidencyNs / NSEC_PER_USEC);
        s.flags = table[i].polling ? CPUIDLE_FLAG_POLLING : 0;
        loaded.dev->states_usage[i].disable = table[i].disabled ? CPUIDLE_STATE_DISABLED_BY_USER : 0;
    }
    loaded.dev->cpu = 0;
    loaded.dev->registered = 1;
    loaded.dev->enabled = 1;
}

/// Replays the @p spanCount spans of the ring's slots (host_protocol.h), each where it
/// is while idlescope fills the next: the stream is never held whole here, nor copied.
void replayRing(ReferenceReplay &replay, const ShimGovernor &shimGov, DecisionSink &sink, HostProgress &progress,
                std::size_t spanCount)
{
    const void *ring = ::mmap(nullptr, RING_BYTES, PROT_READ, MAP_SHARED | MAP_POPULATE, HOST_RING_FD, 0);
    if (spanCount > 0 && ring == MAP_FAILED)
        refuse(std::string("cannot map the stream's ring (fd 4): ") + std::strerror(errno));
    // Each row is replayed once the row after it is here (an in-idle
    // wakeup's row needs the next row's handler time): one row is held back,
    // copied out of its slot so that the slot can be refilled.
    IdleSpan held{};
    std::size_t heldIndex = 0;
    bool holding = false;
    auto runHeld = [&](const IdleSpan *next) {
        progress.span.store(static_cast<std::int64_t>(heldIndex), std::memory_order_relaxed);
        replay.runSpan(held, next);
        if (!shimGov.failure().empty()) {
            sink.flush();
            refuse(shimGov.failure());
        }
    };
    std::size_t filled = 0;
    for (std::size_t first = 0, slot = 0; first < spanCount; first += RING_SLOT_SPANS, ++slot) {
        if (filled == 0 && (filled = slotsFilled()) == 0) {
            sink.flush();
            refuse("input ends inside the stream");
        }
        --filled;
        const auto *piece = static_cast<const IdleSpan *>(ring) + (slot % RING_SLOTS) * RING_SLOT_SPANS;
        const std::size_t n = std::min(RING_SLOT_SPANS, spanCount - first);
        for (std::size_t i = 0; i < n; ++i) {
            if (holding)
                runHeld(&piece[i]);
            held = piece[i];
            heldIndex = first + i;
            holding = true;
        }
        freeSlot();
    }
    if (holding)
        runHeld(nullptr);
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3)
        refuse("usage: idlescope-governor-host GOVERNOR.so [PARENT_PID] < input 5> decisions");
    HostProgress &progress = mapProgress();
    progress.phase.store(static_cast<std::int32_t>(HostPhase::Loading), std::memory_order_relaxed);
    std::string refusal;
    const std::string governorPath = confine(argv[1], argc == 3 ? std::atoi(argv[2]) : 0, progress, refusal);
    if (!refusal.empty())
        refuse(refusal);

    const HostHeader header = readHeader();
    const IdleStateTable table = readStateTable(header);
    // The shim state must be set before the file's initcalls run (at load).
    const LoadedGovernor loaded = loadGovernor(governorPath, argv[1]);
    registerDriver(loaded, table, header.pollRule);

    VariantInfo info{loaded.gov->name,
                     "source",
                     "",
                     {},
                     "a governor built from source",
                     header.pollRule == IDLESCOPE_POLL_RULE_V5_5 ? PollTimeRule::V5_5 : PollTimeRule::V5_11,
                     header.idleLoopReadsGotTick != 0};
    DecisionSink sink;
    ShimGovernor shimGov(info, *loaded.shim, *loaded.drv, *loaded.dev, *loaded.gov, header.skipSelectOneState != 0,
                         progress, sink);
    ReferenceReplay replay(table, shimGov, header.latencyLimitNs); // runs enable()
    shimGov.setReplay(&replay);
    if (!shimGov.failure().empty())
        refuse(shimGov.failure());
    replayRing(replay, shimGov, sink, progress, static_cast<std::size_t>(header.spanCount));
    progress.phase.store(static_cast<std::int32_t>(HostPhase::Done), std::memory_order_relaxed);
    sink.put(DECISION_END);
    sink.put64(replay.summary().entries);
    sink.put64(replay.summary().endNowNs);
    sink.flush();
    return sink.failed() ? 1 : 0;
}
