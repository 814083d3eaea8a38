// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/governor_host/sandbox.h"

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <sched.h>
#include <seccomp.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

namespace idlescope::source_governor {

namespace {

HostProgress *g_progress = nullptr;

/// SIGSYS from the filter: the call's number goes to idlescope, and the host ends at once
/// (nothing of the governor's runs after a forbidden call).
void onForbiddenCall(int, siginfo_t *info, void *)
{
    if (g_progress)
        g_progress->deniedSyscall.store(info->si_syscall, std::memory_order_relaxed);
    ::syscall(SYS_exit_group, HOST_EXIT_SANDBOX);
}

bool setLimit(int resource, rlim_t value)
{
    const rlimit r{value, value};
    return ::setrlimit(resource, &r) == 0;
}

bool setLimits()
{
    bool ok = true;
#if !defined(__SANITIZE_ADDRESS__)
    // AddressSanitizer reserves terabytes of address space for its shadow: under it the
    // memory limit is left out (the filter and the namespaces still hold).
    ok = setLimit(RLIMIT_AS, static_cast<rlim_t>(HOST_MEMORY_LIMIT)) && ok;
#endif
    // The soft CPU limit sends SIGXCPU, the hard one a second later SIGKILL.
    const rlimit cpu{static_cast<rlim_t>(HOST_CPU_LIMIT_S), static_cast<rlim_t>(HOST_CPU_LIMIT_S + 1)};
    ok = ::setrlimit(RLIMIT_CPU, &cpu) == 0 && ok;
    ok = setLimit(RLIMIT_FSIZE, 0) && ok;
    ok = setLimit(RLIMIT_NPROC, 0) && ok;
    ok = setLimit(RLIMIT_CORE, 0) && ok;
    ok = setLimit(RLIMIT_NOFILE, 32) && ok;
    return ok;
}

bool writeProcFile(const char *path, const std::string &text)
{
    const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    return ok;
}

/// Whether @p error, from a step of enterNamespaces(), is the kernel or a container
/// forbidding the mechanism (Docker's profile refuses unshare() with EPERM, a kernel
/// without user namespaces EINVAL, a user namespace limit of 0 ENOSPC): the host then runs
/// on without it and says so. Any other failure (a copy cut short, memory) is no reason
/// to run unconfined: the host refuses.
bool forbiddenByKernel(int error)
{
    return error == EPERM || error == EACCES || error == ENOSYS || error == EINVAL || error == EUSERS
           || error == ENOSPC;
}

/// The built object's bytes into @p image, read as a regular file of at most
/// HOST_OBJECT_LIMIT bytes (the private root is sized from it), never through a link and
/// never waiting on a FIFO. Returns 0 or the errno of the failure.
int readObjectImage(const std::string &sharedObject, std::string &image)
{
    const int fd = ::open(sharedObject.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return errno;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > HOST_OBJECT_LIMIT) {
        const int error = !S_ISREG(st.st_mode) ? EINVAL : EFBIG;
        ::close(fd);
        return error;
    }
    image.resize(static_cast<std::size_t>(st.st_size));
    std::size_t at = 0;
    while (at < image.size()) {
        const ssize_t n = ::read(fd, image.data() + at, image.size() - at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        at += static_cast<std::size_t>(n);
    }
    ::close(fd);
    return at != image.size() ? EIO : 0;
}

/// @p image written whole to the new file @p copy (read and run only). Returns 0 or the
/// errno of the failure (ENOSPC for a write that wrote nothing).
int writeObjectCopy(const std::string &copy, const std::string &image)
{
    const int fd = ::open(copy.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0500);
    if (fd < 0)
        return errno;
    std::size_t at = 0;
    int error = 0;
    while (at < image.size()) {
        const ssize_t n = ::write(fd, image.data() + at, image.size() - at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            error = n < 0 ? errno : ENOSPC;
            break;
        }
        at += static_cast<std::size_t>(n);
    }
    ::close(fd);
    return error;
}

/// In the new user namespace, its user and group as root of it, one each, and no
/// supplementary groups. Returns 0 or the errno of the failure.
int mapUser(uid_t uid, gid_t gid)
{
    if (!writeProcFile("/proc/self/setgroups", "deny")
        || !writeProcFile("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1\n")
        || !writeProcFile("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1\n"))
        return errno ? errno : EPERM;
    return 0;
}

/// The namespaces, and a root of a tmpfs holding a copy of @p sharedObject only. Returns
/// 0 and sets @p loadPath, or the errno of the step that failed, named in @p step (the
/// host then keeps the namespaces it has: a network namespace entered stays).
/// @p mayFallBack is false for a failure past what a kernel or container forbids: the
/// copy into the root itself.
int enterNamespaces(const std::string &sharedObject, std::string &loadPath, const char *&step, bool &mayFallBack)
{
    mayFallBack = false;
    // The object is read before the mount hides the folder it is in (a cache under /tmp).
    step = "reading the built governor";
    std::string image;
    if (const int error = readObjectImage(sharedObject, image); error != 0)
        return error;
    mayFallBack = true;
    const uid_t uid = ::geteuid();
    const gid_t gid = ::getegid();
    step = "unshare";
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC) != 0)
        return errno;
    step = "mapping its user in the new user namespace";
    if (const int error = mapUser(uid, gid); error != 0)
        return error;
    // Private, so that nothing below reaches the mounts outside; the tmpfs over /tmp (in this
    // namespace only) becomes the root.
    step = "making the mounts private";
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return errno;
    constexpr const char *ROOT = "/tmp";
    // Room for the object and the filesystem's own blocks: a 20 MiB object in a fixed 16 MiB
    // root failed to copy, and the host ran unconfined.
    const std::string options = "size=" + std::to_string(image.size() + (std::size_t{1} << 20)) + ",mode=0755";
    step = "mounting its private root (a tmpfs)";
    if (::mount("idlescope-governor", ROOT, "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) != 0)
        return errno;
    // A step that fails past here takes the tmpfs away again: it hides the folders below
    // /tmp, where the governor may be. Each is no mechanism a kernel forbids: the host refuses.
    mayFallBack = false;
    const auto undo = [&](int error) {
        ::umount2(ROOT, MNT_DETACH);
        return error;
    };
    step = "copying the built governor into its private root";
    if (const int error = writeObjectCopy(std::string(ROOT) + "/governor.so", image); error != 0)
        return undo(error);
    step = "entering its private root (chroot)";
    if (::chdir(ROOT) != 0 || ::chroot(".") != 0 || ::chdir("/") != 0)
        return undo(errno);
    step = "making its private root read-only";
    if (::mount(nullptr, "/", nullptr, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, nullptr) != 0)
        return errno;
    loadPath = "/governor.so";
    return 0;
}

/// A seccomp filter being made: each rule added while every one before it was, the first
/// failure kept (and the filter then not loaded). Trapping every call no rule allows.
class FilterRules {
public:
    FilterRules() : m_ctx(::seccomp_init(SCMP_ACT_TRAP)), m_rc(m_ctx ? 0 : -ENOMEM) {}
    ~FilterRules()
    {
        if (m_ctx)
            ::seccomp_release(m_ctx);
    }
    FilterRules(const FilterRules &) = delete;
    FilterRules &operator=(const FilterRules &) = delete;

    /// The call @p nr, whatever its arguments.
    void allow(int nr)
    {
        if (m_rc == 0)
            m_rc = ::seccomp_rule_add(m_ctx, SCMP_ACT_ALLOW, nr, 0);
    }
    /// The call @p nr when its arguments pass @p cmp.
    void allowIf(int nr, scmp_arg_cmp cmp)
    {
        if (m_rc == 0)
            m_rc = ::seccomp_rule_add(m_ctx, SCMP_ACT_ALLOW, nr, 1, cmp);
    }
    /// The call @p nr when its arguments pass both @p a and @p b.
    void allowIf(int nr, scmp_arg_cmp a, scmp_arg_cmp b)
    {
        if (m_rc == 0)
            m_rc = ::seccomp_rule_add(m_ctx, SCMP_ACT_ALLOW, nr, 2, a, b);
    }
    /// Loads the filter if every rule was added. Returns 0 or the errno of the failure.
    int load()
    {
        if (m_rc == 0)
            m_rc = ::seccomp_load(m_ctx);
        return m_rc < 0 ? -m_rc : m_rc;
    }

private:
    scmp_filter_ctx m_ctx;
    int m_rc; ///< 0, or the first failure as libseccomp gives it (-errno)
};

/// Memory, time, the end: what the C library and the replay call with any arguments.
void allowMemoryAndTime(FilterRules &rules)
{
    for (int nr : {SCMP_SYS(brk),
                   SCMP_SYS(mmap),
                   SCMP_SYS(munmap),
                   SCMP_SYS(mprotect),
                   SCMP_SYS(mremap),
                   SCMP_SYS(madvise),
                   SCMP_SYS(futex),
                   SCMP_SYS(clock_gettime),
                   SCMP_SYS(clock_getres),
                   SCMP_SYS(gettimeofday),
                   SCMP_SYS(time),
                   SCMP_SYS(nanosleep),
                   SCMP_SYS(clock_nanosleep),
                   SCMP_SYS(sched_yield),
                   SCMP_SYS(getrandom),
                   SCMP_SYS(exit),
                   SCMP_SYS(exit_group),
                   SCMP_SYS(rt_sigreturn),
                   SCMP_SYS(rt_sigprocmask),
                   SCMP_SYS(sigaltstack),
                   SCMP_SYS(getpid),
                   SCMP_SYS(gettid),
                   SCMP_SYS(getppid),
                   SCMP_SYS(getuid),
                   SCMP_SYS(geteuid),
                   SCMP_SYS(getgid),
                   SCMP_SYS(getegid),
                   SCMP_SYS(getrusage),
                   SCMP_SYS(uname),
                   SCMP_SYS(restart_syscall)})
        rules.allow(nr);
}

/// The calls of a sanitizer build's runtimes, in a sanitizer build only.
void allowSanitizerCalls([[maybe_unused]] FilterRules &rules, [[maybe_unused]] scmp_datum_t writeFlags)
{
#if defined(__SANITIZE_ADDRESS__)
    // AddressSanitizer tells whether memory is readable by writing it to a pipe of its own
    // (pipe2, then write): in a sanitizer build only, a pipe, and writes past the protocol's
    // descriptors (every one of those was closed before the filter: only a descriptor
    // opened since, a pipe or a file opened read-only, can be there).
    rules.allow(SCMP_SYS(pipe2));
    rules.allowIf(SCMP_SYS(write), SCMP_A0(SCMP_CMP_GT, static_cast<scmp_datum_t>(HOST_DECISION_FD)));
    // gcc links UndefinedBehaviorSanitizer as a runtime of its own (libubsan), which starts
    // at its first report only: it then reads its program's name, open("/proc/self/cmdline")
    // and readlink("/proc/self/exe") (both fail in the private root, and it goes on). Without
    // these two the filter killed the host for readlink (syscall 89) before the report was
    // printed, and a bug of the host's looked like a forbidden call of the governor's.
    rules.allow(SCMP_SYS(readlink));
    rules.allowIf(SCMP_SYS(open), SCMP_A1(SCMP_CMP_MASKED_EQ, writeFlags, O_RDONLY));
#endif
}

/// Files and channels: what is open may be read, closed and looked at; dlopen() opens the
/// governor (the only file in the namespaces' root) read-only; writes go to the text
/// channels and the decisions only; the ring's socket (fd 0) takes the host's "slot freed"
/// bytes.
void allowFilesAndChannels(FilterRules &rules)
{
    for (int nr : {SCMP_SYS(read), SCMP_SYS(pread64), SCMP_SYS(readv), SCMP_SYS(close), SCMP_SYS(fstat),
                   SCMP_SYS(newfstatat), SCMP_SYS(statx), SCMP_SYS(lseek)})
        rules.allow(nr);
    constexpr scmp_datum_t WRITE_FLAGS = O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND;
    rules.allowIf(SCMP_SYS(openat), SCMP_A2(SCMP_CMP_MASKED_EQ, WRITE_FLAGS, O_RDONLY));
    for (int fd : {STDOUT_FILENO, STDERR_FILENO, HOST_DECISION_FD}) {
        rules.allowIf(SCMP_SYS(write), SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(fd)));
        rules.allowIf(SCMP_SYS(writev), SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(fd)));
    }
    allowSanitizerCalls(rules, WRITE_FLAGS);
    rules.allowIf(SCMP_SYS(sendto), SCMP_A0(SCMP_CMP_EQ, STDIN_FILENO));
    rules.allowIf(SCMP_SYS(recvfrom), SCMP_A0(SCMP_CMP_EQ, STDIN_FILENO));
    rules.allowIf(SCMP_SYS(ioctl), SCMP_A1(SCMP_CMP_EQ, TCGETS)); // isatty()
}

/// The filter: what the replay needs, nothing else. A forbidden call raises SIGSYS
/// (onForbiddenCall()). Returns 0 or the errno of the failed step.
int loadFilter()
{
    FilterRules rules;
    allowMemoryAndTime(rules);
    allowFilesAndChannels(rules);
    // Signals: to itself only (abort(), raise()); SIGSYS stays the filter's.
    const auto self = static_cast<scmp_datum_t>(::getpid());
    rules.allowIf(SCMP_SYS(kill), SCMP_A0(SCMP_CMP_EQ, self));
    rules.allowIf(SCMP_SYS(tgkill), SCMP_A0(SCMP_CMP_EQ, self));
    rules.allowIf(SCMP_SYS(rt_sigaction), SCMP_A0(SCMP_CMP_NE, SIGSYS));
    // getrlimit() (prlimit64 of itself, reading only).
    rules.allowIf(SCMP_SYS(prlimit64), SCMP_A0(SCMP_CMP_EQ, 0), SCMP_A2(SCMP_CMP_EQ, 0));
    return rules.load();
}

} // namespace

