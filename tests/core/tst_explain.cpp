// SPDX-License-Identifier: GPL-3.0-or-later
// The words of the episode inspector (core/governors/explain.h) on known
// entries: the first entry of a run (no idle period came before it, but the
// kernel's teo_update() still runs on the zeroed device), menu's polling
// override on the default scenario's shape (POWER10, an IPI every 100 us),
// units in both styles and plural-correct counts.
#include "core/formats/stream_csv.h"
#include "core/governors/explain.h"
#include "core/governors/registry.h"
#include "core/io/table_json.h"
#include "core/replay/governor_run.h"
#include "tests/test_paths.h"

#include <QTest>

#include <string>
#include <vector>

using namespace idlescope;

namespace {

std::string kit(const char *rel)
{
    return (test::kitDir() + QStringLiteral("/") + QLatin1String(rel)).toStdString();
}

std::string joined(const std::vector<std::string> &lines)
{
    std::string s;
    for (const std::string &l : lines)
        s += l + "\n";
    return s;
}

bool anyContains(const std::vector<std::string> &lines, const std::string &needle)
{
    for (const std::string &l : lines)
        if (l.find(needle) != std::string::npos)
            return true;
    return false;
}

/// The default scenario's shape: an IPI 100 us after every span start, the
/// timer 5 ms away, 5 us busy in between.
IdleStream ipiEvery100us(int spans)
{
    return IdleStream(std::size_t(spans), IdleSpan{5000, 5000000, 100000, -1, 0});
}

} // namespace

