// SPDX-License-Identifier: GPL-3.0-or-later
// The entries list's sort and filter off the GUI thread (issue 13: ten million rows took
// ~3 s of GUI-thread CPU to sort): a request returns at once with the old rows still shown
// and the model busy, the new permutation arrives later with the right order, a newer
// request supersedes the running one, and Cancel keeps what is shown.
#include "widgets/runner/builtin_scenario.h"
#include "widgets/trace/entries_dock.h"
#include "widgets/trace/entries_model.h"
#include "widgets/trace/entries_order.h"

#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <memory>
#include <vector>

using namespace idlescope;

class TestEntriesOrder : public QObject {
    Q_OBJECT
private slots:
    void sortReturnsAtOnceAndArrivesInOrder();
    void newerSortSupersedesTheRunningOne();
    void filterRunsOnTheWorkerToo();
    void cancelKeepsTheShownOrder();
    void piecesMergeToTheFullSort();
    void cancelledWorkGivesNothing();
    void dockShowsProgressWhileBusy();
};

namespace {

// Six entries, residencies 5, 3, 9, 1, 7, 3 us; entries 0 and 3 above, entry 4 below.
const Ns RESIDENCY_US[] = {5, 3, 9, 1, 7, 3};

GovernorRun sixEntries()
{
    GovernorRun run;
    run.variant = "menu-6.14";
    for (std::size_t i = 0; i < std::size(RESIDENCY_US); ++i) {
        run.startNs.push_back(Ns(i) * 20000);
        run.residencyNs.push_back(RESIDENCY_US[i] * 1000);
        run.predictedNs.push_back(1000);
        run.sleepLengthNs.push_back(1000000);
        run.span.push_back(static_cast<std::int32_t>(i));
        run.state.push_back(static_cast<std::int8_t>(i % 2));
        run.flags.push_back(static_cast<EntryFlags>(ENTRY_WOKEN_BY_WAKEUP | (i == 0 || i == 3 ? ENTRY_ABOVE : 0)
                                                    | (i == 4 ? ENTRY_BELOW : 0)));
    }
    run.summary.entries = Ns(std::size(RESIDENCY_US));
    return run;
}

SnapshotPtr snapshotOf(GovernorRun run)
{
    auto s = std::make_shared<SimulationSnapshot>();
    s->generation = 1;
    s->table = defaultScenario().target.table;
    GovernorResult g;
    g.run = std::make_shared<const GovernorRun>(std::move(run));
    g.color = QColor(Qt::red);
    s->governors.push_back(std::move(g));
    return s;
}

std::vector<std::int64_t> shownRows(const EntriesModel &m)
{
    std::vector<std::int64_t> rows;
    for (int r = 0; r < m.rowCount(); ++r)
        rows.push_back(m.entryAt(r));
    return rows;
}

/// A model that makes every permutation on the worker (the threshold is 100000 entries).
void forceBackground(EntriesModel &m)
{
    m.setBackgroundRows(0);
}

const std::vector<std::int64_t> ENTRY_ORDER = {0, 1, 2, 3, 4, 5};
// Residency descending, ties (entries 1 and 5, both 3 us) in reversed entry order:
// 9 (2), 7 (4), 5 (0), 3 (5), 3 (1), 1 (3).
const std::vector<std::int64_t> RESIDENCY_DESCENDING = {2, 4, 0, 5, 1, 3};
// Ascending, ties in entry order: 1 (3), 3 (1), 3 (5), 5 (0), 7 (4), 9 (2).
const std::vector<std::int64_t> RESIDENCY_ASCENDING = {3, 1, 5, 0, 4, 2};

} // namespace

void TestEntriesOrder::sortReturnsAtOnceAndArrivesInOrder()
{
    EntriesModel m;
    forceBackground(m);
    m.setSnapshot(snapshotOf(sixEntries()));
    QVERIFY(!m.isBusy()); // entry order needs no worker
    QCOMPARE(shownRows(m), ENTRY_ORDER);
    QSignalSpy replaced(&m, &EntriesModel::rowsReplaced);
    QSignalSpy busy(&m, &EntriesModel::busyChanged);
    m.sort(EntriesModel::Residency, Qt::DescendingOrder);
    // Back at once: the old order still shown, the model busy, the request remembered.
    QVERIFY(m.isBusy());
    QCOMPARE(busy.count(), 1);
    QCOMPARE(busy.at(0).at(0).toBool(), true);
    QCOMPARE(shownRows(m), ENTRY_ORDER);
    QCOMPARE(m.sortColumn(), int(EntriesModel::Residency));
    QVERIFY(replaced.wait(5000));
    QVERIFY(!m.isBusy());
    QCOMPARE(busy.last().at(0).toBool(), false);
    QCOMPARE(shownRows(m), RESIDENCY_DESCENDING);
    QCOMPARE(m.rowOf(4), 1);
}

void TestEntriesOrder::newerSortSupersedesTheRunningOne()
{
    EntriesModel m;
    forceBackground(m);
    m.setSnapshot(snapshotOf(sixEntries()));
    QSignalSpy replaced(&m, &EntriesModel::rowsReplaced);
    QSignalSpy busy(&m, &EntriesModel::busyChanged);
    m.sort(EntriesModel::Residency, Qt::DescendingOrder);
    m.sort(EntriesModel::Residency, Qt::AscendingOrder); // before the first could arrive
    QVERIFY(m.isBusy());
    QCOMPARE(busy.count(), 1); // still the one busy stretch
    QVERIFY(replaced.wait(5000));
    QCOMPARE(shownRows(m), RESIDENCY_ASCENDING);
    // The first request's rows never replace them: only one replacement, even later.
    QTest::qWait(100);
    QCOMPARE(replaced.count(), 1);
    QCOMPARE(shownRows(m), RESIDENCY_ASCENDING);
    QCOMPARE(busy.count(), 2);
}

