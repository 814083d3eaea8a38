// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file cli_process.h
 * Runs idlescope-cli (the one built with the tests, IDLESCOPE_CLI) as a
 * child process for the CLI tests: exit code, standard output and standard
 * error. A run that did not finish normally (a crash, or still running after
 * 5 minutes) has exit code -1 and says so in `err`, so that it can never pass
 * for a success or for a clean refusal.
 */
#pragma once

#include <QMap>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <functional>

namespace idlescope::test {

struct CliResult {
    int exitCode = -1;
    QString out;
    QString err;
};

/// @p inChild, when given, runs in the child before idlescope-cli starts (e.g. a resource limit).
inline CliResult runCli(const QStringList &args, const std::function<void()> &inChild = {})
{
    QProcess p;
    if (inChild)
        p.setChildProcessModifier(inChild);
    p.start(QStringLiteral(IDLESCOPE_CLI), args);
    const bool finished = p.waitForFinished(300000);
    CliResult r{p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    if (!finished || p.exitStatus() != QProcess::NormalExit) {
        p.kill();
        r.exitCode = -1;
        r.err += QStringLiteral("\n[idlescope-cli did not finish normally: %1]").arg(p.errorString());
    }
    return r;
}

/// One row of a `--format csv` table: column name -> cell.
using CsvRow = QMap<QString, QString>;

/// The rows of the CSV table @p text, keyed by their first @p keyColumns cells joined with '|'
/// (a later row with the same key replaces the earlier one). A row shorter than the header has
/// only its cells; with @p wholeRowsOnly, a row of another length than the header is left out.
inline QMap<QString, CsvRow> csvRowsBy(const QString &text, int keyColumns, bool wholeRowsOnly = false)
{
    QMap<QString, CsvRow> rows;
    const QStringList lines = text.split(u'\n', Qt::SkipEmptyParts);
    if (lines.isEmpty())
        return rows;
    const QStringList header = lines.first().split(u',');
    for (qsizetype l = 1; l < lines.size(); ++l) {
        const QStringList cells = lines[l].split(u',');
        if (wholeRowsOnly && cells.size() != header.size())
            continue;
        CsvRow row;
        for (qsizetype c = 0; c < header.size() && c < cells.size(); ++c)
            row.insert(header[c], cells[c]);
        QStringList key;
        for (int k = 0; k < keyColumns; ++k)
            key << cells.value(k);
        rows.insert(key.join(u'|'), row);
    }
    return rows;
}

/// The cells of @p row that are not the ones @p expected gives, a line each ("column: 'cell',
/// expected 'value'", "<none>" for a column the row lacks); empty when all are. @p expected is
/// "column=value" words apart by spaces, a row as a reader would write it: one comparison of
/// a row says every cell that differs, not just the first.
inline QString differingCells(const CsvRow &row, const QString &expected)
{
    QString out;
    for (const QString &cell : expected.split(u' ', Qt::SkipEmptyParts)) {
        const QString column = cell.section(u'=', 0, 0), value = cell.section(u'=', 1);
        const QString got = row.value(column, QStringLiteral("<none>"));
        if (got != value)
            out +=
                column + QStringLiteral(": '") + got + QStringLiteral("', expected '") + value + QStringLiteral("'\n");
    }
    return out;
}

/// csvRowsBy() of the table `idlescope-cli ARGS` prints, for a helper whose caller compares
/// the rows: none, with the CLI's error as a warning, when the command fails.
inline QMap<QString, CsvRow> cliCsvRows(const QStringList &args, int keyColumns, bool wholeRowsOnly = false)
{
    const CliResult r = runCli(args);
    if (r.exitCode != 0) {
        qWarning("idlescope-cli: %s", qPrintable(r.err));
        return {};
    }
    return csvRowsBy(r.out, keyColumns, wholeRowsOnly);
}

/// @p r is idlescope-cli refusing bad input: exit code 2, @p words on stderr.
inline bool refusedSaying(const CliResult &r, const QString &words)
{
    return r.exitCode == 2 && r.err.contains(words);
}

} // namespace idlescope::test
