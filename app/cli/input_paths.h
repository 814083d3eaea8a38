// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file input_paths.h
 * The files a command reads, found in its arguments, so that no output is
 * written over one of them, whatever option named it: every option's value
 * and every plain argument, and inside them the files of csv:FILE, @FILE and
 * of the src:FILE.c governors of a comma-separated list (with the headers
 * beside each source file, which its build includes), and the TRACE.governor
 * file beside a trace. Values that are no file (a built-in id, a number, a
 * label) are left out by checkDistinctPaths(), which compares device and inode.
 */
#pragma once

#include "app/cli/cli_args.h"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace idlescope::cli {

/// The input paths of @p args, the options @p outputOptions (the command's outputs) left out.
std::vector<std::string> inputPaths(const Args &args, std::initializer_list<std::string_view> outputOptions);

/// The files a governor built from @p sourcePath reads: the file and every *.h beside it.
std::vector<std::string> sourceGovernorInputs(const std::string &sourcePath);

/// checkOutputPath() of each of @p outputs, then none of them may be an input (inputPaths())
/// or another of them (checkDistinctPaths()).
Status checkOutputs(const Args &args, const std::vector<std::string> &outputs,
                    std::initializer_list<std::string_view> outputOptions);

} // namespace idlescope::cli
