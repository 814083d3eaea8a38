// SPDX-License-Identifier: GPL-3.0-or-later
// The table proposed when a trace is opened (issue 13): the table idlescope-cli
// record saved beside the trace, or the built-in tables with as many states as
// the trace's cpu_idle events enter, instead of keeping the current table silently.
#include "tests/test_paths.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/panels/trace_workload_page.h"
#include "widgets/runner/builtin_scenario.h"

#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace idlescope;

class TestTableProposal : public QObject {
    Q_OBJECT
private slots:
    void builtinTablesWithTheTraceStateCount();
    void tableSavedBesideTheTrace();
};

namespace {

/// Opens @p trace in @p panel (CPU 4) and waits for its import.
bool openTrace(SetupPanel &panel, const QString &trace)
{
    QSignalSpy ready(panel.tracePage(), &TraceWorkloadPage::summaryReady);
    return panel.loadTraceFile(trace, 4) && (ready.wait(60000) || !ready.isEmpty()) && panel.tracePage()->summary();
}

} // namespace

void TestTableProposal::builtinTablesWithTheTraceStateCount()
{
    // The default table pseries-power10-lpar has 2 states; LISA's Juno trace enters states 0..2
    // (`grep -o 'state=[0-2] ' lisa-juno-sched_load-6cpu.report.txt | sort -u`). The built-in
    // tables with 3 states (resources/targets/*.json): arm-juno-r0 and arm-rk3399.
    SetupPanel panel;
    const ScenarioSpec def = defaultScenario();
    panel.setTarget(def.target);
    panel.setWorkload(def.workload);
    QVERIFY(openTrace(panel, test::tracePath(QStringLiteral("lisa-juno-sched_load-6cpu.dat"))));
    TraceWorkloadPage *page = panel.tracePage();
    QCOMPARE(page->summary()->statesSeen, 3);
    QVERIFY(page->summary()->sidecarTable.isEmpty());
    QCOMPARE(page->tableProposalLabel()->text(),
             QStringLiteral("The trace enters 3 idle states (cpu_idle state=0..2); pseries-power10-lpar has 2. "
                            "Built-in tables with 3 states: arm-juno-r0, arm-rk3399."));
    QVERIFY(page->useTableButton()->isVisibleTo(page));
    QCOMPARE(page->useTableButton()->text(), QStringLiteral("Use arm-juno-r0"));
    QSignalSpy changed(&panel, &SetupPanel::targetChanged);
    page->useTableButton()->click();
    QCOMPARE(changed.size(), 1);
    QCOMPARE(panel.target().id, QStringLiteral("arm-juno-r0"));
    QCOMPARE(panel.target().table.count(), 3);
    // The table fits now: nothing more to propose.
    QVERIFY(!page->tableProposalLabel()->isVisibleTo(page));
}

void TestTableProposal::tableSavedBesideTheTrace()
{
    QTemporaryDir dir;
    const QString trace = dir.filePath(QStringLiteral("idle.dat"));
    QVERIFY(QFile::copy(test::tracePath(QStringLiteral("lisa-juno-sched_load-6cpu.dat")), trace));
    QVERIFY(QFile::copy(test::sourceDir() + QStringLiteral("/resources/targets/arm-juno-r0.json"),
                        trace + QStringLiteral(".table.json")));
    SetupPanel panel;
    const ScenarioSpec def = defaultScenario();
    panel.setTarget(def.target);
    panel.setWorkload(def.workload);
    QVERIFY(openTrace(panel, trace));
    TraceWorkloadPage *page = panel.tracePage();
    QCOMPARE(page->summary()->sidecarTable, trace + QStringLiteral(".table.json"));
    QCOMPARE(page->tableProposalLabel()->text(),
             QStringLiteral("The trace has its machine's table beside it (idle.dat.table.json, saved by idlescope-cli "
                            "record); the replay now uses pseries-power10-lpar."));
    QCOMPARE(page->useTableButton()->text(), QStringLiteral("Use idle.dat.table.json"));
    page->useTableButton()->click();
    QCOMPARE(panel.target().kind, TargetKind::File);
    QCOMPARE(panel.target().path, trace + QStringLiteral(".table.json"));
    QCOMPARE(panel.target().table.count(), 3);
    QCOMPARE(page->tableProposalLabel()->text(),
             QStringLiteral("Table: idle.dat.table.json, saved beside the trace when it was recorded."));
    QVERIFY(!page->useTableButton()->isVisibleTo(page));
}

QTEST_MAIN(TestTableProposal)
#include "tst_table_proposal.moc"
