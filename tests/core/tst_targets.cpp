// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Built-in targets (resources/targets, embedded at build time), the sysfs
 * reader on fake trees, and the cpupower idle-info importer on real output
 * formats (a current cpupower with Residency lines, an older one without).
 */
#include "core/io/table_json.h"
#include "core/targets/builtin_targets.h"
#include "core/targets/cpupower_import.h"
#include "core/targets/sysfs_cpuidle.h"
#include "tests/test_files.h"
#include "tests/test_paths.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace idlescope;

namespace {

using idlescope::test::writeFile;

QJsonObject stateTablesDoc()
{
    QFile f(test::stateTablesJson());
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

/// The source states of a built-in target in state-tables.json (per-cluster tables by "cpus").
QJsonArray sourceStates(const QJsonObject &doc, const QString &stateTablesId, const QString &cpus)
{
    for (const QJsonValue &t : doc.value("targets").toArray()) {
        const QJsonObject o = t.toObject();
        if (o.value("id").toString() != stateTablesId)
            continue;
        if (o.contains("per_cpu_tables")) {
            for (const QJsonValue &c : o.value("per_cpu_tables").toArray())
                if (c.toObject().value("cpus").toString() == cpus)
                    return c.toObject().value("states").toArray();
            return {};
        }
        return o.value("states").toArray();
    }
    return {};
}

struct FakeState {
    const char *name, *desc, *latency, *residency, *disable, *defaultStatus;
};

void writeSysfs(const QString &root, const char *driver, std::initializer_list<FakeState> states, int cpu = 0)
{
    if (driver) {
        writeFile(root + "/cpuidle/current_driver", QByteArray(driver) + "\n");
        writeFile(root + "/cpuidle/current_governor", "menu\n");
    }
    int i = 0;
    for (const FakeState &s : states) {
        const QString d = root + QString("/cpu%1/cpuidle/state%2/").arg(cpu).arg(i++);
        writeFile(d + "name", QByteArray(s.name) + "\n");
        writeFile(d + "desc", QByteArray(s.desc) + "\n");
        writeFile(d + "latency", QByteArray(s.latency) + "\n");
        if (s.residency)
            writeFile(d + "residency", QByteArray(s.residency) + "\n");
        writeFile(d + "disable", QByteArray(s.disable) + "\n");
        if (s.defaultStatus)
            writeFile(d + "default_status", QByteArray(s.defaultStatus) + "\n");
    }
}

// cpupower idle-info as printed by a current cpupower (acpi_idle, AMD BC-250;
// elektricM/amd-bc250-docs PR #61), with one state marked disabled.
const char *kCpupowerNew = R"(CPUidle driver: acpi_idle
CPUidle governor: menu
analyzing CPU 12:

Number of idle states: 4
Available idle states: POLL C1 C2 C3
POLL:
Flags/Description: CPUIDLE CORE POLL IDLE
Latency: 0
Residency: 0
Usage: 946
Duration: 56142
C1:
Flags/Description: ACPI FFH MWAIT 0x0
Latency: 1
Residency: 2
Usage: 149456
Duration: 48326097
C2 (DISABLED) :
Flags/Description: ACPI IOPORT 0x414
Latency: 350
Residency: 700
Usage: 4780
Duration: 4302472
C3:
Flags/Description: ACPI IOPORT 0x415
Latency: 400
Residency: 800
Usage: 64055
Duration: 1581475808
)";

// An older cpupower (no Residency line), intel_idle on an Ice Lake server
// (SAP/arp142-hana issue #383).
const char *kCpupowerOld = R"(CPUidle driver: intel_idle
CPUidle governor: menu
analyzing CPU 0:

Number of idle states: 4
Available idle states: POLL C1 C1E C6
POLL:
Flags/Description: CPUIDLE CORE POLL IDLE
Latency: 0
Usage: 1346781
Duration: 167816872
C1:
Flags/Description: MWAIT 0x00
Latency: 1
Usage: 87830807
Duration: 15985573864
C1E:
Flags/Description: MWAIT 0x01
Latency: 4
Usage: 1
Duration: 2
C6:
Flags/Description: MWAIT 0x20
Latency: 170
Usage: 0
Duration: 0
)";

} // namespace

