// SPDX-License-Identifier: GPL-3.0-or-later
// The episode inspector on a known miss: menu-6.14 on the conformance stream
// pipe-wakeups with the POWER10 table (snooze 0/0, CEDE 12/120 us, HZ=100).
// The kernel's expected decisions say span 1002 went to CEDE and was "above";
// the inspector must show that, and the reasoning values worked out by hand
// from the stream below.
#include "core/formats/line_reader.h"
#include "replay_fixture.h"
#include "widgets/inspector/episode_inspector.h"
#include "widgets/inspector/inspector_html.h"
#include "widgets/inspector/reasoning_chart.h"
#include "widgets/plots/qcp.h"
#include "widgets/view_state.h"

#include <QFontMetrics>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

#include <charconv>

using namespace idlescope;

namespace {

/// One row of the kit's expected entries CSV.
struct ExpectedRow {
    int span = 0, entry = 0, state = 0, stopTick = 0;
    Ns residencyNs = 0;
    int above = 0, below = 0, gotTick = 0, pollTimeLimit = 0;
};

std::vector<ExpectedRow> readExpected(const QString &path)
{
    std::vector<ExpectedRow> rows;
    LineReader r(path.toStdString());
    std::string_view line;
    r.next(line); // header
    while (r.next(line)) {
        std::int64_t v[9] = {};
        const char *p = line.data();
        const char *end = line.data() + line.size();
        for (int i = 0; i < 9 && p < end; ++i) {
            p = std::from_chars(p, end, v[i]).ptr;
            if (p < end && *p == ',')
                ++p;
        }
        rows.push_back({int(v[0]), int(v[1]), int(v[2]), int(v[3]), v[4], int(v[5]), int(v[6]), int(v[7]), int(v[8])});
    }
    return rows;
}

void saveShot(QWidget &w, const char *name)
{
    const QByteArray dir = qgetenv("IDLESCOPE_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        w.grab().save(QString::fromLocal8Bit(dir) + QLatin1Char('/') + QLatin1String(name));
}

constexpr int MISS_SPAN = 1002;

} // namespace

class TestInspector : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void knownMenuMissShowsItsReasoning();
    void inputsFromTheStream();
    void oracleAndCost();
    void nextAndPreviousMiss();
    void followsViewState();
    void oracleRunUsesStateRuler();
    void teoShowsItsBins();
    void teoFirstEntryHasNoPreviousPeriod();
    void newSnapshotKeepsSelection();
    void badSelectionClears();
    void farEntryIsExplainedOnAWorker();
    void inIdleWakeupsAndTheStoppedTick();

private:
    /// @p inspector on m_snap with the known miss (menu-6.14's entry of span 1002) shown;
    /// its detail, null when it has none.
    const EntryDetail *showMiss(EpisodeInspector &inspector) const;

    std::shared_ptr<SimulationSnapshot> m_snap;
    std::vector<ExpectedRow> m_expected;
    qint64 m_missEntry = -1; ///< index of span 1002's entry in the menu run
};

void TestInspector::initTestCase()
{
    m_snap = test::conformanceSnapshot("pipe-wakeups", "pseries-p10", {"menu-6.14", "oracle"});
    QVERIFY(m_snap);
    QVERIFY2(m_snap->errors.isEmpty(), qPrintable(m_snap->errors.join(QLatin1Char('\n'))));
    m_expected =
        readExpected(test::conformancePath(QStringLiteral("expected/menu-6.14/pipe-wakeups__pseries-p10.csv.gz")));
    QCOMPARE(m_expected.size(), std::size_t(4211));
    for (std::size_t i = 0; i < m_expected.size(); ++i)
        if (m_expected[i].span == MISS_SPAN && m_expected[i].entry == 0)
            m_missEntry = qint64(i);
    QVERIFY(m_missEntry > 0);
    // The kernel's decision for this entry: CEDE, tick kept, above.
    const ExpectedRow &row = m_expected[size_t(m_missEntry)];
    QCOMPARE(row.state, 1);
    QCOMPARE(row.stopTick, 0);
    QCOMPARE(row.above, 1);
    QCOMPARE(row.residencyNs, Ns(36756));
    // The run agrees entry for entry up to here.
    QCOMPARE(m_snap->governors[0].run->span[size_t(m_missEntry)], MISS_SPAN);
}

