// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file compare_cells.h
 * compare's cells as core's table writer (table_writer.h) holds them: the text
 * formatCompareCell() and closedLoopCell() print, and whether it is a number or
 * missing ("no power data": null in JSON). The window's comparison exports
 * build their rows with them, so that a file of theirs reads as compare's
 * --format csv cell by cell. A header of its own: the writer's `table`
 * namespace stays out of the many files that include comparison.h.
 */
#pragma once

#include "core/common/table_writer.h"
#include "core/experiments/comparison.h"

#include <string>

namespace idlescope {

struct Machine;
struct ClosedLoopRun;

namespace experiments {

/// @p value in a column of @p kind, as compare's tables print it (formatCompareCell()).
table::Cell compareTableCell(CompareColumn::Kind kind, double value);

} // namespace experiments

/// @p run's cell in compare --closed-loop's column @p column (closedLoopCell()); blank for an
/// unknown column.
table::Cell closedLoopTableCell(const Machine &machine, const ClosedLoopRun &run, const std::string &column);

} // namespace idlescope
