// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/input_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace idlescope {

namespace {

std::string whatItIs(const struct stat &st)
{
    if (S_ISDIR(st.st_mode))
        return "a folder";
    if (S_ISFIFO(st.st_mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
        return "a device";
    if (S_ISSOCK(st.st_mode))
        return "a socket";
    return "not a regular file";
}

std::string sizeText(std::size_t bytes)
{
    if (bytes >= (std::size_t{1} << 20))
        return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes >> 10) + " KiB";
}

Status regular(const std::string &path, const struct stat &st, const char *kind)
{
    if (S_ISREG(st.st_mode))
        return Ok{};
    return Error{path, 0, "", "is " + whatItIs(st) + ", not a file (" + kind + " must be a regular file)"};
}

} // namespace

Status checkRegularInput(const std::string &path, const char *kind)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return Error{path, 0, "", std::string("cannot open: ") + std::strerror(errno)};
    return regular(path, st, kind);
}

Result<std::string> readInputFile(const std::string &path, std::size_t maxBytes, const char *kind)
{
    if (Status s = checkRegularInput(path, kind); !s)
        return s.error();
    // O_NONBLOCK: if the path became a FIFO since the check, open() still returns.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return Error{path, 0, "", std::string("cannot open: ") + std::strerror(errno)};
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return regular(path, st, kind).error();
    }
    if (static_cast<std::size_t>(st.st_size) > maxBytes) {
        ::close(fd);
        return Error{path, 0, "", std::string("too large for ") + kind + " (over " + sizeText(maxBytes) + ")"};
    }
    std::string text;
    text.resize(static_cast<std::size_t>(st.st_size) + 1);
    std::size_t have = 0;
    for (;;) {
        if (have == text.size()) {
            // The file grew while being read: read on, up to the cap.
            if (text.size() > maxBytes) {
                ::close(fd);
                return Error{path, 0, "", std::string("too large for ") + kind + " (over " + sizeText(maxBytes) + ")"};
            }
            text.resize(std::min(maxBytes + 1, text.size() * 2));
        }
        const ssize_t n = ::read(fd, text.data() + have, text.size() - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            return Error{path, 0, "", std::string("cannot read: ") + std::strerror(err)};
        }
        if (n == 0)
            break;
        have += static_cast<std::size_t>(n);
    }
    ::close(fd);
    text.resize(have);
    return text;
}

} // namespace idlescope