const EntryDetail *TestInspector::showMiss(EpisodeInspector &inspector) const
{
    inspector.setSnapshot(m_snap);
    inspector.showEntry(0, m_missEntry);
    return inspector.detail();
}

void TestInspector::knownMenuMissShowsItsReasoning()
{
    EpisodeInspector inspector;
    inspector.resize(520, 760);
    inspector.setSnapshot(m_snap);
    QSignalSpy shown(&inspector, &EpisodeInspector::detailShown);
    inspector.showEntry(0, m_missEntry);
    QCOMPARE(shown.count(), 1);
    const EntryDetail *d = inspector.detail();
    QVERIFY(d);
    QCOMPARE(d->entry.state, 1);
    QVERIFY(d->entry.above);
    QVERIFY(!d->entry.stopTick);
    QCOMPARE(d->entry.residencyNs, Ns(36756));

    const auto *m = std::get_if<MenuReasoning>(&d->reasoning);
    QVERIFY(m);
    // By hand: the eight entries before (spans 994..1001) were snooze entries
    // (exit latency 0) that lasted until their wakeup, so menu_update()
    // recorded wake_ns / 1000: 10062, 9906, 10086, 9949, 10097, 10002, 24927,
    // 24979 ns -> 10, 9, 10, 9, 10, 10, 24, 24 us (oldest first).
    QCOMPARE(m->intervalCount, 8);
    const std::uint32_t window[8] = {10, 9, 10, 9, 10, 10, 24, 24};
    for (int k = 0; k < 8; ++k)
        QCOMPARE(m->intervalsUs[size_t(k)], window[k]);
    // get_typical_interval(): sum 106 >> 3 = 13 us; squared deviations
    // 9+16+9+16+9+9+121+121 = 310 >> 3 = 38 <= 400, so the average is taken.
    QCOMPARE(m->avgUs, std::uint64_t(13));
    QCOMPARE(m->varianceUs2, std::uint64_t(38));
    QCOMPARE(m->typical, MenuReasoning::Typical::Average);
    QCOMPARE(m->typicalUs, std::uint32_t(13));
    QCOMPARE(m->discardedMask, std::uint64_t(0));
    // 13 us <= RESIDENCY_THRESHOLD_NS (15 us): no timer query (v6.6+).
    QVERIFY(!m->timerQueried);
    QCOMPARE(m->nextTimerNs, KTIME_MAX);
    QCOMPARE(m->predictedInitialNs, Ns(13000));
    // v6.13+: the exit latency limit drops to the prediction, 13 us; CEDE's
    // 12 us fits, and the polling override picks it since no timer is known
    // to come before its 120 us target residency.
    QCOMPARE(m->latencyReqNs, Ns(13000));
    QCOMPARE(m->path, MenuReasoning::Path::PollingOverride);
    QCOMPARE(m->predictedNs, Ns(120000));
    QCOMPARE(m->chosenIdx, 1);
    QVERIFY(!m->stopTick);

    // What the panel shows.
    const QString text = inspector.plainText();
    QVERIFY2(text.contains(QStringLiteral("menu-6.14 · entry %1 · span 1002").arg(m_missEntry)), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("chose CEDE (exit latency 12 \u00b5s, target residency 120 \u00b5s)")));
    QVERIFY(text.contains(QStringLiteral("ABOVE: too deep")));
    QVERIFY(text.contains(QStringLiteral("stop_tick = 0 (tick kept)")));
    // Every sentence of menu's explanation is on the panel (the wording is
    // menu_explain.cpp's), and it names the window and the typical interval.
    QVERIFY(d->sentences.size() >= 4);
    for (const std::string &sentence : d->sentences)
        QVERIFY2(text.contains(QString::fromStdString(sentence)), sentence.c_str());
    QVERIFY(text.contains(QStringLiteral(
        "10 \u00b5s, 9 \u00b5s, 10 \u00b5s, 9 \u00b5s, 10 \u00b5s, 10 \u00b5s, 24 \u00b5s and 24 \u00b5s")));
    QVERIFY(text.contains(QStringLiteral("typical interval is 13 \u00b5s")));
    // The Decision line tells menu's own prediction from the value the
    // polling override gave predicted_ns, and the run keeps the former.
    QVERIFY2(text.contains(QStringLiteral("menu predicted 13 \u00b5s of idle time; the polling override then set "
                                          "predicted_ns to CEDE's target residency, 120 \u00b5s.")),
             qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("With it, the kernel set predicted_ns to CEDE's target residency, "
                                         "120 \u00b5s (menu's own prediction was 13 \u00b5s)")));
    QCOMPARE(d->entry.predictedNs, Ns(13000));
    QCOMPARE(m_snap->governors[0].run->predictedNs[size_t(m_missEntry)], Ns(13000));
    // One unit style on the whole panel: "µs", never "us".
    QVERIFY2(!text.contains(QRegularExpression(QStringLiteral("\\d us\\b"))), qPrintable(text));

    // The chart: eight samples, none dropped.
    QCOMPARE(inspector.chart()->kind(), ReasoningChart::Kind::MenuWindow);
    QCOMPARE(inspector.chart()->barCount(), 8);
    saveShot(inspector, "inspector-menu-above.png");
}