class TestTargets : public QObject {
    Q_OBJECT

private slots:
    void everyBuiltinLoadsAndEqualsItsSource()
    {
        const QJsonObject doc = stateTablesDoc();
        QVERIFY2(!doc.isEmpty(), "tests/data/state-tables.json (a copy of shared/docs/) not found");
        QCOMPARE(int(builtinTargets().size()), 27);
        for (const BuiltinTargetInfo &info : builtinTargets()) {
            const QByteArray id = QByteArray::fromStdString(info.id);
            Result<IdleStateTable> t = builtinTarget(info.id);
            QVERIFY2(t.ok(), (id + ": " + QByteArray::fromStdString(t.ok() ? "" : t.error().toString())).constData());
            QVERIFY2(t->validate().ok(), id.constData());
            QCOMPARE(QString::fromStdString(t->id), QString::fromStdString(info.id));
            QVERIFY2(!t->source.empty(), id.constData());
            QVERIFY2(!info.label.empty() && !info.driver.empty() && !info.source.empty(), id.constData());

            // The embedded text is the committed file, byte for byte.
            QFile f(test::sourceDir() + "/resources/targets/" + QString::fromStdString(info.id) + ".json");
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(QByteArray::fromStdString(std::string(builtinTargetJson(info.id))), f.readAll());

            // Every state equals state-tables.json (us * 1000), minus unregistered states.
            const QJsonObject own = QJsonDocument::fromJson(QByteArray(builtinTargetJson(info.id).data())).object();
            QJsonArray src = sourceStates(doc, own.value("state_tables_id").toString(), own.value("cpus").toString());
            QVERIFY2(!src.isEmpty(), id.constData());
            int k = 0;
            for (const QJsonValue &v : src) {
                const QJsonObject s = v.toObject();
                if (s.value("registered_by_default").toBool(true) == false)
                    continue;
                QVERIFY2(k < t->count(), id.constData());
                const IdleState &st = (*t)[k];
                QCOMPARE(QString::fromStdString(st.name), s.value("name").toString());
                QCOMPARE(QString::fromStdString(st.desc), s.value("desc").toString());
                QCOMPARE(st.exitLatencyNs, Ns(s.value("exit_latency_us").toInteger()) * 1000);
                QCOMPARE(st.targetResidencyNs, Ns(s.value("target_residency_us").toInteger()) * 1000);
                QCOMPARE(st.polling, s.value("flags").toArray().contains(QJsonValue("POLLING")));
                QVERIFY(!st.disabled);
                ++k;
            }
            QCOMPARE(k, t->count());
            QCOMPARE(info.stateCount, t->count());
        }
    }

