// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file count_ticker.h
 * Axis ticks for counts (entries, misses, spans): QCustomPlot's nice steps,
 * never finer than 1, so a run with two misses is labelled 0, 1, 2 and not
 * 0, 0.5, 1, 1.5, 2 (there is no half a miss).
 */
#pragma once

#include "widgets/plots/qcp.h"

#include <algorithm>

namespace idlescope {

class CountTicker : public QCPAxisTicker {
protected:
    double getTickStep(const QCPRange &range) override { return std::max(1.0, QCPAxisTicker::getTickStep(range)); }
    int getSubTickCount(double tickStep) override
    {
        // Sub-ticks between whole numbers would stand for fractions again.
        return tickStep <= 1.0 ? 0 : QCPAxisTicker::getSubTickCount(tickStep);
    }
};

} // namespace idlescope
