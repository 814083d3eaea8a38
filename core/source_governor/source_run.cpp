// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/source_governor/source_run.h"

#include "core/source_governor/governor_host_path.h"
#include "core/source_governor/host_protocol.h"
#include "core/source_governor/subprocess.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <future>
#include <mutex>
#include <poll.h>
#include <string_view>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace idlescope::source_governor {

namespace {

/// Kept of the host's stderr: the governor's messages may be endless.
constexpr std::size_t MAX_LOG = 64 * 1024;
/// The longest line of the host's own kept past MAX_LOG (its refusals are one short line).
constexpr std::size_t MAX_HOST_LINE = 4096;
/// At most this much of such lines (the last ones).
constexpr std::size_t MAX_HOST_LINES_KEPT = 4 * MAX_HOST_LINE;
/// A governor that prints more than this in all is stopped: read and dropped past MAX_LOG,
/// its text would still keep this side busy for as long as it goes on.
constexpr std::size_t MAX_TEXT = std::size_t{256} << 20;

/// The header and the state table: what the host reads before the spans.
std::vector<unsigned char> hostPreamble(const KernelCore &core, const IdleStateTable &table, const IdleStream &stream,
                                        Ns latencyLimitNs)
{
    HostHeader h{};
    std::memcpy(h.magic, HOST_MAGIC, sizeof h.magic);
    h.tickHz = table.tickHz;
    h.stateCount = table.count();
    h.pollRule = core.pollTimeV5_5() ? 0 : 1;
    h.idleLoopReadsGotTick = core.v7();
    h.skipSelectOneState = core.v7();
    h.latencyLimitNs = latencyLimitNs;
    h.spanCount = static_cast<std::int64_t>(stream.size());
    std::vector<unsigned char> out(sizeof h + table.states.size() * sizeof(HostState));
    std::memcpy(out.data(), &h, sizeof h);
    std::size_t at = sizeof h;
    for (const IdleState &st : table.states) {
        HostState w{};
        w.exitLatencyNs = st.exitLatencyNs;
        w.targetResidencyNs = st.targetResidencyNs;
        w.polling = st.polling;
        w.disabled = st.disabled;
        std::strncpy(w.name, st.name.c_str(), sizeof w.name - 1);
        std::memcpy(out.data() + at, &w, sizeof w);
        at += sizeof w;
    }
    return out;
}

/// What is left to send to the host: the preamble on the socket, then the stream's spans
/// through the ring (host_protocol.h), a slot at a time as the host frees them.
struct HostInput {
    std::vector<unsigned char> preamble;
    std::size_t preambleSent = 0;
    const IdleSpan *spans = nullptr;
    std::size_t spanCount = 0;
    IdleSpan *ring = nullptr;   ///< RING_SLOTS slots, shared with the host
    std::size_t filled = 0;     ///< slots filled and announced
    std::size_t freed = 0;      ///< slots the host gave back
    bool waitsForSocket = true; ///< nothing sent yet, or the socket took no more: wait until it is writable

