// SPDX-License-Identifier: GPL-3.0-or-later
// shareSteps() (widgets/runner/share_steps.h): every step of every task is
// made once and never two of one task at once; a cancel stops it; a step
// that throws (out of memory) stops every thread and reaches the caller
// instead of leaving them waiting.
#include "widgets/runner/share_steps.h"

#include <QTest>

#include <atomic>
#include <new>
#include <vector>

using namespace idlescope;

class TestShareSteps : public QObject {
    Q_OBJECT
private slots:
    void everyStepOnceNeverTwoAtOnce()
    {
        const std::vector<int> length{40, 75, 13, 1};
        std::vector<std::atomic<int>> made(length.size());
        std::vector<std::atomic<bool>> inside(length.size());
        std::atomic<int> overlaps{0};
        const std::atomic<bool> cancel{false};
        shareSteps(
            length.size(), [&](std::size_t t) { return std::size_t(length[t] - made[t].load()); },
            [&](std::size_t t) {
                if (inside[t].exchange(true))
                    ++overlaps;
                QThread::usleep(200);
                const bool done = ++made[t] == length[t];
                inside[t] = false;
                return done;
            },
            cancel);
        for (std::size_t t = 0; t < length.size(); ++t)
            QCOMPARE(made[t].load(), length[t]);
        QCOMPARE(overlaps.load(), 0);
    }

    void cancelStops()
    {
        std::atomic<bool> cancel{false};
        std::atomic<int> steps{0};
        shareSteps(
            2, [&](std::size_t) { return std::size_t(1000); },
            [&](std::size_t) {
                if (++steps == 10)
                    cancel = true;
                return false; // never done by itself
            },
            cancel);
        QVERIFY(steps.load() >= 10 && steps.load() < 20);
    }

    void throwingStepReachesTheCaller()
    {
        // Task 1 runs out of memory at its third step; the call returns
        // (no thread left waiting) with that exception; the other task was
        // stopped before its end.
        const std::atomic<bool> cancel{false};
        std::vector<std::atomic<int>> made(2);
        bool caught = false;
        try {
            shareSteps(
                2, [&](std::size_t t) { return std::size_t(1000 - made[t].load()); },
                [&](std::size_t t) {
                    if (t == 1 && made[t] == 2)
                        throw std::bad_alloc();
                    ++made[t];
                    QThread::usleep(100);
                    return made[t] == 1000;
                },
                cancel);
        } catch (const std::bad_alloc &) {
            caught = true;
        }
        QVERIFY(caught);
        QCOMPARE(made[1].load(), 2);
        QVERIFY(made[0].load() < 1000);
    }
};

QTEST_GUILESS_MAIN(TestShareSteps)
#include "tst_share_steps.moc"
