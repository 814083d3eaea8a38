// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/source_governor/source_governor_names.h"

#include <map>
#include <mutex>
#include <shared_mutex>

namespace idlescope {

namespace {

constexpr std::size_t MAX_NAME = 64;

bool nameChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
           || c == '+' || c == '-';
}

/// Worker threads create governors by id while the window names a file: one lock.
struct Names {
    std::shared_mutex lock;
    std::map<std::string, NamedSourceFile, std::less<>> files;
};

Names &names()
{
    static Names n;
    return n;
}

} // namespace

bool isSourceGovernorName(std::string_view name)
{
    if (name.empty() || name.size() > MAX_NAME || name.front() == '.')
        return false;
    for (const char c : name)
        if (!nameChar(c))
            return false;
    return true;
}

Status nameSourceGovernor(const std::string &name, const NamedSourceFile &file)
{
    if (!isSourceGovernorName(name))
        return Error{"", 0, "name",
                     "'" + name
                         + "' is not a governor name (1 to 64 letters, digits and . _ + -, not starting with .)"};
    if (file.path.empty())
        return Error{"", 0, "name", "'" + name + "' names no file"};
    Names &n = names();
    std::unique_lock guard(n.lock);
    if (auto it = n.files.find(name); it != n.files.end()) {
        const NamedSourceFile &had = it->second;
        if (had.path == file.path && had.core.major == file.core.major && had.core.minor == file.core.minor)
            return Ok{};
        return Error{"", 0, "name", "'" + name + "' already names " + had.path + " (v" + had.core.name() + ")"};
    }
    n.files.emplace(name, file);
    return Ok{};
}

std::optional<NamedSourceFile> namedSourceFile(std::string_view name)
{
    Names &n = names();
    std::shared_lock guard(n.lock);
    if (auto it = n.files.find(name); it != n.files.end())
        return it->second;
    return std::nullopt;
}

std::string defaultSourceGovernorName(std::string_view path)
{
    std::string_view base =
        path.substr(path.find_last_of('/') == std::string_view::npos ? 0 : path.find_last_of('/') + 1);
    if (const std::size_t dot = base.rfind('.'); dot != std::string_view::npos && dot > 0)
        base = base.substr(0, dot);
    std::string name;
    for (const char c : base.substr(0, MAX_NAME))
        name += nameChar(c) ? c : '-';
    while (!name.empty() && name.front() == '.')
        name.erase(0, 1);
    return name.empty() ? std::string("governor") : name;
}

} // namespace idlescope