    void spotValues_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("tickHz");
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("latencyNs");
        QTest::addColumn<qint64>("residencyNs");
        // Numbers written out from shared/docs/state-tables.md.
        QTest::newRow("skl C3") << "intel-skl" << 9 << 250 << 3 << "C3" << 70000LL << 100000LL;
        QTest::newRow("skl C10") << "intel-skl" << 9 << 250 << 8 << "C10" << 890000LL << 5000000LL;
        QTest::newRow("skx C6") << "intel-skx" << 4 << 250 << 3 << "C6" << 133000LL << 600000LL;
        QTest::newRow("icx C1E") << "intel-icx" << 4 << 250 << 2 << "C1E" << 4000LL << 4000LL;
        QTest::newRow("spr C6") << "intel-spr" << 4 << 250 << 3 << "C6" << 290000LL << 800000LL;
        QTest::newRow("adl C1E (C1 unregistered)") << "intel-adl" << 5 << 250 << 1 << "C1E" << 2000LL << 4000LL;
        QTest::newRow("adl-l C10") << "intel-adl-l" << 5 << 250 << 4 << "C10" << 230000LL << 700000LL;
        QTest::newRow("mtl-l C10") << "intel-mtl-l" << 4 << 250 << 3 << "C10" << 310000LL << 930000LL;
        QTest::newRow("gnr C6P") << "intel-gnr" << 5 << 250 << 4 << "C6P" << 210000LL << 1000000LL;
        QTest::newRow("bxt C10") << "intel-bxt" << 8 << 250 << 7 << "C10" << 10000000LL << 10000000LL;
        QTest::newRow("acpi C3") << "acpi-generic" << 4 << 250 << 3 << "C3" << 400000LL << 800000LL;
        QTest::newRow("pseries CEDE") << "pseries-dedicated" << 2 << 100 << 1 << "CEDE" << 10000LL << 100000LL;
        QTest::newRow("pseries shared") << "pseries-shared" << 2 << 100 << 1 << "Shared Cede" << 10000LL << 100000LL;
        QTest::newRow("POWER10 CEDE") << "pseries-power10-lpar" << 2 << 100 << 1 << "CEDE" << 12000LL << 120000LL;
        QTest::newRow("POWER10 snooze") << "pseries-power10-lpar" << 2 << 100 << 0 << "snooze" << 0LL << 0LL;
        QTest::newRow("POWER9 stop5") << "powernv-power9" << 7 << 100 << 6 << "stop5" << 200000LL << 20000000LL;
        QTest::newRow("rk3399 cluster") << "arm-rk3399" << 3 << 250 << 2 << "cluster-sleep" << 900000LL << 2000000LL;
        QTest::newRow("rk3588 cpu") << "arm-rk3588" << 2 << 250 << 1 << "cpu-sleep" << 220000LL << 1000000LL;
        QTest::newRow("juno cpu") << "arm-juno-r0" << 3 << 250 << 1 << "cpu-sleep-0" << 1500000LL << 2000000LL;
        QTest::newRow("sm8250 silver") << "sm8250-silver" << 2 << 250 << 1 << "cpu-sleep-0-0" << 891000LL << 3934000LL;
        QTest::newRow("sm8250 gold") << "sm8250-gold" << 2 << 250 << 1 << "cpu-sleep-1-0" << 1763000LL << 4488000LL;
        QTest::newRow("gs101 a55") << "gs101-a55" << 2 << 250 << 1 << "cpu-ananke-sleep" << 230000LL << 2000000LL;
        QTest::newRow("gs101 a76") << "gs101-a76" << 2 << 250 << 1 << "cpu-enyo-sleep" << 340000LL << 2500000LL;
        QTest::newRow("gs101 x1") << "gs101-x1" << 2 << 250 << 1 << "cpu-hera-sleep" << 455000LL << 3500000LL;
        QTest::newRow("arm WFI") << "gs101-x1" << 2 << 250 << 0 << "WFI" << 1000LL << 1000LL;
        QTest::newRow("haltpoll") << "haltpoll-guest" << 2 << 250 << 1 << "haltpoll idle" << 1000LL << 1000LL;
    }

    void spotValues()
    {
        QFETCH(QString, id);
        QFETCH(int, count);
        QFETCH(int, tickHz);
        QFETCH(int, index);
        QFETCH(QString, name);
        QFETCH(qint64, latencyNs);
        QFETCH(qint64, residencyNs);
        Result<IdleStateTable> t = builtinTarget(id.toStdString());
        QVERIFY(t.ok());
        QCOMPARE(t->count(), count);
        QCOMPARE(t->tickHz, tickHz);
        QCOMPARE(QString::fromStdString((*t)[index].name), name);
        QCOMPARE((*t)[index].exitLatencyNs, latencyNs);
        QCOMPARE((*t)[index].targetResidencyNs, residencyNs);
        QCOMPARE((*t)[0].polling, !id.startsWith("arm-") && !id.startsWith("sm8250") && !id.startsWith("gs101"));
    }

    void aliasesAndConformanceTable()
    {
        Result<IdleStateTable> a = builtinTarget("pseries-p10");
        Result<IdleStateTable> b = builtinTarget("pseries-power10-lpar");
        QVERIFY(a.ok() && b.ok());
        QCOMPARE(a->id, b->id);
        // The conformance kit's POWER10 table has the same states and tick rate.
        Result<IdleStateTable> kit = readTableJson((test::kitDir() + "/tables/pseries-p10.json").toStdString());
        QVERIFY(kit.ok());
        QCOMPARE(kit->count(), b->count());
        QCOMPARE(kit->tickHz, b->tickHz);
        for (int i = 0; i < kit->count(); ++i) {
            QCOMPARE((*kit)[i].exitLatencyNs, (*b)[i].exitLatencyNs);
            QCOMPARE((*kit)[i].targetResidencyNs, (*b)[i].targetResidencyNs);
            QCOMPARE((*kit)[i].polling, (*b)[i].polling);
        }
        Result<IdleStateTable> skl = builtinTarget("intel-skl");
        Result<IdleStateTable> kitSkl = readTableJson((test::kitDir() + "/tables/intel-skl.json").toStdString());
        QVERIFY(skl.ok() && kitSkl.ok());
        for (int i = 0; i < kitSkl->count(); ++i)
            QCOMPARE((*kitSkl)[i].targetResidencyNs, (*skl)[i].targetResidencyNs);
    }

    void unknownIdListsTheKnownOnes()
    {
        Result<IdleStateTable> t = builtinTarget("intel-nope");
        QVERIFY(!t.ok());
        QCOMPARE(QString::fromStdString(t.error().field), QString("table"));
        QVERIFY(t.error().message.find("intel-skx") != std::string::npos);
        QVERIFY(t.error().message.find("sm8250-gold") != std::string::npos);
    }

    void editingBuiltinTables()
    {
        IdleStateTable t = builtinTarget("intel-skx").value();
        QVERIFY(t.setDisabled(2, true).ok());
        QVERIFY(t[2].disabled);
        QCOMPARE(t.firstEnabled(), 0);
        // A polling state anywhere but 0 is refused and the table is unchanged.
        Status bad = t.addState(IdleState{"POLL2", "", 0, 0, true, false}, 2);
        QVERIFY(!bad.ok());
        QCOMPARE(QString::fromStdString(bad.error().field), QString("polling"));
        QCOMPARE(t.count(), 4);
        QVERIFY(t.setExitLatencyNs(3, 92000).ok());
        QVERIFY(t.setTargetResidencyNs(3, 276000).ok()); // SKX C6 with package C6 off
        QCOMPARE(t[3].targetResidencyNs, Ns(276000));
        QVERIFY(!t.setTargetResidencyNs(3, -1).ok());
        QCOMPARE(t[3].targetResidencyNs, Ns(276000));
        QVERIFY(!t.setTickHz(5).ok());
        QCOMPARE(t.tickHz, 250);
        // States stay ordered shallow to deep: moving C6 before C1 is refused, nothing moves.
        QVERIFY(!t.moveState(3, 1).ok());
        QCOMPARE(QString::fromStdString(t[3].name), QString("C6"));
        QVERIFY(t.removeState(1).ok());
        QCOMPARE(t.count(), 3);
        QVERIFY(!t.removeState(7).ok());
    }

    void sysfsFakeMachine()
    {
        QTemporaryDir dir;
        const QString root = dir.path();
        writeSysfs(root, "intel_idle",
                   {{"POLL", "CPUIDLE CORE POLL IDLE", "0", "0", "0", "enabled"},
                    {"C1", "MWAIT 0x00", "2", "2", "0", "enabled"},
                    {"C1E", "MWAIT 0x01", "10", "20", "1", "enabled"},
                    {"C6", "MWAIT 0x20", "133", "600", "0", "disabled"}});
        Result<SysfsCpuidle> s = readSysfsCpuidle(root.toStdString(), 0);
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().toString().c_str());
        QCOMPARE(QString::fromStdString(s->driver), QString("intel_idle"));
        QCOMPARE(QString::fromStdString(s->governor), QString("menu"));
        QCOMPARE(s->table.count(), 4);
        QVERIFY(s->table[0].polling);
        QVERIFY(!s->table[1].polling);
        QCOMPARE(s->table[3].exitLatencyNs, Ns(133000));
        QCOMPARE(s->table[3].targetResidencyNs, Ns(600000));
        QCOMPARE(QString::fromStdString(s->table[2].desc), QString("MWAIT 0x01"));
        QVERIFY(s->table[2].disabled); // disable = 1
        QVERIFY(s->table[3].disabled); // default_status = disabled (CPUIDLE_FLAG_OFF)
        QVERIFY(!s->table[1].disabled);
        QCOMPARE(s->table.tickHz, 250);
        QCOMPARE(QString::fromStdString(s->table.id), QString("this-machine-cpu0"));
    }

    void sysfsPowerSnoozeAndOldKernel()
    {
        QTemporaryDir dir;
        writeSysfs(dir.path(), "pseries_idle",
                   {{"snooze", "snooze", "0", "0", "0", nullptr}, {"CEDE", "CEDE", "12", nullptr, "0", nullptr}}, 3);
        Result<SysfsCpuidle> s = readSysfsCpuidle(dir.path().toStdString(), 3);
        QVERIFY(s.ok());
        QVERIFY(s->table[0].polling);
        // No residency file: residency = latency, with a warning.
        QCOMPARE(s->table[1].targetResidencyNs, Ns(12000));
        bool warned = false;
        for (const std::string &w : s->warnings)
            warned |= w.find("no residency file") != std::string::npos;
        QVERIFY(warned);
        // sysfs has no HZ; the warning says so without naming a program's option (the CLI adds --hz).
        QCOMPARE(s->warnings.front(), std::string("the tick rate (CONFIG_HZ) is not in sysfs: assuming 250 Hz"));
        // cpu0 of this tree has no cpuidle folder.
        Result<SysfsCpuidle> none = readSysfsCpuidle(dir.path().toStdString(), 0);
        QVERIFY(!none.ok());
        QVERIFY(none.error().message.find("cpu0 has no cpuidle directory") != std::string::npos);
    }

    void sysfsNoCpuidle()
    {
        // A VM: /sys/devices/system/cpu has cpu0 but no cpuidle at all.
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.path() + "/cpu0"));
        Result<SysfsCpuidle> s = readSysfsCpuidle(dir.path().toStdString(), 0);
        QVERIFY(!s.ok());
        QVERIFY(s.error().message.find("this machine has no cpuidle driver") != std::string::npos);
        QVERIFY(s.error().message.find("virtual machines") != std::string::npos);
        // Driver "none" says the same.
        QTemporaryDir dir2;
        writeFile(dir2.path() + "/cpuidle/current_driver", "none\n");
        QVERIFY(QDir().mkpath(dir2.path() + "/cpu0/cpuidle"));
        Result<SysfsCpuidle> s2 = readSysfsCpuidle(dir2.path().toStdString(), 0);
        QVERIFY(!s2.ok());
        QVERIFY(s2.error().message.find("no cpuidle driver") != std::string::npos);
    }

    void sysfsBadLatencyNamesTheFile()
    {
        QTemporaryDir dir;
        writeSysfs(dir.path(), "acpi_idle",
                   {{"POLL", "CPUIDLE CORE POLL IDLE", "0", "0", "0", nullptr},
                    {"C1", "ACPI HLT", "1us", "2", "0", nullptr}});
        Result<SysfsCpuidle> s = readSysfsCpuidle(dir.path().toStdString(), 0);
        QVERIFY(!s.ok());
        QVERIFY(s.error().file.find("state1/latency") != std::string::npos);
        QCOMPARE(QString::fromStdString(s.error().field), QString("latency"));
    }

    void cpupowerCurrentFormat()
    {
        Result<CpupowerIdleInfo> c = parseCpupowerIdleInfo(kCpupowerNew, "paste");
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().toString().c_str());
        QCOMPARE(QString::fromStdString(c->driver), QString("acpi_idle"));
        QCOMPARE(QString::fromStdString(c->governor), QString("menu"));
        QCOMPARE(c->cpu, 12);
        QCOMPARE(c->table.count(), 4);
        QVERIFY(c->table[0].polling);
        QCOMPARE(QString::fromStdString(c->table[1].desc), QString("ACPI FFH MWAIT 0x0"));
        QCOMPARE(c->table[1].exitLatencyNs, Ns(1000));
        QCOMPARE(c->table[1].targetResidencyNs, Ns(2000));
        QCOMPARE(QString::fromStdString(c->table[2].name), QString("C2"));
        QVERIFY(c->table[2].disabled);
        QCOMPARE(c->table[3].exitLatencyNs, Ns(400000));
        QCOMPARE(c->table[3].targetResidencyNs, Ns(800000));
        // Same values as the built-in acpi-generic table that came from this paste.
        IdleStateTable acpi = builtinTarget("acpi-generic").value();
        for (int i = 0; i < 4; ++i)
            QCOMPARE(c->table[i].targetResidencyNs, acpi[i].targetResidencyNs);
    }

    void cpupowerOlderFormatWithoutResidency()
    {
        Result<CpupowerIdleInfo> c = parseCpupowerIdleInfo(kCpupowerOld, "paste");
        QVERIFY(c.ok());
        QCOMPARE(c->table.count(), 4);
        QCOMPARE(c->table[3].exitLatencyNs, Ns(170000));
        QCOMPARE(c->table[3].targetResidencyNs, Ns(170000));
        QVERIFY(!c->warnings.empty());
        QVERIFY(c->warnings.front().find("no Residency lines") != std::string::npos);
    }

    void cpupowerErrors()
    {
        // --silent output has no state blocks.
        Result<CpupowerIdleInfo> silent = parseCpupowerIdleInfo(
            "CPUidle driver: acpi_idle\nCPUidle governor: menu\nanalyzing CPU 0:\n\nNumber of idle states: 4\n"
            "Available idle states: POLL C1 C2 C3\n",
            "s");
        QVERIFY(!silent.ok());
        QVERIFY(silent.error().message.find("--silent") != std::string::npos);
        // A count that disagrees.
        std::string text = kCpupowerNew;
        text.replace(text.find("Number of idle states: 4"), 24, "Number of idle states: 5");
        Result<CpupowerIdleInfo> count = parseCpupowerIdleInfo(text, "c");
        QVERIFY(!count.ok());
        QCOMPARE(QString::fromStdString(count.error().field), QString("Number of idle states"));
        // A bad number names its line.
        text = kCpupowerNew;
        text.replace(text.find("Latency: 350"), 12, "Latency: 3.5");
        Result<CpupowerIdleInfo> bad = parseCpupowerIdleInfo(text, "c");
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().line, std::int64_t(21));
        QCOMPARE(QString::fromStdString(bad.error().field), QString("Latency"));
        // Not cpupower output at all.
        Result<CpupowerIdleInfo> junk = parseCpupowerIdleInfo("hello world\n", "j");
        QVERIFY(!junk.ok());
        QCOMPARE(junk.error().line, std::int64_t(1));
    }

    void cpupowerStateNamesWithSpaces()
    {
        Result<CpupowerIdleInfo> c = parseCpupowerIdleInfo(
            "CPUidle driver: pseries_idle\nCPUidle governor: menu\nanalyzing CPU 0:\n\n"
            "Number of idle states: 2\nAvailable idle states: snooze Shared Cede\n"
            "snooze:\nFlags/Description: snooze\nLatency: 0\nResidency: 0\nUsage: 5\nDuration: 6\n"
            "Shared Cede:\nFlags/Description: Shared Cede\nLatency: 10\nResidency: 100\nUsage: 7\nDuration: 8\n",
            "p");
        QVERIFY(c.ok());
        QCOMPARE(c->table.count(), 2);
        QVERIFY(c->table[0].polling);
        QCOMPARE(QString::fromStdString(c->table[1].name), QString("Shared Cede"));
        QCOMPARE(c->table[1].targetResidencyNs, Ns(100000));
    }
};

QTEST_GUILESS_MAIN(TestTargets)
#include "tst_targets.moc"
