// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * A scenario's parts as a session's JSON (core/io/scenario_json.h). The
 * expected objects are written out by hand from the format the session's
 * comment gives: a generator's parameters each in the unit of its name
 * (periodic's interval_us held as 100000 ns is written 100, jitter_us 250 ns
 * is 0.25; its kind "ipi" is choice 1 of timer, ipi, pipe), a file's stamp and
 * CPU, a governor's label only for a second instance.
 */
#include "core/io/json_field_reader.h"
#include "core/io/scenario_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <string>

using namespace idlescope;
using scenario::WorkloadKind;
using scenario::WorkloadSource;

namespace {

QJsonObject objectOf(const char *json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

/// @p o read as the "workload" object of a format @p version session into @p w.
Result<WorkloadSource> readInto(const QJsonObject &o, WorkloadSource w, qint64 version = 3)
{
    JsonFieldReader r(QStringLiteral("s.idlescope"));
    readWorkloadSource(r, o, QStringLiteral("workload"), version, QStringLiteral("/sessions"), w);
    if (!r.ok())
        return r.error();
    return w;
}

} // namespace

class TestScenarioJson : public QObject {
    Q_OBJECT

private slots:
    void generatorIsWrittenInTheUnitsOfItsNames()
    {
        WorkloadSource w;
        w.kind = WorkloadKind::Generator;
        w.text = "periodic:kind=ipi,interval_us=100,jitter_us=0.25,run_us=7,next_timer_us=2000,slack_us=50";
        w.spans = 500;
        w.seed = 9;
        QCOMPARE(workloadSourceJson(w),
                 objectOf(R"({"kind": "periodic", "path": "", "params": {"kind": 1, "interval_us": 100,
                             "jitter_us": 0.25, "run_us": 7, "next_timer_us": 2000, "slack_us": 50, "spans": 500,
                             "seed": 9}})"));
        // An old session's seeding is marked, and the same object reads back to the same source.
        w.legacySeeding = true;
        const QJsonObject o = workloadSourceJson(w);
        QCOMPARE(o.value(QStringLiteral("params")).toObject().value(QStringLiteral("seeding")).toString(),
                 QStringLiteral("legacy"));
        const Result<WorkloadSource> back = readInto(o, WorkloadSource{});
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
        QCOMPARE(back->kind, WorkloadKind::Generator);
        QCOMPARE(back->text, w.text);
        QCOMPARE(back->spans, std::int64_t(500));
        QCOMPARE(back->seed, std::int64_t(9));
        QVERIFY(back->legacySeeding);
    }