    std::size_t slots() const { return (spanCount + RING_SLOT_SPANS - 1) / RING_SLOT_SPANS; }
    bool done() const { return preambleSent == preamble.size() && filled == slots(); }
    /// Sends the preamble and fills the free slots; false when the host closed its end
    /// (it ended: its status says why).
    bool sendSome(int fd)
    {
        waitsForSocket = false;
        while (preambleSent < preamble.size()) {
            const ssize_t n =
                ::send(fd, preamble.data() + preambleSent, preamble.size() - preambleSent, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n > 0)
                preambleSent += static_cast<std::size_t>(n);
            else if (!(n < 0 && errno == EINTR))
                return blocked(n);
        }
        while (filled < slots() && filled - freed < RING_SLOTS) {
            // A slot whose byte the socket did not take is filled again, with the same spans.
            const std::size_t first = filled * RING_SLOT_SPANS;
            const std::size_t n = std::min(RING_SLOT_SPANS, spanCount - first);
            std::memcpy(ring + (filled % RING_SLOTS) * RING_SLOT_SPANS, spans + first, n * sizeof(IdleSpan));
            const ssize_t sent = ::send(fd, &RING_FILLED, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (sent == 1)
                ++filled;
            else if (!(sent < 0 && errno == EINTR))
                return blocked(sent);
        }
        return true;
    }
    /// Counts the slots the host gave back; false when it closed its end.
    bool readFreed(int fd)
    {
        std::uint8_t tokens[RING_SLOTS];
        const ssize_t n = ::recv(fd, tokens, sizeof tokens, MSG_DONTWAIT);
        if (n > 0)
            freed += static_cast<std::size_t>(n);
        return n > 0 || (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK));
    }

private:
    bool blocked(ssize_t n)
    {
        waitsForSocket = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
        return waitsForSocket;
    }
};

const char *phaseName(std::int32_t phase)
{
    switch (static_cast<HostPhase>(phase)) {
    case HostPhase::Loading: return "while loading (its initcall)";
    case HostPhase::Enable: return "in enable()";
    case HostPhase::Select: return "in select()";
    case HostPhase::Reflect: return "in reflect()";
    case HostPhase::Done: return "after the last entry";
    }
    return "";
}

/// @p ns in seconds, to the millisecond, without trailing zeros: "2", "12.5".
std::string secondsText(Ns ns)
{
    const Ns ms = (ns + 500'000) / 1'000'000;
    std::string text = std::to_string(ms / 1000);
    if (ms % 1000 != 0) {
        char frac[8];
        std::snprintf(frac, sizeof frac, ".%03lld", static_cast<long long>(ms % 1000));
        text += frac;
        while (text.back() == '0')
            text.pop_back();
    }
    return text;
}

std::string whereItWas(const HostProgress &p)
{
    const auto phase = p.phase.load(std::memory_order_relaxed);
    std::string s = phaseName(phase);
    if (phase == static_cast<std::int32_t>(HostPhase::Select) || phase == static_cast<std::int32_t>(HostPhase::Reflect))
        s += " at entry " + std::to_string(p.entry.load(std::memory_order_relaxed)) + " (stream row "
             + std::to_string(p.span.load(std::memory_order_relaxed)) + ")";
    return s;
}

std::string signalName(int sig)
{
    const char *abbrev = ::sigabbrev_np(sig);
    const char *text = ::strsignal(sig);
    return std::string(abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig))
           + (text ? std::string(" (") + text + ")" : std::string());
}

/// A system call the sandbox stops, in the words of what the governor tried to do.
std::string forbiddenCall(int nr)
{
    struct Known {
        long nr;
        const char *name;
        const char *what;
    };
    static const Known known[] = {
        {SYS_socket, "socket", "open a network connection"},
        {SYS_connect, "connect", "open a network connection"},
        {SYS_bind, "bind", "listen on the network"},
        {SYS_clone, "clone", "start a process or thread"},
        {SYS_clone3, "clone3", "start a process or thread"},
#ifdef SYS_fork
        {SYS_fork, "fork", "start a process"},
#endif
#ifdef SYS_vfork
        {SYS_vfork, "vfork", "start a process"},
#endif
        {SYS_execve, "execve", "run a program"},
        {SYS_execveat, "execveat", "run a program"},
        {SYS_kill, "kill", "signal another process"},
        {SYS_tgkill, "tgkill", "signal another process"},
        {SYS_tkill, "tkill", "signal another process"},
        {SYS_openat, "openat", "open a file for writing"},
#ifdef SYS_open
        {SYS_open, "open", "open a file"},
#endif
        {SYS_unlinkat, "unlinkat", "delete a file"},
        {SYS_write, "write", "write to a file descriptor other than its output"},
        {SYS_ptrace, "ptrace", "trace another process"},
        {SYS_setsid, "setsid", "leave its process group"},
        {SYS_setpgid, "setpgid", "leave its process group"},
        {SYS_prctl, "prctl", "change its process settings"},
        {SYS_unshare, "unshare", "leave its namespaces"},
        {SYS_mount, "mount", "mount a file system"},
        {SYS_ftruncate, "ftruncate", "resize a file"},
    };
    for (const Known &k : known)
        if (k.nr == nr)
            return std::string("tried to ") + k.what + " (system call " + k.name + ")";
    return "made system call " + std::to_string(nr);
}

/// The layers of the host's sandbox that the kernel or a container did not allow, as
/// a warning; "" when every one holds (or the host did not get as far as confining itself).
std::string sandboxNotice(const std::string &label, const HostProgress &p)
{
    const std::int32_t bits = p.sandbox.load(std::memory_order_relaxed);
    if (!(bits & SANDBOX_SET)
        || (bits & (SANDBOX_LIMITS | SANDBOX_NAMESPACES | SANDBOX_FILTER))
               == (SANDBOX_LIMITS | SANDBOX_NAMESPACES | SANDBOX_FILTER))
        return {};
    std::vector<std::string> gaps;
    if (!(bits & SANDBOX_NAMESPACES))
        gaps.push_back(std::string("no namespaces (unshare: ")
                       + std::strerror(p.namespaceErrno.load(std::memory_order_relaxed))
                       + "): it can read the files you can read");
    if (!(bits & SANDBOX_FILTER))
        gaps.push_back(std::string("no system call filter (seccomp: ")
                       + std::strerror(p.filterErrno.load(std::memory_order_relaxed))
                       + "): it can start programs, signal your processes"
                       + ((bits & SANDBOX_NAMESPACES) ? "" : ", open network connections and write your files"));
    if (!(bits & SANDBOX_LIMITS))
        gaps.push_back("no resource limits");
    std::string text = "warning: " + label + " runs in a partial sandbox, as this kernel or container allows: ";
    for (std::size_t i = 0; i < gaps.size(); ++i)
        text += (i ? "; " : "") + gaps[i];
    return text + " (docs/testing-your-patch.md, \"The sandbox\")\n";
}

/// The host's refusal line, and the rest of its stderr (the governor's own output).
void splitLog(const std::string &err, std::string &refusal, std::string &log)
{
    std::size_t b = 0;
    while (b < err.size()) {
        std::size_t e = err.find('\n', b);
        if (e == std::string::npos)
            e = err.size();
        const std::string line = err.substr(b, e - b);
        if (line.rfind(HOST_ERROR_PREFIX, 0) == 0)
            refusal = line.substr(std::strlen(HOST_ERROR_PREFIX));
        else
            log += line + "\n";
        b = e + 1;
    }
}

/// The host's stderr as kept (@p log, MAX_LOG characters) when @p dropped more did not
/// fit: its whole lines, then a line saying where it was cut.
std::string cutLog(std::string log, std::size_t dropped)
{
    const std::size_t total = log.size() + dropped;
    const std::size_t lineEnd = log.rfind('\n');
    log.resize(lineEnd == std::string::npos ? 0 : lineEnd + 1);
    return log + "\u2026 log cut at " + std::to_string(log.size()) + " characters (of " + std::to_string(total) + ")\n";
}

std::string withLog(std::string message, const std::string &log)
{
    // An error keeps the end of the log, from a line's start: what the governor said last
    // before it failed.
    constexpr std::size_t TAIL = 4000;
    if (log.size() > TAIL) {
        const std::size_t newline = log.find('\n', log.size() - TAIL - 1);
        const std::size_t lineStart = newline == std::string::npos ? log.size() - TAIL : newline + 1;
        return message + "\nthe governor printed (\u2026 its first " + std::to_string(lineStart) + " characters cut):\n"
               + log.substr(lineStart);
    }
    if (!log.empty())
        message += "\nthe governor printed:\n" + log;
    return message;
}

} // namespace

