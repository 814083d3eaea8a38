// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file name_table.h
 * Interns the few distinct strings a trace repeats millions of times (irq
 * handler names, hrtimer callback names) so that events stay plain data.
 * Lookups by string_view do not allocate.
 */
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace idlescope::trace {

class NameTable {
public:
    /// The id of @p name, adding it when new. Ids are dense from 0.
    std::int32_t intern(std::string_view name)
    {
        if (auto it = m_ids.find(name); it != m_ids.end())
            return it->second;
        const auto id = static_cast<std::int32_t>(m_names.size());
        m_names.emplace_back(name);
        m_ids.emplace(std::string(name), id);
        return id;
    }
    const std::string &name(std::int32_t id) const { return m_names[static_cast<size_t>(id)]; }
    std::vector<std::string> take() { return std::move(m_names); }
    size_t size() const { return m_names.size(); }

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::vector<std::string> m_names;
    std::unordered_map<std::string, std::int32_t, Hash, std::equal_to<>> m_ids;
};

/// True for the tick's hrtimer callbacks (kernel/time/tick-sched.c, tick-common.c), across versions.
bool isTickFunction(std::string_view function);

} // namespace idlescope::trace
