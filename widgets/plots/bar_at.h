// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file bar_at.h
 * Which bar of a bar series is under the mouse, for the per-state bar charts'
 * tooltips (a bar's index is its idle state's).
 */
#pragma once

#include "widgets/plots/qcp.h"

namespace idlescope {

/// The data index of the bar of @p bars at @p pos (widget pixels), or -1 when none is there.
inline int barAt(const QCPBars *bars, const QPointF &pos)
{
    QVariant details;
    if (bars->selectTest(pos, false, &details) < 0)
        return -1;
    const auto sel = details.value<QCPDataSelection>();
    return sel.isEmpty() ? -1 : sel.dataRange().begin();
}

} // namespace idlescope
