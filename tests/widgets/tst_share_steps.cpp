// SPDX-License-Identifier: GPL-3.0-or-later
// shareSteps() (widgets/runner/share_steps.h): every step of every task is
// made once and never two of one task at once; steps shrink towards the end;
// a cancel stops it; a step that throws (out of memory) stops every thread
// and reaches the caller instead of leaving them waiting.
#include "widgets/runner/share_steps.h"

#include <QTest>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <new>
#include <vector>

using namespace idlescope;

class TestShareSteps : public QObject {
    Q_OBJECT
private slots:
    void everyStepOnceNeverTwoAtOnce()
    {
        // No sleeps: a step of task t stays inside until another thread has
        // begun a step (or nothing else is left to do), so each time a thread
        // chooses its next task, the longest task is inside a step: a
        // scheduler that could pick a running task would pick that one and
        // be caught, whatever the timing, as would one that asked left() of
        // it (its step may be ending it). The same wait proves the sharing:
        // the first step cannot end before a second one has begun, so two
        // steps (of two tasks) are inside at once, and never more than the
        // threads shareSteps() makes, min(tasks, cores).
        if (QThread::idealThreadCount() < 2)
            QSKIP("one core: shareSteps() makes every step on the calling thread, so none can overlap");
        const std::vector<int> length{40, 75, 13, 1};
        std::vector<std::atomic<int>> made(length.size());
        std::vector<std::atomic<bool>> inside(length.size());
        std::atomic<int> overlaps{0};
        std::atomic<int> insideNow{0}, mostInside{0}; // steps inside at once, and the most ever
        std::atomic<long> started{0};
        std::atomic<int> leftWhileInside{0}; // left() of a task inside a step (its step may be ending it)
        const std::atomic<bool> cancel{false};
        const auto othersLeft = [&](std::size_t t) {
            for (std::size_t u = 0; u < length.size(); ++u)
                if (u != t && made[u].load() < length[u])
                    return true;
            return false;
        };
        shareSteps(
            length.size(),
            [&](std::size_t t) {
                if (inside[t].load())
                    ++leftWhileInside;
                return std::size_t(length[t] - made[t].load());
            },
            [&](std::size_t t, std::size_t) {
                if (inside[t].exchange(true))
                    ++overlaps;
                const int now = ++insideNow; // before started: whoever sees a new start sees it
                for (int most = mostInside.load(); now > most && !mostInside.compare_exchange_weak(most, now);) {}
                const long me = ++started;
                while (started.load() == me && othersLeft(t))
                    QThread::yieldCurrentThread();
                const bool done = ++made[t] == length[t];
                --insideNow;
                inside[t] = false;
                return done;
            },
            1, cancel);
        for (std::size_t t = 0; t < length.size(); ++t)
            QCOMPARE(made[t].load(), length[t]);
        QCOMPARE(overlaps.load(), 0);
        QCOMPARE(leftWhileInside.load(), 0);
        QCOMPARE(started.load(), 40L + 75 + 13 + 1);
        QVERIFY2(mostInside.load() >= 2, "no two steps ran at once");
        QVERIFY(mostInside.load() <= std::min(int(length.size()), QThread::idealThreadCount()));
    }

    void guidedStepUnits_data()
    {
        QTest::addColumn<qulonglong>("totalLeft");
        QTest::addColumn<int>("threads");
        QTest::addColumn<qulonglong>("expected");
        // maxUnits 32768 (the runner's spans a step), its sixteenth 2048:
        // three runs of a million spans on two threads: a quarter of it, cut to 32768.
        QTest::newRow("start") << 3000000ull << 2 << 32768ull;
        QTest::newRow("2*2*32768 left: still the largest") << 131072ull << 2 << 32768ull;
        QTest::newRow("100,000 left: 100000 / 4") << 100000ull << 2 << 25000ull;
        QTest::newRow("20,000 left: 5000") << 20000ull << 2 << 5000ull;
        QTest::newRow("8,000 left: 2000, raised to 2048") << 8000ull << 2 << 2048ull;
        QTest::newRow("one thread: 40000 / 2") << 40000ull << 1 << 20000ull;
        QTest::newRow("nothing left") << 0ull << 2 << 2048ull;
    }

