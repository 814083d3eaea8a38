// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file share_steps.h
 * Several resumable tasks (runs replayed in steps, GovernorRunBuilder)
 * shared between the cores. Plain C++ and Qt's thread pool; no engine types.
 */
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>

namespace idlescope {

/**
 * Makes steps of @p tasks resumable tasks (numbered 0 .. tasks - 1) on this
 * thread and on helper threads kept between calls, as many threads as there
 * are cores (or tasks, if fewer), until each task's @p step(t, units) returns
 * true (done): a free thread takes the next step of the waiting task with the
 * most @p left(t) (work left, e.g. spans; asked only of a task that is not
 * inside a step, under the lock). Whole runs shared out
 * between threads end unevenly (three runs on two cores: two end at one
 * run's time, the third at twice it, or, a thread each, the scheduler leaves
 * one alone on a core); steps end them together at 3/2 of it. A task's steps
 * are never made at once. Each step is handed its size in units of left(),
 * guidedStepUnits() of the work left in all tasks: @p maxUnits while much is
 * left, smaller towards the end, so that the last steps, whichever core they
 * land on, end close together (a step begun on a core that runs slower, one
 * shared with another program, would otherwise hold up the end). Stops early
 * when @p cancel is set; a step that throws (std::bad_alloc) stops every
 * thread and is rethrown here.
 */
void shareSteps(std::size_t tasks, const std::function<std::size_t(std::size_t)> &left,
                const std::function<bool(std::size_t task, std::size_t units)> &step, std::size_t maxUnits,
                const std::atomic<bool> &cancel);

/// The size of the next step when @p totalLeft units are left in all tasks
/// and @p threads threads share them: totalLeft / (2 * threads) (each thread's
/// share, halved, so that the steps shrink as the end nears), within
/// [max(1, maxUnits / 16), maxUnits]. The runner's three runs of a million
/// spans on two threads (maxUnits 32768) make steps of 32768 spans until
/// 131,072 spans are left (the last 4 %), then smaller ones, down to 2048.
std::size_t guidedStepUnits(std::size_t totalLeft, int threads, std::size_t maxUnits);

} // namespace idlescope
