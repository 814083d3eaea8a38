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
 * are cores (or tasks, if fewer), until each task's @p step(t) returns true
 * (done): a free thread takes the next step of the waiting task with the most
 * @p left(t) (work left, e.g. spans). Whole runs shared out
 * between threads end unevenly (three runs on two cores: two end at one
 * run's time, the third at twice it, or, a thread each, the scheduler leaves
 * one alone on a core); steps end them together at 3/2 of it. A task's steps
 * are never made at once. Stops early when @p cancel is set; a step that
 * throws (std::bad_alloc) stops every thread and is rethrown here.
 */
void shareSteps(std::size_t tasks, const std::function<std::size_t(std::size_t)> &left,
                const std::function<bool(std::size_t)> &step, const std::atomic<bool> &cancel);

} // namespace idlescope
