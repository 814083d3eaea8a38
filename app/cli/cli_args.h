// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file cli_args.h
 * Minimal "--name value" argument reader shared by the idlescope-cli commands,
 * and the CLI's error convention: a message on stderr and exit code 2.
 */
#pragma once

#include "core/common/error.h"
#include "core/governors/governor.h"
#include "core/states/idle_state_table.h"

#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace idlescope::cli {

/// Exit code for bad input or usage.
inline constexpr int EXIT_BAD_INPUT = 2;

class Args {
public:
    /// @p flags: options without a value; every other "--x" takes one value.
    /// Repeated options are kept in order (see all()).
    Args(int argc, char **argv, int first, std::vector<std::string> flags = {});

    bool ok() const { return m_error.empty(); }
    const std::string &error() const { return m_error; }
    bool has(const std::string &name) const;
    std::string value(const std::string &name, const std::string &fallback = {}) const;
    std::vector<std::string> all(const std::string &name) const;
    const std::vector<std::string> &positional() const { return m_positional; }
    /// Every option given, (name, value) in order.
    const std::vector<std::pair<std::string, std::string>> &options() const { return m_opts; }
    /// Names given that are not in @p known; empty when all are known.
    std::string unknown(const std::vector<std::string> &known) const;
    /// The first problem in order: an unknown option, a missing value, more than
    /// @p maxPositional plain arguments; empty when the arguments are fine.
    std::string check(const std::vector<std::string> &known, size_t maxPositional, const std::string &command) const;
    /// "--X is given more than once" for the first of @p once given twice; empty when none is.
    std::string givenTwice(const std::vector<std::string> &once) const;

private:
    std::vector<std::pair<std::string, std::string>> m_opts;
    std::vector<std::string> m_positional;
    std::string m_error;
};

/// @p error of a core function that names the options it was given by plain names
/// (runComparison(), parseGovernorList(), settingsPerGovernor(), runMachineComparison(),
/// applyPowerOption(), parseWorkloadSpec(), syntheticMachineWorkload(), builtinTarget(),
/// builtinMachine(), readSysfsCpuidle(), parseClosedLoopSpec(), runClosedLoop(),
/// parseShard()) as the CLI says it: core's parameter names ("governors", "set",
/// "iterations", "spans", "shard", "power", "workload", "background", "workload-cpus",
/// "machine", "table", "closed-loop") become the options that give them ("--governors",
/// ...), and the messages that have a CLI hint (which command lists the variants, which
/// option helps) get it. The one place where core's words become the command line's; only
/// for those errors, so that a file that happens to be called "spans" keeps its name.
/// Core names a parameter as the file (the field is the refused item) or as the field with
/// no file; @p valueAsFile lists the parameters the caller's function names as the field
/// with the refused value as the file (builtinTarget(): the id, field "table").
Error inCliTerms(Error error, std::initializer_list<std::string_view> valueAsFile = {});

/// A warning of core (readSysfsCpuidle(), parseCpupowerIdleInfo()) with the CLI's hint, if it has one.
std::string inCliTerms(std::string warning);

/// @p result, its error in the CLI's terms (see above).
template <typename T>
Result<T> inCliTerms(Result<T> result, std::initializer_list<std::string_view> valueAsFile = {})
{
    if (!result)
        return inCliTerms(result.error(), valueAsFile);
    return result;
}

/// Prints "idlescope-cli: <message>" to stderr and returns EXIT_BAD_INPUT.
int fail(const std::string &message);
int fail(const Error &error);

/// Writes @p text to the file the option @p option names (atomically), or to stdout when it is
/// not given; the exit code (EXIT_BAD_INPUT, said on stderr, when the file cannot be written).
int emitOutput(const Args &args, const std::string &option, const std::string &text);

/// A table from a JSON file path, or a built-in target id (resources/targets).
Result<IdleStateTable> resolveTable(const std::string &arg);

/// Applies "[GOVERNOR:]NAME=VALUE" settings (parseTunableSetting()) to a
/// governor; a GOVERNOR other than its own is an error; the error names the bad one.
Status applySettings(Governor &gov, const std::vector<std::string> &settings);

} // namespace idlescope::cli
