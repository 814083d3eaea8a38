// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file text_ticks.h
 * The labels of an axis with a text ticker (lane and state names), read back
 * for the tests that check every lane is named.
 */
#pragma once

#include "widgets/plots/qcp.h"

#include <QStringList>

namespace idlescope {

/// The labels of @p axis's QCPAxisTickerText, in tick order (bottom-up); empty for another ticker.
inline QStringList textTickLabels(const QCPAxis *axis)
{
    QStringList out;
    if (const auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>())
        for (const QString &label : ticker->ticks())
            out << label;
    return out;
}

} // namespace idlescope
