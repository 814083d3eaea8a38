// SPDX-License-Identifier: GPL-3.0-or-later
// "Copy as command" checked against the window: the copied idlescope-cli compare
// line, read by the function the CLI reads its options with and compared by the
// function the CLI compares with (core/scenario), counts what the comparison
// table shows, cell by cell (tst_copy_command, tst_governor_instances). In
// process: the window and the CLI agree by construction, and this checks that
// the line the window writes says what the window shows.
#pragma once

#include "core/scenario/scenario_command.h"
#include "core/scenario/scenario_comparison.h"
#include "core/states/idle_state_table.h"
#include "widgets/comparison/comparison_table_model.h"
#include "widgets/comparison/comparison_view.h"
#include "widgets/main_window.h"

#include <QProcess>
#include <QTest>

namespace idlescope::test {

/// The comparison @p copied runs on @p table (the window's: --table names where it came from),
/// as `idlescope-cli compare` reads and runs it; fails the calling test when it cannot.
inline std::optional<experiments::CompareResult> comparisonOfCommand(const QString &copied, const IdleStateTable &table)
{
    QStringList args = QProcess::splitCommand(copied);
    if (args.size() < 2 || args.takeFirst() != QStringLiteral("idlescope-cli")
        || args.takeFirst() != QStringLiteral("compare") || args.size() % 2 != 0)
        return std::nullopt;
    std::vector<scenario::CommandOption> options;
    int iterations = 3;
    for (qsizetype i = 0; i + 1 < args.size(); i += 2) {
        if (!args[i].startsWith(QStringLiteral("--")))
            return std::nullopt; // every option the window writes takes a value
        if (args[i] == QStringLiteral("--iterations"))
            iterations = args[i + 1].toInt();
        options.emplace_back(args[i].mid(2).toStdString(), args[i + 1].toStdString());
    }
    Result<scenario::Scenario> s = scenario::scenarioFromOptions(options);
    if (!s)
        return std::nullopt;
    s->table = table;
    Result<experiments::CompareOptions> o = scenario::oneCpuComparison(*s);
    if (!o)
        return std::nullopt;
    o->iterations = iterations;
    Result<experiments::CompareResult> r = experiments::runComparison(*o);
    return r ? std::optional(std::move(*r)) : std::nullopt;
}

/// Checks every governor row of @p w's comparison table, cell by cell, against the comparison
/// of @p copied with @p spans spans: @p governors governor rows (each matched by its name: a
/// variant id or an instance's label) and the oracle's.
inline void checkTableAgainstCommand(MainWindow &w, const IdleStateTable &table, const QString &copied, qint64 spans,
                                     int governors = 2)
{
    const std::optional<experiments::CompareResult> r = comparisonOfCommand(copied, table);
    QVERIFY2(r, qPrintable(copied));
    QCOMPARE(r->iterations, 1);                                 // the window's table is one stream
    QCOMPARE(static_cast<int>(r->governors.size()), governors); // the oracle is every row's oracle_* columns

    const ComparisonTableModel *m = w.comparison()->model();
    QCOMPARE(m->rowCount(), governors + 1);
    int checked = 0;
    for (int row = 0; row < m->rowCount(); ++row) {
        const QString gov = m->data(m->index(row, ComparisonTableModel::GovColumn), Qt::EditRole).toString();
        auto value = [&](int column) { return m->data(m->index(row, column), Qt::EditRole).toLongLong(); };
        if (gov == QLatin1String("oracle")) {
            // The command's oracle columns are the same oracle on the same spans.
            QCOMPARE(value(ComparisonTableModel::AbovesColumn), r->at(0, 0, 0).oracleAbove);
            QCOMPARE(value(ComparisonTableModel::BelowsColumn), r->at(0, 0, 0).oracleBelow);
            ++checked;
            continue;
        }
        const auto g = std::find(r->governors.begin(), r->governors.end(), gov.toStdString());
        QVERIFY2(g != r->governors.end(), qPrintable(gov));
        const experiments::RunMetrics &cli = r->at(0, static_cast<int>(g - r->governors.begin()), 0);
        QCOMPARE(value(ComparisonTableModel::IdlesColumn), cli.entries);
        QCOMPARE(value(ComparisonTableModel::AbovesColumn), cli.above);
        QCOMPARE(value(ComparisonTableModel::BelowsColumn), cli.below);
        QCOMPARE(value(ComparisonTableModel::IdleMissesColumn), cli.above + cli.below);
        for (int st = 0; st < table.count(); ++st)
            QCOMPARE(value(ComparisonTableModel::FirstStateColumn + st), cli.usage[static_cast<std::size_t>(st)]);
        // A real comparison, not zeros against zeros: these workloads miss sometimes.
        QCOMPARE(cli.spans, spans);
        QVERIFY(cli.above + cli.below > 0);
        ++checked;
    }
    QCOMPARE(checked, governors + 1);
}

} // namespace idlescope::test