void TestEntriesOrder::filterRunsOnTheWorkerToo()
{
    EntriesModel m;
    forceBackground(m);
    m.setSnapshot(snapshotOf(sixEntries()));
    EntryFilter above;
    above.missMask = ENTRY_ABOVE;
    // In entry order a filter is one pass over the flags: at once.
    m.setFilter(above);
    QVERIFY(!m.isBusy());
    QCOMPARE(shownRows(m), (std::vector<std::int64_t>{0, 3})); // the two above entries
    // Sorted by residency, a new filter needs a new sort: on the worker, the old rows shown.
    QSignalSpy replaced(&m, &EntriesModel::rowsReplaced);
    m.sort(EntriesModel::Residency, Qt::DescendingOrder);
    QVERIFY(replaced.wait(5000));
    QCOMPARE(shownRows(m), (std::vector<std::int64_t>{0, 3})); // 5 us, then 1 us
    m.setFilter(EntryFilter{});
    QVERIFY(m.isBusy());
    QCOMPARE(m.rowCount(), 2); // the old rows until the new ones arrive
    QVERIFY(replaced.wait(5000));
    QCOMPARE(shownRows(m), RESIDENCY_DESCENDING);
}

void TestEntriesOrder::cancelKeepsTheShownOrder()
{
    EntriesModel m;
    forceBackground(m);
    m.setSnapshot(snapshotOf(sixEntries()));
    QSignalSpy replaced(&m, &EntriesModel::rowsReplaced);
    m.sort(EntriesModel::Residency, Qt::DescendingOrder);
    m.cancelPending();
    QVERIFY(!m.isBusy());
    QCOMPARE(m.sortColumn(), int(EntriesModel::Time)); // what is shown is what is asked for
    QTest::qWait(100);
    QCOMPARE(replaced.count(), 0);
    QCOMPARE(shownRows(m), ENTRY_ORDER);
    // The same sort asked again runs again (it is not taken for the one shown).
    m.sort(EntriesModel::Residency, Qt::DescendingOrder);
    QVERIFY(replaced.wait(5000));
    QCOMPARE(shownRows(m), RESIDENCY_DESCENDING);
}

void TestEntriesOrder::piecesMergeToTheFullSort()
{
    // 10007 entries (sixteen pieces of 626, the last shorter), residencies from a linear
    // congruential sequence over 0..63 us (many ties): the pieces merged must equal one
    // std::sort of the (key, entry) pairs, ascending and descending.
    GovernorRun run;
    std::uint64_t x = 7;
    for (int i = 0; i < 10007; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        run.startNs.push_back(i);
        run.residencyNs.push_back(Ns((x >> 33) % 64) * 1000);
        run.predictedNs.push_back(0);
        run.sleepLengthNs.push_back(0);
        run.span.push_back(i);
        run.state.push_back(0);
        run.flags.push_back(0);
    }
    std::vector<std::pair<Ns, std::uint32_t>> pairs;
    for (std::uint32_t i = 0; i < run.size(); ++i)
        pairs.emplace_back(run.residencyNs[i], i);
    for (const bool ascending : {true, false}) {
        auto want = pairs;
        if (ascending)
            std::sort(want.begin(), want.end());
        else
            std::sort(want.begin(), want.end(), std::greater<>());
        EntryOrderProgress progress;
        const auto got = orderedEntries(run, EntryFilter{}, EntryKey::Residency, ascending, &progress);
        QVERIFY(got);
        QCOMPARE(got->size(), want.size());
        for (std::size_t k = 0; k < want.size(); ++k)
            QCOMPARE((*got)[k], want[k].second);
        QCOMPARE(progress.perMille.load(), 1000);
    }
}

void TestEntriesOrder::cancelledWorkGivesNothing()
{
    const GovernorRun run = sixEntries();
    EntryOrderProgress progress;
    progress.cancel = true;
    QVERIFY(!orderedEntries(run, EntryFilter{}, EntryKey::Residency, true, &progress));
    EntryFilter above;
    above.missMask = ENTRY_ABOVE;
    QVERIFY(!orderedEntries(run, above, EntryKey::Time, true, &progress));
}

void TestEntriesOrder::dockShowsProgressWhileBusy()
{
    EntriesDock dock(nullptr);
    dock.model()->setBackgroundRows(0);
    dock.setSnapshot(snapshotOf(sixEntries()));
    dock.show();
    QVERIFY(dock.progressBar()->isHidden());
    QSignalSpy replaced(dock.model(), &EntriesModel::rowsReplaced);
    dock.model()->sort(EntriesModel::Residency, Qt::DescendingOrder);
    QVERIFY(!dock.progressBar()->isHidden());
    QVERIFY(!dock.cancelButton()->isHidden());
    QVERIFY(replaced.wait(5000));
    QVERIFY(dock.progressBar()->isHidden());
    QVERIFY(dock.cancelButton()->isHidden());
    QCOMPARE(dock.countText(), QStringLiteral("6 of 6 entries"));
    // Cancel pressed while busy: the order shown stays.
    dock.model()->sort(EntriesModel::Residency, Qt::AscendingOrder);
    QTest::mouseClick(dock.cancelButton(), Qt::LeftButton);
    QVERIFY(!dock.model()->isBusy());
    QCOMPARE(shownRows(*dock.model()), RESIDENCY_DESCENDING);
    QCOMPARE(dock.model()->sortOrder(), Qt::DescendingOrder);
}

QTEST_MAIN(TestEntriesOrder)
#include "tst_entries_order.moc"
