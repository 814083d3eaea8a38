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

#include <QSortFilterProxyModel>
#include <QString>
#include <QStringList>

#include <vector>

namespace idlescope {

/// The role of a cell that has no value (energy without power data, a recorded run's
/// throughput): its reason, in words. CSV writes such a cell empty and JSON null, never the
/// "—" or "no power data" shown on screen in a numeric column; emptyCellNotes() says why.
inline constexpr int NoValueReasonRole = Qt::UserRole + 40;

/// One line per column and reason of the cells that have none (NoValueReasonRole), for
/// above an export: "idle_energy_J empty (menu-6.14, teo-6.14): no power data …", the
/// rows named by column 0's machine text.
QStringList emptyCellNotes(const QAbstractItemModel &model);

/// CSV text of @p model (top-level rows), "\n" line ends, trailing newline.
QString modelToCsv(const QAbstractItemModel &model);

/// Markdown table of @p model (top-level rows), trailing newline; the headers of @p headerRole
/// (Qt::EditRole: the CSV names, as the comparison table writes compare's names everywhere).
QString modelToMarkdown(const QAbstractItemModel &model, int headerRole = Qt::DisplayRole);

/// One CSV field, quoted when it holds a comma, quote or line break.
QString csvField(const QString &text);

/// The model as a JSON array of row objects keyed by the CSV column names
/// (headers' EditRole); numeric cells are JSON numbers, the rest strings.
QString modelToJson(const QAbstractItemModel &model);

/// Some columns of a model for the exports above: the rows of @p rows (in its order), only
/// @p columns (its column numbers, ascending), with the header texts of @p headers (the
/// model under a sorting proxy: its EditRole keys). Never sorted or filtered itself.
class ColumnSubsetModel : public QSortFilterProxyModel {
public:
    ColumnSubsetModel(QAbstractItemModel &rows, const QAbstractItemModel &headers, std::vector<int> columns);
    /// Mapped by hand: a table without rows has no index to map a header through.
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

protected:
    bool filterAcceptsColumn(int column, const QModelIndex &parent) const override;

private:
    const QAbstractItemModel &m_headers;
    std::vector<int> m_columns;
};

} // namespace idlescope
