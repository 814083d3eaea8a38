// SPDX-License-Identifier: GPL-3.0-or-later
// Session files: save → load round-trips every field; bad and newer files are
// rejected with an error naming the field; recent files in QSettings.
#include "core/governors/registry.h"
#include "core/io/table_json.h"
#include "core/replay/governor_factory.h"
#include "core/scenario/scenario_command.h"
#include "tests/test_paths.h"
#include "widgets/runner/workload_seeding.h"
#include "widgets/session/recent_files.h"
#include "widgets/session/session.h"
#include "widgets/view_state.h"
#include "workload_param.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace idlescope;
using namespace Qt::StringLiterals;

namespace {

/// A governor variant with at least one tunable, its first tunable and a
/// non-default value in range (the registry decides which families exist).
struct TunableChoice {
    std::string variant;
    std::string name;
    std::int64_t value = 0;
};

TunableChoice firstTunable()
{
    for (const VariantInfo *v : allVariants()) {
        auto gov = createGovernor(v->id);
        if (!gov || gov->tunables().empty())
            continue;
        const TunableInfo &t = gov->tunables().front();
        const std::int64_t value = t.kernelDefault < t.maxValue ? t.kernelDefault + 1 : t.minValue;
        return {v->id, t.name, value};
    }
    return {};
}

/// A periodic generator's text with every parameter, none at its default but the kind (ipi).
// Every parameter written out, as the window writes it (slack_us at periodic's default, 50).
constexpr const char *PERIODIC_TEXT =
    "periodic:kind=ipi,interval_us=100,jitter_us=0.25,run_us=7,next_timer_us=2000,slack_us=50";

Session sampleSession()
{
    Session s;
    auto table = readTableJson((test::kitDir() + QStringLiteral("/tables/pseries-p10.json")).toStdString());
    if (!table.ok())
        qFatal("cannot read pseries-p10.json: %s", table.error().toString().c_str());
    IdleStateTable t = *table;
    // Edits a user can make in the state table view (not in Q_ASSERT: Release drops it).
    if (!t.setTickHz(250).ok() || !t.setExitLatencyNs(1, 11000).ok() || !t.setDisabled(0, true).ok())
        qFatal("table edit rejected");

    s.scenario.target = {TargetKind::Builtin, QStringLiteral("pseries-p10"), QString(), t};
    s.scenario.workload.kind = WorkloadKind::Generator;
    s.scenario.workload.text = PERIODIC_TEXT;
    s.scenario.workload.path = "/tmp/does-not-matter.csv";
    s.scenario.workload.description = QStringLiteral("IPI wakeups every 100 us, 200000 spans");
    s.scenario.workload.spans = 200000;
    s.scenario.workload.seed = 9007199254740993; // > 2^53

    const TunableChoice tc = firstTunable();
    s.scenario.governors.push_back({tc.variant, {{tc.name, tc.value}}, QColor(0x1f, 0x77, 0xb4)});
    s.scenario.governors.push_back({"oracle", {}, QColor(0x33, 0x33, 0x33)});
    s.scenario.latencyLimitNs = 50000;
    s.view = {1234, 567890, 4000, 1, 42};
    return s;
}

QByteArray replaced(QByteArray json, const char *from, const char *to)
{
    if (!json.contains(from))
        qFatal("test data: '%s' not in the session JSON", from);
    return json.replace(from, to);
}

/// The sample session with @p from replaced by @p to is refused, in bad.idlescope, with @p want's field and message.
void checkSampleRefused(const char *from, const char *to, const Error &want)
{
    const Result<Session> r = sessionFromJson(replaced(sessionToJson(sampleSession()), from, to), u"bad.idlescope"_s);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().file, std::string("bad.idlescope"));
    QCOMPARE(r.error().field, want.field);
    QCOMPARE(r.error().message, want.message);
}

} // namespace

class TestSession : public QObject {
    Q_OBJECT
private slots:
    void registryHasATunableGovernor();
    void roundTripEveryField();
    void traceWorkloadRoundTrip();
    void aSessionAndItsCommandAreOneScenario_data();
    void aSessionAndItsCommandAreOneScenario();
    void targetKindsRoundTrip();
    void unknownTargetKindIsRefused();
    void workloadKindsRoundTrip();
    void unknownWorkloadKindIsRefused();
    void fileNamesFormatVersion();
    void generatorParamsAreWrittenInTheUnitOfTheirName();
    void formatVersion1IsReadAsItIs();
    void format3FilesKeepTheirSpans();
    void overwriteLeavesNoTemporaryFile();
    void newerVersionIsRejected();
    void badFieldIsNamed_data();
    void badFieldIsNamed();
    void syntaxErrorNamesLine();
    void missingFileIsAnError();
    void relativePathsAreTheSessionFolders();
    void fuzzSeedsAreSessions();
    void fuzzFindingsAreRefused();
    void viewStateRoundTrip();
    void spansBeyondTheWindowAreRefused();
    void seedIsReadExactlyOrRefused();
    void governorsBeyondTheCapAreRefused();
    void recentFiles();
};

void TestSession::registryHasATunableGovernor()
{
    // The round trip needs a real tunable setting; fail loudly if none exists.
    QVERIFY(!firstTunable().variant.empty());
}

