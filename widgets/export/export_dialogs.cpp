// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/export/export_dialogs.h"

#include "widgets/export/data_export.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QRegularExpression>

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

/// "csv" of "CSV (*.csv)".
QString filterSuffix(const QString &filter)
{
    const qsizetype star = filter.indexOf(QLatin1String("*."));
    if (star < 0)
        return {};
    const qsizetype end = filter.indexOf(QRegularExpression(QStringLiteral("[ );]")), star);
    return filter.mid(star + 2, end < 0 ? -1 : end - star - 2);
}

} // namespace

QString askSavePath(QWidget *parent, const QString &title, const QString &suggested, const QStringList &filters)
{
    QFileDialog dialog(parent, title);
    dialog.setObjectName(QStringLiteral("exportSaveDialog"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setFileMode(QFileDialog::AnyFile);
    dialog.setNameFilters(filters);
    // The dialog adds the suffix before it asks about overwriting: the file asked about is
    // the file written.
    dialog.setDefaultSuffix(filterSuffix(filters.value(0)));
    QObject::connect(&dialog, &QFileDialog::filterSelected, &dialog,
                     [&dialog](const QString &f) { dialog.setDefaultSuffix(filterSuffix(f)); });
    dialog.selectFile(suggested);
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    return dialog.selectedFiles().constFirst();
}

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
