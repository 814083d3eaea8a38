// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/record_tracefs.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>

#include <fcntl.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace idlescope::cli {

namespace {

std::string firstLine(const std::string &path)
{
    std::ifstream f(path);
    std::string line;
    std::getline(f, line);
    return line;
}

// Set by the handler, read by runChild() and the caller: sig_atomic_t, as a handler may only write.
volatile std::sig_atomic_t g_signal = 0;
volatile std::sig_atomic_t g_child = 0;
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

extern "C" void onSignal(int sig)
{
    const bool second = g_signal != 0;
    if (!second)
        g_signal = sig;
    // The child is ours to end: the same signal, and SIGKILL for one that ignores it.
    if (g_child > 0)
        ::kill(static_cast<pid_t>(g_child), second ? SIGKILL : sig);
}

} // namespace

Result<std::string> tracefsDir()
{
    if (const char *forced = std::getenv("IDLESCOPE_TRACEFS"); forced && *forced)
        return std::string(forced);
    std::ifstream mounts("/proc/mounts");
    std::string dev, dir, type, rest;
    while (mounts >> dev >> dir >> type && std::getline(mounts, rest))
        if (type == "tracefs")
            return dir;
    std::ifstream fs("/proc/filesystems");
    bool known = false;
    for (std::string line; std::getline(fs, line);)
        known |= line.find("tracefs") != std::string::npos;
    if (!known)
        return Error{"/proc/filesystems", 0, "tracefs",
                     "this kernel has no tracefs (CONFIG_TRACING is off): nothing can be recorded"};
    if (::mount("nodev", "/sys/kernel/tracing", "tracefs", 0, nullptr) != 0)
        return Error{"/sys/kernel/tracing", 0, "tracefs",
                     std::string("tracefs is not mounted and mounting it failed: ") + std::strerror(errno)};
    return std::string("/sys/kernel/tracing");
}

Result<std::unique_ptr<TracefsSession>> TracefsSession::open(const std::string &dir)
{
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return Error{dir, 0, "tracefs", std::string("cannot open: ") + std::strerror(errno)};
    // Two records would switch the same events and empty the same buffers: the second
    // one's start would wipe what the first recorded, and the first's end switch off
    // the second's events.
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        ::close(fd);
        if (err == EWOULDBLOCK)
            return Error{dir, 0, "tracefs",
                         "another idlescope-cli record is recording (it holds the kernel's tracing); wait for it "
                         "to end, or stop it"};
        return Error{dir, 0, "tracefs", std::string("cannot lock: ") + std::strerror(err)};
    }
    return std::unique_ptr<TracefsSession>(new TracefsSession(dir, fd));
}

TracefsSession::~TracefsSession()
{
    restore();
    if (m_lockFd >= 0)
        ::close(m_lockFd); // releases the lock
}

Status TracefsSession::remember(const std::string &path)
{
    for (const auto &saved : m_saved)
        if (saved.first == path)
            return Ok{}; // the oldest value is the one to put back
    std::string old = firstLine(m_dir + "/" + path);
    if (path == "buffer_size_kb") {
        // "7 (expanded: 1408)": a buffer not yet expanded reads as its minimum and
        // becomes 1408 KB at the first trace; 1408 is what the machine had.
        if (const std::size_t e = old.find("expanded: "); e != std::string::npos)
            old = old.substr(e + 10, old.find(')', e) - e - 10);
        old = old.substr(0, old.find(' '));
    }
    if (old.empty())
        return Error{m_dir + "/" + path, 0, "", "cannot read its value to restore it later"};
    m_saved.emplace_back(path, old);
    return Ok{};
}

Status TracefsSession::set(const std::string &path, const std::string &value)
{
    if (Status s = remember(path); !s)
        return s;
    return write(path, value);
}

Status TracefsSession::start()
{
    if (Status s = set("tracing_on", "0"); !s)
        return s;
    if (Status s = write("trace", ""); !s) // empties the buffers: nothing to restore
        return s;
    if (remember("buffer_size_kb"))
        write("buffer_size_kb", "16384"); // best effort: the kernel may refuse the memory
    return write("tracing_on", "1");
}

void TracefsSession::stop()
{
    write("tracing_on", "0");
}

void TracefsSession::restore()
{
    for (auto it = m_saved.rbegin(); it != m_saved.rend(); ++it)
        if (Status s = write(it->first, it->second); !s)
            std::cerr << "record: could not restore: " << s.error().toString() << '\n';
    m_saved.clear();
}

Status TracefsSession::write(const std::string &path, const std::string &value)
{
    std::ofstream f(m_dir + "/" + path);
    f << value << std::flush;
    if (!f)
        return Error{m_dir + "/" + path, 0, "", std::string("cannot write '") + value + "': " + std::strerror(errno)};
    return Ok{};
}

RecordSignals::RecordSignals()
{
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; // no SA_RESTART: waitpid() returns with EINTR, and the wait loop looks
    for (int sig : kSignals)
        ::sigaction(sig, &sa, nullptr);
    // A closed pipe on stderr must not kill record before it restores tracefs.
    std::signal(SIGPIPE, SIG_IGN);
}

RecordSignals::~RecordSignals()
{
    for (int sig : kSignals)
        std::signal(sig, SIG_DFL);
    std::signal(SIGPIPE, SIG_DFL);
}

int RecordSignals::caught()
{
    return g_signal;
}

int runChild(const std::vector<std::string> &argv)
{
    if (g_signal != 0)
        return -1;
    std::vector<char *> args;
    for (const std::string &a : argv)
        args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
    // The child starts with the default dispositions (ours are handlers: exec resets them).
    pid_t pid = 0;
    const int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        return -1;
    g_child = pid;
    if (g_signal != 0) // came between the look above and the spawn
        ::kill(pid, SIGTERM);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    g_child = 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string signalName(int sig)
{
    switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGQUIT: return "SIGQUIT";
    default: return "signal " + std::to_string(sig);
    }
}

} // namespace idlescope::cli
