// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file builtin_targets_data.h
 * The embedded JSON text of the resources/targets/ tables (generated .cpp), sorted
 * by id. Read it through builtin_targets.h.
 */
#pragma once

namespace idlescope::detail {

struct EmbeddedTarget {
    const char *id;   ///< file name without .json
    const char *json; ///< the file's text
};

extern const EmbeddedTarget kEmbeddedTargets[];
extern const int kEmbeddedTargetCount;

} // namespace idlescope::detail
