// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/atomic_file.h"

#include "core/io/output_target.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace idlescope {

namespace {

WriteSyscall g_write = ::write;

} // namespace

void setWriteSyscallForTesting(WriteSyscall write)
{
    g_write = write ? write : ::write;
}

Status writeAllBytes(int fd, std::string_view bytes, const std::string &path)
{
    // QFileDevice reports a write that stored only part of the data as a
    // success and loses the error of a buffered one; write(2) itself says
    // how much it took, so the count is checked here, every time.
    while (!bytes.empty()) {
        errno = 0;
        const ssize_t n = g_write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const int err = n == 0 ? ENOSPC : errno; // 0 bytes taken of a non-empty write: no room
            return Error{path, 0, "",
                         std::string("write failed: ") + std::strerror(err) + (err == ENOSPC ? " (disk full?)" : "")};
        }
        bytes.remove_prefix(static_cast<size_t>(n));
    }
    return Ok{};
}

// The temporary file beside the target and the folder both live in. Every
// call names the folder by its descriptor (openat, renameat), never by path
// again, so a folder or link swapped after openOutputTarget() cannot move the
// save elsewhere.
struct AtomicWriter::Impl {
    OutputTarget target;
    std::string tempName;
    int fd = -1;

    // Creates a new, hidden, unguessable name: O_EXCL refuses one that exists
    // (a link planted under it included), O_NOFOLLOW says so twice.
    Status createTemporary(const std::string &path)
    {
        static thread_local std::mt19937_64 random{std::random_device{}()};
        // 200 bytes of the name leave room for the suffix under NAME_MAX (255).
        const std::string stem = "." + target.name().substr(0, 200) + ".";
        for (int attempt = 0; attempt < 100; ++attempt) {
            char suffix[17];
            std::snprintf(suffix, sizeof suffix, "%016llx", static_cast<unsigned long long>(random()));
            std::string name = stem + suffix;
            fd = ::openat(target.folderFd(), name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
            if (fd >= 0) {
                tempName = std::move(name);
                return Ok{};
            }
            if (errno != EEXIST)
                return Error{path, 0, "", std::string("cannot write: ") + std::strerror(errno)};
        }
        return Error{path, 0, "", "cannot write: no free temporary name in its folder"};
    }

    // A replaced file keeps its permissions (a private file stays private);
    // a new one gets 0666 less the umask, as open(2) made it.
    void keepPermissionsOf(const std::string &name) const
    {
        struct stat old {};
        if (::fstatat(target.folderFd(), name.c_str(), &old, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(old.st_mode))
            ::fchmod(fd, old.st_mode & 0777);
    }

    void discard()
    {
        if (fd >= 0)
            ::close(fd);
        fd = -1;
        if (!tempName.empty())
            ::unlinkat(target.folderFd(), tempName.c_str(), 0);
        tempName.clear();
    }
};

Status checkOutputPath(const std::string &path)
{
    namespace fs = std::filesystem;
    if (path.empty())
        return Error{path, 0, "", "empty output path"};
    // Links another user planted in a shared folder are refused before anything else.
    if (Result<OutputTarget> target = openOutputTarget(path); !target)
        return target.error();
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (fs::exists(st)) {
        if (fs::is_directory(st))
            return Error{path, 0, "", "is a folder, not a file"};
        if (!fs::is_regular_file(st))
            return Error{path, 0, "", "is a device, FIFO or socket; refusing to replace it with a file"};
        if (::access(path.c_str(), W_OK) != 0 || (st.permissions() & fs::perms::owner_write) == fs::perms::none)
            return Error{path, 0, "", "is read-only; refusing to replace it"};
    }
    fs::path parent = fs::path(path).parent_path();
    if (parent.empty())
        parent = ".";
    if (!fs::is_directory(parent, ec))
        return Error{path, 0, "", "folder " + parent.string() + " does not exist"};
    if (::access(parent.c_str(), W_OK) != 0)
        return Error{path, 0, "", "folder " + parent.string() + " is not writable"};
    return Ok{};
}

namespace {

// Who a path is: device and inode when it exists (after symlinks, so a link
// to the input is the input), else its absolute form with the existing part
// resolved (two spellings of one new file). One stat per path.
std::string fileIdentity(const std::string &path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0)
        return "inode:" + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
    std::error_code ec;
    return "path:" + std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec).string();
}

} // namespace

Status checkDistinctPaths(const std::vector<std::string> &inputs, const std::vector<std::string> &outputs)
{
    // O(N) in the paths: machines with hundreds of CPUs give hundreds of outputs.
    std::unordered_map<std::string, const std::string *> seen;
    for (const std::string &in : inputs) {
        struct stat st {};
        if (!in.empty() && ::stat(in.c_str(), &st) == 0) // not a file: a built-in id, say
            seen.emplace(fileIdentity(in), &in);
    }
    std::unordered_set<std::string> inputIds;
    for (const auto &[id, path] : seen)
        inputIds.insert(id);
    for (const std::string &out : outputs) {
        const auto [it, fresh] = seen.emplace(fileIdentity(out), &out);
        if (fresh)
            continue;
        if (inputIds.count(it->first))
            return Error{out, 0, "", "output would overwrite the input " + *it->second};
        return Error{out, 0, "", "the same file is named for two outputs (also " + *it->second + ")"};
    }
    return Ok{};
}