Result<KernelCore> parseKernelCore(const std::string &text)
{
    std::string t = text;
    if (!t.empty() && (t[0] == 'v' || t[0] == 'V'))
        t.erase(0, 1);
    KernelCore k;
    char extra = 0;
    if (std::sscanf(t.c_str(), "%d.%d%c", &k.major, &k.minor, &extra) != 2 || k.major < 0 || k.minor < 0)
        return Error{"", 0, "kernel", "'" + text + "' is not a kernel version (e.g. 6.19)"};
    const std::string range = "(v" + versionText(OLDEST_SHIM_KERNEL) + " ... v" + versionText(NEWEST_SHIM_KERNEL) + ")";
    if (k.version() < OLDEST_SHIM_KERNEL)
        return Error{"", 0, "kernel", "v" + k.name() + " is older than the kernels idlescope's shim follows " + range};
    if (k.version() > NEWEST_SHIM_KERNEL)
        return Error{"", 0, "kernel", "v" + k.name() + " is newer than the kernels idlescope's shim follows " + range};
    return k;
}

/// The most decision bytes a host that has reached entry @p entry (0-based) can have sent:
/// 9 an entry (the state byte and a poll limit), the end record, and room for the bytes of
/// entries the page has not counted yet.
namespace {
std::size_t decisionBytesMadeBy(std::int64_t entry)
{
    const auto entries = static_cast<std::size_t>(std::max<std::int64_t>(entry, 0)) + 2;
    return entries * (1 + sizeof(std::int64_t)) + (std::size_t{64} << 10);
}
} // namespace

/// Everything a running host needs on this side; its thread (main()) is the only one that
/// touches the host's fds once it started it, the rest is shared under the mutex.
struct HostRun::Watch {
    std::string label;
    int timeoutSeconds = DEFAULT_SOURCE_TIMEOUT_S;
    std::size_t rows = 0; ///< the stream's
    const std::atomic<bool> *cancel = nullptr;
    HostInput input;
    Fd inWrite;
    Fd inRead;        ///< the host's stdin, until it is started
    Fd decisionWrite; ///< the host's fd 5, until it is started
    Fd decisions;     ///< what the host decided (its fd 5): the only channel read as decisions
    Fd progressFd;
    void *page = MAP_FAILED;
    Fd ringFd;
    void *ring = MAP_FAILED;
    std::vector<std::string> argv; ///< the host's command line
    Spawned child;                 ///< out: the host's stdout and stderr, the governor's text
    std::thread thread;
    std::atomic<bool> stop{false}; ///< the run was destroyed before the host ended
    std::promise<Status> started;  ///< the thread's start of the host

