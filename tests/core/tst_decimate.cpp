// SPDX-License-Identifier: GPL-3.0-or-later
// Per-pixel-column decimation (core/stats/decimate.h): window arithmetic,
// first/min/max/last per column, filters, and the state-column summary.
#include "core/stats/decimate.h"

#include <QTest>

#include <algorithm>
#include <map>

using namespace idlescope;

class TestDecimate : public QObject {
    Q_OBJECT
private slots:
    void columnOfMapsTheWindow_data();
    void columnOfMapsTheWindow();
    void columnOfDoesNotOverflowOnLongWindows();
    void columnStartIsTheFirstTimeOfItsColumn();
    void visibleRangeWithAndWithoutNeighbours();
    void lastIndexAtOrBefore_data();
    void lastIndexAtOrBefore();
    void keepsFirstMinMaxLastPerColumn();
    void envelopeMatchesBruteForceOnAMillionEntries();
    void sparseSeriesIsKeptVerbatim();
    void filterDropsEntries();
    void lodGivesTheSameColumns_data();
    void lodGivesTheSameColumns();
    void stateLodGivesTheSameColumns();
    void stateColumnsCountTransitions();
    void dominantStateIsTimeWeighted();
    void neighboursBecomeEdgeColumns();
};

void TestDecimate::columnOfMapsTheWindow_data()
{
    QTest::addColumn<qint64>("t");
    QTest::addColumn<qint64>("column");
    // window [1000, 2000) in 10 columns of 100 ns
    QTest::newRow("start") << qint64(1000) << qint64(0);
    QTest::newRow("inside first") << qint64(1099) << qint64(0);
    QTest::newRow("second") << qint64(1100) << qint64(1);
    QTest::newRow("last") << qint64(1999) << qint64(9);
    QTest::newRow("end is past") << qint64(2000) << qint64(10);
    QTest::newRow("far right clamps") << qint64(900000) << qint64(10);
    QTest::newRow("just left") << qint64(999) << qint64(-1);
    QTest::newRow("far left clamps") << qint64(-5000000) << qint64(-1);
}

void TestDecimate::columnOfMapsTheWindow()
{
    QFETCH(qint64, t);
    QFETCH(qint64, column);
    const TimeWindow w{1000, 2000, 10};
    QCOMPARE(w.columnOf(t), column);
}

void TestDecimate::columnOfDoesNotOverflowOnLongWindows()
{
    // 3 hours at ns resolution times 4000 columns overflows int64 if multiplied first.
    const Ns threeHours = 3LL * 3600 * 1000000000LL;
    const TimeWindow w{0, threeHours, 4000};
    QCOMPARE(w.columnOf(threeHours / 2), qint64(2000));
    QCOMPARE(w.columnOf(threeHours - 1), qint64(3999));
    QCOMPARE(w.columnStartNs(2000), threeHours / 2);
}

void TestDecimate::columnStartIsTheFirstTimeOfItsColumn()
{
    // Widths that do not divide evenly: the boundary must agree with columnOf().
    for (const TimeWindow w : {TimeWindow{0, 1000, 7}, TimeWindow{-5, 996, 13}, TimeWindow{123, 100000123, 1531}}) {
        for (std::int64_t c = 0; c < w.columns; ++c) {
            const Ns t = w.columnStartNs(c);
            QCOMPARE(w.columnOf(t), c);
            QCOMPARE(w.columnOf(t - 1), c - 1);
            QCOMPARE(w.columnEndNs(c), w.columnStartNs(c + 1));
        }
        QCOMPARE(w.columnStartNs(w.columns), w.endNs);
    }
}

void TestDecimate::visibleRangeWithAndWithoutNeighbours()
{
    const std::vector<Ns> keys{10, 20, 30, 40, 50};
    auto [a, b] = visibleIndexRange(keys, 20, 45, false);
    QCOMPARE(a, std::size_t(1));
    QCOMPARE(b, std::size_t(4)); // 20, 30, 40
    std::tie(a, b) = visibleIndexRange(keys, 20, 45, true);
    QCOMPARE(a, std::size_t(0));
    QCOMPARE(b, std::size_t(5));
    std::tie(a, b) = visibleIndexRange(keys, 100, 200, false);
    QCOMPARE(a, b);
}

