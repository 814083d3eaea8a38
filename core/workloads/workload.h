// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file workload.h
 * Synthetic workloads: seeded generators of idle spans in the reference-replay
 * stream model (core/stream/idle_span.h), described by a table of named,
 * unit-carrying parameters so that the spec parser, the CLI help and
 * docs/workloads.md all read the same list.
 *
 * Parameter values are integers in a fixed unit: durations "_us" are written in
 * microseconds (up to 3 decimals) and held in ns; "_pct" in percent (3 decimals)
 * held in milli-percent; "hz" in Hz (3 decimals) held in mHz; counts as is;
 * choices as the index of the chosen word.
 */
#pragma once

#include "core/common/kernel_types.h"
#include "core/stream/idle_span.h"

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace idlescope::workloads {

enum class ParamUnit {
    Us,      ///< written in us, held in ns
    Percent, ///< written in %, held in milli-percent (100 % = 100000)
    Hz,      ///< written in Hz, held in mHz
    Count,   ///< a plain integer
    Choice,  ///< one word of ParamInfo::choices, held as its index
};

/// One generator parameter: kernel-thread vocabulary, unit in the name.
struct ParamInfo {
    const char *name; ///< e.g. "interval_us"
    ParamUnit unit;
    std::int64_t def; ///< default, in the held unit
    std::int64_t min; ///< inclusive, held unit
    std::int64_t max; ///< inclusive, held unit
    const char *help;
    std::span<const char *const> choices = {};
};

inline constexpr int MAX_PARAMS = 10;

struct GeneratorInfo;

/// The parameter values of one generator instance (held units), defaults filled in.
struct ParamValues {
    const GeneratorInfo *info = nullptr;
    std::array<std::int64_t, MAX_PARAMS> v{};

    /// Value by parameter name; the name must be one of info->params (programming error otherwise).
    std::int64_t get(std::string_view name) const;
    void set(std::string_view name, std::int64_t value);
};

/// An endless source of idle spans. Deterministic for a given seed.
class SpanSource {
public:
    virtual ~SpanSource() = default;
    virtual IdleSpan next() = 0;
};

/// A named generator: its parameters and its factory.
struct GeneratorInfo {
    const char *name;
    const char *summary;
    std::span<const ParamInfo> params;
    std::unique_ptr<SpanSource> (*make)(const ParamValues &values, std::uint64_t seed);
    /// Refuses values the generator cannot turn into idle spans (a CPU that never idles) and a
    /// written parameter that would change nothing: returns why, naming the parameter, or ""
    /// when the values are fine. Bit i of @p written is set when params[i] was written in the
    /// spec with a value other than its default, so a parameter at its default is never
    /// refused (the window writes every parameter out). nullptr: every value is fine.
    std::string (*check)(const ParamValues &values, std::uint32_t written) = nullptr;

    /// Index of a parameter, or -1.
    int paramIndex(std::string_view name) const;
    /// Every parameter at its default.
    ParamValues defaults() const;
};

/// Every generator, in the order of docs/workloads.md.
std::span<const GeneratorInfo> allGenerators();

/// The generator with this name, or nullptr.
const GeneratorInfo *findGenerator(std::string_view name);

/// The 28 sleep intervals (us) of the `sweep` generator, 5 us to 1000 us.
std::span<const std::int64_t> defaultSweepIntervalsUs();

} // namespace idlescope::workloads