void TestInspector::inputsFromTheStream()
{
    EpisodeInspector inspector;
    const EntryDetail *d = showMiss(inspector);
    QVERIFY(d);
    // Span 1002 of pipe-wakeups.csv: gap 3466, timer 9904950, wake 24756 ns.
    const IdleSpan &span = (*m_snap->stream)[MISS_SPAN];
    QCOMPARE(span.timerNs, Ns(9904950));
    QCOMPARE(span.wakeNs, Ns(24756));
    QCOMPARE(d->entry.sleepLengthNs, Ns(9904950));
    QCOMPARE(d->entry.remainingWakeNs, Ns(24756));
    QCOMPARE(d->entry.latencyReqNs, PM_QOS_DEFAULT_LATENCY_NS);
    QCOMPARE(d->cause, WakeCause::Wakeup);
    // `now` at this select, by hand: 1 s plus every gap through span 1002
    // plus every residency before this entry (the kernel's, from the kit).
    Ns now = REPLAY_START_NS;
    for (int s = 0; s <= MISS_SPAN; ++s)
        now += (*m_snap->stream)[size_t(s)].gapNs;
    for (qint64 i = 0; i < m_missEntry; ++i)
        now += m_expected[size_t(i)].residencyNs;
    QCOMPARE(d->entry.startNs, now);
    // The tick runs (HZ=100, TICK_NSEC 10 ms): delta_next is the time to the
    // next tick unless the timer comes first.
    const Ns toTick = 10000000 - now % 10000000;
    QCOMPARE(d->entry.deltaNextNs, std::min(toTick, Ns(9904950)));
    const QString text = inspector.plainText();
    // Table cells come out one per line.
    QVERIFY(text.contains(QStringLiteral("sleep length (next timer)\n9.905 ms")));
    QVERIFY(text.contains(QStringLiteral("time to the wakeup (unknown to it)\n24.76 \u00b5s")));
    QVERIFY(text.contains(QStringLiteral("measured residency\n36.76 \u00b5s")));
    QVERIFY(text.contains(QStringLiteral("wakeup: a wakeup announced by no timer (IPI or device interrupt)")));
    QVERIFY(text.contains(QStringLiteral("none (PM QoS default")));
}

