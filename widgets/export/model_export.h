// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file model_export.h
 * Any table model as text: CSV (RFC 4180 quoting, machine values from
 * Qt::EditRole when a cell has one, else its display text) and a GitHub
 * Markdown table (display text, numbers right-aligned), the two forms users
 * paste into mailing-list replies and issues. Headers come from
 * headerData(Horizontal, DisplayRole) for Markdown and from
 * headerData(Horizontal, Qt::EditRole) (falling back to DisplayRole) for CSV.
 */
#pragma once

#include <QString>

class QAbstractItemModel;

namespace idlescope {

/// CSV text of @p model (top-level rows), "\n" line ends, trailing newline.
QString modelToCsv(const QAbstractItemModel &model);

/// Markdown table of @p model (top-level rows), trailing newline.
QString modelToMarkdown(const QAbstractItemModel &model);

/// One CSV field, quoted when it holds a comma, quote or line break.
QString csvField(const QString &text);

/// The model as a JSON array of row objects keyed by the CSV column names
/// (headers' EditRole); numeric cells are JSON numbers, the rest strings.
QString modelToJson(const QAbstractItemModel &model);

} // namespace idlescope
