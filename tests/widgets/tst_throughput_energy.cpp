// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison table's throughput and energy columns (issue 13): core's numbers
// (core/stats/run_throughput.h), the same cells as `idlescope-cli compare --throughput`
// on the same stream and table, "no power data" for a table without power data; and the
// misses / throughput / energy view, governors side by side, read from that table.
#include "tests/cli_process.h"
#include "tests/test_paths.h"
#include "tests/widgets/runner_fixture.h"
#include "widgets/comparison/comparison_table_model.h"
#include "widgets/comparison/tradeoff_view.h"
#include "widgets/runner/simulation_runner.h"

#include <QColor>
#include <QMap>
#include <QTest>

#include <cmath>

using namespace idlescope;

class TestThroughputEnergy : public QObject {
    Q_OBJECT
private slots:
    void cellsAreTheCliCells_data();
    void cellsAreTheCliCells();
    void tradeoffViewShowsTheTableValues();
};

namespace {

using Col = ComparisonTableModel::Column;

// pipe-wakeups.csv: 4000 pipe wakeups, each the reply a task waits for (the round trip of a
// pipe ping-pong as the conformance kit recorded it).
QString stream()
{
    return test::kitDir() + QStringLiteral("/streams/pipe-wakeups.csv");
}

const char *const GOVERNORS[] = {"menu-6.14", "teo-6.14", "oracle"};

SnapshotPtr simulate(const QString &tablePath)
{
    ScenarioSpec spec;
    spec.target = test::fileTarget(tablePath);
    spec.workload.kind = WorkloadKind::Csv;
    spec.workload.path = stream().toStdString();
    for (const char *g : GOVERNORS)
        spec.governors.push_back({g, {}, QColor(Qt::red)});
    return test::simulateOnce(spec);
}

/// `compare --format csv` rows by governor: column name -> cell (iteration rows only).
QMap<QString, QMap<QString, QString>> cliRows(const QString &tablePath)
{
    const QMap<QString, test::CsvRow> all =
        test::cliCsvRows({QStringLiteral("compare"), QStringLiteral("--table"), tablePath, QStringLiteral("--workload"),
                          QStringLiteral("csv:") + stream(), QStringLiteral("--governors"),
                          QStringLiteral("menu-6.14,teo-6.14,oracle"), QStringLiteral("--iterations"),
                          QStringLiteral("1"), QStringLiteral("--throughput"), QStringLiteral("--format"),
                          QStringLiteral("csv")},
                         3, true); // keyed by point|governor|iteration, the first three columns
    QMap<QString, QMap<QString, QString>> rows;
    // Only iteration 1's rows.
    for (const test::CsvRow &row : all)
        if (row.value(QStringLiteral("iteration")) == QStringLiteral("1"))
            rows.insert(row.value(QStringLiteral("governor")), row);
    return rows;
}

} // namespace

void TestThroughputEnergy::cellsAreTheCliCells_data()
{
    QTest::addColumn<QString>("table");
    QTest::addColumn<bool>("powered");
    QTest::newRow("power data") << test::powerTablePath() << true;
    // The kit's table: no power field.
    QTest::newRow("no power data") << test::kitDir() + QStringLiteral("/tables/pseries-p10.json") << false;
}

void TestThroughputEnergy::cellsAreTheCliCells()
{
    QFETCH(QString, table);
    QFETCH(bool, powered);
    const SnapshotPtr snap = simulate(table);
    QVERIFY(snap);
    QCOMPARE(snap->governorCount(), 3);
    QVERIFY2(snap->errors.isEmpty(), qPrintable(snap->errors.join(QLatin1Char('\n'))));
    const auto cli = cliRows(table);
    QCOMPARE(cli.size(), 3);
    ComparisonTableModel model;
    model.setSnapshot(snap);
    QCOMPARE(model.headerData(Col::ThroughputColumn, Qt::Horizontal, Qt::EditRole).toString(),
             QStringLiteral("wakeups_per_s"));
    QCOMPARE(model.headerData(Col::EnergyColumn, Qt::Horizontal, Qt::EditRole).toString(),
             QStringLiteral("idle_energy_J"));
    for (int row = 0; row < 3; ++row) {
        const QString gov = QString::fromUtf8(GOVERNORS[row]);
        QCOMPARE(model.index(row, Col::GovColumn).data(Qt::EditRole).toString(), gov);
        const QString throughput = model.index(row, Col::ThroughputColumn).data().toString();
        const QString energy = model.index(row, Col::EnergyColumn).data().toString();
        QCOMPARE(throughput, cli[gov].value(QStringLiteral("wakeups_per_s")));
        // A real rate: the pipe's wakeups are almost every span's end (4000 spans in 2.26 s).
        QVERIFY2(throughput.toDouble() > 1000.0, qPrintable(throughput));
        if (powered) {
            QCOMPARE(energy, cli[gov].value(QStringLiteral("idle_energy_J")));
            QVERIFY2(energy.toDouble() > 0.0, qPrintable(energy));
        } else {
            // As the CLI says it (it prints no energy column at all without power data).
            QVERIFY(!cli[gov].contains(QStringLiteral("idle_energy_J")));
            QCOMPARE(energy, QStringLiteral("no power data"));
        }
    }
}

void TestThroughputEnergy::tradeoffViewShowsTheTableValues()
{
    // The view draws what the table holds, one bar per governor in each of its three panels.
    const SnapshotPtr snap = simulate(test::powerTablePath());
    QVERIFY(snap);
    ComparisonTableModel model;
    model.setSnapshot(snap);
    TradeoffView view(&model);
    view.resize(700, 240);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.refreshNow();
    QCOMPARE(view.barCount(), 3);
    for (int g = 0; g < 3; ++g) {
        QCOMPARE(view.barValue(TradeoffView::Misses, g),
                 model.index(g, Col::IdleMissesColumn).data(Qt::EditRole).toDouble());
        QCOMPARE(view.barValue(TradeoffView::Throughput, g),
                 model.index(g, Col::ThroughputColumn).data(Qt::EditRole).toDouble());
        QCOMPARE(view.barValue(TradeoffView::Energy, g),
                 model.index(g, Col::EnergyColumn).data(Qt::EditRole).toDouble());
    }
    // Without power data the energy panel says so instead of drawing zeros.
    model.setSnapshot(simulate(test::kitDir() + QStringLiteral("/tables/pseries-p10.json")));
    view.refreshNow();
    QVERIFY(std::isnan(view.barValue(TradeoffView::Energy, 0)));
    QCOMPARE(view.barValue(TradeoffView::Throughput, 0),
             model.index(0, Col::ThroughputColumn).data(Qt::EditRole).toDouble());
    // A fresh user's finding: "no power data" said nothing of what was missing or how to give it.
    const QString note = view.energyNote();
    QVERIFY2(note.startsWith(QStringLiteral("no power data for table ")), qPrintable(note));
    QVERIFY2(note.contains(QStringLiteral("power_mw of each state, in a table JSON file")), qPrintable(note));
    QVERIFY2(note.contains(QStringLiteral("Setup \u203a Target \u203a Table file")), qPrintable(note));
}

QTEST_MAIN(TestThroughputEnergy)
#include "tst_throughput_energy.moc"
