// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * One-state tables (issue 15, item 4). haltpoll-latest on any one-state table
 * and ladder-latest on a single polling state returned index 1, one past the
 * table, and the replay read and wrote past its state arrays. Kernel facts:
 * since v7.0 (e5c9ffc6ae1b, "Skip governor when only one idle state is
 * available") cpuidle_select() returns state 0 with *stop_tick = false and
 * does not call the governor; older kernels call the governor, whose own
 * "state_count <= 1" test returns 0. So every variant must enter state 0 on
 * every entry, and the v7.0 ones (ladder-latest, haltpoll-latest, the menu /
 * teo v7.0 forms) keep the tick.
 *
 * Also the replay's poll loop with a poll limit of 0 (item 13): it never
 * advanced time, so a span under a zero latency limit never ended.
 */
#include "core/formats/stream_csv.h"
#include "core/governors/explain.h"
#include "core/governors/registry.h"
#include "core/io/table_json.h"
#include "core/replay/governor_factory.h"
#include "core/replay/reference_replay.h"

#include "tests/test_paths.h"

#include <QTest>

using namespace idlescope;

class TestSingleState : public QObject {
    Q_OBJECT

private slots:
    void everyVariantEntersStateZero_data()
    {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("variant");
        for (const char *t : {"table-single-c1-state.json", "table-single-poll-state.json"})
            for (const VariantInfo *v : allVariants())
                QTest::addRow("%s %s", t, v->id) << QString::fromLatin1(t) << QString::fromLatin1(v->id);
    }

    void everyVariantEntersStateZero()
    {
        QFETCH(QString, table);
        QFETCH(QString, variant);
        const Result<IdleStateTable> t =
            readTableJson((test::testDataDir() + QStringLiteral("/reliability/") + table).toStdString());
        QVERIFY(t.ok());
        QCOMPARE(t->count(), 1);
        const Result<IdleStream> stream =
            readStreamCsv((test::kitDir() + QStringLiteral("/streams/pipe-wakeups.csv")).toStdString());
        QVERIFY(stream.ok());
        std::unique_ptr<Governor> gov = createGovernor(variant.toStdString());
        QVERIFY(gov);
        const std::string kernel = gov->variant().kernel;
        const bool v7 = kernel.rfind("v7", 0) == 0;

        std::int64_t wrongState = 0, tickStopped = 0, explained = 0;
        const ReplaySummary s = replayStream(*t, *stream, *gov, [&](const EntryRecord &e, const Governor &g) {
            wrongState += e.state != 0;
            tickStopped += e.stopTick;
            // The words name states from the table: they must stay inside it too.
            explained += !explainReasoning(g.reasoning(), *t).empty();
        });
        QCOMPARE(wrongState, std::int64_t{0});
        QVERIFY(s.entries > 0);
        QCOMPARE(explained, s.entries);
        // Every entry is counted in the one state's usage (entries = sum of usage).
        QCOMPARE(s.states[0].usage, s.entries);
        for (size_t i = 1; i < s.states.size(); ++i)
            QCOMPARE(s.states[i].usage, std::int64_t{0});
        if (v7 && gov->variant().family != std::string("oracle"))
            QCOMPARE(tickStopped, std::int64_t{0}); // cpuidle_select() sets *stop_tick = false
    }

    void ladderAndHaltpollSayTheCoreChose()
    {
        const Result<IdleStateTable> t = readTableJson(
            (test::testDataDir() + QStringLiteral("/reliability/table-single-poll-state.json")).toStdString());
        QVERIFY(t.ok());
        for (const char *id : {"ladder-latest", "haltpoll-latest"}) {
            std::unique_ptr<Governor> gov = createGovernor(id);
            CpuidleDevice dev;
            gov->enable(*t, dev);
            SelectContext ctx;
            ctx.latencyReqNs = 2000000000;
            ctx.tickNsec = 4000000;
            const Selection sel = gov->select(*t, dev, ctx);
            QCOMPARE(sel.stateIndex, 0);
            QCOMPARE(sel.stopTick, false);
            QVERIFY2(describeReasoning(gov->reasoning()).find("action=core_single_state") != std::string::npos,
                     describeReasoning(gov->reasoning()).c_str());
        }
    }

    void zeroPollLimitStillEndsTheSpan()
    {
        // menu-5.10 has the v5.5 poll rule: the limit is state 1's target
        // residency, here 0. One 1000 ns span under latency 0: menu polls
        // (state 0); each entry lasts at least 1 ns, so at most 1000 entries
        // and the span ends at 1000 ns. It used to loop for ever.
        const Result<IdleStateTable> t = parseTableJson(
            R"({"id":"z","states":[{"name":"POLL","exit_latency_ns":0,"target_residency_ns":0,"polling":true},)"
            R"({"name":"C1","exit_latency_ns":0,"target_residency_ns":0}]})",
            "zero");
        QVERIFY(t.ok());
        const IdleStream stream{IdleSpan{0, 1000, 1000, 0, 0}};
        std::unique_ptr<Governor> gov = createGovernor("menu-5.10");
        const ReplaySummary s = replayStream(*t, stream, *gov);
        QCOMPARE(s.entries, std::int64_t{1000});
        QCOMPARE(s.states[0].usage, std::int64_t{1000});
        QCOMPARE(s.endNowNs, REPLAY_START_NS + 1000);
    }
};

QTEST_GUILESS_MAIN(TestSingleState)
#include "tst_single_state.moc"
