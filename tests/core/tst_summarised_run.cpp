// SPDX-License-Identifier: GPL-3.0-or-later
// runGovernorSummarised() (core/stats/summarised_run.h): the run, prefix
// counts and plot summaries built in one pass must equal runGovernor() and
// RunCounts / RunLod built afterwards from the finished run, entry for entry
// and chunk for chunk, also when built in steps on several threads; a
// cancelled run stays an error. A run given a base (RunOptions::base) either
// repeats it whole (no columns kept) or equals the run made without one.
#include "core/stats/summarised_run.h"

#include "core/stats/span_clock.h"
#include "core/targets/builtin_targets.h"
#include "core/workloads/workload.h"

#include <QTest>

#include <algorithm>
#include <iterator>
#include <thread>

using namespace idlescope;

class TestSummarisedRun : public QObject {
    Q_OBJECT
private slots:
    void sameAsSeparatePasses_data();
    void sameAsSeparatePasses();
    void batchBoundaries();
    void reusedStorage();
    void cancelled();
    void stepsOnOtherThreads();
    void onTheWorkloadClock();
    void aRunThatRepeatsItsBaseKeepsNoColumns();
    void aRunThatLeavesItsBaseMidBatch();
    void aBaseOfAnotherLength();
};

namespace {

/// The GUI's default workload: periodic IPI wakeups, 100 us +-30 us, seed 1.
IdleStream ipiStream(std::size_t spans)
{
    const workloads::GeneratorInfo *g = workloads::findGenerator("periodic");
    workloads::ParamValues v = g->defaults();
    v.set("kind", 1);
    v.set("interval_us", 100 * NSEC_PER_USEC);
    v.set("jitter_us", 30 * NSEC_PER_USEC);
    auto source = g->make(v, 1);
    IdleStream out(spans);
    for (IdleSpan &s : out)
        s = source->next();
    return out;
}

/// The index of the first entry at which @p a and @p b differ (their common length if none).
std::size_t firstDifference(const GovernorRun &a, const GovernorRun &b)
{
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i)
        if (a.startNs[i] != b.startNs[i] || a.residencyNs[i] != b.residencyNs[i] || a.predictedNs[i] != b.predictedNs[i]
            || a.sleepLengthNs[i] != b.sleepLengthNs[i] || a.span[i] != b.span[i] || a.state[i] != b.state[i]
            || a.flags[i] != b.flags[i])
            return i;
    return n;
}

IdleStateTable power10()
{
    auto t = builtinTarget("pseries-power10-lpar");
    return t ? *t : IdleStateTable{};
}

bool sameValue(const ValueSummary &a, const ValueSummary &b)
{
    auto same = [](const DecimatedPoint &x, const DecimatedPoint &y) { return x.t == y.t && x.v == y.v; };
    if (a.any != b.any)
        return false;
    return !a.any || (same(a.first, b.first) && same(a.min, b.min) && same(a.max, b.max) && same(a.last, b.last));
}

bool sameState(const StateSummary &a, const StateSummary &b)
{
    return a.first == b.first && a.last == b.last && a.min == b.min && a.max == b.max && a.transitions == b.transitions
           && a.weight == b.weight;
}

/// Compares everything; returns an empty string or what differs first.
QString compare(const SummarisedRun &s, const GovernorRun &run)
{
    const GovernorRun &r = s.run;
    if (r.startNs != run.startNs || r.residencyNs != run.residencyNs || r.predictedNs != run.predictedNs
        || r.sleepLengthNs != run.sleepLengthNs || r.span != run.span || r.state != run.state || r.flags != run.flags)
        return QStringLiteral("columns differ");
    if (r.summary.entries != run.summary.entries || r.summary.endNowNs != run.summary.endNowNs)
        return QStringLiteral("summary differs");
    const RunCounts counts(run);
    if (s.counts.size() != counts.size())
        return QStringLiteral("counts size");
    for (std::size_t i = 0; i < run.size(); ++i)
        if (s.counts.missesThrough(i) != counts.missesThrough(i))
            return QStringLiteral("missesThrough(%1)").arg(i);
    for (std::size_t end : {std::size_t(0), std::size_t(1), std::size_t(4095), std::size_t(4096), std::size_t(4097),
                            run.size() / 2, run.size() - 1, run.size()}) {
        const PrefixCounts a = s.counts.upTo(r, end);
        const PrefixCounts b = counts.upTo(run, end);
        if (a.entries != b.entries || a.usage != b.usage || a.above != b.above || a.below != b.below
            || a.timeNs != b.timeNs)
            return QStringLiteral("upTo(%1)").arg(end);
    }
    const RunLod lod(run, counts);
    const std::pair<const ValueLod *, const ValueLod *> values[] = {{&s.lod.predicted, &lod.predicted},
                                                                    {&s.lod.residency, &lod.residency},
                                                                    {&s.lod.missRatio, &lod.missRatio}};
    for (const auto &[a, b] : values) {
        if (a->chunkCount() != b->chunkCount())
            return QStringLiteral("value chunk count %1 vs %2").arg(a->chunkCount()).arg(b->chunkCount());
        for (std::size_t c = 0; c < a->chunkCount(); ++c)
            if (!sameValue(a->chunk(c), b->chunk(c)))
                return QStringLiteral("value chunk %1").arg(c);
    }
    if (s.lod.states.chunkCount() != lod.states.chunkCount())
        return QStringLiteral("state chunk count");
    for (std::size_t c = 0; c < lod.states.chunkCount(); ++c)
        if (!sameState(s.lod.states.chunk(c), lod.states.chunk(c)))
            return QStringLiteral("state chunk %1").arg(c);
    return {};
}

} // namespace