void TestInspector::oracleAndCost()
{
    EpisodeInspector inspector;
    const EntryDetail *d = showMiss(inspector);
    QVERIFY(d);
    // 24.756 us to the wakeup is below CEDE's 120 us: the oracle polls.
    QCOMPARE(d->oracle.chosenIdx, 0);
    QCOMPARE(d->oracle.idleNs, Ns(24756));
    const MissCost &c = d->cost;
    QVERIFY(c.above && !c.below);
    QCOMPARE(c.betterIdx, 0);
    QCOMPARE(c.exitLatencyPaidNs, Ns(12000));
    QCOMPARE(c.wastedExitLatencyNs, Ns(12000));
    QCOMPARE(c.shortOfTargetNs, Ns(120000 - 36756));
    const QString text = inspector.plainText();
    QVERIFY(text.contains(QStringLiteral("The oracle would have chosen snooze (shallower than CEDE)")));
    QVERIFY(text.contains(
        QStringLiteral("Stayed 36.76 \u00b5s in CEDE, 83.24 \u00b5s short of its 120 \u00b5s target residency")));
    QVERIFY(text.contains(QStringLiteral("12 \u00b5s of it wasted against snooze")));
}

void TestInspector::nextAndPreviousMiss()
{
    EpisodeInspector inspector;
    inspector.resize(520, 760);
    showMiss(inspector);
    QSignalSpy moved(&inspector, &EpisodeInspector::entrySelected);

    auto expectedMiss = [&](qint64 from, bool forward, bool above, bool below) {
        for (qint64 i = forward ? from + 1 : from - 1; i >= 0 && i < qint64(m_expected.size()); i += forward ? 1 : -1)
            if ((above && m_expected[size_t(i)].above) || (below && m_expected[size_t(i)].below))
                return i;
        return qint64(-1);
    };

    inspector.nextMiss();
    QCOMPARE(moved.count(), 1);
    QCOMPARE(moved.last().at(1).toLongLong(), expectedMiss(m_missEntry, true, true, true));
    QCOMPARE(inspector.detail()->entry.span, MISS_SPAN + 1); // 1003 is above too

    inspector.showEntry(0, m_missEntry);
    inspector.previousMiss();
    const qint64 prev = expectedMiss(m_missEntry, false, true, true);
    QCOMPARE(moved.last().at(1).toLongLong(), prev);
    QCOMPARE(inspector.detail()->entryIndex, prev);
    QVERIFY(inspector.detail()->entry.above || inspector.detail()->entry.below);

    // Below only: the kit has 17 belows (all snooze); jump to the first one.
    inspector.setMissKind(EpisodeInspector::MissKind::Below);
    inspector.showEntry(0, 0);
    inspector.nextMiss();
    const qint64 firstBelow = expectedMiss(0, true, false, true);
    QVERIFY(firstBelow > 0);
    QCOMPARE(inspector.detail()->entryIndex, firstBelow);
    QVERIFY(inspector.detail()->entry.below);
    QCOMPARE(inspector.detail()->entry.state, 0);
    QVERIFY(inspector.detail()->cost.below);
    QCOMPARE(inspector.detail()->cost.betterIdx, 1);
    QVERIFY(inspector.plainText().contains(QStringLiteral("BELOW: too shallow")));
    saveShot(inspector, "inspector-menu-below.png");

    // The actions trigger the same moves.
    inspector.setMissKind(EpisodeInspector::MissKind::Above);
    inspector.showEntry(0, m_missEntry);
    inspector.nextMissAction()->trigger();
    QCOMPARE(inspector.detail()->entryIndex, expectedMiss(m_missEntry, true, true, false));
    QCOMPARE(inspector.nextMissAction()->shortcut(), QKeySequence(Qt::Key_N));
}

void TestInspector::followsViewState()
{
    ViewState view;
    EpisodeInspector inspector;
    inspector.setSnapshot(m_snap);
    inspector.setViewState(&view);
    view.selectEntry(0, m_missEntry);
    QVERIFY(inspector.detail());
    QCOMPARE(inspector.detail()->entryIndex, m_missEntry);
    inspector.nextMiss();
    QCOMPARE(view.selectedGovernor(), 0);
    QCOMPARE(view.selectedEntry(), inspector.detail()->entryIndex);
    QVERIFY(view.selectedEntry() > m_missEntry);
}

