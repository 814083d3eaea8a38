// SPDX-License-Identifier: GPL-3.0-or-later
// shareSteps() (widgets/runner/share_steps.h): every step of every task is
// made once and never two of one task at once; a cancel stops it; a step
// that throws (out of memory) stops every thread and reaches the caller
// instead of leaving them waiting.
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
        // be caught, whatever the timing. The same wait proves the sharing:
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
        const std::atomic<bool> cancel{false};
        const auto othersLeft = [&](std::size_t t) {
            for (std::size_t u = 0; u < length.size(); ++u)
                if (u != t && made[u].load() < length[u])
                    return true;
            return false;
        };
        shareSteps(
            length.size(), [&](std::size_t t) { return std::size_t(length[t] - made[t].load()); },
            [&](std::size_t t) {
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
            cancel);
        for (std::size_t t = 0; t < length.size(); ++t)
            QCOMPARE(made[t].load(), length[t]);
        QCOMPARE(overlaps.load(), 0);
        QCOMPARE(started.load(), 40L + 75 + 13 + 1);
        QVERIFY2(mostInside.load() >= 2, "no two steps ran at once");
        QVERIFY(mostInside.load() <= std::min(int(length.size()), QThread::idealThreadCount()));
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
            [&](std::size_t) {
                if (++steps >= 10)
                    cancel = true;
                return false; // never done by itself
            },
            cancel);
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
                [&](std::size_t t) {
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
                cancel);
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
