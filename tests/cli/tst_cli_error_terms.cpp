// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Core names the options of a comparison by plain names ("governors", "set",
 * "spans", ...) and gives no command-line hints; idlescope-cli prints them as
 * its flags with its hints (inCliTerms(), app/cli/cli_args.cpp). Each expected
 * line is the whole of stderr, exactly as idlescope-cli printed it before core
 * stopped speaking CLI (the messages of core/workloads/comparison.cpp and
 * core/experiments/governor_settings.cpp at af77d13, with their "--" fields and
 * hints), for the one-CPU compare and for a machine compare, which reach the
 * two core functions. The same for the other options core names (power items,
 * workload specs, built-in tables and machines, sysfs trees, closed loops,
 * shards): their lines are idlescope-cli's at c6d9c69, before core named them
 * "power", "workload", "table", ... instead of "--power", ...
 */
#include "tests/cli_process.h"

#include <QTest>

using idlescope::test::CliResult;
using idlescope::test::runCli;

namespace {

/// compare on intel-skx, 200 Poisson spans, one iteration, then @p rest.
QStringList oneCpu(const QStringList &rest)
{
    return QStringList{"compare", "--table", "intel-skx",    "--workload", "poisson:mean_us=300",
                       "--spans", "200",     "--iterations", "1"}
           + rest;
}

/// compare on intel-skx with menu-6.14, then @p rest (the workload, the machine, ...).
QStringList skxMenu(const QStringList &rest)
{
    return QStringList{"compare", "--table", "intel-skx", "--governors", "menu-6.14"} + rest;
}

/// The same on a machine of two CPUs (compare_machine.cpp: settingsPerGovernor()).
QStringList twoCpus(const QStringList &rest)
{
    return QStringList{"compare", "--table", "intel-skx", "--machine", "2", "--workload", "poisson:mean_us=300",
                       "--spans", "200"}
           + rest;
}

/// The row's args are refused (exit code 2) with exactly its stderrText and no output.
void refusedWithExactly()
{
    QFETCH(QStringList, args);
    QFETCH(QString, stderrText);
    const CliResult r = runCli(args);
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err, stderrText);
    QCOMPARE(r.out, QString());
}

} // namespace