void TestInspector::oracleRunUsesStateRuler()
{
    EpisodeInspector inspector;
    inspector.resize(520, 700);
    inspector.setSnapshot(m_snap);
    const int oracle = m_snap->oracleIndex();
    QCOMPARE(oracle, 1);
    inspector.showEntry(oracle, 5);
    QVERIFY(inspector.detail());
    QVERIFY(std::holds_alternative<OracleReasoning>(inspector.detail()->reasoning));
    QCOMPARE(inspector.chart()->kind(), ReasoningChart::Kind::StateRuler);
    QCOMPARE(inspector.chart()->barCount(), 2);
    QCOMPARE(inspector.detail()->entry.state, inspector.detail()->oracle.chosenIdx);
    QVERIFY(inspector.plainText().contains(QStringLiteral("The oracle would also have chosen")));
    QVERIFY(inspector.plainText().contains(QStringLiteral("no miss")));
    saveShot(inspector, "inspector-oracle.png");
}

void TestInspector::teoShowsItsBins()
{
    // teo-6.14 on intel-skx (POLL, C1, C1E, C6): the kit says span 1490's
    // second entry went to C1E and was above.
    auto snap = test::conformanceSnapshot("pipe-wakeups", "intel-skx", {"teo-6.14"});
    QVERIFY(snap && snap->errors.isEmpty());
    const auto expected =
        readExpected(test::conformancePath(QStringLiteral("expected/teo-6.14/pipe-wakeups__intel-skx.csv.gz")));
    QCOMPARE(expected.size(), snap->governors[0].run->size());
    qint64 entry = -1;
    for (std::size_t i = 0; i < expected.size(); ++i)
        if (expected[i].span == 1490 && expected[i].entry == 1)
            entry = qint64(i);
    QVERIFY(entry > 0);
    QCOMPARE(expected[size_t(entry)].state, 2);
    QCOMPARE(expected[size_t(entry)].above, 1);

    EpisodeInspector inspector;
    inspector.resize(520, 760);
    inspector.setSnapshot(snap);
    inspector.showEntry(0, entry);
    const EntryDetail *d = inspector.detail();
    QVERIFY(d);
    QCOMPARE(d->entry.state, 2);
    QVERIFY(d->entry.above);
    const auto *t = std::get_if<TeoReasoning>(&d->reasoning);
    QVERIFY(t);
    QCOMPARE(t->binCount, 4);
    QCOMPARE(t->chosenIdx, 2);
    QCOMPARE(inspector.chart()->kind(), ReasoningChart::Kind::TeoBins);
    QCOMPARE(inspector.chart()->barCount(), 8);
    // The bars are the record's per-bin hits and intercepts.
    QCustomPlot *plot = inspector.chart()->customPlot();
    auto *hits = qobject_cast<QCPBars *>(plot->plottable(0));
    auto *intercepts = qobject_cast<QCPBars *>(plot->plottable(1));
    QVERIFY(hits && intercepts);
    for (int bin = 0; bin < 4; ++bin) {
        QCOMPARE(hits->data()->at(bin)->value, double(t->hits[size_t(bin)]));
        QCOMPARE(intercepts->data()->at(bin)->value, double(t->intercepts[size_t(bin)]));
    }
    const QString text = inspector.plainText();
    QVERIFY(text.contains(QStringLiteral("teo-6.14 chose C1E")));
    QVERIFY(text.contains(QStringLiteral("ABOVE: too deep")));
    for (const std::string &sentence : d->sentences)
        QVERIFY2(text.contains(QString::fromStdString(sentence)), sentence.c_str());
    saveShot(inspector, "inspector-teo-above.png");
}

