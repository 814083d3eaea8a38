// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/output_target.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <filesystem>
#include <string_view>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace idlescope {

namespace {

// The kernel gives up after 40 links in one lookup (MAXSYMLINKS); so does the walk.
constexpr int kMaxLinks = 40;

// The protected_symlinks rule: in a folder that is sticky and that everyone
// may write, only the follower's own links and the folder owner's are
// followed. Elsewhere whoever could plant a link could as well replace the
// file itself, so a link is followed as always.
bool mayFollowLink(const struct stat &folder, const struct stat &link)
{
    const bool shared = (folder.st_mode & S_ISVTX) != 0 && (folder.st_mode & S_IWOTH) != 0;
    return !shared || link.st_uid == ::geteuid() || link.st_uid == folder.st_uid;
}

void splitInto(std::deque<std::string> &parts, std::string_view path)
{
    // The link's names go before what is left of the path, in their order.
    std::deque<std::string> mine;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t slash = path.find('/', start);
        const std::size_t end = slash == std::string_view::npos ? path.size() : slash;
        if (end > start)
            mine.emplace_back(path.substr(start, end - start));
        start = end + 1;
    }
    parts.insert(parts.begin(), mine.begin(), mine.end());
}

std::string joined(const std::string &folder, const std::string &name)
{
    if (folder.empty())
        return name;
    return folder.back() == '/' ? folder + name : folder + "/" + name;
}

Error walkError(const std::string &path, std::string message)
{
    return Error{path, 0, "", std::move(message)};
}

// A link another user put in a shared folder, @p shown on the way to @p path
// (empty: the path's own name).
Error plantedLinkError(const std::string &path, const std::string &shown, uid_t owner, const std::string &folder)
{
    return walkError(path, (shown.empty() ? std::string("is") : shown + " is") + " a link that user "
                               + std::to_string(owner) + " put in the shared folder " + folder
                               + " (sticky, anyone may write); refusing to follow it, since it could point at any "
                                 "of your files");
}

// The target of the link @p name in @p folderFd, @p shown so in messages; never empty.
Result<std::string> readLink(int folderFd, const std::string &name, const struct stat &st, const std::string &path,
                             const std::string &shown)
{
    std::string target(std::max<std::size_t>(static_cast<std::size_t>(st.st_size), 255) + 1, '\0');
    const ssize_t n = ::readlinkat(folderFd, name.c_str(), target.data(), target.size());
    if (n < 0 || static_cast<std::size_t>(n) >= target.size())
        return walkError(path, "cannot read the link " + shown);
    target.resize(static_cast<std::size_t>(n));
    if (target.empty())
        return walkError(path, "the link " + shown + " is empty");
    return target;
}

} // namespace

OutputTarget::~OutputTarget()
{
    if (m_folderFd >= 0)
        ::close(m_folderFd);
}

OutputTarget::OutputTarget(OutputTarget &&other) noexcept
    : m_folderFd(std::exchange(other.m_folderFd, -1)), m_name(std::move(other.m_name))
{
}

OutputTarget &OutputTarget::operator=(OutputTarget &&other) noexcept
{
    if (this != &other) {
        if (m_folderFd >= 0)
            ::close(m_folderFd);
        m_folderFd = std::exchange(other.m_folderFd, -1);
        m_name = std::move(other.m_name);
    }
    return *this;
}

Result<OutputTarget> openOutputTarget(const std::string &path)
{
    if (path.empty())
        return walkError(path, "empty output path");
    std::string parent = std::filesystem::path(path).parent_path().string();
    if (parent.empty())
        parent = ".";
    const bool namesFolder = path.back() == '/';

    // Each step holds the folder walked so far open (O_PATH: no read right
    // needed) and looks at the next name without following it, so what is
    // checked is what is used: a folder swapped for a link in between makes
    // openat(O_NOFOLLOW) fail rather than lead elsewhere.
    OutputTarget t;
    auto openRoot = [&](bool absolute) {
        if (t.m_folderFd >= 0)
            ::close(t.m_folderFd);
        t.m_folderFd = ::open(absolute ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        return t.m_folderFd >= 0;
    };
    std::string where = path.front() == '/' ? "/" : ""; // the folder walked so far, for messages
    if (!openRoot(path.front() == '/'))
        return walkError(path, std::string("cannot open the working folder: ") + std::strerror(errno));
    std::deque<std::string> rest;
    splitInto(rest, path);
    int links = 0;
    while (!rest.empty()) {
        std::string name = std::move(rest.front());
        rest.pop_front();
        const bool last = rest.empty();
        struct stat st {};
        if (::fstatat(t.m_folderFd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno == ENOENT && last && !namesFolder) { // a new file: the usual case
                t.m_name = std::move(name);
                return t;
            }
            if (errno == ENOENT || errno == ENOTDIR)
                return walkError(path, "folder " + parent + " does not exist");
            return walkError(path, "cannot look at " + joined(where, name) + ": " + std::strerror(errno));
        }
        if (S_ISLNK(st.st_mode)) {
            struct stat folder {};
            if (::fstat(t.m_folderFd, &folder) != 0)
                return walkError(path, std::string("cannot look at its folder: ") + std::strerror(errno));
            if (!mayFollowLink(folder, st))
                return plantedLinkError(path, last ? "" : joined(where, name), st.st_uid, where.empty() ? "." : where);
            if (++links > kMaxLinks)
                return walkError(path, "more than 40 links on the way; refusing to follow them");
            Result<std::string> read = readLink(t.m_folderFd, name, st, path, joined(where, name));
            if (!read)
                return read.error();
            const std::string &target = *read;
            if (target.front() == '/') {
                if (!openRoot(true))
                    return walkError(path, std::string("cannot open /: ") + std::strerror(errno));
                where = "/";
            }
            const std::size_t before = rest.size();
            splitInto(rest, target);
            if (rest.size() == before) // the link names "/" or "//"
                return walkError(path, "is a folder, not a file");
            continue;
        }
        if (last && !S_ISDIR(st.st_mode) && !namesFolder) {
            t.m_name = std::move(name);
            return t;
        }
        if (!S_ISDIR(st.st_mode)) // a file on the way, or a path ending in '/' that names one
            return walkError(path, "folder " + parent + " does not exist");
        if (last)
            return walkError(path, "is a folder, not a file");
        const int next = ::openat(t.m_folderFd, name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0)
            return walkError(path, "cannot enter the folder " + joined(where, name) + ": " + std::strerror(errno));
        ::close(t.m_folderFd);
        t.m_folderFd = next;
        where = joined(where, name);
    }
    return walkError(path, "is a folder, not a file"); // "/" or "." alone
}

} // namespace idlescope
