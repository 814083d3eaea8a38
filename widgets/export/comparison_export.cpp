// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/export/comparison_export.h"

#include "core/common/text_cells.h"
#include "core/experiments/compare_cells.h"
#include "widgets/comparison/comparison_table_model.h"

namespace idlescope {

table::Cell comparisonCell(const ComparisonTableModel &model, int row, int column)
{
    using Col = ComparisonTableModel::Column;
    const QModelIndex index = model.index(row, column);
    const auto words = [&] { return table::noValue(index.data(Qt::DisplayRole).toString().toStdString()); };
    if (index.data(NoValueReasonRole).isValid())
        return words();
    using K = experiments::CompareColumn::Kind;
    const GovernorTotals &t = model.totals(row);
    const GovernorResult &g = model.snapshot()->governors[static_cast<std::size_t>(row)];
    switch (column) {
    case Col::GovColumn: return table::text(g.displayName());
    case Col::IdleMissRatioColumn: return experiments::compareTableCell(K::Ratio, t.idleMissRatio);
    case Col::AbovePercentColumn: return experiments::compareTableCell(K::Percent, t.abovePercent);
    case Col::BelowPercentColumn: return experiments::compareTableCell(K::Percent, t.belowPercent);
    case Col::LatencyCostColumn:
        return experiments::compareTableCell(K::Micros, static_cast<double>(t.latencyCostNs) / 1e3);
    case Col::ThroughputColumn:
        return experiments::compareTableCell(K::Micros, model.throughput(row)->wakeupsPerSecond);
    case Col::EnergyColumn: return experiments::compareTableCell(K::Joules, model.throughput(row)->idleEnergyJ);
    case Col::OpsColumn:
    case Col::AddedMeanColumn:
    case Col::AddedP99Column:
    case Col::LoopEnergyColumn:
    case Col::LoopEnergyPerOpColumn:
        if (!g.closedLoop || !model.snapshot()->closedLoopMachine)
            return words();
        // compare --closed-loop's own cell, in the column the header names.
        return closedLoopTableCell(*model.snapshot()->closedLoopMachine, *g.closedLoop,
                                   model.headerData(column, Qt::Horizontal, Qt::EditRole).toString().toStdString());
    default: return table::integer(index.data(Qt::EditRole).toLongLong());
    }
}

ComparisonSelection wholeComparison(const ComparisonTableModel &model)
{
    ComparisonSelection s;
    for (int r = 0; r < model.rowCount(); ++r)
        s.rows.push_back(r);
    // An open-loop run has no operations per second to write: only the columns that apply.
    for (int c = 0; c < model.columnCount(); ++c)
        if (model.columnApplies(c))
            s.columns.push_back(c);
    return s;
}

table::Table comparisonTable(const ComparisonTableModel &model, const ComparisonSelection &selection)
{
    table::Table t;
    for (int c : selection.columns)
        t.columns.push_back({model.headerData(c, Qt::Horizontal, Qt::EditRole).toString().toStdString(),
                             c == ComparisonTableModel::GovColumn ? table::Align::Left : table::Align::Right});
    for (int r : selection.rows) {
        std::vector<table::Cell> row;
        for (int c : selection.columns)
            row.push_back(comparisonCell(model, r, c));
        t.rows.push_back(std::move(row));
    }
    return t;
}

QStringList noValueNotes(const ComparisonTableModel &model, const ComparisonSelection &selection)
{
    QStringList notes;
    for (int c : selection.columns) {
        // Each reason once, with the rows it stands for (a table without power data has one
        // reason for every row of its energy column).
        QStringList reasons;
        QList<QStringList> rows;
        for (int r : selection.rows) {
            const QVariant why = model.data(model.index(r, c), NoValueReasonRole);
            if (!why.isValid())
                continue;
            qsizetype i = reasons.indexOf(why.toString());
            if (i < 0) {
                reasons << why.toString();
                rows.append(QStringList());
                i = reasons.size() - 1;
            }
            rows[i] << QString::fromStdString(comparisonCell(model, r, ComparisonTableModel::GovColumn).text);
        }
        const QString name = model.headerData(c, Qt::Horizontal, Qt::EditRole).toString();
        for (qsizetype i = 0; i < reasons.size(); ++i)
            notes << QStringLiteral("%1 empty (%2): %3").arg(name, rows[i].join(QStringLiteral(", ")), reasons[i]);
    }
    return notes;
}

namespace {

/// @p context as lines of a file's head, each on one line behind @p prefix ("- " a markdown
/// list item, "# " a CSV comment).
QString contextHead(const QStringList &context, const QString &prefix)
{
    QString head;
    for (const QString &line : context)
        head += prefix + QString(line).replace(QLatin1Char('\n'), QLatin1Char(' ')) + QLatin1Char('\n');
    return head;
}

} // namespace

QString comparisonMarkdown(const table::Table &t, const QStringList &context)
{
    const QString head = contextHead(context, QStringLiteral("- "));
    return (head.isEmpty() ? head : head + QLatin1Char('\n')) + QString::fromStdString(table::markdown(t));
}

QString comparisonCsv(const table::Table &t, const QStringList &context)
{
    return contextHead(context, QStringLiteral("# ")) + QString::fromStdString(table::csv(t));
}

QString comparisonJson(const table::Table &t, const QStringList &context)
{
    const bool wrapped = !context.isEmpty();
    const std::string indent = wrapped ? "    " : "  ";
    std::string rows = "[";
    if (!t.rows.empty())
        rows += "\n" + table::jsonObjects(t, ",\n", indent) + "\n" + (wrapped ? "  " : "");
    rows += "]";
    if (!wrapped)
        return QString::fromStdString(rows + "\n");
    std::string lines;
    for (qsizetype i = 0; i < context.size(); ++i)
        lines += (i ? ",\n    " : "\n    ") + jsonString(context[i].toStdString());
    return QString::fromStdString("{\n  \"context\": [" + lines + "\n  ],\n  \"rows\": " + rows + "\n}\n");
}

} // namespace idlescope
