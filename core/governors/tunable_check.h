// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file tunable_check.h
 * The one place a governor's tunables are looked up, checked and set, so
 * that every family words its errors the same way: "unknown parameter 'X'
 * for ladder-latest (known: A, B)" or "PROMOTION_COUNT = 0 is out of range
 * 1..1000 for ladder-latest (kernel default 2)".
 *
 * Each family keeps one table of TunableRow, {TunableInfo, get, set}, and
 * derives from TableTunableGovernor, which answers Governor::tunable() and
 * setTunable() with tableTunable() and tableSetTunable() over it; its
 * tunables() lists the rows the variant has. Allocates only on error.
 */
#pragma once

#include "core/governors/governor.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace idlescope {

/// The TunableInfo named @p name, or nullptr (with @p error set) if unknown
/// or if @p value lies outside [minValue, maxValue].
inline const TunableInfo *checkTunable(std::span<const TunableInfo> known, std::string_view name, std::int64_t value,
                                       const char *variantId, std::string *error)
{
    for (const TunableInfo &t : known) {
        if (name != t.name)
            continue;
        if (value < t.minValue || value > t.maxValue) {
            if (error)
                *error = std::string(t.name) + " = " + std::to_string(value) + " is out of range "
                         + std::to_string(t.minValue) + ".." + std::to_string(t.maxValue) + " for " + variantId
                         + " (kernel default " + std::to_string(t.kernelDefault) + ")";
            return nullptr;
        }
        return &t;
    }
    if (error) {
        *error = "unknown parameter '" + std::string(name) + "' for " + variantId;
        std::string list;
        for (const TunableInfo &t : known)
            list += (list.empty() ? "" : ", ") + std::string(t.name);
        *error += list.empty() ? " (it has no parameters)" : " (known: " + list + ")";
    }
    return nullptr;
}

/// One tunable of governor class G: what the user sees, how to read it and
/// how to store a value (already range-checked).
template <class G>
struct TunableRow {
    TunableInfo info;
    std::int64_t (*get)(const G &);
    void (*set)(G &, std::int64_t);
};

/// The TunableInfo column of a table's first N rows, for tunables().
template <std::size_t N, class G>
std::array<TunableInfo, N> tunableInfos(std::span<const TunableRow<G>> rows)
{
    std::array<TunableInfo, N> infos{};
    for (std::size_t i = 0; i < N && i < rows.size(); ++i)
        infos[i] = rows[i].info;
    return infos;
}

/// The row named @p name, or nullptr.
template <class G>
const TunableRow<G> *findTunableRow(std::span<const TunableRow<G>> rows, std::string_view name)
{
    for (const TunableRow<G> &r : rows)
        if (name == r.info.name)
            return &r;
    return nullptr;
}

/// Governor::tunable() over a table: the value of @p name when the variant
/// has it (g.tunables() lists it), else 0.
template <class G>
std::int64_t tableTunable(const G &g, std::span<const TunableRow<G>> rows, std::string_view name)
{
    for (const TunableInfo &t : g.tunables())
        if (name == t.name)
            if (const TunableRow<G> *r = findTunableRow(rows, name))
                return r->get(g);
    return 0;
}

/// Governor::setTunable() over a table: checkTunable() against the
/// variant's g.tunables(), then the row's set.
template <class G>
bool tableSetTunable(G &g, std::span<const TunableRow<G>> rows, std::string_view name, std::int64_t value,
                     std::string *error)
{
    if (!checkTunable(g.tunables(), name, value, g.variant().id, error))
        return false;
    const TunableRow<G> *r = findTunableRow(rows, name);
    if (!r) {
        if (error)
            *error = "parameter '" + std::string(name) + "' of " + g.variant().id + " has no setter";
        return false;
    }
    r->set(g, value);
    return true;
}

/// The Governor base of a family G with a TunableRow table, static G::tunableRows() (G makes
/// this class a friend when the table is private): tunable() and setTunable() over it.
template <class G>
class TableTunableGovernor : public Governor {
public:
    std::int64_t tunable(std::string_view name) const override
    {
        return tableTunable(static_cast<const G &>(*this), G::tunableRows(), name);
    }
    /// Errors: unknown name, or a value outside the TunableInfo range.
    bool setTunable(std::string_view name, std::int64_t value, std::string *error) override
    {
        return tableSetTunable(static_cast<G &>(*this), G::tunableRows(), name, value, error);
    }
};

} // namespace idlescope