/// Closes every descriptor past the protocol's (0..HOST_DECISION_FD): the caller's
/// open files and directories must not reach the governor (an inherited directory
/// would lead out of the mount namespace's root).
void closeInheritedFds()
{
    if (::close_range(HOST_DECISION_FD + 1, ~0U, 0) == 0)
        return;
    const long max = ::sysconf(_SC_OPEN_MAX);
    for (long fd = HOST_DECISION_FD + 1; fd < (max > 0 ? max : 1024); ++fd)
        ::close(static_cast<int>(fd));
}

std::string confine(const std::string &sharedObject, pid_t parent, HostProgress &progress, std::string &refusal)
{
    closeInheritedFds();
    std::int32_t bits = 0;
    std::string loadPath = sharedObject;
    // The namespaces first (entering a user namespace clears the parent-death signal),
    // then the limits (RLIMIT_NPROC would not stop unshare(), RLIMIT_FSIZE would stop the copy).
    const char *step = "";
    bool mayFallBack = false;
    const int nsError = enterNamespaces(sharedObject, loadPath, step, mayFallBack);
    if (nsError == 0) {
        bits |= SANDBOX_NAMESPACES;
    } else if (!mayFallBack || !forbiddenByKernel(nsError)) {
        // Only a mechanism the kernel or a container forbids is left out (and said so): a
        // step that failed for another reason would otherwise run the governor unconfined.
        refusal = std::string("the governor sandbox could not be set up (") + step + ": " + std::strerror(nsError)
                  + (nsError == EFBIG ? ", the object is larger than the sandbox's "
                                            + std::to_string(HOST_OBJECT_LIMIT >> 20) + " MiB"
                                      : std::string())
                  + "): the governor was not run";
        return {};
    } else {
        loadPath = sharedObject; // a root half made is not used
    }
    progress.namespaceErrno.store(nsError, std::memory_order_relaxed);
    if (setLimits())
        bits |= SANDBOX_LIMITS;

    // Killed with the idlescope thread that started it; a parent gone before this line
    // (its signal would never come) ends the host here.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (parent > 0 && ::getppid() != parent)
        ::_exit(HOST_EXIT_REFUSED);

    g_progress = &progress;
    struct sigaction sa {};
    sa.sa_sigaction = onForbiddenCall;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGSYS, &sa, nullptr);
    sigset_t sys;
    sigemptyset(&sys);
    sigaddset(&sys, SIGSYS);
    ::sigprocmask(SIG_UNBLOCK, &sys, nullptr);
    const int filterError = loadFilter();
    if (filterError == 0)
        bits |= SANDBOX_FILTER;
    progress.filterErrno.store(filterError, std::memory_order_relaxed);
    progress.sandbox.store(bits | SANDBOX_SET, std::memory_order_relaxed);
    return loadPath;
}

} // namespace idlescope::source_governor
