// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file sweep_job.h
 * The sweep view's work, off the GUI thread: one parameter of the scenario —
 * a parameter of its generator workload (the wakeup interval, say) or a
 * tunable of one governor — stepped over a list of values, every governor of
 * the scenario replayed at each value, and per value the kernel threads'
 * above %, below % and idle miss ratio (the cpuidle_wakeup figure).
 *
 * Core computes it all: a workload sweep is one `compare` of the spec with
 * the parameter as a '/'-list (core/experiments/comparison.h; the same numbers
 * as `idlescope-cli compare --workload …=v1/v2/… --iterations 1`, point p
 * seeded with runSeed(seed, p, 0)); a tunable sweep is one single-point
 * comparison per value (`--set GOV:NAME=v`). The metrics are core's compare
 * columns, read by name.
 */
#pragma once

#include "core/experiments/comparison.h"
#include "widgets/runner/scenario_spec.h"

#include <QString>

#include <atomic>
#include <string>
#include <vector>

namespace idlescope {

/// What the x axis steps.
struct SweepAxisChoice {
    enum class Kind { Workload, Tunable };
    Kind kind = Kind::Workload;
    QString param;        ///< the generator parameter ("interval_us") or the tunable ("INTERVALS")
    std::string governor; ///< Tunable: the variant id whose tunable it is
};

struct SweepRequest {
    ScenarioSpec scenario; ///< everything else as it is (a generator workload)
    SweepAxisChoice axis;
    std::vector<qint64> values; ///< held units of the parameter (ns for _us), or tunable values
};

/// The compare columns the view plots, in order: above %, below % (of entries), idle miss ratio.
inline constexpr const char *SWEEP_METRICS[] = {"above_pct", "below_pct", "idle_miss_ratio"};
inline constexpr int SWEEP_METRIC_COUNT = 3;

struct SweepResult {
    SweepRequest request;
    std::vector<std::string> governors;  ///< the variants replayed (the scenario's, no oracle)
    std::vector<QString> governorColors; ///< "#rrggbb" of each, from the scenario
    experiments::CompareResult compare;  ///< one point per value, one iteration
    QString workloadText;                ///< the --workload spec (a workload sweep: with the list)
    QString error;                       ///< why there is no result ("" when there is)
    bool cancelled = false;

    /// A finished sweep with points (not a failed, cancelled or never-run one).
    bool ok() const { return error.isEmpty() && !cancelled && !compare.pointLabels.empty(); }
    int pointCount() const { return static_cast<int>(compare.pointLabels.size()); }
    /// SWEEP_METRICS[@p metric] of governor @p governor at point @p point (core's column value).
    double value(int metric, int governor, int point) const;
};

/// @p points values from @p from to @p to (held units), evenly spaced or (when @p logarithmic)
/// evenly spaced in log, each rounded to a whole held unit; repeated values appear once.
std::vector<qint64> sweepValues(qint64 from, qint64 to, int points, bool logarithmic);

/// The comparison options of @p scenario with one iteration (every governor but the oracle and
/// "recorded", their settings as "GOV:NAME=VALUE"); the workload is left to the caller.
experiments::CompareOptions scenarioCompareOptions(const ScenarioSpec &scenario, int threads);

/**
 * Runs @p request (a worker thread). @p cancel stops it between work units (the result is then
 * cancelled); @p unitsDone counts finished units, of request.values.size() in all.
 * Errors (a trace or stream workload, fewer than 2 values, core's refusals) go to .error.
 */
SweepResult runSweep(const SweepRequest &request, const std::atomic<bool> &cancel, std::atomic<int> &unitsDone,
                     int threads = 2);

} // namespace idlescope