void TestSummarisedRun::sameAsSeparatePasses_data()
{
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("intervals"); // 0: default settings
    QTest::newRow("menu-6.14") << QStringLiteral("menu-6.14") << 0;
    QTest::newRow("menu-6.14 INTERVALS=9") << QStringLiteral("menu-6.14") << 9;
    QTest::newRow("menu-resthresh") << QStringLiteral("menu-resthresh") << 0;
    QTest::newRow("teo-6.14") << QStringLiteral("teo-6.14") << 0;
    QTest::newRow("ladder-latest") << QStringLiteral("ladder-latest") << 0;
}

void TestSummarisedRun::sameAsSeparatePasses()
{
    QFETCH(QString, variant);
    QFETCH(int, intervals);
    const IdleStateTable table = power10();
    QVERIFY(table.count() > 1);
    const IdleStream stream = ipiStream(20000);
    std::vector<TunableSetting> settings;
    if (intervals > 0)
        settings.emplace_back("INTERVALS", intervals);
    auto run = runGovernor(table, stream, variant.toStdString(), {.settings = settings});
    QVERIFY(run.ok());
    auto s = runGovernorSummarised(table, stream, variant.toStdString(), {.settings = settings});
    QVERIFY(s.ok());
    QVERIFY(run->size() >= 20000); // one entry per span at least (menu, teo: more)
    // Misses exist, so the miss-ratio column is not trivially zero.
    QVERIFY(RunCounts(*run).missesThrough(run->size() - 1) > 0);
    const QString diff = compare(*s, *run);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void TestSummarisedRun::batchBoundaries()
{
    // Stream lengths around the batch and chunk sizes: a last partial batch,
    // an exact multiple of RUN_BATCH_ENTRIES, a single span.
    const IdleStateTable table = power10();
    for (std::size_t spans :
         {std::size_t(1), std::size_t(63), std::size_t(255), std::size_t(256), std::size_t(4096), std::size_t(4097)}) {
        const IdleStream stream = ipiStream(spans);
        auto run = runGovernor(table, stream, "teo-6.14");
        auto s = runGovernorSummarised(table, stream, "teo-6.14");
        QVERIFY(run && s);
        const QString diff = compare(*s, *run);
        QVERIFY2(diff.isEmpty(), qPrintable(QStringLiteral("%1 spans: %2").arg(spans).arg(diff)));
    }
}

void TestSummarisedRun::reusedStorage()
{
    // Columns of a longer finished run (another variant) as storage: cleared,
    // capacity kept, the result identical to a run into fresh memory.
    const IdleStateTable table = power10();
    const IdleStream stream = ipiStream(3000);
    auto longer = runGovernor(table, ipiStream(5000), "teo-6.14");
    QVERIFY(longer.ok());
    GovernorRun storage = std::move(*longer);
    const std::size_t capacity = storage.startNs.capacity();
    auto fresh = runGovernor(table, stream, "menu-6.14", {.settings = {{"INTERVALS", 9}}});
    auto s = runGovernorSummarised(table, stream, "menu-6.14", {.settings = {{"INTERVALS", 9}}, .storage = &storage});
    QVERIFY(fresh.ok() && s.ok());
    QCOMPARE(s->run.variant, std::string("menu-6.14"));
    QCOMPARE(s->run.startNs.capacity(), capacity); // the memory was reused, not reallocated
    const QString diff = compare(*s, *fresh);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void TestSummarisedRun::cancelled()
{
    const std::atomic<bool> cancel{true};
    auto s = runGovernorSummarised(power10(), ipiStream(100), "menu-6.14", {.cancel = &cancel});
    QVERIFY(!s.ok());
    QCOMPARE(QString::fromStdString(s.error().message), QStringLiteral("cancelled"));
    QVERIFY(s.error().code == ErrorCode::Cancelled);
    auto bad = runGovernorSummarised(power10(), ipiStream(100), "no-such-governor");
    QVERIFY(!bad.ok());
    QVERIFY(bad.error().code == ErrorCode::BadInput); // an unknown variant is the input's fault
}

void TestSummarisedRun::stepsOnOtherThreads()
{
    // Two builders advanced in turn, in steps of odd sizes that cut batches
    // and chunks anywhere, each step on a thread of its own (as the GUI's
    // runner shares steps of three runs between two threads): each result
    // equals its run made in one go.
    const IdleStateTable table = power10();
    const IdleStream stream = ipiStream(20000);
    auto menu = SummarisedRunBuilder::start(table, stream, "menu-6.14", {.settings = {{"INTERVALS", 9}}});
    auto teo = SummarisedRunBuilder::start(table, stream, "teo-6.14");
    QVERIFY(menu && teo);
    QCOMPARE(menu->spansLeft(), std::size_t(20000));
    const std::size_t steps[] = {1, 255, 4097, 63, 1000, 7};
    bool menuDone = false, teoDone = false;
    int made = 0;
    for (std::size_t k = 0; !menuDone || !teoDone; ++k) {
        const std::size_t n = steps[k % std::size(steps)];
        std::thread t([&] {
            if (!menuDone)
                menuDone = menu->advance(n);
            if (!teoDone)
                teoDone = teo->advance(n + 1);
        });
        t.join();
        ++made;
    }
    QVERIFY(made > 10);
    QCOMPARE(menu->spansLeft(), std::size_t(0));
    const SummarisedRun m = menu->take().value();
    const SummarisedRun t = teo->take().value();
    auto wholeMenu = runGovernor(table, stream, "menu-6.14", {.settings = {{"INTERVALS", 9}}});
    auto wholeTeo = runGovernor(table, stream, "teo-6.14");
    QVERIFY(wholeMenu && wholeTeo);
    QString diff = compare(m, *wholeMenu);
    QVERIFY2(diff.isEmpty(), qPrintable(QStringLiteral("menu: ") + diff));
    diff = compare(t, *wholeTeo);
    QVERIFY2(diff.isEmpty(), qPrintable(QStringLiteral("teo: ") + diff));
    QVERIFY(!SummarisedRunBuilder::start(table, stream, "no-such-governor"));
}

void TestSummarisedRun::onTheWorkloadClock()
{
    // With the stream's own clock in the options the run is written as
    // onSpanClock() moves a finished run, and the plot summaries are those of
    // the moved times (the GUI no longer moves and re-summarises every run).
    const IdleStateTable table = power10();
    const IdleStream stream = ipiStream(5000);
    const std::vector<Ns> clock = streamSpanStarts(stream);
    auto moved = runGovernor(table, stream, "menu-6.14");
    QVERIFY(moved.ok());
    const std::vector<Ns> ownTime = moved->startNs;
    QVERIFY(onSpanClock(*moved, clock));
    QVERIFY(moved->startNs != ownTime); // the exit latencies made the run's own time drift
    auto s = runGovernorSummarised(table, stream, "menu-6.14", {.spanClockNs = &clock});
    QVERIFY(s.ok());
    QString diff = compare(*s, *moved);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    // Span 1's first entry starts where the clock says: span 0's gap and wakeup, no exit latency.
    const auto first1 = std::find(s->run.span.begin(), s->run.span.end(), 1) - s->run.span.begin();
    QCOMPARE(s->run.startNs[static_cast<std::size_t>(first1)], stream[0].gapNs + stream[0].wakeNs + stream[1].gapNs);

    // A clock without a start for every span is not used: the run keeps its own time.
    const std::vector<Ns> shorter(clock.begin(), clock.end() - 1);
    auto own = runGovernorSummarised(table, stream, "menu-6.14", {.spanClockNs = &shorter});
    QVERIFY(own.ok());
    QVERIFY(own->run.startNs == ownTime);
}

void TestSummarisedRun::aRunThatRepeatsItsBaseKeepsNoColumns()
{
    // POWER10's states have exit latencies 0 and 12 us: a latency limit of 2 ms
    // or of 3 ms forbids neither, so every decision is the same under both.
    const IdleStateTable table = power10();
    const IdleStream stream = ipiStream(5000);
    auto base = runGovernorSummarised(table, stream, "menu-6.14", {.latencyLimitNs = 2000000});
    QVERIFY(base.ok());
    QVERIFY(!base->repeatedBase); // no base given
    auto again = runGovernorSummarised(table, stream, "menu-6.14", {.latencyLimitNs = 3000000, .base = &base->run});
    QVERIFY(again.ok());
    QVERIFY(again->repeatedBase);
    QCOMPARE(again->run.size(), std::size_t(0)); // the entries are the base's
    QCOMPARE(again->counts.size(), std::size_t(0));
    QVERIFY(again->lod.states.empty());
    QVERIFY(again->run.summary == base->run.summary);
    QCOMPARE(again->run.summary.entries, static_cast<std::int64_t>(base->run.size()));
    // Under the same limit made without a base, the run is the base's entry for entry.
    auto plain = runGovernor(table, stream, "menu-6.14", {.latencyLimitNs = 3000000});
    QVERIFY(plain.ok());
    QCOMPARE(firstDifference(*plain, base->run), base->run.size());
}

void TestSummarisedRun::aRunThatLeavesItsBaseMidBatch()
{
    // From span 700 on, every span asks for a 5 us resume latency: below
    // CEDE's 12 us, so the governor must stay in snooze. The run with the
    // unconstrained run as its base repeats it up to the first entry that
    // changes, copies those entries in, and ends equal to the run made
    // without a base: columns, counts and plot summaries.
    const IdleStateTable table = power10();
    const IdleStream free = ipiStream(5000);
    IdleStream limited = free;
    for (std::size_t i = 700; i < limited.size(); ++i)
        limited[i].latencyReqNs = 5000;
    for (const char *variant : {"menu-6.14", "teo-6.14"}) {
        auto base = runGovernor(table, free, variant);
        auto want = runGovernor(table, limited, variant);
        QVERIFY(base && want);
        // The first difference is past the first batch and inside a later one, so that both
        // the whole batches and the part batch of the copied entries are exercised.
        const std::size_t d = firstDifference(*base, *want);
        QVERIFY2(d > RUN_BATCH_ENTRIES && d % RUN_BATCH_ENTRIES != 0 && d < want->size(),
                 qPrintable(QStringLiteral("%1: first difference at entry %2").arg(variant).arg(d)));
        auto s = runGovernorSummarised(table, limited, variant, {.base = &*base});
        QVERIFY(s.ok());
        QVERIFY(!s->repeatedBase);
        const QString diff = compare(*s, *want);
        QVERIFY2(diff.isEmpty(), qPrintable(QStringLiteral("%1: %2").arg(variant, diff)));
    }
}

void TestSummarisedRun::aBaseOfAnotherLength()
{
    // Every entry of a shorter run is its longer base's (the same stream, cut):
    // not a repeat, all of it copied in at the end. A longer run leaves its
    // shorter base at the base's end.
    const IdleStateTable table = power10();
    const IdleStream longStream = ipiStream(5000);
    const IdleStream shortStream(longStream.begin(), longStream.begin() + 3000);
    auto longRun = runGovernor(table, longStream, "teo-6.14");
    auto shortRun = runGovernor(table, shortStream, "teo-6.14");
    QVERIFY(longRun && shortRun);
    QCOMPARE(firstDifference(*longRun, *shortRun), shortRun->size());
    auto cut = runGovernorSummarised(table, shortStream, "teo-6.14", {.base = &*longRun});
    QVERIFY(cut.ok());
    QVERIFY(!cut->repeatedBase);
    QString diff = compare(*cut, *shortRun);
    QVERIFY2(diff.isEmpty(), qPrintable(QStringLiteral("shorter: ") + diff));
    auto grown = runGovernorSummarised(table, longStream, "teo-6.14", {.base = &*shortRun});
    QVERIFY(grown.ok());
    QVERIFY(!grown->repeatedBase);
    diff = compare(*grown, *longRun);
    QVERIFY2(diff.isEmpty(), qPrintable(QStringLiteral("longer: ") + diff));
}

QTEST_GUILESS_MAIN(TestSummarisedRun)
#include "tst_summarised_run.moc"
