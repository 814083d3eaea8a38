// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/export/model_export.h"

#include <QAbstractItemModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <algorithm>

namespace idlescope {

namespace {

QString headerText(const QAbstractItemModel &m, int column, int role)
{
    const QVariant v = m.headerData(column, Qt::Horizontal, role);
    return v.isValid() ? v.toString() : m.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
}

QString machineText(const QAbstractItemModel &m, int row, int column)
{
    const QModelIndex idx = m.index(row, column);
    if (m.data(idx, NoValueReasonRole).isValid())
        return {};
    const QVariant edit = m.data(idx, Qt::EditRole);
    const QVariant v = edit.isValid() ? edit : m.data(idx, Qt::DisplayRole);
    if (v.typeId() == QMetaType::Double)
        return QString::number(v.toDouble(), 'g', 12);
    return v.toString();
}

bool isRightAligned(const QAbstractItemModel &m, int column)
{
    if (m.rowCount() == 0)
        return false;
    const QVariant a = m.data(m.index(0, column), Qt::TextAlignmentRole);
    return a.isValid() && (a.toInt() & Qt::AlignRight);
}

QString markdownCell(QString text)
{
    return text.replace(QLatin1Char('|'), QLatin1String("\\|")).replace(QLatin1Char('\n'), QLatin1Char(' '));
}

} // namespace

QString csvField(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n'))
        && !text.contains(QLatin1Char('\r')))
        return text;
    QString q = text;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

QStringList emptyCellNotes(const QAbstractItemModel &model)
{
    QStringList notes;
    for (int c = 0; c < model.columnCount(); ++c) {
        QStringList reasons;
        QList<QStringList> rows;
        for (int r = 0; r < model.rowCount(); ++r) {
            const QVariant why = model.data(model.index(r, c), NoValueReasonRole);
            if (!why.isValid())
                continue;
            qsizetype i = reasons.indexOf(why.toString());
            if (i < 0) {
                reasons << why.toString();
                rows.append(QStringList());
                i = reasons.size() - 1;
            }
            rows[i] << machineText(model, r, 0);
        }
        for (qsizetype i = 0; i < reasons.size(); ++i)
            notes << QStringLiteral("%1 empty (%2): %3")
                         .arg(headerText(model, c, Qt::EditRole), rows[i].join(QStringLiteral(", ")), reasons[i]);
    }
    return notes;
}

QString modelToCsv(const QAbstractItemModel &model)
{
    QString out;
    QStringList fields;
    for (int c = 0; c < model.columnCount(); ++c)
        fields << csvField(headerText(model, c, Qt::EditRole));
    out += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (int r = 0; r < model.rowCount(); ++r) {
        fields.clear();
        for (int c = 0; c < model.columnCount(); ++c)
            fields << csvField(machineText(model, r, c));
        out += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

QString modelToMarkdown(const QAbstractItemModel &model, int headerRole)
{
    QStringList head, rule;
    for (int c = 0; c < model.columnCount(); ++c) {
        head << markdownCell(headerText(model, c, headerRole));
        rule << (isRightAligned(model, c) ? QStringLiteral("---:") : QStringLiteral("---"));
    }
    QString out = QLatin1String("| ") + head.join(QLatin1String(" | ")) + QLatin1String(" |\n");
    out += QLatin1String("| ") + rule.join(QLatin1String(" | ")) + QLatin1String(" |\n");
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < model.columnCount(); ++c)
            cells << markdownCell(model.data(model.index(r, c), Qt::DisplayRole).toString());
        out += QLatin1String("| ") + cells.join(QLatin1String(" | ")) + QLatin1String(" |\n");
    }
    return out;
}

QString modelToJson(const QAbstractItemModel &model)
{
    QJsonArray rows;
    for (int r = 0; r < model.rowCount(); ++r) {
        QJsonObject row;
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex idx = model.index(r, c);
            const QVariant edit = model.data(idx, Qt::EditRole);
            const QVariant v = edit.isValid() ? edit : model.data(idx, Qt::DisplayRole);
            const QString key = headerText(model, c, Qt::EditRole);
            if (model.data(idx, NoValueReasonRole).isValid()) {
                row.insert(key, QJsonValue::Null);
                continue;
            }
            switch (v.typeId()) {
            case QMetaType::Int:
            case QMetaType::UInt:
            case QMetaType::LongLong:
            case QMetaType::ULongLong: row.insert(key, v.toLongLong()); break;
            case QMetaType::Double: row.insert(key, v.toDouble()); break;
            default: row.insert(key, v.toString());
            }
        }
        rows.append(row);
    }
    return QString::fromUtf8(QJsonDocument(rows).toJson(QJsonDocument::Indented));
}

ColumnSubsetModel::ColumnSubsetModel(QAbstractItemModel &rows, const QAbstractItemModel &headers,
                                     std::vector<int> columns)
    : m_headers(headers), m_columns(std::move(columns))
{
    setSourceModel(&rows);
}

QVariant ColumnSubsetModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && section >= 0 && static_cast<std::size_t>(section) < m_columns.size())
        section = m_columns[static_cast<std::size_t>(section)];
    return m_headers.headerData(section, orientation, role);
}

bool ColumnSubsetModel::filterAcceptsColumn(int column, const QModelIndex &) const
{
    return std::find(m_columns.begin(), m_columns.end(), column) != m_columns.end();
}

} // namespace idlescope
