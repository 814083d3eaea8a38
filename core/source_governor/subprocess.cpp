// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/source_governor/subprocess.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
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

Result<Spawned> spawnProcess(const std::vector<std::string> &argv, int stdinFd,
                             const std::vector<std::pair<int, int>> &extraFds, ChildStderr stderrTo)
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

    std::vector<std::string> args = argv;
    std::vector<std::string> env = childEnvironment();
    std::vector<char *> cargs = cStrings(args);
    std::vector<char *> cenv = cStrings(env);
    const int rc = ::posix_spawnp(&s.pid, cargs[0], &actions, nullptr, cargs.data(), cenv.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        return Error{"", 0, "", "cannot run " + argv[0] + ": " + std::strerror(rc)};
    return s;
}

Result<Finished> runToEnd(const std::vector<std::string> &argv)
{
    Result<Spawned> s = spawnProcess(argv, -1, {}, true);
    if (!s)
        return s.error();
    Finished f;
    char buf[8192];
    for (;;) {
        const ssize_t n = ::read(s->out.get(), buf, sizeof buf);
        if (n > 0)
            f.output.append(buf, static_cast<std::size_t>(n));
        else if (n == 0 || errno != EINTR)
            break;
    }
    int status = 0;
    while (::waitpid(s->pid, &status, 0) < 0 && errno == EINTR) {}
    if (WIFEXITED(status))
        f.exitStatus = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        f.signal = WTERMSIG(status);
    return f;
}

} // namespace idlescope::source_governor
