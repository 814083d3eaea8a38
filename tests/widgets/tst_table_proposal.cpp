// SPDX-License-Identifier: GPL-3.0-or-later
// The table proposed when a trace is opened (issue 13): the table idlescope-cli
// record saved beside the trace, or the built-in tables with as many states as
// the trace's cpu_idle events enter, instead of keeping the current table silently.
#include "core/trace/table_proposal.h"
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
    void kvmGuestWithoutDriverGetsHaltpoll();
    void machineDescriptionIsRead();
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
    // A fresh user's finding: opening the trace kept pseries-power10-lpar until "Use
    // arm-juno-r0" was clicked, so the first replay was on POWER10's table. Opened by the user,
    // the trace is now replayed on the table proposed, and the page says so.
    SetupPanel panel;
    const ScenarioSpec def = defaultScenario();
    panel.setTarget(def.target);
    panel.setWorkload(def.workload);
    QSignalSpy changed(&panel, &SetupPanel::targetChanged);
    QVERIFY(openTrace(panel, test::tracePath(QStringLiteral("lisa-juno-sched_load-6cpu.dat"))));
    TraceWorkloadPage *page = panel.tracePage();
    QCOMPARE(page->summary()->statesSeen, 3);
    QVERIFY(page->summary()->sidecarTable.isEmpty());
    QCOMPARE(changed.size(), 1);
    QCOMPARE(panel.target().id, QStringLiteral("arm-juno-r0"));
    QCOMPARE(panel.target().table.count(), 3);
    // No machine description beside it (a plat_info.yml is not one): the state count decided.
    QCOMPARE(page->tableProposalLabel()->text(),
             QStringLiteral("The trace enters 3 idle states (cpu_idle state=0..2); pseries-power10-lpar has 2. "
                            "Replayed on arm-juno-r0 (3 states, as many as the trace enters). Also: arm-rk3399. "
                            "The table chosen when the trace was opened; it was pseries-power10-lpar (choose "
                            "another under Target)."));
    QVERIFY(!page->useTableButton()->isVisibleTo(page));

    // A session's trace keeps the session's table: the proposal is offered, one click away.
    SetupPanel session;
    session.setTarget(def.target);
    WorkloadSourceSpec w;
    w.kind = WorkloadKind::Trace;
    w.path = test::tracePath(QStringLiteral("lisa-juno-sched_load-6cpu.dat")).toStdString();
    w.cpu = 4;
    QSignalSpy ready(session.tracePage(), &TraceWorkloadPage::summaryReady);
    session.setWorkload(w);
    QVERIFY(ready.wait(60000) || !ready.isEmpty());
    QCOMPARE(session.target().id, def.target.id);
    QCOMPARE(session.tracePage()->tableProposalLabel()->text(),
             QStringLiteral("The trace enters 3 idle states (cpu_idle state=0..2); pseries-power10-lpar has 2. "
                            "Proposed: arm-juno-r0 (3 states, as many as the trace enters). Also: arm-rk3399."));
    QCOMPARE(session.tracePage()->useTableButton()->text(), QStringLiteral("Use arm-juno-r0"));
    QSignalSpy sessionChanged(&session, &SetupPanel::targetChanged);
    session.tracePage()->useTableButton()->click();
    QCOMPARE(sessionChanged.size(), 1);
    QCOMPARE(session.target().id, QStringLiteral("arm-juno-r0"));
    // The table fits now: nothing more to propose.
    QVERIFY(!session.tracePage()->tableProposalLabel()->isVisibleTo(session.tracePage()));
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
    // The machine's own table, read from its sysfs when it recorded: the replay uses it.
    QCOMPARE(panel.target().kind, TargetKind::File);
    QCOMPARE(panel.target().path, trace + QStringLiteral(".table.json"));
    QCOMPARE(panel.target().table.count(), 3);
    QCOMPARE(page->tableProposalLabel()->text(),
             QStringLiteral("Replayed on idle.dat.table.json, the table saved beside the trace when it was recorded "
                            "(it was pseries-power10-lpar)."));
    QVERIFY(!page->useTableButton()->isVisibleTo(page));
}