    /// Decision bytes in blocks that never move: the replay reads a block while the
    /// thread appends to a later one.
    static constexpr std::size_t BLOCK = 1 << 20;
    std::mutex mutex;
    std::condition_variable arrived;
    std::vector<std::unique_ptr<std::uint8_t[]>> blocks;
    std::size_t size = 0;         ///< bytes written to the blocks
    std::size_t maxDecisions = 0; ///< more decision bytes than this: not the host's
    /// The decision bytes the replay here has asked for (bytesFrom()); past it, at most
    /// DECISIONS_AHEAD are read from the host, which then waits: a governor writing to fd 5
    /// itself was buffered up to 576 bytes a row (5.8 GB for 10M rows).
    std::size_t consumed = 0;
    bool consumerDone = false; ///< finish() was called: nothing more is asked for
    static constexpr std::size_t DECISIONS_AHEAD = std::size_t{8} << 20;
    bool ended = false;         ///< the host was reaped: no byte will follow
    int status = 0;             ///< its waitpid() status
    rusage usage{};             ///< its resource use (its peak memory)
    int leftBehind = 0;         ///< processes of its group still running when it ended (killed)
    std::string err;            ///< its text (at most MAX_LOG)
    std::size_t errDropped = 0; ///< bytes of its text past MAX_LOG, not kept
    std::string stopped;        ///< why this side killed it
    bool cancelled = false;
    /// Past MAX_LOG the governor's lines are dropped but the host's own (HOST_ERROR_PREFIX,
    /// its refusal, written last) are kept: the line being dropped, followed only while it
    /// may be one of them, and those found.
    std::string droppedLine;
    bool droppedLineMayBeHost = false;
    std::string hostLines;

    const HostProgress &progress() const { return *static_cast<const HostProgress *>(page); }
    ~Watch()
    {
        if (page != MAP_FAILED)
            ::munmap(page, sizeof(HostProgress));
        if (ring != MAP_FAILED)
            ::munmap(ring, RING_BYTES);
    }

    /// Reads what the host's decision channel has into the free end of the last block.
    bool readDecisions(int fd)
    {
        std::uint8_t *to;
        std::size_t room;
        {
            std::lock_guard lock(mutex);
            if (size == blocks.size() * BLOCK)
                blocks.push_back(std::make_unique_for_overwrite<std::uint8_t[]>(BLOCK));
            to = blocks.back().get() + size % BLOCK;
            room = BLOCK - size % BLOCK;
        }
        const ssize_t got = ::read(fd, to, room);
        if (got < 0 && errno == EINTR)
            return true;
        if (got <= 0)
            return false;
        {
            std::lock_guard lock(mutex);
            size += static_cast<std::size_t>(got);
        }
        arrived.notify_all();
        return true;
    }