class TestCliErrorTerms : public QObject {
    Q_OBJECT

private slots:
    void coreFieldsAreFlags_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("stderrText");
        // runComparison() (one CPU) and settingsPerGovernor() (a machine) say these the same way.
        for (const bool machine : {false, true}) {
            const auto args = machine ? twoCpus : oneCpu;
            const QByteArray on = machine ? "machine: " : "one CPU: ";
            QTest::newRow((on + "unknown variant").constData())
                << args({"--governors", "menu-9.99"})
                << QStringLiteral("idlescope-cli: --governors: field 'menu-9.99': unknown governor variant "
                                  "(idlescope-cli governors lists them)\n");
            QTest::newRow((on + "no such tunable").constData())
                << args({"--governors", "menu-6.14", "--set", "NOPE=1"})
                << QStringLiteral("idlescope-cli: --set: field 'NOPE': no listed governor has this tunable "
                                  "(idlescope-cli governors --tunables)\n");
            QTest::newRow((on + "governor not listed").constData())
                << args({"--governors", "menu-6.14", "--set", "teo-6.14:INTERVALS=4"})
                << QStringLiteral("idlescope-cli: --set: field 'INTERVALS': governor teo-6.14 is not in --governors\n");
        }
        QTest::newRow("no governor") << oneCpu(
            {"--governors", ""}) << QStringLiteral("idlescope-cli: --governors: name at least one governor variant\n");
        QTest::newRow("listed twice")
            << oneCpu({"--governors", "menu-6.14,menu-6.14"})
            << QStringLiteral("idlescope-cli: --governors: field 'menu-6.14': listed twice; name the second instance "
                              "LABEL=menu-6.14 (then --set LABEL:NAME=VALUE sets its tunables)\n");
        QTest::newRow("no value") << oneCpu({"--governors", "menu-6.14", "--set", "INTERVALS"})
                                  << QStringLiteral("idlescope-cli: --set: field 'INTERVALS': expected NAME=VALUE or "
                                                    "GOVERNOR:NAME=VALUE\n");
        QTest::newRow("given twice")
            << oneCpu({"--governors", "menu-6.14", "--set", "INTERVALS=4", "--set", "INTERVALS=5"})
            << QStringLiteral("idlescope-cli: --set: field 'INTERVALS': given twice (4 and 5); give it once\n");
    }

    void coreFieldsAreFlags() { refusedWithExactly(); }

    void otherOptionsAreFlags_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("stderrText");
        const QString noUnit = QStringLiteral("idlescope-cli: --power: field 'C1': '5' has no unit: write it as "
                                              "NUMBERmW (power) or NUMBERuJ (entry+exit energy)\n");
        QTest::newRow("power, one CPU") << oneCpu({"--governors", "menu-6.14", "--power", "C1=5"}) << noUnit;
        QTest::newRow("power, machine") << twoCpus({"--governors", "menu-6.14", "--power", "C1=5"}) << noUnit;
        // A state named like another option is still the power item's.
        QTest::newRow("power, state 'table'")
            << oneCpu({"--governors", "menu-6.14", "--power", "table=5mW"})
            << QStringLiteral("idlescope-cli: --power: field 'table': no such state in table intel-skx (states: POLL, "
                              "C1, C1E, C6, or active)\n");
        const QString missing =
            QStringLiteral("idlescope-cli: field '--workload': column 17: missing value for mean_us\n");
        QTest::newRow("workload, one CPU") << skxMenu({"--workload", "poisson:mean_us="}) << missing;
        QTest::newRow("workload, machine") << skxMenu({"--machine", "2", "--workload", "poisson:mean_us="}) << missing;
        QTest::newRow("workload, replay") << QStringList{"replay",           "--table",    "intel-skx", "--workload",
                                                         "poisson:mean_us=", "--governor", "menu-6.14"}
                                          << missing;
        QTest::newRow("background")
            << twoCpus({"--governors", "menu-6.14", "--background", "nope"})
            // The option given, not --workload (issue 30 item 8).
            << QStringLiteral("idlescope-cli: field '--background': column 1: unknown generator 'nope' (one of: "
                              "periodic, sweep, duty, poisson, bimodal, tick, idle, io, pingpong, video, server, "
                              "pgbench, net, cpuidle_wakeup, schbench, sqlite, mix)\n");
        // A sweep of the workload runs on a machine (a block per point); of the background, not.
        QTest::newRow("sweep as background")
            << skxMenu({"--machine", "2", "--workload", "poisson", "--background", "poisson:mean_us=100/200"})
            << QStringLiteral("idlescope-cli: poisson:mean_us=100/200: field '--background': a sweep is not a "
                              "background: give one point\n");
        QTest::newRow("workload CPU")
            << twoCpus({"--governors", "menu-6.14", "--workload-cpus", "7"})
            << QStringLiteral("idlescope-cli: intel-skx x2: field '--workload-cpus': CPU 7 is not a CPU of machine "
                              "intel-skx x2 (CPUs 0..1)\n");
        for (const char *id : {"nope", "power"}) // "power" is an id here, not the option
            QTest::newRow(qPrintable(QStringLiteral("machine %1").arg(id)))
                << QStringList{"compare",     "--machine", id, "--workload", "poisson:mean_us=300",
                               "--governors", "menu-6.14"}
                << QStringLiteral("idlescope-cli: %1: field '--machine': not a built-in machine (built-in: juno-r0, "
                                  "rk3399)\n")
                       .arg(id);
        QTest::newRow("closed loop")
            << skxMenu({"--closed-loop", "io:work_us=5"})
            << QStringLiteral(
                   "idlescope-cli: --closed-loop: field 'service_us': give the device's time per request: service_us=S, or device=NAME (nvme, sata, emmc, ...)\n");
        QTest::newRow("closed loop, too few CPUs")
            << skxMenu({"--machine", "1", "--closed-loop", "pingpong:work_us=5"})
            << QStringLiteral("idlescope-cli: intel-skx x1: field '--machine': pingpong:work_us=5 needs 2 CPUs\n");
        QTest::newRow("shard") << oneCpu({"--governors", "menu-6.14", "--shard", "0/0"})
                               << QStringLiteral("idlescope-cli: field '--shard': '0/0' is not K/N with 1 <= K <= N "
                                                 "<= 100000\n");
        const QString hop = QStringLiteral(IDLESCOPE_TEST_DATA "/source_governors/hop.c");
        QTest::newRow("source governor on a machine")
            << QStringList{"compare",    "--table",    "intel-skx",
                           "--machine",  "2",          "--governors",
                           "src:" + hop, "--workload", "periodic:kind=ipi,interval_us=50"}
            << QStringLiteral("idlescope-cli: field 'src:%1': a governor built from source replays one CPU's stream "
                              "at a time, not a whole machine (give --cpu N, or leave out --machine)\n")
                   .arg(hop);
        const QString noTree = QStringLiteral("/nonexistent-idlescope-sysfs");
        QTest::newRow("sysfs tree without cpuidle")
            << QStringList{"compare",     "--table",  "sysfs:" + noTree, "--workload", "poisson:mean_us=300",
                           "--governors", "menu-6.14"}
            << QStringLiteral("idlescope-cli: %1/cpu0/cpuidle: this machine has no cpuidle driver: the kernel exposes "
                              "no idle states here (common in virtual machines, where the host decides). Pick a "
                              "built-in table instead (idlescope-cli compare --table ID; ids in help compare).\n")
                   .arg(noTree);
    }

    void otherOptionsAreFlags() { refusedWithExactly(); }

    void unknownTableIsTheTableOption_data()
    {
        QTest::addColumn<QString>("id");
        QTest::newRow("nope") << QStringLiteral("nope");
        QTest::newRow("power") << QStringLiteral("power"); // an id, not the --power option
    }

    void unknownTableIsTheTableOption()
    {
        QFETCH(QString, id);
        const CliResult r =
            runCli({"compare", "--table", id, "--workload", "poisson:mean_us=300", "--governors", "menu-6.14"});
        QCOMPARE(r.exitCode, 2);
        // The list of built-in targets grows; the words around it are what this test is about.
        const QString begins =
            QStringLiteral("idlescope-cli: %1: field '--table': not a file and not a built-in target "
                           "(built-in: acpi-generic, arm-juno-r0, ")
                .arg(id);
        QVERIFY2(r.err.startsWith(begins), qPrintable(r.err));
        QVERIFY2(r.err.endsWith(QStringLiteral(", sm8250-silver)\n")), qPrintable(r.err));
        QCOMPARE(r.out, QString());
    }
};

QTEST_GUILESS_MAIN(TestCliErrorTerms)
#include "tst_cli_error_terms.moc"