void TestDecimate::lastIndexAtOrBefore_data()
{
    QTest::addColumn<qint64>("t");
    QTest::addColumn<qint64>("index");
    QTest::newRow("before all") << qint64(5) << qint64(-1);
    QTest::newRow("on first") << qint64(10) << qint64(0);
    QTest::newRow("between") << qint64(25) << qint64(1);
    QTest::newRow("on last") << qint64(50) << qint64(4);
    QTest::newRow("after all") << qint64(999) << qint64(4);
}

void TestDecimate::lastIndexAtOrBefore()
{
    QFETCH(qint64, t);
    QFETCH(qint64, index);
    const std::vector<Ns> keys{10, 20, 30, 40, 50};
    QCOMPARE(idlescope::lastIndexAtOrBefore(keys, t), index);
}

void TestDecimate::keepsFirstMinMaxLastPerColumn()
{
    // One column holding 6 points: first 5, min 1 (t=2), max 9 (t=4), last 3.
    const std::vector<Ns> keys{0, 1, 2, 3, 4, 5};
    const std::vector<int> v{5, 4, 1, 6, 9, 3};
    std::vector<DecimatedPoint> out;
    decimateMinMax(
        keys, 0, keys.size(), TimeWindow{0, 100, 1}, [&](std::size_t i) { return v[i]; }, out);
    QCOMPARE(out.size(), std::size_t(4));
    QCOMPARE(out[0].t, Ns(0));
    QCOMPARE(out[0].v, 5.0);
    QCOMPARE(out[1].t, Ns(2));
    QCOMPARE(out[1].v, 1.0);
    QCOMPARE(out[2].t, Ns(4));
    QCOMPARE(out[2].v, 9.0);
    QCOMPARE(out[3].t, Ns(5));
    QCOMPARE(out[3].v, 3.0);
}

void TestDecimate::envelopeMatchesBruteForceOnAMillionEntries()
{
    const std::size_t n = 1000000;
    std::vector<Ns> keys(n);
    std::vector<std::int64_t> v(n);
    std::uint64_t x = 12345;
    Ns t = 0;
    for (std::size_t i = 0; i < n; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        t += 1 + static_cast<Ns>((x >> 33) % 200);
        keys[i] = t;
        v[i] = static_cast<std::int64_t>((x >> 20) % 100000);
    }
    const TimeWindow w{keys[1000], keys[900000], 1500};
    const auto [first, last] = visibleIndexRange(keys, w.startNs, w.endNs, false);
    std::vector<DecimatedPoint> out;
    decimateMinMax(
        keys, first, last, w, [&](std::size_t i) { return v[i]; }, out);
    QVERIFY(out.size() <= 4u * 1500u);
    QVERIFY(std::is_sorted(out.begin(), out.end(), [](auto &a, auto &b) { return a.t < b.t; }));

    std::map<std::int64_t, std::pair<double, double>> brute, kept;
    for (std::size_t i = first; i < last; ++i) {
        auto [it, fresh] = brute.try_emplace(w.columnOf(keys[i]), double(v[i]), double(v[i]));
        if (!fresh) {
            it->second.first = std::min(it->second.first, double(v[i]));
            it->second.second = std::max(it->second.second, double(v[i]));
        }
    }
    for (const DecimatedPoint &p : out) {
        auto [it, fresh] = kept.try_emplace(w.columnOf(p.t), p.v, p.v);
        if (!fresh) {
            it->second.first = std::min(it->second.first, p.v);
            it->second.second = std::max(it->second.second, p.v);
        }
    }
    QCOMPARE(kept.size(), brute.size());
    QVERIFY(kept == brute);
}