    void guidedStepUnits()
    {
        QFETCH(qulonglong, totalLeft);
        QFETCH(int, threads);
        QFETCH(qulonglong, expected);
        QCOMPARE(qulonglong(idlescope::guidedStepUnits(totalLeft, threads, 32768)), expected);
    }

    void smallMaxUnitsStayOne()
    {
        // maxUnits below 16: the smallest step is 1 unit, never 0.
        QCOMPARE(idlescope::guidedStepUnits(0, 2, 1), std::size_t(1));
        QCOMPARE(idlescope::guidedStepUnits(100, 2, 8), std::size_t(8));
        QCOMPARE(idlescope::guidedStepUnits(10, 2, 8), std::size_t(2));
    }

    void stepsShrinkTowardsTheEnd()
    {
        // One task, so one thread (threads = min(tasks, cores)): the sizes
        // handed out follow from what is left alone. 100,000 units, at most
        // 32768 a step, a step making what it is given (the last one what is
        // left): left / 2, within [2048, 32768]:
        // 100000 -> 32768, 67232 -> 32768, 34464 -> 17232, 17232 -> 8616,
        // 8616 -> 4308, 4308 -> 2154, 2154 -> 2048, 106 -> 2048 (makes 106).
        std::size_t left = 100000;
        std::vector<std::size_t> sizes;
        const std::atomic<bool> cancel{false};
        shareSteps(
            1, [&](std::size_t) { return left; },
            [&](std::size_t, std::size_t units) {
                sizes.push_back(units);
                left -= std::min(left, units);
                return left == 0;
            },
            32768, cancel);
        const std::vector<std::size_t> expected{32768, 32768, 17232, 8616, 4308, 2154, 2048, 2048};
        QCOMPARE(sizes, expected);
    }

    void cancelStops()
    {
        // Each step that makes the 10th or a later one sets the cancel before it returns, so
        // the thread that made it stops at once; each other thread can end at most the one
        // step it is inside: 10 steps, plus at most one for each thread but the first,
        // whatever the timing (two tasks: min(2, cores) threads).
        std::atomic<bool> cancel{false};
        std::atomic<int> steps{0};
        shareSteps(
            2, [&](std::size_t) { return std::size_t(1000); },
            [&](std::size_t, std::size_t) {
                if (++steps >= 10)
                    cancel = true;
                return false; // never done by itself
            },
            1, cancel);
        const int threads = std::min(2, std::max(1, QThread::idealThreadCount()));
        QVERIFY2(steps.load() >= 10 && steps.load() <= 10 + threads - 1, qPrintable(QString::number(steps.load())));
    }

    void throwingStepReachesTheCaller()
    {
        // Task 1 runs out of memory at its third step; the call returns
        // (no thread left waiting) with that exception, and task 0 was
        // stopped: it would only end by itself after 100 million steps
        // (seconds), and its 500th step waits for the throw, so the throw
        // comes while it still runs however the threads are scheduled (one
        // core: a single thread would wait for ever).
        if (QThread::idealThreadCount() < 2)
            QSKIP("one core: task 0 would wait for a throw that only this thread could make");
        constexpr int endless = 100'000'000;
        const std::atomic<bool> cancel{false};
        std::vector<std::atomic<int>> made(2);
        std::atomic<bool> threw{false};
        bool caught = false;
        try {
            shareSteps(
                2, [&](std::size_t t) { return std::size_t(endless - made[t].load()); },
                [&](std::size_t t, std::size_t) {
                    if (t == 1 && made[t] == 2) {
                        threw = true;
                        throw std::bad_alloc();
                    }
                    if (t == 0 && made[t] == 500)
                        while (!threw.load())
                            QThread::yieldCurrentThread();
                    ++made[t];
                    return made[t] == endless;
                },
                1, cancel);
        } catch (const std::bad_alloc &) {
            caught = true;
        }
        QVERIFY(caught);
        QCOMPARE(made[1].load(), 2);
        QVERIFY(made[0].load() < endless);
    }
};

QTEST_GUILESS_MAIN(TestShareSteps)
#include "tst_share_steps.moc"