void TestInspector::teoFirstEntryHasNoPreviousPeriod()
{
    // teo-6.14 on pipe-wakeups / POWER10, entry 0: the kernel's teo_update()
    // runs on the zeroed device, a hit in the snooze bin; no idle period came
    // before it, and intercepts below CEDE are 0 of 0 events.
    auto snap = test::conformanceSnapshot("pipe-wakeups", "pseries-p10", {"teo-6.14"});
    QVERIFY(snap && snap->errors.isEmpty());
    EpisodeInspector inspector;
    inspector.resize(400, 900); // the width of a user trial
    inspector.setSnapshot(snap);
    inspector.showEntry(0, 0);
    const EntryDetail *d = inspector.detail();
    QVERIFY(d);
    QCOMPARE(d->entry.state, 1);
    const QString text = inspector.plainText();
    QVERIFY2(text.contains(QStringLiteral("This is teo's first decision: no idle period came before it.")),
             qPrintable(text));
    QVERIFY(!text.contains(QStringLiteral("The previous idle period")));
    QVERIFY(!text.contains(QStringLiteral("are all of")));
    QVERIFY(text.contains(QStringLiteral("Intercepts in bins below CEDE: none (no events yet)")));
    // Decision: no "expected" idle time for teo, the sleep length by its name.
    QVERIFY2(text.contains(QStringLiteral("teo predicts no idle time: its hits and intercepts pointed to CEDE; the "
                                          "next timer was 13.02 ms away.")),
             qPrintable(text));
    QVERIFY(!text.contains(QStringLiteral("It expected")));
    QVERIFY(!text.contains(QStringLiteral("expected to last")));
    // The chart's title fits the chart (it was cut at both ends at this width).
    QCustomPlot *plot = inspector.chart()->customPlot();
    auto *title = qobject_cast<QCPTextElement *>(plot->plotLayout()->element(0, 0));
    QVERIFY(title);
    QCOMPARE(title->text(), QStringLiteral("teo: hits and intercepts per bin"));
    QVERIFY(QFontMetrics(title->font()).horizontalAdvance(title->text()) < plot->minimumWidth());
    saveShot(inspector, "inspector-teo-first.png");
}

void TestInspector::newSnapshotKeepsSelection()
{
    EpisodeInspector inspector;
    showMiss(inspector);
    QSignalSpy shown(&inspector, &EpisodeInspector::detailShown);
    auto copy = std::make_shared<SimulationSnapshot>(*m_snap);
    copy->generation = 2;
    inspector.setSnapshot(copy);
    QCOMPARE(shown.count(), 1);
    QCOMPARE(inspector.detail()->entryIndex, m_missEntry);
    // A snapshot without that governor clears the panel.
    auto oneRun = std::make_shared<SimulationSnapshot>(*m_snap);
    oneRun->governors.clear();
    inspector.setSnapshot(oneRun);
    QVERIFY(!inspector.detail());
    QCOMPARE(shown.last().at(0).toInt(), -1);
}

void TestInspector::badSelectionClears()
{
    EpisodeInspector inspector;
    inspector.setSnapshot(m_snap);
    inspector.showEntry(0, 999999);
    QVERIFY(!inspector.detail());
    QVERIFY(inspector.plainText().contains(QStringLiteral("Cannot explain this entry")));
    inspector.showEntry(-1, -1);
    QVERIFY(!inspector.detail());
}

void TestInspector::farEntryIsExplainedOnAWorker()
{
    // 250000 IPI wakeups every 100 us on the POWER10 table (the default
    // scenario's shape): entry 240000 is past SYNC_ENTRY_LIMIT.
    auto t = readTableJson(test::conformancePath(QStringLiteral("tables/pseries-p10.json")).toStdString());
    IdleStream stream(250000, IdleSpan{5000, 5000000, 95000, -1, 0});
    auto snap = test::makeSnapshot(*t, std::move(stream), {"oracle"});
    QCOMPARE(snap->governors[0].run->size(), std::size_t(250000));
    EpisodeInspector inspector;
    inspector.setSnapshot(snap);
    QSignalSpy shown(&inspector, &EpisodeInspector::detailShown);
    const qint64 far = 240000;
    QVERIFY(far >= EpisodeInspector::SYNC_ENTRY_LIMIT);
    inspector.showEntry(0, far);
    QVERIFY(!inspector.detail()); // not yet: the worker replays
    QVERIFY(shown.wait(60000));
    QCOMPARE(shown.last().at(1).toLongLong(), far);
    QVERIFY(inspector.detail());
    QCOMPARE(inspector.detail()->entry.span, 240000);
    // 95 us to the wakeup is below CEDE's 120 us: snooze.
    QCOMPARE(inspector.detail()->entry.state, 0);
    QCOMPARE(inspector.detail()->entry.remainingWakeNs, Ns(95000));
}