void TestSession::roundTripEveryField()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("a.idlescope"));
    const Session s = sampleSession();
    const Status saved = saveSession(s, path);
    QVERIFY2(saved.ok(), saved.ok() ? "" : saved.error().toString().c_str());

    const Result<Session> loaded = loadSession(path);
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
    const Session &l = *loaded;
    const ScenarioSpec &x = l.scenario;

    QCOMPARE(x.target.kind, TargetKind::Builtin);
    QCOMPARE(x.target.id, QStringLiteral("pseries-p10"));
    QCOMPARE(x.target.table.id, std::string("pseries-p10"));
    QCOMPARE(x.target.table.tickHz, 250);
    QCOMPARE(x.target.table.count(), 2);
    QCOMPARE(x.target.table[0].name, std::string("snooze"));
    QCOMPARE(x.target.table[0].disabled, true);
    QCOMPARE(x.target.table[0].polling, true);
    QCOMPARE(x.target.table[1].name, std::string("CEDE"));
    QCOMPARE(x.target.table[1].exitLatencyNs, Ns(11000));
    QCOMPARE(x.target.table[1].targetResidencyNs, Ns(120000));
    QCOMPARE(x.target.table[1].disabled, false);
    QCOMPARE(x.target.table.source, s.scenario.target.table.source);

    QCOMPARE(x.workload.kind, WorkloadKind::Generator);
    QCOMPARE(x.workload.text, std::string(PERIODIC_TEXT));
    QCOMPARE(x.workload.path, std::string("/tmp/does-not-matter.csv"));
    QCOMPARE(x.workload.description, QStringLiteral("IPI wakeups every 100 us, 200000 spans"));
    QCOMPARE(x.workload.spans, qint64(200000));
    QCOMPARE(x.workload.seed, qint64(9007199254740993));
    QVERIFY(!x.workload.legacySeeding);

    QCOMPARE(x.governors.size(), std::size_t(2));
    QCOMPARE(x.governors[0].variant, s.scenario.governors[0].variant);
    QCOMPARE(x.governors[0].settings.size(), std::size_t(1));
    QCOMPARE(x.governors[0].settings[0], s.scenario.governors[0].settings[0]);
    QCOMPARE(x.governors[0].color, QColor(0x1f, 0x77, 0xb4));
    QCOMPARE(x.governors[1].variant, std::string("oracle"));
    QVERIFY(x.governors[1].settings.empty());
    QCOMPARE(x.governors[1].color, QColor(0x33, 0x33, 0x33));
    QCOMPARE(x.latencyLimitNs, Ns(50000));

    QCOMPARE(l.view.rangeStartNs, qint64(1234));
    QCOMPARE(l.view.rangeEndNs, qint64(567890));
    QCOMPARE(l.view.cursorNs, qint64(4000));
    QCOMPARE(l.view.selectedGovernor, 1);
    QCOMPARE(l.view.selectedEntry, qint64(42));

    QVERIFY(sameSession(s, l));
    // Saving what was loaded gives the same bytes.
    QCOMPARE(sessionToJson(l), sessionToJson(s));
}

void TestSession::traceWorkloadRoundTrip()
{
    // A kernel-trace workload (widgets/runner/trace_workload.h): the file, the CPU
    // replayed (-1 = the one with the most idle spans) and the file stamp.
    for (const int cpu : {3, -1}) {
        Session s = sampleSession();
        s.scenario.workload = {};
        s.scenario.workload.kind = WorkloadKind::Trace;
        s.scenario.workload.path = "/data/traces/vm-amd-2cpu-pipe100us.ftrace.txt.gz";
        s.scenario.workload.cpu = cpu;
        s.scenario.workload.fileStamp = "1764480000123:1196989";
        s.scenario.workload.description = QStringLiteral("trace vm-amd-2cpu-pipe100us.ftrace.txt.gz, CPU 3");
        const Result<Session> l = sessionFromJson(sessionToJson(s), QStringLiteral("trace.idlescope"));
        QVERIFY2(l.ok(), l.ok() ? "" : l.error().toString().c_str());
        const WorkloadSourceSpec &w = l->scenario.workload;
        QCOMPARE(w.kind, WorkloadKind::Trace);
        QCOMPARE(w.path, std::string("/data/traces/vm-amd-2cpu-pipe100us.ftrace.txt.gz"));
        QCOMPARE(w.cpu, cpu);
        QCOMPARE(w.fileStamp, std::string("1764480000123:1196989"));
        QVERIFY(sameSession(s, *l));
    }
}

void TestSession::aSessionAndItsCommandAreOneScenario_data()
{
    QTest::addColumn<int>("kind");
    for (const WorkloadKind kind : WORKLOAD_KINDS)
        QTest::newRow(qPrintable(workloadKindName(WorkloadSourceSpec(kind)))) << int(kind);
}