void TestTableProposal::kvmGuestWithoutDriverGetsHaltpoll()
{
    // Issue 33 item 6: the x86 KVM guest trace (vm-amd, no cpuidle driver: its cpu_idle events
    // are the default idle call's, state 1, so "2 states") was offered arm-rk3588. Its
    // description beside it, vm-amd-2cpu.machine.txt, says x86_64 (uname), the "hypervisor"
    // flag (lscpu) and current_driver: none.
    SetupPanel panel;
    const ScenarioSpec def = defaultScenario();
    panel.setTarget(def.target);
    panel.setWorkload(def.workload);
    QSignalSpy ready(panel.tracePage(), &TraceWorkloadPage::summaryReady);
    QVERIFY(panel.loadTraceFile(test::tracePath(QStringLiteral("vm-amd-2cpu-pipe100us.ftrace.txt.gz")), 0));
    QVERIFY(ready.wait(60000) || !ready.isEmpty());
    TraceWorkloadPage *page = panel.tracePage();
    QVERIFY(page->summary());
    QCOMPARE(page->summary()->machine.arch, std::string("x86"));
    QCOMPARE(page->summary()->machine.driver, std::string("none"));
    QVERIFY(page->summary()->machine.hypervisor);
    const QString text = page->tableProposalLabel()->text();
    QVERIFY2(text.contains(QStringLiteral("The machine (vm-amd-2cpu.machine.txt): x86, a virtual machine, cpuidle "
                                          "driver none.")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Replayed on haltpoll-guest (an x86 virtual machine without a cpuidle "
                                          "driver")),
             qPrintable(text));
    // Nothing of another architecture is proposed (the table before is named before and after it).
    const qsizetype from = text.indexOf(QStringLiteral("Replayed on"));
    const QString proposed = text.mid(from, text.indexOf(QStringLiteral("The table chosen")) - from);
    QVERIFY2(!proposed.contains(QStringLiteral("arm-")) && !proposed.contains(QStringLiteral("pseries")),
             qPrintable(proposed));
    QCOMPARE(panel.target().id, QStringLiteral("haltpoll-guest"));
}

void TestTableProposal::machineDescriptionIsRead()
{
    // The fields, and the ranking, on hand-written descriptions.
    const trace::TracedMachine skx = trace::parseMachineDescription(
        "Linux host 6.12.0 #1 SMP x86_64 GNU/Linux\nArchitecture: x86_64\nFlags: fpu vme\n"
        "/sys/devices/system/cpu/cpuidle/current_driver:intel_idle\n");
    QCOMPARE(skx.arch, std::string("x86"));
    QCOMPARE(skx.driver, std::string("intel_idle"));
    QVERIFY(!skx.hypervisor);
    const trace::TracedMachine arm =
        trace::parseMachineDescription("Architecture:  aarch64\ncurrent_driver: psci_idle\n");
    QCOMPARE(arm.arch, std::string("arm64"));
    const std::vector<trace::TableCandidate> tables = {{"arm-rk3588", "psci_idle", 2},
                                                       {"haltpoll-guest", "haltpoll", 2},
                                                       {"intel-skx", "intel_idle", 4},
                                                       {"intel-spr", "intel_idle", 3},
                                                       {"pseries-shared", "pseries_idle", 2}};
    // intel_idle, 3 states: both Intel tables (the driver), the one with 3 states first; never Arm or POWER.
    const std::vector<trace::TableChoice> x86 = trace::proposeTables(tables, 3, skx);
    QCOMPARE(x86.size(), std::size_t(2));
    QCOMPARE(x86[0].id, std::string("intel-spr"));
    QCOMPARE(x86[0].why, std::string("the machine's driver, intel_idle; 3 states, as many as the trace enters"));
    QCOMPARE(x86[1].id, std::string("intel-skx"));
    // psci_idle, 2 states: only the Arm table.
    const std::vector<trace::TableChoice> a = trace::proposeTables(tables, 2, arm);
    QCOMPARE(a.size(), std::size_t(1));
    QCOMPARE(a[0].id, std::string("arm-rk3588"));
    // Nothing described: every table with the count, in the order given.
    const std::vector<trace::TableChoice> blind = trace::proposeTables(tables, 2, {});
    QCOMPARE(blind.size(), std::size_t(3));
    QCOMPARE(blind[0].id, std::string("arm-rk3588"));
}

QTEST_MAIN(TestTableProposal)
#include "tst_table_proposal.moc"