void TestInspector::inIdleWakeupsAndTheStoppedTick()
{
    // menu-7.1 on the kit's irq-in-idle stream (need_resched = 0 rows) on intel-skx. From the
    // kernel's own rows and the stream alone: an entry ended by an in-idle interrupt is the last
    // one selected in a need_resched = 0 row (not the stream's last) whose state does not poll
    // (a polling entry runs on through such interrupts); the tick was stopped at a select when an
    // earlier entry of the same stay in the idle loop left stop_tick = 1.
    auto snap = test::conformanceSnapshot("irq-in-idle", "intel-skx", {"menu-7.1"});
    QVERIFY(snap && snap->errors.isEmpty());
    const IdleStream &stream = *snap->stream;
    const std::vector<ExpectedRow> rows =
        readExpected(test::conformancePath(QStringLiteral("expected/menu-7.1/irq-in-idle__intel-skx.csv.gz")));
    QCOMPARE(rows.size(), snap->governors[0].run->size());
    qint64 inIdle = -1, stopped = -1;
    bool stayStopped = false;
    int stayStartRow = 0;
    for (std::size_t i = 0; i < rows.size() && (inIdle < 0 || stopped < 0); ++i) {
        const ExpectedRow &r = rows[i];
        // A new stay starts at a row after a need_resched = 1 row.
        for (int row = stayStartRow; row < r.span; ++row)
            if (stream[size_t(row)].needResched) {
                stayStopped = false;
                stayStartRow = row + 1;
            }
        if (stayStopped && stopped < 0)
            stopped = qint64(i);
        stayStopped = stayStopped || r.stopTick;
        const bool lastInRow = i + 1 == rows.size() || rows[i + 1].span != r.span;
        const IdleSpan &span = stream[size_t(r.span)];
        if (inIdle < 0 && lastInRow && !span.needResched && size_t(r.span) + 1 < stream.size()
            && !snap->table[r.state].polling)
            inIdle = qint64(i);
    }
    QVERIFY(inIdle >= 0 && stopped >= 0);

    Result<EntryDetail> d = computeEntryDetail(*snap, 0, inIdle);
    QVERIFY2(d.ok(), d ? "" : d.error().toString().c_str());
    QCOMPARE(d->cause, WakeCause::InIdleIrq);
    QVERIFY(snap->governors[0].run->has(size_t(inIdle), ENTRY_IN_IDLE_WAKE));
    QVERIFY(!snap->governors[0].run->has(size_t(inIdle), ENTRY_WOKEN_BY_WAKEUP));

    Result<EntryDetail> s = computeEntryDetail(*snap, 0, stopped);
    QVERIFY(s.ok());
    QVERIFY(s->entry.tickStoppedAtSelect);
    QVERIFY(s->tickRunningIdx >= 0);
    QVERIFY(!s->tickRunningSentences.empty());
    const QString html = entryDetailHtml(*s, snap->table, QColor(Qt::black));
    QVERIFY2(html.contains(QStringLiteral("With the tick running")), qPrintable(html));
    // An entry selected with the tick running has no what-if.
    Result<EntryDetail> first = computeEntryDetail(*snap, 0, 0);
    QVERIFY(first.ok() && !first->entry.tickStoppedAtSelect && first->tickRunningIdx == -1);
}

QTEST_MAIN(TestInspector)
#include "tst_inspector.moc"
