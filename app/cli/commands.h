// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file commands.h
 * The idlescope-cli subcommands. Each takes the full argv and the index of
 * its first own argument, and returns the process exit code
 * (0 success, 1 internal failure, 2 bad input or usage).
 */
#pragma once

#include "core/experiments/comparison.h"

#include <optional>
#include <string>
#include <string_view>

namespace idlescope::cli {

struct Command {
    const char *name;
    const char *synopsis;
    const char *help;
    int (*run)(int argc, char **argv, int first);
};

int runReplay(int argc, char **argv, int first);
int runGovernors(int argc, char **argv, int first);
int runCompare(int argc, char **argv, int first);
int runImport(int argc, char **argv, int first);
int runTraceStats(int argc, char **argv, int first);
int runMerge(int argc, char **argv, int first);
int runRecord(int argc, char **argv, int first);
int runDiffGovernors(int argc, char **argv, int first);

extern const char *const REPLAY_HELP;
extern const char *const GOVERNORS_HELP;
extern const char *const COMPARE_HELP;
extern const char *const IMPORT_HELP;
extern const char *const TRACE_STATS_HELP;
extern const char *const MERGE_HELP;
extern const char *const RECORD_HELP;
extern const char *const DIFF_GOVERNORS_HELP;

/// "md", "csv" or "json" as compare and merge take them; nothing for another word.
std::optional<experiments::CompareFormat> compareFormat(const std::string &name);

} // namespace idlescope::cli