class TestExplain : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        auto t = readTableJson(kit("tables/pseries-p10.json"));
        QVERIFY2(t, t ? "" : t.error().toString().c_str());
        m_p10 = *t;
        auto s = readStreamCsv(kit("streams/pipe-wakeups.csv"));
        QVERIFY2(s, s ? "" : s.error().toString().c_str());
        m_pipe = *s;
    }

    // teo-6.14's first entry on pipe-wakeups (POWER10: snooze 0/0, CEDE
    // 12/120 us, HZ 100): span 0 has its timer 13020489 ns away. The device
    // starts zeroed, so teo_update() runs on last_residency_ns 0 against a
    // saved sleep length of 0: both in bin 0, a hit (hits = [1024, 0]).
    void teoFirstEntry()
    {
        auto r = reasoningAt(m_p10, m_pipe, "teo-6.14", {}, 0);
        QVERIFY(r);
        const auto *t = std::get_if<TeoReasoning>(&r->reasoning);
        QVERIFY(t);
        QCOMPARE(t->update, TeoReasoning::Update::Hit);
        QCOMPARE(t->updateBin, 0);
        QCOMPARE(t->measuredNs, Ns(0));
        QCOMPARE(t->hits[0], 1024u);
        QCOMPARE(t->total, 1024u);
        QCOMPARE(t->idxHitSum, 1024u); // total - idx_hit_sum = 0: a share of nothing
        QCOMPARE(t->idxInterceptSum, 0u);
        QCOMPARE(t->chosenIdx, 1);
        ExplainContext cx;
        cx.firstSelect = true;
        const std::vector<std::string> expected = {
            "This is teo's first decision: no idle period came before it. teo_update() still ran, as in the "
            "kernel (the device starts zeroed, with last_state_idx 0), and counted that empty \"previous "
            "period\" as a hit in the snooze bin: the only event teo knows so far.",
            "The candidate was CEDE, the deepest enabled state.",
            "Intercepts in bins below CEDE: none (no events yet) besides the hits below it, so the intercepts "
            "rule does not apply and teo kept the candidate.",
            "The next timer was 13.02 ms away.",
            "It let the tick stop: CEDE is a hardware state and the next timer is 13.02 ms away, at least a "
            "tick period.",
            "teo chose CEDE.",
        };
        const std::vector<std::string> words = explainReasoning(r->reasoning, m_p10, cx);
        QCOMPARE(joined(words), joined(expected));
        QCOMPARE(expectationSentence(r->reasoning, m_p10, cx),
                 std::string("teo predicts no idle time: its hits and intercepts pointed to CEDE; the next timer "
                             "was 13.02 ms away."));
        // Told nothing about the run, the words still never read 0/0 as "all".
        QVERIFY(!anyContains(explainReasoning(r->reasoning, m_p10), "are all of"));
        QVERIFY(anyContains(explainReasoning(r->reasoning, m_p10), "none (no events yet)"));
    }

    // Entry 0 of every family: no sentence describes an idle period before it.
    void firstEntryOfEveryFamily_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<QString>("opening");
        const char *teoOpening = "This is teo's first decision: no idle period came before it.";
        for (const char *v : {"teo-5.14", "teo-6.10", "teo-6.14", "teo-6.19", "teo-latest", "teo-5.13"})
            QTest::newRow(v) << v << teoOpening;
        QTest::newRow("menu-6.14") << "menu-6.14"
                                   << "This is menu's first decision: no idle period came before it, so there "
                                      "was nothing to learn from.";
        // v6.17+: no update pending and last_residency_ns 0: UINT_MAX recorded.
        QTest::newRow("menu-6.17") << "menu-6.17"
                                   << "This is menu's first decision: no idle period came before it (last "
                                      "residency 0), so menu recorded UINT_MAX as a recent interval";
        QTest::newRow("ladder-latest") << "ladder-latest"
                                       << "This is ladder's first decision: no idle period came before it. It "
                                          "starts on CEDE, and with no residency yet (0) the time beyond "
                                          "CEDE's exit latency reads -12 us.";
        QTest::newRow("haltpoll-latest") << "haltpoll-latest"
                                         << "The poll window starts at 0 (no halt has grown it yet)";
    }

    void firstEntryOfEveryFamily()
    {
        QFETCH(QString, variant);
        QFETCH(QString, opening);
        auto r = reasoningAt(m_p10, m_pipe, variant.toStdString(), {}, 0);
        QVERIFY(r);
        ExplainContext cx;
        cx.firstSelect = true;
        const std::vector<std::string> words = explainReasoning(r->reasoning, m_p10, cx);
        QVERIFY(!words.empty());
        QVERIFY2(words.front().rfind(opening.toStdString(), 0) == 0, words.front().c_str());
        for (const char *bad : {"The previous idle period", "previous wakeup", "the last entry lasted",
                                "Learning from the last entry", "idle intervals were", "are all of"})
            QVERIFY2(!anyContains(words, bad), (std::string(bad) + " in:\n" + joined(words)).c_str());
    }

    void teoLegacyFirstEntryHasAnEmptyRecord()
    {
        auto r = reasoningAt(m_p10, m_pipe, "teo-5.13", {}, 0);
        QVERIFY(r);
        ExplainContext cx;
        cx.firstSelect = true;
        const std::vector<std::string> words = explainReasoning(r->reasoning, m_p10, cx);
        QVERIFY2(anyContains(words, "Its record is empty: no hits and no misses yet."), joined(words).c_str());
        QVERIFY2(anyContains(words, "Hits do not outnumber misses, but no shallower state has more early hits, "
                                    "so teo stayed with CEDE."),
                 joined(words).c_str());
    }

    // The default scenario's shape: every entry after warm-up goes to CEDE for
    // 112 us (100 us to the IPI + 12 us exit): measured 100 us, typical
    // interval 100 us, timer 5 ms corrected to 439 us, so menu predicts
    // 100 us. snooze fits that, CEDE (120 us) does not, and the polling
    // override takes CEDE and sets predicted_ns to its target residency.
    void menuOverrideBump()
    {
        const IdleStream ipi = ipiEvery100us(50);
        auto r = reasoningAt(m_p10, ipi, "menu-6.14", {}, 20);
        QVERIFY(r);
        const auto *m = std::get_if<MenuReasoning>(&r->reasoning);
        QVERIFY(m);
        QCOMPARE(m->path, MenuReasoning::Path::PollingOverride);
        QCOMPARE(m->predictedInitialNs, Ns(100000));
        QCOMPARE(m->predictedNs, Ns(120000));
        QCOMPARE(r->entry.state, 1);
        QCOMPARE(r->entry.residencyNs, Ns(112000));
        // What the run (and the prediction plot) keeps is menu's own prediction.
        QCOMPARE(r->entry.predictedNs, Ns(100000));
        QCOMPARE(r->selection.predictedNs, Ns(100000));

        ExplainContext cx;
        cx.units = UnitStyle::Micro;
        const std::vector<std::string> expected = {
            "Learning from the last entry (CEDE, residency 112 \u00b5s): the idle time less the exit latency "
            "gives 100 \u00b5s; recorded as 100 \u00b5s, correction factor of bucket 3 now 719/8192.",
            "The last 8 idle intervals were 100 \u00b5s, 100 \u00b5s, 100 \u00b5s, 100 \u00b5s, 100 \u00b5s, "
            "100 \u00b5s, 100 \u00b5s and 100 \u00b5s (oldest first); their average 100 \u00b5s with standard "
            "deviation 0 \u00b5s is within 20 \u00b5s, so the typical interval is 100 \u00b5s.",
            "The next timer is 5 ms away (the next event including the tick 5 ms); bucket 3's correction factor "
            "719/8192 makes that 439 \u00b5s.",
            "menu planned for 100 \u00b5s, with the exit latency limited to that prediction.",
            "The polling state fitted, but the first non-polling state CEDE (target residency 120 \u00b5s) fits "
            "before the next timer, so menu chose CEDE.",
            "With it, the kernel set predicted_ns to CEDE's target residency, 120 \u00b5s (menu's own prediction "
            "was 100 \u00b5s); the tick decision below uses 120 \u00b5s.",
            "menu chose CEDE and keeps the tick running.",
        };
        QCOMPARE(joined(explainReasoning(r->reasoning, m_p10, cx)), joined(expected));
        QCOMPARE(expectationSentence(r->reasoning, m_p10, cx),
                 std::string("menu predicted 100 \u00b5s of idle time; the polling override then set "
                             "predicted_ns to CEDE's target residency, 120 \u00b5s."));
    }

    // teo on the same shape: the IPI is an intercept in the snooze bin every
    // time, and duration_ns is just the sleep length (5 ms), not a prediction.
    void teoDecisionIsNotAPrediction()
    {
        const IdleStream ipi = ipiEvery100us(50);
        auto r = reasoningAt(m_p10, ipi, "teo-6.14", {}, 20);
        QVERIFY(r);
        const auto *t = std::get_if<TeoReasoning>(&r->reasoning);
        QVERIFY(t);
        QCOMPARE(t->update, TeoReasoning::Update::Intercept);
        QCOMPARE(t->chosenIdx, 0);
        QCOMPARE(t->durationNs, t->sleepLengthNs);
        QCOMPARE(r->entry.predictedNs, Ns(5000000));
        QCOMPARE(expectationSentence(r->reasoning, m_p10),
                 std::string("teo predicts no idle time: its hits and intercepts pointed to snooze; the next "
                             "timer was 5 ms away."));
        const std::vector<std::string> words = explainReasoning(r->reasoning, m_p10);
        QVERIFY2(words.front()
                     == "The previous idle period was an intercept in the snooze bin: it lasted 100 us (measured, "
                        "less half the exit latency), while the next timer was 5 ms away (the CEDE bin), so "
                        "something other than the timer woke the CPU.",
                 joined(words).c_str());
        QVERIFY(!anyContains(words, "expected to last"));
    }

    void oneOutlierIsSingular()
    {
        MenuReasoning r;
        r.intervalCount = 8;
        for (int k = 0; k < 8; ++k)
            r.intervalsUs[size_t(k)] = k == 6 ? 8939 : 100;
        r.discardedMask = 1u << 6;
        r.rounds = 2;
        r.typical = MenuReasoning::Typical::Average;
        r.typicalUs = 100;
        r.avgUs = 100;
        r.divisor = 7;
        r.timerQueried = true;
        r.nextTimerNs = 10200000;
        r.deltaTickNs = 9878000;
        r.bucket = 4;
        r.correctionFactor = 7176;
        r.timerUs = 8939;
        r.predictedInitialNs = r.predictedNs = 100000;
        r.latencyReqNs = r.latencyReqInputNs = PM_QOS_DEFAULT_LATENCY_NS;
        const std::string all = joined(explainMenu(r, m_p10));
        QVERIFY2(all.find("; 1 was dropped as an outlier (8.939 ms);") != std::string::npos, all.c_str());
        // timer_us in the same unit style as every other duration.
        QVERIFY2(all.find("makes that 8.939 ms.") != std::string::npos, all.c_str());
        r.discardedMask |= 1u << 7;
        r.intervalsUs[7] = 2000;
        const std::string two = joined(explainMenu(r, m_p10));
        QVERIFY2(two.find("; 2 were dropped as outliers (8.939 ms and 2 ms);") != std::string::npos, two.c_str());
    }

    void unitStyles()
    {
        QCOMPARE(formatDuration(120000), std::string("120 us"));
        QCOMPARE(formatDuration(120000, UnitStyle::Micro), std::string("120 \u00b5s"));
        QCOMPARE(formatDuration(12590000, UnitStyle::Micro), std::string("12.59 ms"));
        QCOMPARE(formatDuration(999, UnitStyle::Micro), std::string("999 ns"));
        QCOMPARE(formatDuration(KTIME_MAX, UnitStyle::Micro), std::string("never (KTIME_MAX)"));
        QCOMPARE(formatMicros(0), std::string("0 us"));
        QCOMPARE(formatMicros(100, UnitStyle::Micro), std::string("100 \u00b5s"));
        QCOMPARE(formatMicros(8939), std::string("8.939 ms"));
        QCOMPARE(formatMicros(UINT_MAX_U32), std::string("UINT_MAX"));
        QCOMPARE(countOf(1, "hit", "hits"), std::string("1 hit"));
        QCOMPARE(countOf(0, "miss", "misses"), std::string("0 misses"));
    }

private:
    IdleStateTable m_p10;
    IdleStream m_pipe;
};

QTEST_GUILESS_MAIN(TestExplain)
#include "tst_explain.moc"