void TestSession::aSessionAndItsCommandAreOneScenario()
{
    // A saved session and the window's "Copy as command" are two spellings of one scenario
    // (core/scenario/scenario_command.h): for every workload kind, the scenario read back
    // from the session file and the one the CLI reads from the command are the one saved.
    QFETCH(int, kind);
    Session s = sampleSession();
    WorkloadSourceSpec &w = s.scenario.workload;
    w.kind = static_cast<WorkloadKind>(kind);
    if (w.kind == WorkloadKind::Spec)
        w.text = "periodic:interval_us=100 + poisson:mean_us=500";
    if (w.kind == WorkloadKind::ClosedLoop)
        w.text = "io:service_us=50,work_us=10";
    if (w.kind == WorkloadKind::Trace) {
        w.path = "/data/traces/juno.dat";
        w.cpu = 3;
    }
    s.scenario.wakeDelaysPath = u"/data/wult/skx c6.csv"_s; // compare's --wake-delays, a space in it
    const scenario::Scenario saved = scenarioOf(s.scenario);
    QCOMPARE(saved.latencyLimitNs, w.kind == WorkloadKind::ClosedLoop ? Ns(-1) : Ns(50000));
    QCOMPARE(saved.wakeDelaysPath, std::string("/data/wult/skx c6.csv"));

    const Result<Session> l = sessionFromJson(sessionToJson(s), u"k.idlescope"_s);
    QVERIFY2(l.ok(), l.ok() ? "" : l.error().toString().c_str());
    QVERIFY(scenario::sameScenario(saved, scenarioOf(l->scenario)));

    const std::vector<std::string> args = scenario::compareArguments(saved, {"--table", "pseries-p10"});
    std::vector<scenario::CommandOption> options;
    for (std::size_t i = 3; i + 1 < args.size(); i += 2) // after "compare --table pseries-p10"
        options.emplace_back(args[i].substr(2), args[i + 1]);
    const Result<scenario::Scenario> read = scenario::scenarioFromOptions(options);
    QVERIFY2(read.ok(), read.ok() ? "" : read.error().toString().c_str());
    QVERIFY(scenario::sameScenario(saved, *read));
    QCOMPARE(read->governors.front().settings, s.scenario.governors.front().settings);
    QCOMPARE(read->wakeDelaysPath, saved.wakeDelaysPath);
    s.scenario.wakeDelaysPath.clear(); // none: the key is not written, so older sessions read the same
    QVERIFY(!sessionToJson(s).contains("wake_delays"));
}

void TestSession::targetKindsRoundTrip()
{
    // Every kind has its name, the one sessions have always written, and reads back as itself.
    const std::pair<TargetKind, const char *> names[] = {{TargetKind::Builtin, "builtin"},
                                                         {TargetKind::File, "file"},
                                                         {TargetKind::Machine, "machine"}};
    QCOMPARE(std::size(TARGET_KINDS), std::size(names));
    for (const auto &[kind, name] : names) {
        QCOMPARE(targetKindName(kind), QLatin1String(name));
        const Result<TargetKind> back = targetKindFromName(QLatin1String(name), u"a.idlescope"_s, u"target.kind"_s);
        QVERIFY2(back.ok(), name);
        QCOMPARE(*back, kind);
        // Through a session file too.
        Session s = sampleSession();
        s.scenario.target.kind = kind;
        const QByteArray json = sessionToJson(s);
        QVERIFY2(json.contains("\"kind\": \"" + QByteArray(name) + '"'), name);
        const Result<Session> l = sessionFromJson(json, u"k.idlescope"_s);
        QVERIFY2(l.ok(), l.ok() ? name : l.error().toString().c_str());
        QCOMPARE(l->scenario.target.kind, kind);
    }
}

void TestSession::unknownTargetKindIsRefused()
{
    const Result<TargetKind> k = targetKindFromName(u"sysfs"_s, u"a.idlescope"_s, u"target.kind"_s);
    QVERIFY(!k.ok());
    QCOMPARE(k.error().file, std::string("a.idlescope"));
    QCOMPARE(k.error().field, std::string("target.kind"));
    QCOMPARE(k.error().message, std::string("unknown target kind 'sysfs' (one of: builtin, file, machine)"));
    // A session naming it is refused with its file and the field.
    checkSampleRefused("\"kind\": \"builtin\"", "\"kind\": \"sysfs\"", k.error());
}

void TestSession::workloadKindsRoundTrip()
{
    // Every kind with the name sessions have always written for it (a closed loop is a "spec"
    // with "loop": "closed"; a generator is named by its generator), through the names and
    // through a session file.
    struct Named {
        WorkloadKind kind;
        const char *text, *name, *loop;
    };
    const Named names[] = {{WorkloadKind::Generator, "", "poisson", ""},
                           {WorkloadKind::Spec, "poisson:mean_us=150 + periodic:interval_us=70", "spec", ""},
                           {WorkloadKind::ClosedLoop, "io:service_us=50,work_us=10,iodepth=1,ops=10000", "spec",
                            "closed"},
                           {WorkloadKind::Csv, "", "csv", ""},
                           {WorkloadKind::Trace, "", "trace", ""}};
    QCOMPARE(std::size(WORKLOAD_KINDS), std::size(names));
    for (const Named &n : names) {
        WorkloadSourceSpec w;
        w.kind = n.kind;
        w.text = n.kind == WorkloadKind::Generator ? generatorWorkload(*workloads::findGenerator("poisson")).text
                                                   : std::string(n.text);
        QCOMPARE(workloadKindName(w), QLatin1String(n.name));
        const Result<WorkloadKind> back =
            workloadKindFromName(QLatin1String(n.name), QLatin1String(n.loop), u"a.idlescope"_s, u"workload.kind"_s);
        QVERIFY2(back.ok(), n.name);
        QCOMPARE(*back, n.kind);
        Session s = sampleSession();
        s.scenario.workload = w;
        const QByteArray json = sessionToJson(s);
        QVERIFY2(json.contains("\"kind\": \"" + QByteArray(n.name) + '"'), n.name);
        QCOMPARE(json.contains("\"loop\": \"closed\""), n.kind == WorkloadKind::ClosedLoop);
        const Result<Session> l = sessionFromJson(json, u"k.idlescope"_s);
        QVERIFY2(l.ok(), l.ok() ? n.name : l.error().toString().c_str());
        QCOMPARE(l->scenario.workload.kind, n.kind);
        QVERIFY(sameSession(s, *l));
    }
}

