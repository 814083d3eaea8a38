// SPDX-License-Identifier: GPL-3.0-or-later
// Prefix counts of a run (core/stats/run_counts.h) against brute force, and
// the span-duration histogram bins.
#include "core/stats/run_counts.h"

#include <QTest>

using namespace idlescope;

class TestRunCounts : public QObject {
    Q_OBJECT
private slots:
    void prefixCountsMatchBruteForce();
    void emptyRun();
    void durationBins_data();
    void durationBins();
    void durationHistogramPrefix();
};

namespace {

GovernorRun syntheticRun(std::size_t n)
{
    GovernorRun r;
    std::uint64_t x = 7;
    for (std::size_t i = 0; i < n; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        const auto s = static_cast<std::int8_t>((x >> 40) % 3);
        r.startNs.push_back(static_cast<Ns>(i) * 1000);
        r.residencyNs.push_back(100 + static_cast<Ns>((x >> 20) % 900));
        r.predictedNs.push_back(-1);
        r.sleepLengthNs.push_back(0);
        r.span.push_back(static_cast<std::int32_t>(i));
        r.state.push_back(s);
        const unsigned f = (x >> 50) % 5;
        r.flags.push_back(static_cast<EntryFlags>(f == 0 ? ENTRY_ABOVE : f == 1 ? ENTRY_BELOW : 0));
    }
    return r;
}

} // namespace

void TestRunCounts::prefixCountsMatchBruteForce()
{
    const GovernorRun run = syntheticRun(3 * RunCounts::CHUNK + 123);
    const RunCounts counts(run);
    for (std::size_t end : {std::size_t(0), std::size_t(1), RunCounts::CHUNK - 1, RunCounts::CHUNK,
                            RunCounts::CHUNK + 1, 2 * RunCounts::CHUNK + 77, run.size(), run.size() + 50}) {
        PrefixCounts want;
        for (std::size_t i = 0; i < std::min(end, run.size()); ++i) {
            const auto s = static_cast<std::size_t>(run.state[i]);
            want.entries++;
            want.usage[s]++;
            want.timeNs[s] += run.residencyNs[i];
            want.above[s] += run.has(i, ENTRY_ABOVE);
            want.below[s] += run.has(i, ENTRY_BELOW);
        }
        const PrefixCounts got = counts.upTo(run, end);
        QCOMPARE(got.entries, want.entries);
        QVERIFY(got.usage == want.usage);
        QVERIFY(got.above == want.above);
        QVERIFY(got.below == want.below);
        QVERIFY(got.timeNs == want.timeNs);
        if (end > 0 && end <= run.size())
            QCOMPARE(std::int64_t(counts.missesThrough(end - 1)), want.totalAbove() + want.totalBelow());
    }
    const PrefixCounts all = counts.upTo(run, run.size());
    QVERIFY(all.missRatio() > 0.3 && all.missRatio() < 0.5); // 2 of 5 flag values are misses
}

void TestRunCounts::emptyRun()
{
    const GovernorRun run;
    const RunCounts counts(run);
    QCOMPARE(counts.upTo(run, 10).entries, std::int64_t(0));
    QCOMPARE(counts.upTo(run, 10).missRatio(), 0.0);
}

void TestRunCounts::durationBins_data()
{
    QTest::addColumn<qint64>("ns");
    QTest::addColumn<int>("bin");
    QTest::newRow("zero") << qint64(0) << 0;
    QTest::newRow("100 ns") << qint64(100) << 0;
    QTest::newRow("1 us") << qint64(1000) << 5;
    QTest::newRow("120 us") << qint64(120000) << 15; // log10(1200) * 5 = 15.4
    QTest::newRow("huge") << qint64(1000000000000LL) << DurationBins::COUNT - 1;
}

void TestRunCounts::durationBins()
{
    QFETCH(qint64, ns);
    QFETCH(int, bin);
    QCOMPARE(DurationBins::binOf(ns), bin);
    QVERIFY(DurationBins::lowerEdge(bin) <= std::max<double>(double(ns), DurationBins::MIN_NS) + 1e-6 || bin == 0);
}

void TestRunCounts::durationHistogramPrefix()
{
    IdleStream s(DurationHistogram::CHUNK + 10);
    for (std::size_t i = 0; i < s.size(); ++i)
        s[i].wakeNs = i % 2 ? 1000 : 100000; // bins 5 and 15
    const DurationHistogram h(s);
    auto c = h.upTo(s.size());
    QCOMPARE(c[5], std::int64_t(s.size() / 2));
    QCOMPARE(c[15], std::int64_t(s.size() / 2));
    c = h.upTo(3);
    QCOMPARE(c[15], std::int64_t(2));
    QCOMPARE(c[5], std::int64_t(1));
}

QTEST_GUILESS_MAIN(TestRunCounts)
#include "tst_run_counts.moc"
