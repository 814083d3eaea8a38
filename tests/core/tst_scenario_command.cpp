// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The command line as a spelling of a scenario (core/scenario/scenario_command.h):
 * a scenario of every workload kind written as `idlescope-cli compare`'s
 * arguments and read back is the same scenario, so a copied command, a saved
 * session and the CLI's reading of it cannot disagree. The expected argument
 * lists and settings are written out by hand from compare's help: an
 * unprefixed --set applies to every listed governor that has the tunable
 * (menu has INTERVALS, teo v6.x has PULSE and not INTERVALS), a GOVERNOR:
 * prefix to the instance of that label, and the last value given wins.
 */
#include "core/scenario/scenario_command.h"
#include "core/scenario/scenario_comparison.h"
#include "core/states/wake_delay.h"
#include "core/targets/builtin_targets.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include <string>
#include <utility>
#include <vector>

using namespace idlescope;
using namespace idlescope::scenario;

namespace {

/// The options of @p args after "compare" and the table's two arguments, as Args reads
/// them: every option compareArguments() writes takes a value.
std::vector<CommandOption> optionsOf(const std::vector<std::string> &args, std::size_t skip)
{
    std::vector<CommandOption> out;
    for (std::size_t i = skip; i + 1 < args.size(); i += 2) {
        if (args[i].rfind("--", 0) != 0)
            return {}; // a value where an option belongs: not a command compare reads
        out.emplace_back(args[i].substr(2), args[i + 1]);
    }
    return out;
}

/// Two governors as the window has them: menu-6.14 with a changed tunable, and a second
/// instance of menu-6.19 under a label of its own.
std::vector<GovernorInstance> twoGovernors()
{
    return {{"menu-6.14", "", {{"INTERVALS", 12}}}, {"menu-6.19", "i16", {{"INTERVALS", 16}}}};
}

Scenario scenarioOf(WorkloadKind kind)
{
    Scenario s;
    s.workload.kind = kind;
    s.workload.seed = 7;
    s.workload.spans = 5000;
    switch (kind) {
    case WorkloadKind::Generator:
        s.workload.text = "periodic:kind=ipi,interval_us=100,jitter_us=1";
        s.latencyLimitNs = 12500;
        s.wakeDelaysPath = "skx-c6.csv";
        break;
    case WorkloadKind::Spec: s.workload.text = "periodic:interval_us=100 + poisson:mean_us=500"; break;
    case WorkloadKind::ClosedLoop: s.workload.text = "io:service_us=50,work_us=10"; break;
    case WorkloadKind::Csv:
        s.workload.path = "/data/streams/pipe 100us.csv";
        s.latencyLimitNs = 0;
        break;
    case WorkloadKind::Trace:
        s.workload.path = "juno.dat";
        s.workload.cpu = 3;
        break;
    }
    s.governors = twoGovernors();
    s.tickHz = 1000;
    return s;
}

} // namespace

