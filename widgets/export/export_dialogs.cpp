// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/export/export_dialogs.h"

#include "widgets/export/data_export.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace idlescope {

namespace {

/// The path with a suffix: the typed one, else the selected filter's.
QString withSuffix(QString path, const QString &filter)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv") || suffix == QLatin1String("json"))
        return path;
    return path + (filter.contains(QLatin1String("*.json")) ? QStringLiteral(".json") : QStringLiteral(".csv"));
}

void report(const Status &st, QWidget *parent)
{
    if (!st.ok())
        QMessageBox::warning(parent, QObject::tr("Export failed"), QString::fromStdString(st.error().toString()));
}

} // namespace

void exportRunWithDialog(const SnapshotPtr &snap, int governorIndex, QWidget *parent)
{
    if (!snap || governorIndex < 0 || governorIndex >= snap->governorCount() || !snap->stream)
        return;
    QString filter;
    const QString suggested = snap->name(governorIndex) + QStringLiteral("-entries.csv");
    QString path =
        QFileDialog::getSaveFileName(parent, QObject::tr("Export entries of %1").arg(snap->name(governorIndex)),
                                     suggested, QObject::tr("CSV (*.csv);;JSON (*.json)"), &filter);
    if (path.isEmpty())
        return;
    path = withSuffix(path, filter);
    report(exportEntries(*snap, governorIndex, path), parent);
}

void exportSummariesWithDialog(const SnapshotPtr &snap, QWidget *parent)
{
    if (!snap)
        return;
    QString filter;
    QString path =
        QFileDialog::getSaveFileName(parent, QObject::tr("Export summaries"), QStringLiteral("summaries.json"),
                                     QObject::tr("JSON (*.json);;CSV (*.csv)"), &filter);
    if (path.isEmpty())
        return;
    path = withSuffix(path, filter);
    report(path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) ? exportSummariesJson(*snap, path)
                                                                      : exportSummariesCsv(snap, path),
           parent);
}

} // namespace idlescope
