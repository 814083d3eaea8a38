// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file workload_spec.h
 * Workload specs: the text a user gives `idlescope-cli compare --workload`,
 * parsed into a tree of generators composed by overlay and mix, with at most
 * one swept parameter. The grammar (docs/workloads.md, `help compare`):
 *
 *     spec      := term { '+' term }                 overlay on one CPU
 *     term      := generator | 'mix(' member { '|' member } [ ';block=' N ] ')'
 *     member    := [ WEIGHT '*' ] spec
 *     generator := NAME [ ':' KEY '=' VALUE { ',' KEY '=' VALUE } ]
 *     VALUE     := NUMBER | WORD | NUMBER '..' NUMBER ':' POINTS | NUMBER { '/' NUMBER }
 *                | WORD { '/' WORD }
 *
 * A range or '/'-list makes that parameter the sweep axis: one workload point
 * per value. Every generator also takes latency_req_us (PM QoS limit, "none"
 * by default), util (0..1024) and cpus (the CPUs of a machine running it).
 *
 * Seeds: the spans of (point, iteration) come from runSeed(seed, point,
 * iteration); inside a tree every generator and every mix draws from its own
 * stream, numbered in pre-order. seededStream() is that one derivation, used by
 * the CLI and the GUI alike, so that a command copied from the window gives the
 * window's spans; legacyDirectSeedStream() is the GUI's former one, kept only for
 * sessions saved with it.
 */
#pragma once

#include "core/common/error.h"
#include "core/workloads/workload.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idlescope::workloads {

/// One node of a parsed spec.
struct WorkloadNode {
    enum class Kind { Generator, Overlay, Mix };
    Kind kind = Kind::Generator;

    // Generator
    ParamValues params;
    Ns latencyReqNs = NO_LATENCY_REQ;
    int util = 0;
    int sweepParam = -1; ///< index of the swept parameter of this generator, or -1
    /// cpus= as given (pingpong's ring size and io's numjobs count): CPUs of a machine that run this
    /// workload; 0 when not given.
    int cpus = 0;

    // Overlay and Mix
    std::vector<WorkloadNode> children;
    std::vector<std::int64_t> weights; ///< Mix: one positive weight per child
    std::int64_t block = 1;            ///< Mix: spans taken from a member per draw
};

/// The swept parameter, if any.
struct SweepAxis {
    std::string param; ///< e.g. "interval_us"
    const ParamInfo *info = nullptr;
    std::vector<std::int64_t> values; ///< held units
};

struct WorkloadSpec {
    std::string text;
    WorkloadNode root;
    std::optional<SweepAxis> sweep;

    /// Number of workload points (1 without a sweep).
    int pointCount() const;
    /// "interval_us=30" for a sweep point, "all" without a sweep.
    std::string pointLabel(int point) const;
    /// The CPUs the workload runs on (the largest cpus= of its generators), 0 when no
    /// generator says: a one-CPU compare replays one of them, a machine all of them.
    int cpuCount() const;
    /// The CPUs its generators count as their own parameter, given or at its default (pingpong's
    /// ring of cpus=2, io's numjobs=1, fio's one job), 0 when none has one: what a machine runs it
    /// on when neither cpus= nor the CPUs are named, as the generators' help says.
    int ownCpuCount() const;
    /// The tree with the sweep value of @p point substituted.
    WorkloadNode nodeAt(int point) const;
};

/// Deepest nesting of mix(...) a spec may have (parsing and generating recurse per level).
inline constexpr int MAX_MIX_DEPTH = 64;

/// Parses a spec. Errors: field "workload", message with the column and what was expected
/// (also: mix(...) nested deeper than MAX_MIX_DEPTH).
Result<WorkloadSpec> parseWorkloadSpec(std::string_view text);

/// The seed of one (point, iteration) run.
std::uint64_t runSeed(std::uint64_t seed, int point, int iteration);

/// A span source for a node; generators and mixes get streams from @p seed in pre-order.
std::unique_ptr<SpanSource> buildSource(const WorkloadNode &node, std::uint64_t seed);

/// @p spans spans of point @p point with the run seed @p seed.
IdleStream generateStream(const WorkloadSpec &spec, int point, std::uint64_t seed, std::size_t spans);

/// The spans of (@p point, @p iteration) of @p spec from the base seed @p seed: the one seed
/// derivation (runSeed, then pre-order streams) that `compare` and the GUI share.
IdleStream seededStream(const WorkloadSpec &spec, int point, int iteration, std::uint64_t seed, std::size_t spans);

/// The spans the GUI generated before it shared seededStream() (sessions of format 2 and older):
/// the generator of @p node (a Generator node, no QoS) seeded with @p seed itself. Kept so that a
/// saved session's spans never change behind its user's back; nothing new uses it.
IdleStream legacyDirectSeedStream(const WorkloadNode &node, std::uint64_t seed, std::size_t spans);

/// A held value written back in the parameter's unit ("2.5" for 2500 ns of an _us parameter).
std::string formatParamValue(const ParamInfo &info, std::int64_t held);

/// Why a decimal did not read (readDecimal()).
enum class DecimalFault { None, NotANumber, Negative, TooLarge, TooManyDecimals };

struct DecimalValue {
    std::int64_t value = 0; ///< the decimal times the scale, when fault is None
    DecimalFault fault = DecimalFault::None;
};

/// @p text as a decimal times @p scale: digits, and with a scale of 1000 a '.' and up to 3
/// decimals ("12.5" at 1000 is 12500; "5." is not a number); the grammar's one reader of a number, formatParamValue()'s
/// inverse. "-5" is Negative, not NotANumber, so that a message can say what range it is outside.
DecimalValue readDecimal(std::string_view text, std::int64_t scale);

/// "periodic:kind=ipi,interval_us=100,...": every parameter of @p values' generator in its
/// named unit, in the generator's order, so that the text means the same spans when the
/// defaults change. @p param, when given, is written as @p paramText instead (a sweep's
/// "5/50/500"). The window holds a generator workload as this text; a session writes it back.
std::string generatorText(const ParamValues &values, std::string_view param = {}, std::string_view paramText = {});

/// The grammar and every generator with its parameters, defaults and ranges (for help texts).
std::string workloadReference();

} // namespace idlescope::workloads
