// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Core names the options of a comparison by plain names ("governors", "set",
 * "spans", ...) and gives no command-line hints; idlescope-cli prints them as
 * its flags with its hints (inCliTerms(), app/cli/cli_args.cpp). Each expected
 * line is the whole of stderr, exactly as idlescope-cli printed it before core
 * stopped speaking CLI (the messages of core/workloads/comparison.cpp and
 * core/experiments/governor_settings.cpp at af77d13, with their "--" fields and
 * hints), for the one-CPU compare and for a machine compare, which reach the
 * two core functions.
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

/// The same on a machine of two CPUs (compare_machine.cpp: settingsPerGovernor()).
QStringList twoCpus(const QStringList &rest)
{
    return QStringList{"compare", "--table", "intel-skx", "--machine", "2", "--workload", "poisson:mean_us=300",
                       "--spans", "200"}
           + rest;
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

    void coreFieldsAreFlags()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, stderrText);
        const CliResult r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, stderrText);
        QCOMPARE(r.out, QString());
    }
};

QTEST_GUILESS_MAIN(TestCliErrorTerms)
#include "tst_cli_error_terms.moc"