void TestDecimate::sparseSeriesIsKeptVerbatim()
{
    // Fewer points than columns: every point survives.
    const std::vector<Ns> keys{0, 100, 200, 300};
    const std::vector<double> v{1, 2, 3, 4};
    std::vector<DecimatedPoint> out;
    decimateMinMax(
        keys, 0, 4, TimeWindow{0, 400, 400}, [&](std::size_t i) { return v[i]; }, out);
    QCOMPARE(out.size(), std::size_t(4));
    for (std::size_t i = 0; i < 4; ++i) {
        QCOMPARE(out[i].t, keys[i]);
        QCOMPARE(out[i].v, v[i]);
    }
}

void TestDecimate::filterDropsEntries()
{
    // -1 = "no prediction": never plotted on a log axis.
    const std::vector<Ns> keys{0, 10, 20, 30};
    const std::vector<Ns> v{-1, 500, -1, 700};
    std::vector<DecimatedPoint> out;
    decimateMinMax(
        keys, 0, 4, TimeWindow{0, 40, 4}, [&](std::size_t i) { return v[i]; }, [&](std::size_t i) { return v[i] > 0; },
        out);
    QCOMPARE(out.size(), std::size_t(2));
    QCOMPARE(out[0].v, 500.0);
    QCOMPARE(out[1].v, 700.0);
}

namespace {

struct Series {
    std::vector<Ns> keys;
    std::vector<Ns> values;
    std::vector<std::int8_t> states;
};

Series randomSeries(std::size_t n, std::uint64_t seed)
{
    Series s;
    std::uint64_t x = seed;
    Ns t = 0;
    for (std::size_t i = 0; i < n; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        t += 1 + static_cast<Ns>((x >> 33) % 300);
        s.keys.push_back(t);
        // -1 ("no prediction") one time in 7; ties are common (values mod 50).
        s.values.push_back((x >> 13) % 7 == 0 ? -1 : static_cast<Ns>((x >> 20) % 50));
        s.states.push_back(static_cast<std::int8_t>((x >> 40) % 4));
    }
    return s;
}

bool samePoints(const std::vector<DecimatedPoint> &a, const std::vector<DecimatedPoint> &b)
{
    return a.size() == b.size()
           && std::equal(a.begin(), a.end(), b.begin(), [](auto &p, auto &q) { return p.t == q.t && p.v == q.v; });
}

} // namespace

void TestDecimate::lodGivesTheSameColumns_data()
{
    QTest::addColumn<int>("columns");
    QTest::addColumn<double>("from"); // window as fractions of the run
    QTest::addColumn<double>("to");
    QTest::newRow("whole run, 1000 px") << 1000 << 0.0 << 1.0;
    QTest::newRow("whole run, 37 px") << 37 << 0.0 << 1.0;
    QTest::newRow("middle tenth") << 800 << 0.45 << 0.55;
    QTest::newRow("deep zoom") << 1200 << 0.5 << 0.5001;
    QTest::newRow("odd edges") << 333 << 0.0123 << 0.9876;
}

void TestDecimate::lodGivesTheSameColumns()
{
    QFETCH(int, columns);
    QFETCH(double, from);
    QFETCH(double, to);
    const Series s = randomSeries(300000, 99);
    const Ns end = s.keys.back();
    const TimeWindow w{static_cast<Ns>(from * double(end)), static_cast<Ns>(to * double(end)), columns};
    auto value = [&](std::size_t i) { return s.values[i]; };
    auto keep = [&](std::size_t i) { return s.values[i] > 0; };
    const ValueLod lod(s.keys, value, keep);
    for (bool neighbours : {false, true}) {
        const auto [first, last] = visibleIndexRange(s.keys, w.startNs, w.endNs, neighbours);
        std::vector<DecimatedPoint> plain, fast;
        decimateMinMax(s.keys, first, last, w, value, keep, plain);
        decimateMinMax(s.keys, first, last, w, value, keep, fast, &lod);
        QVERIFY(!plain.empty());
        QVERIFY(samePoints(plain, fast));
    }
}

