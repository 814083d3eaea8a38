// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file source_args.h
 * The options of a governor built from source (--governor-source FILE.c,
 * --name, --kernel, --timeout) shared by replay and diff-governors (compare
 * takes --timeout for its src: governors), and its preparation with the
 * compiler's warnings and the governor's messages passed on to stderr.
 */
#pragma once

#include "app/cli/cli_args.h"

#include "core/source_governor/source_governor.h"

namespace idlescope::cli {

/// The governor of a --governor ID: a variant id, or src:FILE.c[@NAME...] parsed as such
/// (its own error, not "unknown variant"), or an error naming --governor.
Result<std::unique_ptr<Governor>> governorFromId(const std::string &id);

/// An error when --name, --kernel or --timeout is given without --governor-source.
Status checkSourceOnlyOptions(const Args &args);

/// The spec of --governor-source and its companion options.
Result<SourceGovernorSpec> sourceGovernorSpecFromArgs(const Args &args);

/// --timeout SECONDS (1 to 86400), DEFAULT_SOURCE_TIMEOUT_S when not given.
Result<int> sourceTimeoutFromArgs(const Args &args);

/// The governor of --governor-source and its companion options.
Result<std::unique_ptr<Governor>> sourceGovernorFromArgs(const Args &args);

/// prepareGovernor(), then the compiler's warnings on stderr.
Status prepareSourceGovernor(Governor &gov, const IdleStateTable &table, const IdleStream &stream);

/// After the replay: finishGovernor(), then the governor's pr_*() output on stderr
/// (the host's whole output is there only once it has ended).
Status finishSourceGovernor(Governor &gov, const ReplaySummary &summary);

} // namespace idlescope::cli
