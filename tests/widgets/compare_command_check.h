// SPDX-License-Identifier: GPL-3.0-or-later
// "Copy as command" checked against the window: the copied idlescope-cli compare
// line, run as a process, counts what the comparison table shows, cell by cell
// (tst_copy_command, tst_governor_instances).
#pragma once

#include "../cli_process.h"
#include "core/states/idle_state_table.h"
#include "widgets/comparison/comparison_table_model.h"
#include "widgets/comparison/comparison_view.h"
#include "widgets/main_window.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

namespace idlescope::test {

/// Runs @p copied as a user would paste it and checks every governor row of @p w's
/// comparison table, cell by cell, against the CLI's run of @p spans spans: @p governors
/// governor rows (each matched by its name: a variant id or an instance's label) and the oracle's.
inline void checkTableAgainstCommand(MainWindow &w, const IdleStateTable &table, const QString &copied, qint64 spans,
                                     int governors = 2)
{
    // No quoting needed: no spaces in the command.
    QStringList args = QProcess::splitCommand(copied);
    QCOMPARE(args.takeFirst(), QStringLiteral("idlescope-cli"));
    args << QStringLiteral("--format") << QStringLiteral("json");
    const test::CliResult r = test::runCli(args);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject root = QJsonDocument::fromJson(r.out.toUtf8()).object();
    const QJsonArray govs =
        root.value(QStringLiteral("points")).toArray().at(0).toObject().value(QStringLiteral("governors")).toArray();
    QCOMPARE(govs.size(), governors); // the oracle is every row's oracle_* columns

    const ComparisonTableModel *m = w.comparison()->model();
    QCOMPARE(m->rowCount(), governors + 1);
    int checked = 0;
    for (int row = 0; row < m->rowCount(); ++row) {
        const QString gov = m->data(m->index(row, ComparisonTableModel::GovColumn), Qt::EditRole).toString();
        auto value = [&](int column) { return m->data(m->index(row, column), Qt::EditRole).toLongLong(); };
        QJsonObject cli;
        for (const QJsonValue &g : govs)
            if (g.toObject().value(QStringLiteral("governor")).toString() == gov)
                cli = g.toObject().value(QStringLiteral("runs")).toArray().at(0).toObject();
        if (gov == QLatin1String("oracle")) {
            // The CLI's oracle columns are the same oracle on the same spans.
            const QJsonObject any = govs.at(0).toObject().value(QStringLiteral("runs")).toArray().at(0).toObject();
            QCOMPARE(value(ComparisonTableModel::AbovesColumn), any.value(QStringLiteral("oracle_above")).toInteger());
            QCOMPARE(value(ComparisonTableModel::BelowsColumn), any.value(QStringLiteral("oracle_below")).toInteger());
            ++checked;
            continue;
        }
        QVERIFY2(!cli.isEmpty(), qPrintable(gov));
        QCOMPARE(value(ComparisonTableModel::IdlesColumn), cli.value(QStringLiteral("entries")).toInteger());
        QCOMPARE(value(ComparisonTableModel::AbovesColumn), cli.value(QStringLiteral("above")).toInteger());
        QCOMPARE(value(ComparisonTableModel::BelowsColumn), cli.value(QStringLiteral("below")).toInteger());
        QCOMPARE(value(ComparisonTableModel::IdleMissesColumn), cli.value(QStringLiteral("idle_misses")).toInteger());
        for (int st = 0; st < table.count(); ++st)
            QCOMPARE(value(ComparisonTableModel::FirstStateColumn + st),
                     cli.value(QStringLiteral("usage_") + QString::fromStdString(table[st].name)).toInteger());
        // A real comparison, not zeros against zeros: these workloads miss sometimes.
        QCOMPARE(cli.value(QStringLiteral("spans")).toInteger(), spans);
        QVERIFY(cli.value(QStringLiteral("idle_misses")).toInteger() > 0);
        ++checked;
    }
    QCOMPARE(checked, governors + 1);
}

} // namespace idlescope::test
