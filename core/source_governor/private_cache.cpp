// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/source_governor/private_cache.h"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace idlescope::source_governor {

namespace {

/// How a refusal ends: why it matters and what to do.
constexpr const char *kPlanted = ": refused, as it could hold code planted by them (remove it, or set "
                                 "IDLESCOPE_CACHE_DIR to a folder of yours)";

/// The refusal for what lstat() or fstat() says of @p path, or Ok; @p what names it
/// ("the governor cache", "the governor cache's folder X").
Status judge(const std::string &path, const struct stat &st, bool wantDir, const std::string &what)
{
    if (S_ISLNK(st.st_mode))
        return Error{path, 0, "",
                     what + " is a link made by user " + std::to_string(st.st_uid)
                         + ", where idlescope makes only folders and files" + kPlanted};
    if (wantDir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
        return Error{path, 0, "", what + (wantDir ? " is not a folder" : " is not a file") + kPlanted};
    if (st.st_uid != ::geteuid())
        return Error{path, 0, "", what + " belongs to user " + std::to_string(st.st_uid) + ", not to you" + kPlanted};
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return Error{path, 0, "", what + " can be written by its group or by others" + kPlanted};
    return Ok{};
}

std::string inCache(const std::string &path)
{
    return "the governor cache's " + path;
}

} // namespace

Result<std::string> openPrivateCacheRoot(const std::string &dir)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path parent = fs::path(dir).parent_path();
    if (!parent.empty())
        fs::create_directories(parent, ec);
    // Whoever may write to a folder on the way may swap what is below it for a folder of
    // theirs: /tmp is such a folder, and its sticky bit is what forbids that. Every level
    // counts: a ww/ anyone could write held a sub/ of root's, and the cache below it.
    const fs::path absolute = fs::absolute(fs::path(dir), ec).lexically_normal();
    for (fs::path up = absolute.parent_path(); !up.empty(); up = up.parent_path()) {
        struct stat ps {};
        if (::stat(up.c_str(), &ps) == 0 && (ps.st_mode & (S_IWGRP | S_IWOTH)) && !(ps.st_mode & S_ISVTX))
            return Error{dir, 0, "",
                         std::string(up == absolute.parent_path() ? "the governor cache's parent folder "
                                                                  : "the governor cache's folder ")
                             + up.string()
                             + " can be written by its group or by others (and has no sticky bit): refused, as "
                               "they could replace the cache with theirs (set IDLESCOPE_CACHE_DIR to a folder of "
                               "yours)"};
        if (up == up.root_path())
            break;
    }
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
        return Error{dir, 0, "", std::string("cannot create the governor cache: ") + std::strerror(errno)};
    struct stat st {};
    if (::lstat(dir.c_str(), &st) != 0)
        return Error{dir, 0, "", std::string("cannot read the governor cache: ") + std::strerror(errno)};
    // A link is followed only when it is yours (IDLESCOPE_CACHE_DIR or ~/.cache may be a
    // link of yours to another disk); one another user planted (the /tmp fallback) is not.
    const bool link = S_ISLNK(st.st_mode);
    if (link && st.st_uid != ::geteuid())
        return Error{dir, 0, "",
                     "the governor cache is a link made by user " + std::to_string(st.st_uid) + ", not by you"
                         + kPlanted};
    // The checks below are of the folder opened, not of the name, which another user could
    // point elsewhere in between.
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | (link ? 0 : O_NOFOLLOW));
    if (fd < 0)
        return Error{dir, 0, "",
                     errno == ENOTDIR || errno == ELOOP
                         ? std::string("the governor cache is not a folder")
                         : std::string("cannot open the governor cache: ") + std::strerror(errno)};
    struct stat fst {};
    const bool read = ::fstat(fd, &fst) == 0;
    Status verdict = Ok{};
    if (!read)
        verdict = Error{dir, 0, "", std::string("cannot read the governor cache: ") + std::strerror(errno)};
    else if (!S_ISDIR(fst.st_mode))
        verdict = Error{dir, 0, "", "the governor cache is not a folder"};
    else if (fst.st_uid != ::geteuid())
        verdict = Error{dir, 0, "",
                        "the governor cache belongs to user " + std::to_string(fst.st_uid) + ", not to you" + kPlanted};
    else if ((fst.st_mode & 0077) != 0 && ::fchmod(fd, 0700) != 0)
        verdict =
            Error{dir, 0, "", std::string("cannot make the governor cache private (0700): ") + std::strerror(errno)};
    ::close(fd);
    if (!verdict)
        return verdict.error();
    return dir;
}

Status makePrivateFolder(const std::string &path)
{
    if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST)
        return Error{path, 0, "", std::string("cannot create a folder of the governor cache: ") + std::strerror(errno)};
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0)
        return Error{path, 0, "", std::string("cannot read a folder of the governor cache: ") + std::strerror(errno)};
    return judge(path, st, true, inCache("folder " + path));
}

Status checkPrivateFile(const std::string &path)
{
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0)
        return Error{path, 0, "", std::string("cannot read a file of the governor cache: ") + std::strerror(errno)};
    return judge(path, st, false, inCache("file " + path));
}

Status checkPrivateTree(const std::string &path)
{
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0)
        return Error{path, 0, "", std::string("cannot read the governor cache: ") + std::strerror(errno)};
    const bool dir = S_ISDIR(st.st_mode);
    if (Status s = judge(path, st, dir, inCache((dir ? "folder " : "file ") + path)); !s)
        return s;
    if (!dir)
        return Ok{};
    DIR *d = ::opendir(path.c_str());
    if (!d)
        return Error{path, 0, "", std::string("cannot read a folder of the governor cache: ") + std::strerror(errno)};
    Status result = Ok{};
    while (const dirent *e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name == "." || name == "..")
            continue;
        if (result = checkPrivateTree(path + "/" + name); !result)
            break;
    }
    ::closedir(d);
    return result;
}

} // namespace idlescope::source_governor