void TestSession::unknownWorkloadKindIsRefused()
{
    const Result<WorkloadKind> k = workloadKindFromName(u"stream"_s, QString(), u"a.idlescope"_s, u"workload.kind"_s);
    QVERIFY(!k.ok());
    QCOMPARE(k.error().file, std::string("a.idlescope"));
    QCOMPARE(k.error().field, std::string("workload.kind"));
    QVERIFY2(k.error().message.starts_with("unknown workload kind 'stream' (one of: spec, csv, trace, or a generator: "
                                           "periodic, "),
             k.error().message.c_str());
    // A session naming it is refused with its file and the field (it was read, then failed to simulate).
    checkSampleRefused("\"kind\": \"periodic\"", "\"kind\": \"stream\"", k.error());
}

void TestSession::fileNamesFormatVersion()
{
    const QByteArray json = sessionToJson(sampleSession());
    QVERIFY(json.startsWith("{\n    \"format_version\": 4,"));
}

namespace {
/// A session of the periodic generator with the parameters @p held (held units: ns, milli-%),
/// the others at their defaults, and @p spans spans.
Session periodicSession(std::initializer_list<std::pair<const char *, qint64>> held, qint64 spans = 200000)
{
    Session s = sampleSession();
    const workloads::GeneratorInfo *g = workloads::findGenerator("periodic");
    workloads::ParamValues values = g->defaults();
    for (const auto &[name, v] : held)
        values.set(name, v);
    s.scenario.workload = generatorWorkload(*g, spans);
    s.scenario.workload.text = workloads::generatorText(values);
    return s;
}
} // namespace

void TestSession::generatorParamsAreWrittenInTheUnitOfTheirName()
{
    // periodic's interval_us and jitter_us are held in ns (core/workloads/workload.h).
    const Session s = periodicSession({{"interval_us", 100000}, {"jitter_us", 2500}, {"kind", 1}}, 200000);
    const QByteArray json = sessionToJson(s);
    // 100000 ns is 100 us, 2500 ns is 2.5 us; counts and choices stay as they are.
    QVERIFY2(json.contains("\"interval_us\": 100,"), json.constData());
    QVERIFY2(json.contains("\"jitter_us\": 2.5,"), json.constData());
    QVERIFY(json.contains("\"spans\": 200000"));
    QVERIFY(json.contains("\"kind\": 1"));
    const Result<Session> back = sessionFromJson(json, QStringLiteral("v2.idlescope"));
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
    QCOMPARE(test::workloadParam(back->scenario.workload, "interval_us"), qint64(100000));
    QCOMPARE(test::workloadParam(back->scenario.workload, "jitter_us"), qint64(2500));
    QVERIFY(sameSession(s, *back));

    // A hand-edited 50 is 50 us (format 1 read it as 50 ns = 0.050 us).
    const QByteArray edited = replaced(json, "\"interval_us\": 100,", "\"interval_us\": 50,");
    QCOMPARE(test::workloadParam(sessionFromJson(edited, QStringLiteral("e.idlescope"))->scenario.workload,
                                 "interval_us"),
             qint64(50000));
    // Finer than the held ns, or beyond the generator's range: refused, naming the key.
    for (const char *bad : {"\"interval_us\": 0.0005,", "\"interval_us\": -3,", "\"interval_us\": \"x\","}) {
        const Result<Session> r =
            sessionFromJson(replaced(json, "\"interval_us\": 100,", bad), QStringLiteral("b.idlescope"));
        QVERIFY2(!r.ok(), bad);
        QCOMPARE(r.error().field, std::string("workload.params.interval_us"));
    }
}

void TestSession::formatVersion1IsReadAsItIs()
{
    // Written by format 1: the held ns under the "_us" name (100000 for 100 us; run_us and
    // next_timer_us at their defaults, 5 us and 10 ms).
    const Session s = periodicSession({{"interval_us", 100000}}, 1000);
    QByteArray v1 = replaced(sessionToJson(s), "\"format_version\": 4", "\"format_version\": 1");
    // Format 1 held ns under the "_us" name: slack_us's default 50 us is 50000 there (as 50 it
    // would be 0.05 us, a slack the ipi kind refuses).
    v1 = replaced(v1, "\"slack_us\": 50", "\"slack_us\": 50000");
    v1 = replaced(v1, "\"interval_us\": 100,", "\"interval_us\": 100000,");
    v1 = replaced(v1, "\"run_us\": 5,", "\"run_us\": 5000,");
    v1 = replaced(v1, "\"next_timer_us\": 10000,", "\"next_timer_us\": 10000000,");
    const Result<Session> r = sessionFromJson(v1, QStringLiteral("v1.idlescope"));
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
    QCOMPARE(test::workloadParam(r->scenario.workload, "interval_us"), qint64(100000));
    // Format 1 seeded the generator the legacy way: marked so, its spans stay its own.
    QVERIFY(usesLegacySeeding(r->scenario.workload));
    Session unmarked = *r;
    unmarked.scenario.workload.legacySeeding = false;
    QVERIFY(sameSession(s, unmarked));
    // Saved again, it is format 4 with the value in us (and the mark).
    QVERIFY(sessionToJson(*r).contains("\"interval_us\": 100,"));
}