void TestDecimate::stateLodGivesTheSameColumns()
{
    const Series s = randomSeries(200000, 5);
    std::vector<Ns> durations(s.values.size());
    for (std::size_t i = 0; i < durations.size(); ++i)
        durations[i] = std::max<Ns>(s.values[i], 0) * 10 + 1;
    const StateLod lod(s.states, durations);
    const Ns end = s.keys.back();
    for (const TimeWindow w :
         {TimeWindow{0, end, 900}, TimeWindow{end / 3, end / 2, 640}, TimeWindow{end / 2, end / 2 + 5000, 500}}) {
        const auto plain = summariseStates(s.keys, s.states, durations, w, true);
        const auto fast = summariseStates(s.keys, s.states, durations, w, true, &lod);
        QCOMPARE(fast.size(), plain.size());
        for (std::size_t i = 0; i < plain.size(); ++i) {
            QCOMPARE(fast[i].column, plain[i].column);
            QCOMPARE(fast[i].firstNs, plain[i].firstNs);
            QCOMPARE(fast[i].firstState, plain[i].firstState);
            QCOMPARE(fast[i].lastState, plain[i].lastState);
            QCOMPARE(fast[i].minState, plain[i].minState);
            QCOMPARE(fast[i].maxState, plain[i].maxState);
            QCOMPARE(fast[i].dominantState, plain[i].dominantState);
            QCOMPARE(fast[i].transitions, plain[i].transitions);
        }
    }
}

void TestDecimate::stateColumnsCountTransitions()
{
    const std::vector<Ns> keys{0, 10, 20, 30, 100, 110};
    const std::vector<std::int8_t> states{1, 0, 1, 1, 2, 2};
    const auto cols = summariseStates(keys, states, {}, TimeWindow{0, 200, 2});
    QCOMPARE(cols.size(), std::size_t(2));
    QCOMPARE(cols[0].column, qint64(0));
    QCOMPARE(cols[0].firstState, 1);
    QCOMPARE(cols[0].lastState, 1);
    QCOMPARE(cols[0].minState, 0);
    QCOMPARE(cols[0].maxState, 1);
    QCOMPARE(cols[0].dominantState, 1); // three entries of 1, one of 0
    QCOMPARE(cols[0].transitions, 2);
    QCOMPARE(cols[1].column, qint64(1));
    QCOMPARE(cols[1].minState, 2);
    QCOMPARE(cols[1].dominantState, 2);
    QCOMPARE(cols[1].transitions, 0);
}

void TestDecimate::dominantStateIsTimeWeighted()
{
    // One column: three short entries in state 0, one long one in state 1.
    const std::vector<Ns> keys{0, 1, 2, 3};
    const std::vector<std::int8_t> states{0, 0, 1, 0};
    const std::vector<Ns> durations{1, 1, 97, 1};
    const auto cols = summariseStates(keys, states, durations, TimeWindow{0, 100, 1});
    QCOMPARE(cols.size(), std::size_t(1));
    QCOMPARE(cols[0].dominantState, 1);
    QCOMPARE(cols[0].minState, 0);
    QCOMPARE(cols[0].maxState, 1);
    // Counted instead of weighted, state 0 wins.
    QCOMPARE(summariseStates(keys, states, {}, TimeWindow{0, 100, 1})[0].dominantState, 0);
}

void TestDecimate::neighboursBecomeEdgeColumns()
{
    const std::vector<Ns> keys{5, 50, 150};
    const std::vector<std::int8_t> states{2, 1, 0};
    const auto cols = summariseStates(keys, states, {}, TimeWindow{10, 110, 10}, true);
    QCOMPARE(cols.size(), std::size_t(3));
    QCOMPARE(cols[0].column, qint64(-1));
    QCOMPARE(cols[0].dominantState, 2);
    QCOMPARE(cols[1].column, qint64(4));
    QCOMPARE(cols[2].column, qint64(10));
}

QTEST_GUILESS_MAIN(TestDecimate)
#include "tst_decimate.moc"
