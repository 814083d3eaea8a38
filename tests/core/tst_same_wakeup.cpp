// SPDX-License-Identifier: GPL-3.0-or-later
// sameWakeupEntry() (core/replay/same_wakeup.h) worked by hand on two runs of one
// four-span stream: span 2 takes three entries in one run (a polling state cut at its time
// limit twice, say) and one in the other; every other span one entry in both.
#include "core/replay/same_wakeup.h"

#include <QTest>

#include <initializer_list>

using namespace idlescope;

namespace {

/// A run whose entries lie in the stream rows @p spans (only the span column matters here).
GovernorRun runOverSpans(std::initializer_list<std::int32_t> spans)
{
    GovernorRun r;
    for (const std::int32_t s : spans) {
        r.span.push_back(s);
        r.state.push_back(0);
    }
    return r;
}

} // namespace

class TestSameWakeup : public QObject {
    Q_OBJECT
private slots:
    void threeEntriesToOne();
    void oneEntryToThree();
    void spanOrEntryMissing();
};

void TestSameWakeup::threeEntriesToOne()
{
    // Entries:      0  1  2  3  4  5
    // three's span: 0  1  2  2  2  3
    // one's span:   0  1  2  3
    const GovernorRun three = runOverSpans({0, 1, 2, 2, 2, 3});
    const GovernorRun one = runOverSpans({0, 1, 2, 3});
    QCOMPARE(sameWakeupEntry(three, 0, one), std::int64_t(0));
    QCOMPARE(sameWakeupEntry(three, 1, one), std::int64_t(1));
    // Entries 2, 3, 4 are the first, second and third of span 2; span 2 has one entry
    // (index 2) in the other run, so each of them is that entry (its span's last).
    QCOMPARE(sameWakeupEntry(three, 2, one), std::int64_t(2));
    QCOMPARE(sameWakeupEntry(three, 3, one), std::int64_t(2));
    QCOMPARE(sameWakeupEntry(three, 4, one), std::int64_t(2));
    // Span 3 is entry 5 here and entry 3 there: the same index would have been another span.
    QCOMPARE(sameWakeupEntry(three, 5, one), std::int64_t(3));
}

void TestSameWakeup::oneEntryToThree()
{
    const GovernorRun one = runOverSpans({0, 1, 2, 3});
    const GovernorRun three = runOverSpans({0, 1, 2, 2, 2, 3});
    // Entry 2 is the first (offset 0) of span 2, whose first entry in the other run is 2.
    QCOMPARE(sameWakeupEntry(one, 2, three), std::int64_t(2));
    // Entry 3 (span 3) is entry 5 there, after span 2's three entries.
    QCOMPARE(sameWakeupEntry(one, 3, three), std::int64_t(5));
    // The same run: every entry is itself, the second of span 2 included.
    QCOMPARE(sameWakeupEntry(three, 3, three), std::int64_t(3));
}

void TestSameWakeup::spanOrEntryMissing()
{
    const GovernorRun full = runOverSpans({0, 1, 2, 2, 2, 3});
    const GovernorRun gap = runOverSpans({0, 1, 3}); // no entry in span 2
    QCOMPARE(sameWakeupEntry(full, 3, gap), std::int64_t(-1));
    QCOMPARE(sameWakeupEntry(full, 5, gap), std::int64_t(2));
    QCOMPARE(sameWakeupEntry(full, -1, gap), std::int64_t(-1));
    QCOMPARE(sameWakeupEntry(full, 6, gap), std::int64_t(-1)); // past the last entry
    QCOMPARE(sameWakeupEntry(full, 0, GovernorRun{}), std::int64_t(-1));
}

QTEST_GUILESS_MAIN(TestSameWakeup)
#include "tst_same_wakeup.moc"
