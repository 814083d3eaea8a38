// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file subprocess.h
 * Starting the two programs a governor built from source needs: the C
 * compiler (run to the end, its output kept) and the governor host (started
 * with its input, a progress page and pipes, then watched by source_run.cpp),
 * and the .dat reader of core/trace (dat_importer.cpp). posix_spawn, so that a
 * multi-threaded caller (the GUI) may use it; runToEnd() forks a guard that calls only
 * async-signal-safe functions before it starts the program.
 */
#pragma once

#include "core/common/error.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <sys/resource.h>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace idlescope::source_governor {

/// A file descriptor closed when it goes out of scope.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : m_fd(fd) {}
    Fd(Fd &&o) noexcept : m_fd(std::exchange(o.m_fd, -1)) {}
    Fd &operator=(Fd &&o) noexcept;
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    ~Fd() { reset(); }
    int get() const { return m_fd; }
    void reset(int fd = -1);

private:
    int m_fd = -1;
};

struct Spawned {
    pid_t pid = -1;
    Fd out; ///< the child's stdout (read end)
    Fd err; ///< the child's stderr (read end); the same pipe as out when merged
};

/// Where a started program's stderr goes.
enum class ChildStderr : std::uint8_t {
    Pipe,     ///< its own pipe (Spawned::err)
    Merged,   ///< the stdout pipe (Spawned::out), interleaved
    Inherited ///< this process's stderr (a helper's sanitizer report reaches the terminal)
};

/**
 * Starts @p argv (argv[0] looked up in PATH) with stdin from @p stdinFd
 * (-1: /dev/null), each (parent fd, child fd) of @p extraFds, LC_ALL=C,
 * stdout on a pipe and stderr as @p stderrTo says; with @p ownProcessGroup in a
 * process group of its own (its pid), so that kill(-pid) ends it and everything it started.
 */
Result<Spawned> spawnProcess(const std::vector<std::string> &argv, int stdinFd,
                             const std::vector<std::pair<int, int>> &extraFds, ChildStderr stderrTo,
                             bool ownProcessGroup = false);
inline Result<Spawned> spawnProcess(const std::vector<std::string> &argv, int stdinFd,
                                    const std::vector<std::pair<int, int>> &extraFds, bool mergeOutput)
{
    return spawnProcess(argv, stdinFd, extraFds, mergeOutput ? ChildStderr::Merged : ChildStderr::Pipe);
}

/// Waits for @p pid (a process group's leader) to end, kills what is left of its group (a
/// child it forked), and reaps it: its waitpid() status; @p usage, when given, gets its
/// rusage, @p leftBehind the number of processes of its group it left running.
int reapGroup(pid_t pid, rusage *usage = nullptr, int *leftBehind = nullptr);

/// The processes of process group @p pgid but @p except (from /proc).
int groupMembers(pid_t pgid, pid_t except);

struct Finished {
    int exitStatus = -1; ///< exit code, or -1 when killed by a signal
    int signal = 0;
    std::string output;    ///< stdout and stderr, interleaved (at most RUN_OUTPUT_KEPT bytes)
    bool timedOut = false; ///< stopped after the time it was given
};

/// What runToEnd() keeps of a program's output: a compiler answering a binary file says megabytes.
inline constexpr std::size_t RUN_OUTPUT_KEPT = 1 << 20;

/// Resource limits for a program runToEnd() starts (0: none): a compiler fed a macro bomb
/// or an #include of a device is stopped by these rather than by the machine's memory.
struct ProcessLimits {
    std::int64_t addressSpaceBytes = 0; ///< RLIMIT_AS of each of its processes (cc1, as, ld)
    std::int64_t fileSizeBytes = 0;     ///< RLIMIT_FSIZE: the largest file it writes
    std::int64_t cpuSeconds = 0;        ///< RLIMIT_CPU of each of its processes
};

/// Runs @p argv to the end (no stdin), keeping what it prints; in a process group of its own
/// that is killed whole (the compiler's cc1, as, ld) once @p timeoutSeconds have passed
/// (0: no limit), or when *@p cancel turns true, or when this process ends in any way (a
/// SIGKILL included): a guard process leads the group, watching a pipe only this process
/// holds, and kills the group once it is closed.
/// @p limits apply to the program and what it starts.
Result<Finished> runToEnd(const std::vector<std::string> &argv, int timeoutSeconds = 0,
                          const std::atomic<bool> *cancel = nullptr, const ProcessLimits &limits = {});

} // namespace idlescope::source_governor