    void filesAndLoopsKeepTheirKeys()
    {
        WorkloadSource trace;
        trace.kind = WorkloadKind::Trace;
        trace.path = "/t/juno.dat";
        trace.cpu = 3;
        trace.fileStamp = "12:34";
        QCOMPARE(workloadSourceJson(trace),
                 objectOf(R"({"kind": "trace", "path": "/t/juno.dat", "params": {"cpu": 3, "file_stamp": "12:34"}})"));
        WorkloadSource loop;
        loop.kind = WorkloadKind::ClosedLoop;
        loop.text = "io:service_us=50,work_us=10";
        loop.spans = 20;
        QCOMPARE(workloadSourceJson(loop), objectOf(R"({"kind": "spec", "path": "", "params": {"loop": "closed",
                                               "spec": "io:service_us=50,work_us=10", "spans": 20, "seed": 1}})"));
        for (const WorkloadSource &w : {trace, loop}) {
            const Result<WorkloadSource> back = readInto(workloadSourceJson(w), WorkloadSource{});
            QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
            QCOMPARE(back->kind, w.kind);
            QCOMPARE(back->text, w.text);
            QCOMPARE(back->path, w.path);
            QCOMPARE(back->cpu, w.cpu);
            QCOMPARE(back->fileStamp, w.fileStamp);
        }
    }

    void aKeyNotGivenKeepsTheFrontEndsDefault()
    {
        // The window generates 200000 spans unless told, the command line 10000: a session
        // without "spans" must read as the window's, so the reader keeps what it is given.
        const QJsonObject o = objectOf(R"({"kind": "spec", "params": {"spec": "poisson:mean_us=500"}})");
        WorkloadSource window;
        window.spans = 200000;
        const Result<WorkloadSource> w = readInto(o, window);
        QVERIFY(w.ok());
        QCOMPARE(w->spans, std::int64_t(200000));
        const Result<WorkloadSource> core = readInto(o, WorkloadSource{});
        QVERIFY(core.ok());
        QCOMPARE(core->spans, scenario::DEFAULT_SPANS);
        QCOMPARE(core->seed, std::int64_t(1));
    }

    void formatOneHeldUnitsAndSeeding()
    {
        // Format 1 wrote the held ns under an "_us" name, and seeded a generator itself.
        const QJsonObject o = objectOf(R"({"kind": "periodic", "params": {"interval_us": 50000}})");
        const Result<WorkloadSource> w = readInto(o, WorkloadSource{}, 1);
        QVERIFY2(w.ok(), w.ok() ? "" : w.error().toString().c_str());
        // slack_us came with format 4: an IPI wakeup has no timer, so its default stands.
        QCOMPARE(w->text, std::string("periodic:kind=ipi,interval_us=50,jitter_us=0,run_us=5,next_timer_us=10000,"
                                      "slack_us=50"));
        QVERIFY(w->legacySeeding);
    }

    void aBadFieldIsNamedByItsPath()
    {
        const Result<WorkloadSource> spans =
            readInto(objectOf(R"({"kind": "spec", "params": {"spec": "poisson", "spans": "many"}})"), {});
        QVERIFY(!spans.ok());
        QCOMPARE(spans.error().file, std::string("s.idlescope"));
        QCOMPARE(spans.error().field, std::string("workload.params.spans"));
        QCOMPARE(spans.error().message, std::string("must be a whole number"));
        const Result<WorkloadSource> kind = readInto(objectOf(R"({"kind": "stream"})"), {});
        QVERIFY(!kind.ok());
        QCOMPARE(kind.error().field, std::string("workload.kind"));
        QVERIFY2(kind.error().message.starts_with("unknown workload kind 'stream'"), kind.error().message.c_str());
    }

    void governorInstanceRoundTrip()
    {
        const scenario::GovernorInstance g{"menu-6.14", "m2", {{"INTERVALS", 12}}};
        const QJsonObject o = governorInstanceJson(g);
        QCOMPARE(o, objectOf(R"({"variant": "menu-6.14", "label": "m2",
                                "settings": [{"name": "INTERVALS", "value": 12}]})"));
        JsonFieldReader r(QStringLiteral("s.idlescope"));
        scenario::GovernorInstance back;
        readGovernorInstance(r, o, QStringLiteral("governors[0]"), QStringLiteral("/tmp"), back);
        QVERIFY2(r.ok(), r.error().toString().c_str());
        QCOMPARE(back.variant, g.variant);
        QCOMPARE(back.label, g.label);
        QCOMPARE(back.settings, g.settings);
        // The variant's own instance has no label; a label that is a variant's id is refused.
        QVERIFY(!governorInstanceJson({"oracle", "", {}}).contains(QStringLiteral("label")));
        JsonFieldReader bad(QStringLiteral("s.idlescope"));
        readGovernorInstance(bad, objectOf(R"({"variant": "oracle", "label": "menu-6.14"})"),
                             QStringLiteral("governors[1]"), QStringLiteral("/tmp"), back);
        QCOMPARE(bad.error().field, std::string("governors[1].label"));
        QCOMPARE(bad.error().message, std::string("'menu-6.14' is a variant's id"));
    }
};

QTEST_GUILESS_MAIN(TestScenarioJson)
#include "tst_scenario_json.moc"
