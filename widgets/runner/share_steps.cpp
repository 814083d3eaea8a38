// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/share_steps.h"

#include <QFuture>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <vector>

namespace idlescope {

namespace {

/// Threads that replay runs beside the job's own, kept waiting between jobs
/// (made afresh, a thread started 3 to 7 ms late while the others ran). The
/// global pool's threads are not used: the job itself holds one of them.
QThreadPool &runThreads()
{
    static QThreadPool *pool = [] {
        auto *p = new QThreadPool;
        p->setMaxThreadCount(QThread::idealThreadCount());
        p->setExpiryTimeout(-1);
        return p;
    }();
    return *pool;
}

} // namespace

std::size_t guidedStepUnits(std::size_t totalLeft, int threads, std::size_t maxUnits)
{
    const std::size_t minUnits = std::max<std::size_t>(1, maxUnits / 16);
    const std::size_t share = totalLeft / (2 * static_cast<std::size_t>(std::max(1, threads)));
    return std::clamp(share, minUnits, std::max(minUnits, maxUnits));
}

void shareSteps(std::size_t tasks, const std::function<std::size_t(std::size_t)> &left,
                const std::function<bool(std::size_t task, std::size_t units)> &step, std::size_t maxUnits,
                const std::atomic<bool> &cancel)
{
    if (tasks == 0)
        return;
    const int threads = std::min<int>(static_cast<int>(tasks), std::max(1, QThread::idealThreadCount()));
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<char> running(tasks, 0), done(tasks, 0);
    // What a running task will have left after its step, as far as known here:
    // left() is never asked of a task inside a step (its step may be ending it).
    std::vector<std::size_t> leftAfterStep(tasks, 0);
    std::exception_ptr failure; // the first step that threw
    const auto work = [&] {
        std::unique_lock lock(mutex);
        for (;;) {
            std::size_t pick = tasks, pickLeft = 0;
            bool anyRunning = false;
            std::size_t totalLeft = 0; // in every task not done
            for (std::size_t t = 0; t < tasks; ++t) {
                if (done[t])
                    continue;
                if (running[t]) {
                    anyRunning = true;
                    totalLeft += leftAfterStep[t];
                    continue;
                }
                const std::size_t l = left(t);
                totalLeft += l;
                if (pick == tasks || l > pickLeft) {
                    pick = t;
                    pickLeft = l;
                }
            }
            if (cancel.load(std::memory_order_relaxed) || failure || (pick == tasks && !anyRunning))
                break;
            if (pick == tasks) {
                changed.wait(lock);
                continue;
            }
            running[pick] = 1;
            const std::size_t units = guidedStepUnits(totalLeft, threads, maxUnits);
            leftAfterStep[pick] = pickLeft - std::min(pickLeft, units);
            lock.unlock();
            bool finished = false;
            std::exception_ptr thrown;
            try {
                finished = step(pick, units);
            } catch (...) { // out of memory: every thread stops, the caller gets it
                thrown = std::current_exception();
            }
            lock.lock();
            running[pick] = 0;
            done[pick] = finished;
            if (thrown && !failure)
                failure = thrown;
            changed.notify_all();
        }
        changed.notify_all();
    };
    std::vector<QFuture<void>> helpers;
    for (int k = 1; k < threads; ++k)
        helpers.push_back(QtConcurrent::run(&runThreads(), work));
    work();
    for (QFuture<void> &f : helpers)
        f.waitForFinished();
    if (failure)
        std::rethrow_exception(failure);
}

} // namespace idlescope
