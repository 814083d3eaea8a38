// SPDX-License-Identifier: GPL-3.0-or-later
// The Governors list's "recorded" row (issue 13): the kernel's own choices exist for a
// kernel trace only, so for a generated stream the row is shown unchecked and disabled,
// and a check made for a trace comes back with the next trace.
#include "tests/test_paths.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/runner/builtin_scenario.h"

#include <QListWidget>
#include <QTest>

using namespace idlescope;

class TestRecordedRow : public QObject {
    Q_OBJECT
private slots:
    void disabledForAGeneratedStream();
};

namespace {

QListWidgetItem *recordedItem(SetupPanel &panel)
{
    auto *list = panel.findChild<QListWidget *>();
    for (int i = 0; list && i < list->count(); ++i)
        if (list->item(i)->data(Qt::UserRole).toString() == QLatin1String("recorded"))
            return list->item(i);
    return nullptr;
}

QStringList variants(const std::vector<GovernorSpec> &governors)
{
    QStringList out;
    for (const GovernorSpec &g : governors)
        out << QString::fromStdString(g.variant);
    return out;
}

} // namespace

void TestRecordedRow::disabledForAGeneratedStream()
{
    SetupPanel panel;
    const ScenarioSpec def = defaultScenario();
    panel.setWorkload(def.workload); // a generated stream
    QListWidgetItem *rec = recordedItem(panel);
    QVERIFY(rec);
    QVERIFY(!(rec->flags() & Qt::ItemIsEnabled));
    QCOMPARE(rec->checkState(), Qt::Unchecked);

    // A session asking for it on a generated stream: shown unchecked, not among the governors run.
    panel.setGovernors({{"recorded", {}, QColor(Qt::black)}, {"menu-6.14", {}, QColor(Qt::red)}});
    QCOMPARE(rec->checkState(), Qt::Unchecked);
    QVERIFY(!(rec->flags() & Qt::ItemIsEnabled));
    QCOMPARE(variants(panel.governors()), QStringList({"menu-6.14"}));

    // A trace: the row is enabled again, with the check it was given.
    QVERIFY(panel.loadTraceFile(test::tracePath(QStringLiteral("lisa-juno-sched_load-6cpu.dat")), 4));
    QVERIFY(rec->flags() & Qt::ItemIsEnabled);
    QCOMPARE(rec->checkState(), Qt::Checked);
    QCOMPARE(variants(panel.governors()), QStringList({"recorded", "menu-6.14"}));

    // Back to a generated stream: unchecked and disabled; the trace's check parked for the next trace.
    panel.setWorkload(def.workload);
    QCOMPARE(rec->checkState(), Qt::Unchecked);
    QVERIFY(!(rec->flags() & Qt::ItemIsEnabled));
    QCOMPARE(variants(panel.governors()), QStringList({"menu-6.14"}));
    WorkloadSourceSpec trace;
    trace.kind = WorkloadKind::Trace;
    trace.path = test::tracePath(QStringLiteral("lisa-juno-sched_load-6cpu.dat")).toStdString();
    trace.cpu = 4;
    panel.setWorkload(trace);
    QCOMPARE(rec->checkState(), Qt::Checked);
}

QTEST_MAIN(TestRecordedRow)
#include "tst_recorded_row.moc"