void TestSession::format3FilesKeepTheirSpans()
{
    // Format 4 added parameters whose defaults change spans: the hrtimer slack of a timer sleep
    // (slack_us, 50 us) and MTD's waits per I/O (waits, 0 = the device's 4). A format 3 file has
    // neither key; read as format 3 it keeps its old spans (no slack, one wait), read as format 4
    // it takes the defaults; a key the file has is read as it is. periodic's kind 0 is timer,
    // 1 ipi; io's device 3 is mtd.
    const auto readBack = [](const char *generator, const char *choice, qint64 index, const char *param, int version,
                             bool dropKey) {
        Session s = sampleSession();
        const workloads::GeneratorInfo *g = workloads::findGenerator(generator);
        s.scenario.workload = generatorWorkload(*g, 1000);
        workloads::ParamValues values = g->defaults();
        values.set(choice, index);
        s.scenario.workload.text = workloads::generatorText(values);
        QJsonObject root = QJsonDocument::fromJson(sessionToJson(s)).object();
        QJsonObject workload = root.value(QStringLiteral("workload")).toObject();
        QJsonObject params = workload.value(QStringLiteral("params")).toObject();
        if (dropKey)
            params.remove(QString::fromUtf8(param)); // a format 3 file does not have it
        workload.insert(QStringLiteral("params"), params);
        root.insert(QStringLiteral("workload"), workload);
        root.insert(QStringLiteral("format_version"), version);
        const Result<Session> r = sessionFromJson(QJsonDocument(root).toJson(), QStringLiteral("f.idlescope"));
        if (!r)
            qWarning("%s", r.error().toString().c_str());
        return r ? test::workloadParam(r->scenario.workload, param) : qint64(-2);
    };
    QCOMPARE(readBack("periodic", "kind", 0, "slack_us", 3, true), qint64(0));
    QCOMPARE(readBack("periodic", "kind", 0, "slack_us", 4, true), qint64(50000));
    QCOMPARE(readBack("periodic", "kind", 0, "slack_us", 3, false), qint64(50000));
    QCOMPARE(readBack("io", "device", 3, "waits", 3, true), qint64(1));
    QCOMPARE(readBack("io", "device", 3, "waits", 4, true), qint64(0));
    // Where the parameter does nothing (an IPI wakeup has no timer, an NVMe read one wait), a
    // format 3 file keeps the default: a value written there would be refused as meaningless.
    QCOMPARE(readBack("periodic", "kind", 1, "slack_us", 3, true), qint64(50000));
    QCOMPARE(readBack("io", "device", 0, "waits", 3, true), qint64(0));
}

void TestSession::overwriteLeavesNoTemporaryFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("b.idlescope"));
    Session s = sampleSession();
    QVERIFY(saveSession(s, path).ok());
    s.scenario.latencyLimitNs = 7;
    QVERIFY(saveSession(s, path).ok());
    QCOMPARE(loadSession(path)->scenario.latencyLimitNs, Ns(7));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("b.idlescope")});

    // A folder that does not exist: an error naming the path, nothing written.
    const QString bad = dir.filePath(QStringLiteral("no/such/dir/c.idlescope"));
    const Status st = saveSession(s, bad);
    QVERIFY(!st.ok());
    QCOMPARE(QString::fromStdString(st.error().file), bad);
}

void TestSession::newerVersionIsRejected()
{
    const QByteArray json = replaced(sessionToJson(sampleSession()), "\"format_version\": 4", "\"format_version\": 5");
    const Result<Session> r = sessionFromJson(json, QStringLiteral("new.idlescope"));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().field, std::string("format_version"));
    QCOMPARE(r.error().file, std::string("new.idlescope"));
    QVERIFY(QString::fromStdString(r.error().message).contains(QStringLiteral("newer idlescope (format 5)")));
}

