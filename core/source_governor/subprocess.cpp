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
#include <sys/syscall.h>
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

namespace {

/// @p name as execvp() would find it: as given when it holds a slash, else the first
/// executable file of that name on PATH; "" when there is none (errno says why).
std::string lookUpProgram(const std::string &name)
{
    if (name.find('/') != std::string::npos)
        return ::access(name.c_str(), X_OK) == 0 ? name : std::string();
    const char *path = std::getenv("PATH");
    std::string dirs = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
    for (std::size_t at = 0; at <= dirs.size();) {
        std::size_t colon = dirs.find(':', at);
        if (colon == std::string::npos)
            colon = dirs.size();
        const std::string dir = colon == at ? "." : dirs.substr(at, colon - at);
        const std::string candidate = dir + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate;
        at = colon + 1;
    }
    errno = ENOENT;
    return {};
}

/// The guard's descriptor for the read end of the watch pipe.
constexpr int GUARD_WATCH_FD = 3;

/// The guard, in the child of fork(): async-signal-safe calls only (the parent may have
/// other threads, whose locks the child holds copies of). It leads a process group of its
/// own, starts the program in it, and waits for whichever comes first: the program's end
/// (its status becomes the guard's) or the end of the watch pipe, whose write end only
/// idlescope holds: idlescope gone, killed by any signal, it kills the whole group (the
/// program, the compiler's cc1, as and ld, and itself).
[[noreturn]] void guardChild(const char *program, char *const *argv, char *const *envp, int stdinFd, int outFd,
                             int watchFd, const ProcessLimits &limits)
{
    ::setpgid(0, 0);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr); // the program gets no mask of a caller's thread
    if (::dup2(stdinFd, STDIN_FILENO) < 0 || ::dup2(outFd, STDOUT_FILENO) < 0 || ::dup2(outFd, STDERR_FILENO) < 0
        || ::dup2(watchFd, GUARD_WATCH_FD) < 0)
        ::_exit(127);
    // Nothing else of the parent's: another run's pipe held open here would never end.
    if (::close_range(GUARD_WATCH_FD + 1, ~0U, 0) != 0)
        for (int fd = GUARD_WATCH_FD + 1; fd < 65536; ++fd)
            ::close(fd);
    const pid_t child = ::fork();
    if (child < 0)
        ::_exit(127);
    if (child == 0) {
        ::close(GUARD_WATCH_FD);
        // The program's limits, inherited by what it starts; the guard keeps none of them.
        const auto limit = [](int resource, std::int64_t value) {
            const rlimit r{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
            if (value > 0 && ::setrlimit(resource, &r) != 0)
                ::_exit(127);
        };
        limit(RLIMIT_AS, limits.addressSpaceBytes);
        limit(RLIMIT_FSIZE, limits.fileSizeBytes);
        limit(RLIMIT_CPU, limits.cpuSeconds);
        ::execve(program, argv, envp);
        ::_exit(127);
    }
    // A pidfd says when the program ends without a polling delay (Linux 5.3); without one,
    // waitpid() every 20 ms.
    const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, child, 0));
    for (;;) {
        pollfd fds[2] = {{GUARD_WATCH_FD, POLLIN, 0}, {pidfd, POLLIN, 0}};
        const int ready = ::poll(fds, pidfd >= 0 ? 2 : 1, pidfd >= 0 ? -1 : 20);
        int status = 0;
        if (::waitpid(child, &status, WNOHANG) == child) {
            if (WIFEXITED(status))
                ::_exit(WEXITSTATUS(status));
            // Ended by a signal: the guard ends by the same one, for the caller to see.
            struct sigaction dfl {};
            dfl.sa_handler = SIG_DFL;
            ::sigaction(WTERMSIG(status), &dfl, nullptr);
            ::kill(::getpid(), WTERMSIG(status));
            ::_exit(128 + WTERMSIG(status));
        }
        if (ready > 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
            ::kill(0, SIGKILL); // idlescope is gone: its whole build with it
        if (ready < 0 && errno != EINTR)
            ::kill(0, SIGKILL);
    }
}

} // namespace

Result<Finished> runToEnd(const std::vector<std::string> &argv, int timeoutSeconds, const std::atomic<bool> *cancel,
                          const ProcessLimits &limits)
{
    // posix_spawn cannot make a process die with its parent, and PR_SET_PDEATHSIG would end
    // the compiler driver only, not the cc1 it started (the one blocked on a FIFO): a guard
    // process (guardChild()) leads the group and kills it all when idlescope is gone. All it
    // needs is made here, before fork().
    const std::string program = lookUpProgram(argv.at(0));
    if (program.empty())
        return Error{"", 0, "", "cannot run " + argv[0] + ": " + std::strerror(errno)};
    std::vector<std::string> args = argv;
    std::vector<std::string> env = childEnvironment();
    std::vector<char *> cargs = cStrings(args);
    std::vector<char *> cenv = cStrings(env);
    Fd outRead, outWrite, watchRead, watchWrite;
    if (Status st = makePipe(outRead, outWrite); !st)
        return st.error();
    if (Status st = makePipe(watchRead, watchWrite); !st)
        return st.error();
    Fd devNull(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    if (devNull.get() < 0)
        return Error{"", 0, "", std::string("cannot open /dev/null: ") + std::strerror(errno)};
    const pid_t pid = ::fork();
    if (pid < 0)
        return Error{"", 0, "", "cannot run " + argv[0] + ": " + std::strerror(errno)};
    if (pid == 0)
        guardChild(program.c_str(), cargs.data(), cenv.data(), devNull.get(), outWrite.get(), watchRead.get(), limits);
    ::setpgid(pid, pid); // as the guard does: a kill(-pid) from here reaches the group at once
    outWrite.reset();
    watchRead.reset();
    Spawned spawned;
    spawned.pid = pid;
    spawned.out = std::move(outRead);
    Finished f;
    char buf[8192];
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::seconds(timeoutSeconds);
    for (;;) {
        // The clock, not the output, decides: a compiler that prints error after error for
        // minutes is stopped as one that prints nothing (an #include of a FIFO).
        pollfd p{spawned.out.get(), POLLIN, 0};
        const int ready = ::poll(&p, 1, 100);
        if ((timeoutSeconds > 0 && Clock::now() > deadline) || (cancel && cancel->load(std::memory_order_relaxed))) {
            f.timedOut = timeoutSeconds > 0 && Clock::now() > deadline;
            ::kill(-spawned.pid, SIGKILL);
            break;
        }
        if (ready <= 0)
            continue;
        const ssize_t n = ::read(spawned.out.get(), buf, sizeof buf);
        if (n > 0)
            f.output.append(buf, std::min(static_cast<std::size_t>(n), RUN_OUTPUT_KEPT - f.output.size()));
        else if (n == 0 || errno != EINTR)
            break;
    }
    const int status = reapGroup(spawned.pid);
    if (WIFEXITED(status))
        f.exitStatus = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        f.signal = WTERMSIG(status);
    return f;
}

} // namespace idlescope::source_governor