AtomicWriter::AtomicWriter(const std::string &path) : m_impl(std::make_unique<Impl>()), m_path(path)
{
    if (Status s = checkOutputPath(path); !s) {
        m_error = s.error();
        return;
    }
    Result<OutputTarget> target = openOutputTarget(path);
    if (!target) {
        m_error = target.error();
        return;
    }
    m_impl->target = std::move(*target);
    if (Status s = m_impl->createTemporary(path); !s) {
        m_error = s.error();
        return;
    }
    m_impl->keepPermissionsOf(m_impl->target.name());
}

AtomicWriter::~AtomicWriter()
{
    if (m_impl)
        m_impl->discard();
}

bool AtomicWriter::ok() const
{
    return m_error.message.empty();
}

void AtomicWriter::append(std::string_view bytes)
{
    if (!ok())
        return;
    m_pending.append(bytes);
    if (m_pending.size() >= (1u << 20))
        flush();
}

void AtomicWriter::flush()
{
    if (ok() && !m_pending.empty())
        if (Status s = writeAllBytes(m_impl->fd, m_pending, m_path); !s)
            m_error = s.error();
    m_pending.clear();
}

Status AtomicWriter::commit()
{
    flush();
    // fsync() is where a file system with delayed allocation reports the disk
    // full; close() can report it too (NFS). Either leaves the old file as it was.
    if (ok() && ::fsync(m_impl->fd) != 0 && errno != EINVAL)
        m_error = Error{m_path, 0, "", std::string("cannot save: fsync failed: ") + std::strerror(errno)};
    if (ok()) {
        const int fd = std::exchange(m_impl->fd, -1);
        if (::close(fd) != 0)
            m_error = Error{m_path, 0, "", std::string("cannot save: ") + std::strerror(errno)};
    }
    // renameat() replaces the name in the folder that was walked; if a link was
    // put there since, the link is replaced, never the file it points at.
    if (ok()
        && ::renameat(m_impl->target.folderFd(), m_impl->tempName.c_str(), m_impl->target.folderFd(),
                      m_impl->target.name().c_str())
               != 0)
        m_error = Error{m_path, 0, "", std::string("cannot save: ") + std::strerror(errno)};
    if (!ok()) {
        m_impl->discard();
        return m_error;
    }
    m_impl->tempName.clear(); // it is the file now
    return Ok{};
}

Status writeFilesAtomically(const std::vector<std::pair<std::string, std::string_view>> &files)
{
    std::vector<std::unique_ptr<AtomicWriter>> writers;
    for (const auto &[path, content] : files) {
        auto w = std::make_unique<AtomicWriter>(path);
        if (!w->ok())
            return w->error();
        w->append(content);
        w->flush();
        if (!w->ok())
            return w->error();
        writers.push_back(std::move(w));
    }
    for (auto &w : writers)
        if (Status s = w->commit(); !s)
            return s;
    return Ok{};
}

Status writeFilesIntoFolder(const std::string &dir, std::size_t count,
                            const std::function<std::pair<std::string, std::string>(std::size_t)> &make)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
        return Error{dir, 0, "", "exists and is not a folder"};
    const bool created = fs::create_directories(dir, ec);
    if (ec)
        return Error{dir, 0, "", "cannot create the folder: " + ec.message()};
    std::string staging = (fs::path(dir) / ".idlescope-staging-XXXXXX").string();
    auto undo = [&](Error e) {
        std::error_code ignored;
        if (!staging.empty())
            fs::remove_all(staging, ignored);
        if (created)
            fs::remove(dir, ignored); // only if empty: never what was there before
        return e;
    };
    if (!::mkdtemp(staging.data())) {
        staging.clear();
        return undo(Error{dir, 0, "", std::string("cannot write into the folder: ") + std::strerror(errno)});
    }
    std::vector<std::string> names;
    names.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        auto [name, content] = make(i);
        if (Status s = writeFileAtomically((fs::path(staging) / name).string(), content); !s) {
            Error e = s.error();
            e.file = (fs::path(dir) / name).string();
            return undo(e);
        }
        names.push_back(std::move(name));
    }
    for (const std::string &name : names) {
        const fs::path target = fs::path(dir) / name;
        if (fs::is_directory(target, ec))
            return undo(Error{target.string(), 0, "", "is a folder, not a file"});
        fs::rename(fs::path(staging) / name, target, ec);
        if (ec)
            return undo(Error{target.string(), 0, "", "cannot save: " + ec.message()});
    }
    fs::remove(staging, ec);
    return Ok{};
}

Status writeFileAtomically(const std::string &path, std::string_view content)
{
    AtomicWriter w(path);
    w.append(content);
    return w.commit();
}

} // namespace idlescope