class TestScenarioCommand : public QObject {
    Q_OBJECT

private slots:
    void everyWorkloadKindReadsBack_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("generator") << int(WorkloadKind::Generator);
        QTest::newRow("spec") << int(WorkloadKind::Spec);
        QTest::newRow("closed loop") << int(WorkloadKind::ClosedLoop);
        QTest::newRow("stream file") << int(WorkloadKind::Csv);
        QTest::newRow("trace CPU") << int(WorkloadKind::Trace);
    }

    void everyWorkloadKindReadsBack()
    {
        QFETCH(int, kind);
        const Scenario s = scenarioOf(static_cast<WorkloadKind>(kind));
        const std::vector<std::string> args = compareArguments(s, {"--table", "juno-r0-a53"});
        QCOMPARE(args.at(0), std::string("compare"));
        QCOMPARE(args.at(1), std::string("--table"));
        const std::vector<CommandOption> options = optionsOf(args, 3);
        QVERIFY(!options.empty());
        Result<Scenario> back = scenarioFromOptions(options);
        QVERIFY2(back, back ? "" : back.error().toString().c_str());
        QVERIFY(sameScenario(s, *back));
        // And the check is not blind: one field changed is another scenario.
        Scenario other = *back;
        other.governors[1].settings = {{"INTERVALS", 8}};
        QVERIFY(!sameScenario(s, other));
        other = *back;
        other.latencyLimitNs = 1000;
        QVERIFY(!sameScenario(s, other));
        other = *back; // measured wake delays change the run's duration and energy
        other.wakeDelaysPath = "other.csv";
        QVERIFY(!sameScenario(s, other));
        other = *back; // and a field the kind is made from
        if (s.workload.kind == WorkloadKind::Csv)
            other.workload.path += "x";
        else if (s.workload.kind == WorkloadKind::Trace)
            other.workload.cpu = 2;
        else
            other.workload.seed = 8;
        QVERIFY(!sameScenario(s, other));
    }

    /// A generator scenario's arguments, written out by hand from compare's help.
    void aGeneratorScenarioIsThisCommand()
    {
        const std::vector<std::string> args = compareArguments(scenarioOf(WorkloadKind::Generator), {"--table", "x"});
        const std::vector<std::string> expected{"compare",
                                                "--table",
                                                "x",
                                                "--hz",
                                                "1000",
                                                "--wake-delays",
                                                "skx-c6.csv",
                                                "--workload",
                                                "periodic:kind=ipi,interval_us=100,jitter_us=1",
                                                "--seed",
                                                "7",
                                                "--spans",
                                                "5000",
                                                "--latency-limit",
                                                "12.5",
                                                "--iterations",
                                                "1",
                                                "--governors",
                                                "menu-6.14,i16=menu-6.19",
                                                "--set",
                                                "menu-6.14:INTERVALS=12",
                                                "--set",
                                                "i16:INTERVALS=16"};
        QCOMPARE(args, expected);
    }

    /// A trace on a machine is every CPU: no --cpu and no --iterations (a machine runs once).
    void aTraceOnAMachineNamesNoCpu()
    {
        Scenario s = scenarioOf(WorkloadKind::Trace);
        s.workload.cpu = TRACE_BEST_CPU;
        s.machine = Machine{};
        s.governors = {{"menu-6.14", "", {}}};
        s.tickHz.reset();
        const std::vector<std::string> expected{"compare",  "--machine",   "juno-r0",  "--trace",
                                                "juno.dat", "--governors", "menu-6.14"};
        QCOMPARE(compareArguments(s, {"--machine", "juno-r0"}), expected);
    }

    /// --set as compare's help says: NAME for every listed governor that has it, GOVERNOR:NAME
    /// for that instance; applied in order, so a later value of the same tunable wins.
    void settingsGoToTheInstancesTheyName()
    {
        const std::vector<CommandOption> options{{"workload", "idle"},
                                                 {"governors", "menu-6.14,teo-6.14,i16=menu-6.19"},
                                                 {"set", "INTERVALS=12"},
                                                 {"set", "PULSE=2048"},
                                                 {"set", "i16:INTERVALS=16"}};
        Result<Scenario> s = scenarioFromOptions(options);
        QVERIFY2(s, s ? "" : s.error().toString().c_str());
        QCOMPARE(s->governors.size(), std::size_t(3));
        QCOMPARE(s->governors[0].label, std::string()); // listed by its id: the variant's own instance
        QCOMPARE(s->governors[0].settings, (std::vector<TunableSetting>{{"INTERVALS", 12}}));
        QCOMPARE(s->governors[1].settings, (std::vector<TunableSetting>{{"PULSE", 2048}}));
        QCOMPARE(s->governors[2].label, std::string("i16"));
        QCOMPARE(s->governors[2].settings, (std::vector<TunableSetting>{{"INTERVALS", 12}, {"INTERVALS", 16}}));
        QCOMPARE(settingTexts(s->governors),
                 (std::vector<std::string>{"menu-6.14:INTERVALS=12", "teo-6.14:PULSE=2048", "i16:INTERVALS=16"}));
    }

    void badOptionsAreNamed_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        const auto row = [](const char *name, const char *option, const char *value, const char *message) {
            QTest::newRow(name) << QString::fromUtf8(option) << QString::fromUtf8(value) << QString::fromUtf8(message);
        };
        row("spans", "spans", "0", "--spans: '0' is not a whole number in 1..10000000");
        row("seed", "seed", "-1", "--seed: '-1' is not a whole number in 0..9223372036854775807");
        row("latency", "latency-limit", "1.2345",
            "field '--latency-limit': '1.2345' is not microseconds (up to 3 decimals) in 0..10000000");
        row("duration", "duration", "1e3",
            "field '--duration': '1e3' is not seconds (up to 3 decimals) in 0.001..86400");
        row("hz", "hz", "5", "--hz: '5' is not a whole number in 24..10000");
        row("wake delays", "wake-delays", "", "field '--wake-delays': no file named (a wult datapoints.csv)");
        row("cpu", "cpu", "x", "");
    }

    void badOptionsAreNamed()
    {
        QFETCH(QString, option);
        QFETCH(QString, value);
        QFETCH(QString, message);
        std::vector<CommandOption> options{{"workload", "idle"}, {"governors", "menu-6.14"}};
        if (option == QLatin1String("cpu")) // --cpu belongs to a trace: its error names the trace
            options = {{"trace", "t.dat"}, {"governors", "menu-6.14"}};
        options.emplace_back(option.toStdString(), value.toStdString());
        const Result<Scenario> s = scenarioFromOptions(options);
        QVERIFY(!s);
        if (option == QLatin1String("cpu")) {
            QCOMPARE(s.error().file, std::string("t.dat"));
            QCOMPARE(s.error().field, std::string("--cpu"));
            return;
        }
        QCOMPARE(QString::fromStdString(s.error().toString()), message);
    }

    void microsecondsReadBackExactly()
    {
        for (const Ns ns : {Ns(0), Ns(1), Ns(12500), Ns(100000), Ns(2000001), Ns(10) * NSEC_PER_SEC}) {
            const Result<Ns> back = parseMicroseconds(microsecondsText(ns), "--latency-limit");
            QVERIFY(back);
            QCOMPARE(*back, ns);
        }
        QCOMPARE(microsecondsText(12500), std::string("12.5"));
        QCOMPARE(microsecondsText(2000001), std::string("2000.001"));
        QVERIFY(!parseMicroseconds("10000000.001", "--latency-limit")); // past 10 s
    }

    /// The latency limit reaches every generated span: at 0 ns only POLL (exit latency 0) may be
    /// entered, so every entry of menu is in state 0; without it the 1 ms timer sleeps of the
    /// same spans go deeper (intel-skx: C6's target residency is 600 us).
    void theLatencyLimitReachesTheComparison()
    {
        Scenario s;
        Result<IdleStateTable> skx = builtinTarget("intel-skx");
        QVERIFY(skx);
        s.table = *skx;
        s.workload = {WorkloadKind::Spec, "periodic:kind=timer,interval_us=1000", {}, 200};
        s.governors = {{"menu-6.14", "", {}}};
        s.latencyLimitNs = 0;
        Result<experiments::CompareOptions> limited = oneCpuComparison(s);
        QVERIFY2(limited, limited ? "" : limited.error().toString().c_str());
        QCOMPARE(limited->iterations, 3); // compare's default for a generated workload
        limited->iterations = 1;
        Result<experiments::CompareResult> r = experiments::runComparison(*limited);
        QVERIFY(r);
        const experiments::RunMetrics &m = r->at(0, 0, 0);
        QVERIFY(m.entries >= 200);
        QCOMPARE(m.usage[0], m.entries);

        s.latencyLimitNs = -1;
        Result<experiments::CompareOptions> free = oneCpuComparison(s);
        QVERIFY(free);
        free->iterations = 1;
        r = experiments::runComparison(*free);
        QVERIFY(r);
        QVERIFY(r->at(0, 0, 0).usage[3] > 0);

        s.workload.kind = WorkloadKind::ClosedLoop; // no replay of its own: refused, not guessed
        QVERIFY(!oneCpuComparison(s));
    }

    /// --wake-delays reaches the comparison's table (compare and the window's Copy as command
    /// check run oneCpuComparison()): intel-skx's C6 exits in 133 us for the governors, and
    /// wakes in the mean of the two made-up samples, (40.5 + 59.5) / 2 = 50 us; the other
    /// states keep their exit latency. A state the table lacks is refused by the file's name.
    void theWakeDelaysReachTheComparison()
    {
        QTemporaryDir tmp;
        const std::string wult = tmp.filePath(QStringLiteral("w.csv")).toStdString();
        std::ofstream(wult) << "WakeLatency,ReqCState\n40.5,C6\n59.5,C6\n";
        Scenario s;
        s.table = builtinTarget("intel-skx").value();
        s.workload = {WorkloadKind::Spec, "periodic:kind=timer,interval_us=1000", {}, 200};
        s.governors = {{"menu-6.14", "", {}}};
        s.wakeDelaysPath = wult;
        Result<experiments::CompareOptions> o = oneCpuComparison(s);
        QVERIFY2(o, o ? "" : o.error().toString().c_str());
        QCOMPARE(o->table[3].exitLatencyNs, Ns(133000));
        QCOMPARE(baseWakeDelayNs(o->table[3]), Ns(50000));
        QCOMPARE(baseWakeDelayNs(o->table[2]), o->table[2].exitLatencyNs);

        const std::string bad = tmp.filePath(QStringLiteral("bad.csv")).toStdString();
        std::ofstream(bad) << "WakeLatency,ReqCState\n40.5,C10\n";
        s.wakeDelaysPath = bad;
        o = oneCpuComparison(s);
        QVERIFY(!o);
        QCOMPARE(o.error().file, bad);
        QCOMPARE(o.error().field, std::string("ReqCState"));
    }

    void oneSourceOfSpans()
    {
        const Result<Scenario> both =
            scenarioFromOptions(std::vector<CommandOption>{{"workload", "idle"}, {"trace", "t.dat"}});
        QVERIFY(!both);
        QCOMPARE(both.error().message, std::string("give one of --workload, --trace and --closed-loop"));
    }
};

QTEST_APPLESS_MAIN(TestScenarioCommand)
#include "tst_scenario_command.moc"
