// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file comparison_export.h
 * The comparison table as files, through core's table writer (table_writer.h):
 * the rows and columns the window shows become one table::Table of
 * idlescope-cli compare's cells (comparisonCell()), which
 * core writes as markdown, CSV or JSON, the one way the CLI's compare writes
 * them; the window keeps no writer of its own. Above the table go the lines
 * that say what it was computed from (scenario_context.h) and why a cell has
 * no value: "- line" items in markdown, "# line" comments in CSV, "context" in
 * JSON. PDF and SVG draw the same table as a figure (table_figure.h).
 */
#pragma once

#include "core/common/table_writer.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace idlescope {

class ComparisonTableModel;

/// Which rows (model rows, in the order to write them) and columns (model columns, in order).
struct ComparisonSelection {
    std::vector<int> rows;
    std::vector<int> columns;
};

/// Cell (@p row, @p column) of @p model as the exports write it: idlescope-cli compare's cell of
/// the same number (compare_cells.h: "0.1234" where the screen says "0.123", latency_cost_us
/// "36.000" where it says "36 \u00b5s"), the governor's plain name (no badge), or
/// table::noValue() of the screen's words when NoValueReasonRole says why there is none.
table::Cell comparisonCell(const ComparisonTableModel &model, int row, int column);

/// Every row in the model's order and every column that applies (columnApplies()).
ComparisonSelection wholeComparison(const ComparisonTableModel &model);

/// The selected cells as core's table: compare's column names (the headers' EditRole), the
/// governor left-aligned, every number right-aligned.
table::Table comparisonTable(const ComparisonTableModel &model, const ComparisonSelection &selection);

/// One line per column and reason of the selected cells that have no value (NoValueReasonRole):
/// "idle_energy_J empty (menu-6.14, teo-6.14): no power data …".
QStringList noValueNotes(const ComparisonTableModel &model, const ComparisonSelection &selection);

/// The table after @p context: "- line" items and a blank line, then core's markdown.
QString comparisonMarkdown(const table::Table &t, const QStringList &context);
/// "# line" comments (pandas' comment='#', R's comment.char), then core's CSV.
QString comparisonCsv(const table::Table &t, const QStringList &context);
/// The rows as an array of core's JSON objects; with a context, {"context": [lines], "rows": [...]}.
QString comparisonJson(const table::Table &t, const QStringList &context);

} // namespace idlescope