void TestSession::badFieldIsNamed_data()
{
    QTest::addColumn<QByteArray>("from");
    QTest::addColumn<QByteArray>("to");
    QTest::addColumn<QString>("field");

    QTest::newRow("no version") << QByteArray("\"format_version\": 4,") << QByteArray()
                                << QStringLiteral("format_version");
    QTest::newRow("version is text") << QByteArray("\"format_version\": 4") << QByteArray("\"format_version\": \"2\"")
                                     << QStringLiteral("format_version");
    QTest::newRow("unknown variant") << QByteArray("\"variant\": \"oracle\"")
                                     << QByteArray("\"variant\": \"menu-9.99\"")
                                     << QStringLiteral("governors[1].variant");
    QTest::newRow("bad colour") << QByteArray("\"color\": \"#333333\"") << QByteArray("\"color\": \"not-a-colour\"")
                                << QStringLiteral("governors[1].color");
    QTest::newRow("negative exit latency")
        << QByteArray("\"exit_latency_ns\": 11000") << QByteArray("\"exit_latency_ns\": -5")
        << QStringLiteral("target.table.exit_latency_ns");
    QTest::newRow("no target") << QByteArray("\"target\":") << QByteArray("\"targetX\":") << QStringLiteral("target");
    QTest::newRow("fractional latency limit")
        << QByteArray("\"latency_limit_ns\": 50000") << QByteArray("\"latency_limit_ns\": 50000.5")
        << QStringLiteral("latency_limit_ns");
    // The window offers 0..5 ms; a larger limit was clamped to 5 ms without a word.
    QTest::newRow("latency limit beyond 5 ms")
        << QByteArray("\"latency_limit_ns\": 50000") << QByteArray("\"latency_limit_ns\": 999999999999")
        << QStringLiteral("latency_limit_ns");
    QTest::newRow("entry is text") << QByteArray("\"selected_entry\": 42") << QByteArray("\"selected_entry\": \"42\"")
                                   << QStringLiteral("view.selected_entry");
    QTest::newRow("no such governor selected")
        << QByteArray("\"selected_governor\": 1") << QByteArray("\"selected_governor\": 5")
        << QStringLiteral("view.selected_governor");
    QTest::newRow("param is a list") << QByteArray("\"jitter_us\": 0.25") << QByteArray("\"jitter_us\": [1, 2]")
                                     << QStringLiteral("workload.params.jitter_us");
}

void TestSession::badFieldIsNamed()
{
    QFETCH(QByteArray, from);
    QFETCH(QByteArray, to);
    QFETCH(QString, field);
    const QByteArray json = replaced(sessionToJson(sampleSession()), from.constData(), to.constData());
    const Result<Session> r = sessionFromJson(json, QStringLiteral("bad.idlescope"));
    QVERIFY(!r.ok());
    QCOMPARE(QString::fromStdString(r.error().field), field);
    QCOMPARE(r.error().file, std::string("bad.idlescope"));
    QVERIFY(!r.error().message.empty());
}

void TestSession::syntaxErrorNamesLine()
{
    // QJsonObject writes keys in alphabetical order: line 3 is "generator".
    // Drop its colon.
    const QByteArray json = replaced(sessionToJson(sampleSession()), "\"generator\": ", "\"generator\" ");
    const Result<Session> r = sessionFromJson(json, QStringLiteral("broken.idlescope"));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().line, std::int64_t(3));
}

void TestSession::missingFileIsAnError()
{
    const Result<Session> r = loadSession(QStringLiteral("/nonexistent/x.idlescope"));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().file, std::string("/nonexistent/x.idlescope"));
}

void TestSession::relativePathsAreTheSessionFolders()
{
    // The stranger's csv-rel.idlescope ("path": "pw.csv" beside it, 4000 rows) opened from
    // another folder holding a pw.csv of its own (50 rows) ran the 50-row file: the workload's
    // path, and the target's, and "wake_delays", were the current folder's; only src: was the
    // session's. Every relative path is the session's folder's now, whatever the current
    // folder and however the session itself is named (absolute or relative to it).
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkpath(u"h"_s) && QDir(dir.path()).mkpath(u"other"_s));
    Session s = sampleSession();
    s.scenario.workload.kind = WorkloadKind::Csv;
    s.scenario.workload.path = "pw.csv";
    s.scenario.target.kind = TargetKind::File;
    s.scenario.target.path = u"sub/table.json"_s;
    s.scenario.wakeDelaysPath = u"../h/wake.csv"_s;
    const QString file = dir.filePath(u"h/s.idlescope"_s);
    QVERIFY(saveSession(s, file).ok());

    const QString before = QDir::currentPath();
    QVERIFY(QDir::setCurrent(dir.filePath(u"other"_s)));
    const Result<Session> absolute = loadSession(file);
    const Result<Session> relative = loadSession(u"../h/s.idlescope"_s);
    QVERIFY(QDir::setCurrent(before));
    for (const Result<Session> *r : {&absolute, &relative}) {
        QVERIFY2(r->ok(), r->ok() ? "" : r->error().toString().c_str());
        // The session's folder, by hand: <dir>/h.
        QCOMPARE(QString::fromStdString((*r)->scenario.workload.path), dir.filePath(u"h/pw.csv"_s));
        QCOMPARE((*r)->scenario.target.path, dir.filePath(u"h/sub/table.json"_s));
        QCOMPARE((*r)->scenario.wakeDelaysPath, dir.filePath(u"h/wake.csv"_s));
    }
    // Written as held (absolute once read): saved again anywhere, it reads the same files.
    const QString moved = dir.filePath(u"other/again.idlescope"_s);
    QVERIFY(saveSession(*absolute, moved).ok());
    const Result<Session> again = loadSession(moved);
    QVERIFY(again.ok());
    QCOMPARE(QString::fromStdString(again->scenario.workload.path), dir.filePath(u"h/pw.csv"_s));
    QCOMPARE(again->scenario.wakeDelaysPath, dir.filePath(u"h/wake.csv"_s));
}

