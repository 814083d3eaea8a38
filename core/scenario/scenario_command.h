// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file scenario_command.h
 * The command line as a spelling of a scenario: `idlescope-cli compare`'s
 * options read into a Scenario, and a Scenario written back as those options.
 * The CLI reads its options here; the window's "Copy as command" writes its
 * scenario here; so a session, a copied command and the CLI's own reading of
 * it are one value, and a test of this file checks the round trip for every
 * workload kind without running a process.
 *
 * The table or machine is the front end's: the CLI resolves --table or
 * --machine itself (a built-in id, a file, sysfs), the window knows which
 * built-in, file or machine its table came from. Everything else a run depends
 * on is read here: the workload source, the governors with their settings,
 * the latency limit and the tick rate.
 */
#pragma once

#include "core/common/error.h"
#include "core/scenario/scenario.h"

#include <span>
#include <string>
#include <utility>
#include <vector>

namespace idlescope::scenario {

/// An option as the command line gives it, its name without "--": ("spans", "200000").
using CommandOption = std::pair<std::string, std::string>;

/**
 * The scenario @p options name, its table and machine left unset: the workload (--workload
 * TEXT or csv:FILE, --trace FILE [--cpu N], --closed-loop TEXT, with --spans, --duration and
 * --seed), the governors (--governors with every --set applied to the instances it names:
 * the tunable's owners, or the one a GOVERNOR: prefix names), the latency limit
 * (--latency-limit US), the tick rate (--hz) and the measured wake delays (--wake-delays
 * FILE, a wult datapoints.csv, read when the scenario runs). Errors name the option, as
 * "--spans".
 */
Result<Scenario> scenarioFromOptions(std::span<const CommandOption> options);

/**
 * `idlescope-cli compare`'s arguments for @p s, "compare" first, then @p targetArgs (the
 * front end's spelling of the table or machine, e.g. {"--table", "pseries-p10"}), so that
 * scenarioFromOptions() of the options after "compare" gives @p s back (sameScenario()). A
 * trace on one CPU must name its CPU: the command line's --trace without --cpu is every CPU.
 * One iteration: a scenario is one stream, as the window replays it.
 */
std::vector<std::string> compareArguments(const Scenario &s, const std::vector<std::string> &targetArgs);

/// --governors items of @p governors: a variant id, or LABEL=VARIANT for a labelled instance.
std::vector<std::string> governorListItems(const std::vector<GovernorInstance> &governors);

/// --set texts of @p governors: NAME:TUNABLE=VALUE for every setting of every instance
/// (NAME its label or variant id), the last value of a tunable set twice.
std::vector<std::string> settingTexts(const std::vector<GovernorInstance> &governors);

/// --@p name of @p options (the last one given) as a whole number in @p lo..@p hi, @p fallback
/// when it is not given; an Error naming "--NAME" otherwise. The command line's one reading of a
/// count, for the scenario's options here and the front end's own (compare's --threads).
Result<std::int64_t> wholeNumberOption(std::span<const CommandOption> options, const std::string &name,
                                       std::int64_t fallback, std::int64_t lo, std::int64_t hi);

/// @p us microseconds with up to 3 decimals ("50", "12.5") in ns, 0..10 s; an Error
/// naming @p option otherwise.
Result<Ns> parseMicroseconds(const std::string &us, const std::string &option);

/// "50", "12.5": @p ns in microseconds, as parseMicroseconds() reads it.
std::string microsecondsText(Ns ns);

/**
 * True when @p a and @p b replay the same spans through the same governors: the same
 * workload (a Generator and a Spec of the same text alike: one text, one resolution), the
 * same governor instances with the same settings, latency limit, tick rate and wake delays
 * file. The table
 * and machine are the front ends' and not compared.
 */
bool sameScenario(const Scenario &a, const Scenario &b);

} // namespace idlescope::scenario
