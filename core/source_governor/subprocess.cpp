// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/source_governor/subprocess.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace idlescope::source_governor {

Fd &Fd::operator=(Fd &&o) noexcept
{
    if (this != &o)
        reset(std::exchange(o.m_fd, -1));
    return *this;
}

void Fd::reset(int fd)
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = fd;
}

namespace {

Status makePipe(Fd &readEnd, Fd &writeEnd)
{
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0)
        return Error{"", 0, "", std::string("cannot create a pipe: ") + std::strerror(errno)};
    readEnd.reset(p[0]);
    writeEnd.reset(p[1]);
    return Ok{};
}

/// The environment with LC_ALL=C, so that compiler messages quote with ASCII quotes.
std::vector<std::string> childEnvironment()
{
    std::vector<std::string> env;
    for (char **e = environ; e && *e; ++e)
        if (std::strncmp(*e, "LC_ALL=", 7) != 0 && std::strncmp(*e, "GCC_COLORS=", 11) != 0)
            env.emplace_back(*e);
    env.emplace_back("LC_ALL=C");
    return env;
}

std::vector<char *> cStrings(std::vector<std::string> &strings)
{
    std::vector<char *> out;
    for (std::string &s : strings)
        out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

} // namespace

int groupMembers(pid_t pgid, pid_t except)
{
    // /proc/PID/stat: "PID (COMM) STATE PPID PGRP ...", COMM may hold spaces and parentheses.
    int n = 0;
    DIR *proc = ::opendir("/proc");
    if (!proc)
        return 0;
    while (const dirent *e = ::readdir(proc)) {
        char *end = nullptr;
        const long id = std::strtol(e->d_name, &end, 10);
        if (id <= 0 || *end != '\0' || id == except)
            continue;
        char path[64];
        std::snprintf(path, sizeof path, "/proc/%ld/stat", id);
        const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        char buf[512];
        const ssize_t got = ::read(fd, buf, sizeof buf - 1);
        ::close(fd);
        if (got <= 0)
            continue;
        buf[got] = '\0';
        const char *close = std::strrchr(buf, ')');
        char state = 0;
        long ppid = 0, pgrp = 0;
        if (close && std::sscanf(close + 1, " %c %ld %ld", &state, &ppid, &pgrp) == 3 && pgrp == pgid)
            ++n;
    }
    ::closedir(proc);
    return n;
}

int reapGroup(pid_t pid, rusage *usage, int *leftBehind)
{
    // Waited for without reaping first: until it is reaped, the ended leader holds its pid
    // and so its group's id, and the kill cannot reach a process that took the pid since.
    siginfo_t info{};
    while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {}
    if (leftBehind)
        *leftBehind = groupMembers(pid, pid);
    ::kill(-pid, SIGKILL);
    int status = 0;
    while (::wait4(pid, &status, 0, usage) < 0 && errno == EINTR) {}
    return status;
}

Result<Spawned> spawnProcess(const std::vector<std::string> &argv, int stdinFd,
                             const std::vector<std::pair<int, int>> &extraFds, ChildStderr stderrTo,
                             bool ownProcessGroup)
{
    Spawned s;
    Fd outWrite, errWrite;
    if (Status st = makePipe(s.out, outWrite); !st)
        return st.error();
    if (stderrTo == ChildStderr::Pipe)
        if (Status st = makePipe(s.err, errWrite); !st)
            return st.error();
    Fd devNull;
    if (stdinFd < 0) {
        devNull.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
        stdinFd = devNull.get();
    }

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, stdinFd, STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, outWrite.get(), STDOUT_FILENO);
    if (stderrTo != ChildStderr::Inherited)
        posix_spawn_file_actions_adddup2(&actions, stderrTo == ChildStderr::Merged ? outWrite.get() : errWrite.get(),
                                         STDERR_FILENO);
    for (const auto &[from, to] : extraFds)
        posix_spawn_file_actions_adddup2(&actions, from, to);

    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    if (ownProcessGroup) {
        posix_spawnattr_setpgroup(&attr, 0);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    }

    std::vector<std::string> args = argv;
    std::vector<std::string> env = childEnvironment();
    std::vector<char *> cargs = cStrings(args);
    std::vector<char *> cenv = cStrings(env);
    const int rc = ::posix_spawnp(&s.pid, cargs[0], &actions, &attr, cargs.data(), cenv.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0)
        return Error{"", 0, "", "cannot run " + argv[0] + ": " + std::strerror(rc)};
    return s;
}

Result<Finished> runToEnd(const std::vector<std::string> &argv, int timeoutSeconds, const std::atomic<bool> *cancel)
{
    Result<Spawned> s = spawnProcess(argv, -1, {}, ChildStderr::Merged, true);
    if (!s)
        return s.error();
    Finished f;
    char buf[8192];
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::seconds(timeoutSeconds);
    for (;;) {
        // The clock, not the output, decides: a compiler that prints error after error for
        // minutes is stopped as one that prints nothing (an #include of a FIFO).
        pollfd p{s->out.get(), POLLIN, 0};
        const int ready = ::poll(&p, 1, 100);
        if ((timeoutSeconds > 0 && Clock::now() > deadline) || (cancel && cancel->load(std::memory_order_relaxed))) {
            f.timedOut = timeoutSeconds > 0 && Clock::now() > deadline;
            ::kill(-s->pid, SIGKILL);
            break;
        }
        if (ready <= 0)
            continue;
        const ssize_t n = ::read(s->out.get(), buf, sizeof buf);
        if (n > 0)
            f.output.append(buf, std::min(static_cast<std::size_t>(n), RUN_OUTPUT_KEPT - f.output.size()));
        else if (n == 0 || errno != EINTR)
            break;
    }
    const int status = reapGroup(s->pid);
    if (WIFEXITED(status))
        f.exitStatus = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        f.signal = WTERMSIG(status);
    return f;
}

} // namespace idlescope::source_governor