void TestSession::fuzzSeedsAreSessions()
{
    // tests/fuzz/seeds/fuzz_session_json (fuzz_session_json's seeds) must be sessions this
    // build opens, and reopens after saving, or the fuzzer starts from errors. Governor
    // counts as written in each file (the "governors" arrays).
    const QString dir = test::sourceDir() + QStringLiteral("/tests/fuzz/seeds/fuzz_session_json/");
    const std::pair<const char *, size_t> seeds[] = {{"csv-stream.idlescope", 0},
                                                     {"file-poisson-teo.idlescope", 3},
                                                     {"format1-juno.idlescope", 1},
                                                     {"periodic-haltpoll.idlescope", 2},
                                                     {"trace-recorded.idlescope", 2}};
    QCOMPARE(QDir(dir).entryList(QDir::Files).size(), qsizetype(std::size(seeds)));
    for (const auto &[name, governors] : seeds) {
        const Result<Session> s = loadSession(dir + QString::fromLatin1(name));
        QVERIFY2(s.ok(), s.ok() ? name : s.error().toString().c_str());
        QCOMPARE(s->scenario.governors.size(), governors);
        const Result<Session> back = sessionFromJson(sessionToJson(*s), QStringLiteral("saved.idlescope"));
        QVERIFY2(back.ok() && sameSession(*s, *back), name);
    }
}

void TestSession::fuzzFindingsAreRefused()
{
    // tests/fuzz/regressions/fuzz_session_json: sessions the reader accepted but could not read
    // back once saved (fuzz_session_json's round trip). Each is refused now, naming its field.
    const QString dir = test::sourceDir() + QStringLiteral("/tests/fuzz/regressions/fuzz_session_json/");
    // A format 1 file holds "_us" values in ns: "jitter_us": 2.5 was 2.5 ns, kept as a double,
    // saved as 0.0025 us, which format 2 refuses (more than 3 decimals). A held value must be
    // a whole number, in range, as format 2 checks it.
    const struct {
        const char *file, *field, *message;
    } findings[] = {
        {"format1-fraction-of-ns-00759365.idlescope", "workload.params.jitter_us", "must be a whole number (got 2.5)"}};
    QCOMPARE(QDir(dir).entryList(QDir::Files).size(), qsizetype(std::size(findings)));
    for (const auto &f : findings) {
        const Result<Session> s = loadSession(dir + QString::fromLatin1(f.file));
        QVERIFY2(!s.ok(), f.file);
        QCOMPARE(s.error().field, std::string(f.field));
        QCOMPARE(s.error().message, std::string(f.message));
    }
    // The same value in range and whole is read as it is (2 ns of jitter) and survives a save.
    const Session v1 = periodicSession({{"jitter_us", 2}});
    QByteArray json = replaced(sessionToJson(v1), "\"format_version\": 4", "\"format_version\": 1");
    json = replaced(json, "\"slack_us\": 50", "\"slack_us\": 50000"); // format 1: held ns
    json = replaced(json, "\"jitter_us\": 0.002", "\"jitter_us\": 2");
    const Result<Session> r = sessionFromJson(json, QStringLiteral("v1.idlescope"));
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
    QCOMPARE(test::workloadParam(r->scenario.workload, "jitter_us"), qint64(2));
    const Result<Session> back = sessionFromJson(sessionToJson(*r), QStringLiteral("saved.idlescope"));
    QVERIFY(back.ok() && sameSession(*r, *back));
    // Out of range in held units: jitter_us is 0..100 s, 100000000000 ns at most.
    const Result<Session> big = sessionFromJson(replaced(json, "\"jitter_us\": 2", "\"jitter_us\": 100000000001"),
                                                QStringLiteral("big.idlescope"));
    QVERIFY(!big.ok());
    QCOMPARE(big.error().field, std::string("workload.params.jitter_us"));
    QVERIFY2(big.error().message.find("is outside 0..100000000000") != std::string::npos, big.error().message.c_str());
}

// Issue 30 item 7: a session of 50,000,001 spans opened as 10,000,000 (the spans field's
// limit), without a word. Now the count the window cannot make is refused, naming the field,
// and one it can make is kept as it is (the field holds it).
void TestSession::spansBeyondTheWindowAreRefused()
{
    const QByteArray json = sessionToJson(periodicSession({{"interval_us", 100000}}, 1000));
    QVERIFY(json.contains("\"spans\": 1000"));
    const Result<Session> over =
        sessionFromJson(replaced(json, "\"spans\": 1000", "\"spans\": 50000001"), QStringLiteral("big.idlescope"));
    QVERIFY(!over.ok());
    QCOMPARE(over.error().field, std::string("workload.params.spans"));
    QCOMPARE(over.error().message, std::string("50000001 spans: the window generates 1 to 10000000 for this workload"));
    const Result<Session> zero =
        sessionFromJson(replaced(json, "\"spans\": 1000", "\"spans\": 0"), QStringLiteral("zero.idlescope"));
    QVERIFY(!zero.ok());
    QCOMPARE(zero.error().field, std::string("workload.params.spans"));
    const Result<Session> most =
        sessionFromJson(replaced(json, "\"spans\": 1000", "\"spans\": 10000000"), QStringLiteral("most.idlescope"));
    QVERIFY2(most.ok(), most.ok() ? "" : most.error().toString().c_str());
    QCOMPARE(most->scenario.workload.spans, qint64(10000000));
}

