// SPDX-License-Identifier: GPL-3.0-or-later
// The setup panel alone: an out-of-range latency typed in the state table is
// refused with a range message (1e30 us used to overflow llround and read as
// "negative target residency"), the table keeps its values; the governor list
// is grouped by family and ordered by the kernel version each variant is on.
#include "core/governors/registry.h"
#include "tests/widgets/runner_fixture.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/runner/builtin_scenario.h"

#include <QListWidget>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace idlescope;

class TestSetupPanel : public QObject {
    Q_OBJECT
private slots:
    void hugeLatencyIsOutOfRange();
    void governorListIsGroupedAndOrdered();
    void rewrittenStreamFileIsANewWorkload();
};

void TestSetupPanel::hugeLatencyIsOutOfRange()
{
    SetupPanel panel;
    panel.setTarget(defaultScenario().target);
    auto *states = panel.findChild<QTableWidget *>();
    QVERIFY(states);
    QCOMPARE(states->rowCount(), 2);
    const Ns before = panel.target().table[1].targetResidencyNs;
    QCOMPARE(before, Ns(120000));
    QSignalSpy errors(&panel, &SetupPanel::errorOccurred);
    // A cell edit is statesEdited, not targetChanged (which resets the tick rate to the table's).
    QSignalSpy changed(&panel, &SetupPanel::statesEdited);
    QSignalSpy replaced(&panel, &SetupPanel::targetChanged);
    states->item(1, 2)->setText(QStringLiteral("1e30")); // Target µs of CEDE
    QCOMPARE(errors.count(), 1);
    const QString msg = errors.first().first().toString();
    QVERIFY2(msg.contains(QStringLiteral("target_residency_ns")) && msg.contains(QStringLiteral("out of range"))
                 && msg.contains(QStringLiteral("max 3600000000")),
             qPrintable(msg));
    QVERIFY(!msg.contains(QStringLiteral("negative")));
    QCOMPARE(changed.count(), 0);
    QCOMPARE(panel.target().table[1].targetResidencyNs, before);
    QCOMPARE(states->item(1, 2)->text(), QStringLiteral("120")); // the value in force is shown again
    // Just inside the bound is the table's own business; a normal edit goes through.
    states->item(1, 1)->setText(QStringLiteral("-1e30"));
    QVERIFY(errors.last().first().toString().contains(QStringLiteral("out of range")));
    states->item(1, 2)->setText(QStringLiteral("150"));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(replaced.count(), 0);
    QCOMPARE(panel.target().table[1].targetResidencyNs, Ns(150000));
}

void TestSetupPanel::governorListIsGroupedAndOrdered()
{
    SetupPanel panel;
    auto *list = panel.findChild<QListWidget *>();
    QVERIFY(list);
    // Every variant, and first the kernel's recorded choices (offered for a kernel trace).
    QCOMPARE(list->count(), static_cast<int>(allVariants().size()) + 1);
    QCOMPARE(list->item(0)->data(Qt::UserRole).toString(), QStringLiteral("recorded"));
    QStringList ids;
    for (int i = 1; i < list->count(); ++i) // the variants, after the recorded row
        ids << list->item(i)->data(Qt::UserRole).toString();
    // teo v5.13 (registered last, by the legacy family file) comes before teo v5.14.
    QVERIFY(ids.indexOf(QStringLiteral("teo-5.13")) >= 0);
    QCOMPARE(ids.indexOf(QStringLiteral("teo-5.13")) + 1, ids.indexOf(QStringLiteral("teo-5.14")));
    // Patches stay after the release they apply to: menu-1..5 after menu-6.14, resthresh after 6.17.
    QVERIFY(ids.indexOf(QStringLiteral("menu-6.14")) < ids.indexOf(QStringLiteral("menu-1")));
    QVERIFY(ids.indexOf(QStringLiteral("menu-5")) < ids.indexOf(QStringLiteral("menu-6.15")));
    QCOMPARE(ids.indexOf(QStringLiteral("menu-6.17")) + 1, ids.indexOf(QStringLiteral("menu-resthresh")));
    QVERIFY(ids.indexOf(QStringLiteral("menu-6.19")) < ids.indexOf(QStringLiteral("menu-latest")));
    // Families stay together.
    QString last;
    QStringList seen;
    for (const QString &id : ids) {
        const QString family = QString::fromUtf8(findVariant(id.toStdString())->family);
        if (family != last) {
            QVERIFY2(!seen.contains(family), qPrintable(family + QStringLiteral(" split")));
            seen << family;
            last = family;
        }
    }
}

void TestSetupPanel::rewrittenStreamFileIsANewWorkload()
{
    // Re-opening a stream CSV that was rewritten under the same path must
    // replay the new file: the workload carries the file's stamp, and the
    // runner's stream cache (keyed on the workload) sees a new one.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.csv"));
    auto write = [&](int spans) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("gap_ns,timer_ns,wake_ns,latency_req_ns,util\n");
        for (int i = 0; i < spans; ++i)
            f.write("1000,5000000,100000,-1,0\n");
    };
    SetupPanel panel;
    const auto simulateSpans = [&] {
        ScenarioSpec spec = defaultScenario();
        spec.workload = panel.workload();
        const SnapshotPtr snap = test::simulateOnce(spec);
        return snap ? snap->stream->size() : std::size_t(0);
    };
    write(3);
    QVERIFY(panel.loadStreamFile(path));
    const std::string first = panel.workload().fileStamp;
    QVERIFY(!first.empty());
    QCOMPARE(simulateSpans(), std::size_t(3));
    write(5); // another size: another stamp even within the same millisecond
    QVERIFY(panel.loadStreamFile(path));
    QVERIFY(panel.workload().fileStamp != first);
    QCOMPARE(simulateSpans(), std::size_t(5));
}

QTEST_MAIN(TestSetupPanel)
#include "tst_setup_panel.moc"