    bool readLog(int fd)
    {
        char buf[4096];
        const ssize_t got = ::read(fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            return true;
        if (got <= 0)
            return false;
        const std::size_t room = MAX_LOG - std::min(err.size(), MAX_LOG);
        const std::size_t n = static_cast<std::size_t>(got);
        err.append(buf, std::min(n, room));
        if (n > room) {
            keepHostLines(std::string_view(buf + room, n - room));
            errDropped += n - room;
        }
        return true;
    }

    void keepHostLines(std::string_view dropped)
    {
        const std::string_view prefix = HOST_ERROR_PREFIX;
        // Whether droppedLine can still be (or already is) a line of the host's, kept to a
        // size: the governor's own lines are never held whole.
        const auto mayBeHost = [&] {
            return droppedLine.size() <= MAX_HOST_LINE
                   && (prefix.starts_with(droppedLine) || droppedLine.starts_with(prefix));
        };
        if (errDropped == 0) { // the first byte dropped continues the last line kept
            const std::size_t newline = err.rfind('\n');
            droppedLine = err.substr(newline == std::string::npos ? 0 : newline + 1, MAX_HOST_LINE + 1);
            droppedLineMayBeHost = mayBeHost();
        }
        for (const char c : dropped) {
            if (c == '\n') {
                endDroppedLine();
                droppedLine.clear();
                droppedLineMayBeHost = true;
            } else if (droppedLineMayBeHost) {
                droppedLine += c;
                droppedLineMayBeHost = mayBeHost();
            }
        }
    }

    /// At a newline, or at the end of the host's stderr: keeps the line dropped if it is the
    /// host's. Only the last few such lines: a governor can print the prefix too, endlessly,
    /// and the host's refusal is its last line.
    void endDroppedLine()
    {
        if (!droppedLineMayBeHost || !droppedLine.starts_with(HOST_ERROR_PREFIX))
            return;
        hostLines += droppedLine + '\n';
        if (hostLines.size() > MAX_HOST_LINES_KEPT)
            hostLines.erase(0, hostLines.find('\n', hostLines.size() - MAX_HOST_LINES_KEPT) + 1);
    }

    /// The thread: starts the host (so that its parent-death signal follows this thread,
    /// which watches it to its end), then run().
    void main()
    {
        Result<Spawned> spawned = spawnProcess(argv, inRead.get(),
                                               {{progressFd.get(), HOST_PROGRESS_FD},
                                                {ringFd.get(), HOST_RING_FD},
                                                {decisionWrite.get(), HOST_DECISION_FD}},
                                               ChildStderr::Merged, true);
        inRead.reset();
        decisionWrite.reset();
        if (!spawned) {
            started.set_value(
                Error{"", 0, "",
                      spawned.error().message + " (the governor host; set IDLESCOPE_GOVERNOR_HOST to its path)"});
            return;
        }
        child = std::move(*spawned);
        started.set_value(Ok{});
        run();
    }

    /// True once the host has ended (not reaped yet: its pid still names its group).
    bool hostEnded() const
    {
        siginfo_t info{};
        return ::waitid(P_PID, static_cast<id_t>(child.pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0
               && info.si_pid == child.pid;
    }

    using Clock = std::chrono::steady_clock;

    /// Which of the host's channels are still open: its decisions, its text, its socket.
    struct Channels {
        bool decisions = true;
        bool out = true;
        bool in = true;
    };

    /// Whether the host is ahead of the replay here by DECISIONS_AHEAD: its decisions are
    /// not read until the replay asks for more.
    bool waitsForReplay()
    {
        std::lock_guard lock(mutex);
        return !consumerDone && size >= consumed + DECISIONS_AHEAD;
    }

    /// Serves the channels @p fds found ready (decisions, text, socket, as poll() left them);
    /// whether the replay made progress: slots taken, decisions made. What the governor
    /// prints is not (an endless loop that prints is as hung as a silent one).
    bool serveChannels(const pollfd (&fds)[3], Channels &open)
    {
        bool progressed = false;
        if (open.in && (fds[2].revents & (POLLIN | POLLOUT | POLLERR | POLLHUP))) {
            const std::size_t before = input.preambleSent + input.filled + input.freed;
            const bool sending = input.readFreed(inWrite.get()) && input.sendSome(inWrite.get());
            progressed = input.preambleSent + input.filled + input.freed != before;
            if (!sending || input.done()) {
                open.in = false;
                inWrite.reset();
            }
        }
        if (open.decisions && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            progressed = true;
            open.decisions = readDecisions(decisions.get());
        }
        if (open.out && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
            open.out = readLog(child.out.get());
        return progressed;
    }

    /// Why the host is to be stopped now, "" when it runs on: cancelled, past its time
    /// (@p deadline, while it reported progress within @p quiet of it), hung since
    /// @p lastProgress, printing without end, or writing decisions no replay of entry
    /// @p entry made.
    std::string stopReason(Clock::time_point deadline, Clock::time_point lastProgress, Clock::duration quiet,
                           std::int64_t entry)
    {
        if (stop.load(std::memory_order_relaxed) || (cancel && cancel->load(std::memory_order_relaxed))) {
            cancelled = true;
            return "cancelled";
        }
        if (Clock::now() > deadline && Clock::now() - lastProgress < quiet) {
            // Reported progress up to the end: not whereItWas(), the page may be forged.
            const Ns limit = sourceRunLimitNs(timeoutSeconds, rows);
            return label + " ran past the time its run is given: " + secondsText(limit) + " s (--timeout "
                   + std::to_string(timeoutSeconds) + " s, and " + std::to_string(SOURCE_RUN_NS_PER_ROW / 1000)
                   + " us for each of the stream's " + std::to_string(rows)
                   + " rows): stopped, whatever progress it reported";
        }
        if (Clock::now() - lastProgress > std::chrono::seconds(timeoutSeconds) || Clock::now() > deadline) {
            // At the deadline, a run whose page has stood still for a while is the hang
            // it looks like: no fewer seconds than its timeout have passed since it started.
            return label + " did not return " + whereItWas(progress()) + " within " + std::to_string(timeoutSeconds)
                   + " s: stopped (an endless loop?)";
        }
        if (err.size() + errDropped > MAX_TEXT)
            return label + " printed more than " + std::to_string(MAX_TEXT >> 20) + " MiB " + whereItWas(progress())
                   + ": stopped (it prints without end?)";
        if (const std::size_t made = decisionBytesMadeBy(entry); size > made) {
            // At most 9 bytes an entry (a state, a poll limit): more than the entries the
            // host has reached can have made is the governor's own writing.
            const std::int64_t entries = std::max<std::int64_t>(entry, 0) + 1;
            return label + " wrote " + std::to_string(size) + " bytes to the decision channel (fd "
                   + std::to_string(HOST_DECISION_FD) + "), more than the " + std::to_string(made) + " bytes "
                   + (entries == 1 ? std::string("its first entry")
                                   : "its first " + std::to_string(entries) + " entries")
                   + " can make: stopped (the governor writes to file descriptor 5 itself)";
        }
        if (size > maxDecisions)
            return label + " wrote " + std::to_string(size) + " bytes to the decision channel (fd "
                   + std::to_string(HOST_DECISION_FD) + "), more than " + std::to_string(maxDecisions)
                   + " decisions of the stream can take: stopped";
        return {};
    }

    /// Reaps the host and what is left of its group; @p groupKilled: the group was killed
    /// once the host had ended (its members were counted then).
    void reap(bool groupKilled)
    {
        // With the filter on, the governor cannot fork: no need to look through /proc.
        const bool mayHaveForked = !(progress().sandbox.load(std::memory_order_relaxed) & SANDBOX_FILTER);
        int left = 0;
        const int st = reapGroup(child.pid, &usage, mayHaveForked ? &left : nullptr);
        if (!groupKilled)
            leftBehind = left;
        {
            std::lock_guard lock(mutex);
            status = st;
            ended = true;
        }
        arrived.notify_all();
    }

    /// Feeds the host, keeps its output, stops it when it hangs, floods or is cancelled, reaps it.
    void run()
    {
        bool groupKilled = false;
        Channels open;
        auto lastProgress = Clock::now();
        // The limit by this side's clock alone: the progress below is the host's word, and
        // the governor runs in the host.
        const auto deadline = lastProgress + std::chrono::nanoseconds(sourceRunLimitNs(timeoutSeconds, rows));
        const auto quiet = std::min<Clock::duration>(std::chrono::seconds(1), std::chrono::seconds(timeoutSeconds) / 2);
        std::int64_t lastEntry = -1;
        std::int32_t lastPhase = -1;
        while (open.out || open.decisions) {
            // The socket: writable when the preamble or a slot's byte waits for room, readable
            // when the host gives slots back.
            const short inEvents = static_cast<short>(POLLIN | (input.waitsForSocket ? POLLOUT : 0));
            const bool heldBack = waitsForReplay();
            pollfd fds[3] = {{open.decisions && !heldBack ? decisions.get() : -1, POLLIN, 0},
                             {open.out ? child.out.get() : -1, POLLIN, 0},
                             {open.in ? inWrite.get() : -1, inEvents, 0}};
            const int n = ::poll(fds, 3, 100);
            if (n < 0 && errno != EINTR)
                break;
            const bool progressed = serveChannels(fds, open);
            // A child the governor forked (where no filter forbade it) holds the pipes open
            // after the host ended: once the host has, what is left of its group is killed,
            // and the pipes drain to their end.
            if (n == 0 && !groupKilled && hostEnded()) {
                if (!(progress().sandbox.load(std::memory_order_relaxed) & SANDBOX_FILTER))
                    leftBehind = groupMembers(child.pid, child.pid);
                ::kill(-child.pid, SIGKILL);
                groupKilled = true;
            }
            // Progress is what the replay does: slots taken, decisions made, entries and
            // phases passed. A host held back by the replay here is waiting for it, not hung.
            const std::int64_t entry = progress().entry.load(std::memory_order_relaxed);
            const std::int32_t phase = progress().phase.load(std::memory_order_relaxed);
            if (progressed || heldBack || entry != lastEntry || phase != lastPhase) {
                lastProgress = Clock::now();
                lastEntry = entry;
                lastPhase = phase;
            }
            stopped = stopReason(deadline, lastProgress, quiet, entry);
            if (!stopped.empty()) {
                ::kill(-child.pid, SIGKILL);
                break;
            }
        }
        reap(groupKilled);
    }

    /// @p n bytes from @p pos of the blocks (the thread has ended).
    void copyOut(std::size_t pos, void *to, std::size_t n) const
    {
        auto *out = static_cast<std::uint8_t *>(to);
        for (std::size_t i = 0; i < n; ++i, ++pos)
            out[i] = blocks[pos / BLOCK][pos % BLOCK];
    }
};

HostRun::HostRun(std::unique_ptr<Watch> watch) : m_watch(std::move(watch)) {}

HostRun::~HostRun()
{
    if (m_watch->thread.joinable()) {
        m_watch->stop.store(true, std::memory_order_relaxed);
        m_watch->thread.join();
    }
}

Result<std::unique_ptr<HostRun>> HostRun::start(const std::string &sharedObject, const std::string &label,
                                                const KernelCore &core, const IdleStateTable &table,
                                                const IdleStream &stream, Ns latencyLimitNs, int timeoutSeconds,
                                                const std::atomic<bool> *cancel)
{
    // The table goes through a socket and the spans through a small ring of shared memory
    // (host_protocol.h), in slots the host replays as they are filled: no copy of the stream
    // in a file or in the host's memory, none through the kernel, and the host starts on the
    // first spans while the rest is being copied. (A socket, not a pipe: a host that died
    // takes no SIGPIPE to this process with it.)
    auto w = std::make_unique<Watch>();
    w->label = label;
    w->timeoutSeconds = timeoutSeconds;
    w->rows = stream.size();
    w->cancel = cancel;
    w->input.preamble = hostPreamble(core, table, stream, latencyLimitNs);
    w->input.spans = stream.data();
    w->input.spanCount = stream.size();
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return Error{"", 0, "", std::string("cannot create the governor host's input: ") + std::strerror(errno)};
    w->inWrite = Fd(sv[0]);
    Fd inRead(sv[1]);
    const int sendBuffer = 4 << 20; // the kernel caps it at net.core.wmem_max
    ::setsockopt(w->inWrite.get(), SOL_SOCKET, SO_SNDBUF, &sendBuffer, sizeof sendBuffer);
    w->progressFd = Fd(::memfd_create("idlescope-host-progress", MFD_CLOEXEC));
    if (w->progressFd.get() < 0 || ::ftruncate(w->progressFd.get(), sizeof(HostProgress)) != 0)
        return Error{"", 0, "",
                     std::string("cannot create the governor host's progress page: ") + std::strerror(errno)};
    w->page = ::mmap(nullptr, sizeof(HostProgress), PROT_READ | PROT_WRITE, MAP_SHARED, w->progressFd.get(), 0);
    if (w->page == MAP_FAILED)
        return Error{"", 0, "", std::string("cannot map the governor host's progress page: ") + std::strerror(errno)};

    w->ringFd = Fd(::memfd_create("idlescope-host-ring", MFD_CLOEXEC));
    if (w->ringFd.get() < 0 || ::ftruncate(w->ringFd.get(), RING_BYTES) != 0)
        return Error{"", 0, "", std::string("cannot create the governor host's ring: ") + std::strerror(errno)};
    w->ring = ::mmap(nullptr, RING_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, w->ringFd.get(), 0);
    if (w->ring == MAP_FAILED)
        return Error{"", 0, "", std::string("cannot map the governor host's ring: ") + std::strerror(errno)};
    w->input.ring = static_cast<IdleSpan *>(w->ring);

    int decisionPipe[2];
    if (::pipe2(decisionPipe, O_CLOEXEC) != 0)
        return Error{"", 0, "", std::string("cannot create the governor host's decisions: ") + std::strerror(errno)};
    w->decisions = Fd(decisionPipe[0]);
    w->decisionWrite = Fd(decisionPipe[1]);
    // Entries per span: one, a few more with polling; the bound only stops a governor that
    // writes to the channel itself.
    w->maxDecisions = (stream.size() + 1) * 64 * (1 + sizeof(std::int64_t)) + (std::size_t{1} << 20);
    w->inRead = std::move(inRead);
    w->argv = {governorHostPath(), sharedObject, std::to_string(::getpid())};
    std::future<Status> started = w->started.get_future();
    w->thread = std::thread([watch = w.get()] { watch->main(); });
    if (Status s = started.get(); !s) {
        w->thread.join();
        return s.error();
    }
    return std::unique_ptr<HostRun>(new HostRun(std::move(w)));
}

std::string HostRun::sandboxNotice() const
{
    return source_governor::sandboxNotice(m_watch->label, m_watch->progress());
}

std::span<const std::uint8_t> HostRun::bytesFrom(std::size_t pos)
{
    Watch &w = *m_watch;
    std::unique_lock lock(w.mutex);
    w.consumed = std::max(w.consumed, pos);
    w.arrived.wait(lock, [&] { return w.size > pos || w.ended; });
    if (w.size <= pos)
        return {};
    const std::size_t blockEnd = (pos / Watch::BLOCK + 1) * Watch::BLOCK;
    return {w.blocks[pos / Watch::BLOCK].get() + pos % Watch::BLOCK, std::min(w.size, blockEnd) - pos};
}

Result<HostEnd> HostRun::finish()
{
    Watch &w = *m_watch;
    {
        std::lock_guard lock(w.mutex);
        w.consumerDone = true; // the host's last bytes are read whatever the replay here took
    }
    if (w.thread.joinable())
        w.thread.join();
    HostEnd end;
    std::string refusal;
    if (w.errDropped > 0)
        w.endDroppedLine(); // a last line without its newline
    splitLog(w.errDropped > 0 ? cutLog(w.err, w.errDropped) + w.hostLines : w.err, refusal, end.log);
    const HostProgress &progress = w.progress();
    const std::string &label = w.label;
    // The memory limit makes a large allocation fail: the governor may go on, but it is told.
    const std::int64_t peak = static_cast<std::int64_t>(w.usage.ru_maxrss) * 1024;
    if (peak + (std::int64_t{128} << 20) >= HOST_MEMORY_LIMIT)
        end.log = "idlescope: " + label + " reached the governor sandbox's memory limit ("
                  + std::to_string(HOST_MEMORY_LIMIT >> 20) + " MiB; it used " + std::to_string(peak >> 20)
                  + " MiB): allocations past it failed\n" + end.log;
    // A child it forked (where the kernel allowed no filter to forbid it) dies with the run.
    if (w.leftBehind > 0)
        end.log = "idlescope: " + label + " forked: " + std::to_string(w.leftBehind) + " process"
                  + (w.leftBehind == 1 ? "" : "es") + " of it still running at its end, killed\n" + end.log;
    if (w.cancelled)
        return Error::cancelled(withLog(w.stopped, end.log));
    // A run stopped as hung while it held much memory was more likely allocating than
    // looping (gov-alloc.c with --timeout 3): its message says so.
    if (const std::string loop = " (an endless loop?)"; w.stopped.ends_with(loop) && peak >= HOST_MEMORY_LIMIT / 8
                                                        && peak + (std::int64_t{128} << 20) < HOST_MEMORY_LIMIT)
        w.stopped = w.stopped.substr(0, w.stopped.size() - loop.size()) + " (it had taken " + std::to_string(peak >> 20)
                    + " MiB of memory, of the governor sandbox's " + std::to_string(HOST_MEMORY_LIMIT >> 20)
                    + " MiB: allocating without end, or an endless loop?)";
    if (!w.stopped.empty())
        return Error{"", 0, "", withLog(w.stopped, end.log)};
    if (WIFSIGNALED(w.status)) {
        const int sig = WTERMSIG(w.status);
        const std::string why = sig == SIGSYS    ? ": it made a system call the governor sandbox forbids"
                                : sig == SIGXCPU ? ": it used the governor sandbox's CPU time limit ("
                                                       + std::to_string(HOST_CPU_LIMIT_S) + " s)"
                                                 : "";
        return Error{"", 0, "",
                     withLog(label + " crashed " + whereItWas(progress) + ": " + signalName(sig) + why, end.log)};
    }
    const int code = WIFEXITED(w.status) ? WEXITSTATUS(w.status) : -1;
    if (code == HOST_EXIT_SANDBOX)
        return Error{"", 0, "",
                     withLog(label + " " + forbiddenCall(progress.deniedSyscall.load(std::memory_order_relaxed)) + " "
                                 + whereItWas(progress) + ": the governor sandbox forbids it, the run was stopped",
                             end.log)};
    if (code == HOST_EXIT_REFUSED)
        return Error{"", 0, "", withLog(label + ": " + (refusal.empty() ? "refused to run" : refusal), end.log)};
    constexpr std::size_t END = 1 + 2 * sizeof(std::int64_t);
    std::uint8_t marker = 0;
    if (w.size >= END)
        w.copyOut(w.size - END, &marker, 1);
    const bool ended = w.size >= END && marker == DECISION_END;
    // The host exits with 0 only after its end record: a 0 without one is the governor's
    // own exit(0) (exit_group), as much a failure as any other status.
    if (code != 0 || !ended)
        return Error{"", 0, "",
                     withLog(label + " exited with status " + std::to_string(code) + " " + whereItWas(progress)
                                 + " (a governor never exits)",
                             end.log)};
    w.copyOut(w.size - END + 1, &end.entries, sizeof end.entries);
    w.copyOut(w.size - END + 1 + sizeof end.entries, &end.endNowNs, sizeof end.endNowNs);
    end.decisionBytes = w.size - END;
    return end;
}

} // namespace idlescope::source_governor