void TestSession::seedIsReadExactlyOrRefused()
{
    // A hostile user's seed-neg and seed-big: "seed": -1 ran as 0 and 4294967296 as 1000000
    // without a word, and 18446744073709551616 (2^64) was refused as "got 1.84467e+19". A seed
    // is what idlescope-cli --seed takes, 0 to 2^63 - 1: read exactly, or refused with the range.
    const QByteArray json = sessionToJson(sampleSession());
    const char *sampleSeed = "\"seed\": 9007199254740993";
    for (const char *exact : {"4294967296", "9223372036854775807", "0"}) {
        const Result<Session> r =
            sessionFromJson(replaced(json, sampleSeed, (std::string("\"seed\": ") + exact).c_str()), u"s.idlescope"_s);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        QCOMPARE(r->scenario.workload.seed, std::stoll(exact));
    }
    const std::pair<const char *, const char *> refused[] = {
        {"-1", "-1 is outside the seeds 0 to 9223372036854775807 (idlescope-cli --seed)"},
        {"18446744073709551616",
         "18446744073709551616 is outside the seeds 0 to 9223372036854775807 (idlescope-cli --seed)"},
        {"9223372036854775808",
         "9223372036854775808 is outside the seeds 0 to 9223372036854775807 (idlescope-cli --seed)"},
    };
    for (const auto &[value, message] : refused)
        checkSampleRefused(sampleSeed, (std::string("\"seed\": ") + value).c_str(),
                           Error{"", 0, "workload.params.seed", message});
}

void TestSession::governorsBeyondTheCapAreRefused()
{
    // A stranger's session with a thousand labelled oracles kept the window busy for
    // minutes (a hostile tester's gov1000.idlescope): 64 are read, 65 refused.
    Session s = sampleSession();
    s.scenario.governors.clear();
    for (int i = 0; i < 65; ++i) {
        GovernorSpec g{"oracle", {}, QColor(0x33, 0x33, 0x33)};
        g.label = "o" + std::to_string(i);
        s.scenario.governors.push_back(g);
    }
    s.view.selectedGovernor = 0;
    const Result<Session> over = sessionFromJson(sessionToJson(s), QStringLiteral("many.idlescope"));
    QVERIFY(!over.ok());
    QCOMPARE(over.error().field, std::string("governors"));
    QCOMPARE(over.error().message, std::string("65 governors; a session holds at most 64"));
    s.scenario.governors.pop_back();
    const Result<Session> most = sessionFromJson(sessionToJson(s), QStringLiteral("most.idlescope"));
    QVERIFY2(most.ok(), most.ok() ? "" : most.error().toString().c_str());
    QCOMPARE(most->scenario.governors.size(), size_t(64));
}

void TestSession::viewStateRoundTrip()
{
    ViewState v;
    v.setFullRange(0, 1000000);
    v.zoomTo(2000, 90000);
    v.setCursorNs(5000);
    v.selectEntry(2, 77);
    const SessionView sv = captureView(v);
    QCOMPARE(sv, (SessionView{2000, 90000, 5000, 2, 77}));

    ViewState w;
    w.setFullRange(0, 1000000);
    applyView(sv, w);
    QCOMPARE(w.rangeStartNs(), qint64(2000));
    QCOMPARE(w.rangeEndNs(), qint64(90000));
    QCOMPARE(w.cursorNs(), qint64(5000));
    QCOMPARE(w.selectedGovernor(), 2);
    QCOMPARE(w.selectedEntry(), qint64(77));
}

void TestSession::recentFiles()
{
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    RecentFiles recent(&settings);
    QVERIFY(recent.files().isEmpty());
    for (int i = 0; i < 12; ++i)
        recent.add(dir.filePath(QStringLiteral("s%1.idlescope").arg(i)));
    QStringList list = recent.files();
    QCOMPARE(list.size(), RecentFiles::MAX_FILES);
    QCOMPARE(list.first(), dir.filePath(QStringLiteral("s11.idlescope")));
    QCOMPARE(list.last(), dir.filePath(QStringLiteral("s2.idlescope")));

    // Re-adding moves to the front without duplicating.
    recent.add(dir.filePath(QStringLiteral("s5.idlescope")));
    list = recent.files();
    QCOMPARE(list.size(), RecentFiles::MAX_FILES);
    QCOMPARE(list.first(), dir.filePath(QStringLiteral("s5.idlescope")));
    QCOMPARE(list.count(dir.filePath(QStringLiteral("s5.idlescope"))), 1);

    recent.remove(dir.filePath(QStringLiteral("s5.idlescope")));
    QCOMPARE(recent.files().size(), RecentFiles::MAX_FILES - 1);

    // The menu lists them and emits the path picked.
    RecentFilesMenu menu(nullptr, &settings);
    QCOMPARE(menu.actions().size(), (RecentFiles::MAX_FILES - 1) + 2); // files, separator, clear
    QString picked;
    QObject::connect(&menu, &RecentFilesMenu::openRequested, [&](const QString &p) { picked = p; });
    menu.actions().first()->trigger();
    QCOMPARE(picked, dir.filePath(QStringLiteral("s11.idlescope")));

    recent.clear();
    QVERIFY(recent.files().isEmpty());
}

QTEST_MAIN(TestSession)
#include "tst_session.moc"
