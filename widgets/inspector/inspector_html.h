// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file inspector_html.h
 * The text part of the episode inspector as (Qt rich-text) HTML: the entry's
 * inputs, the decision and its verdict (above / below / no miss), the
 * governor's reasoning in plain sentences, the oracle's choice for the same
 * entry, and what the mistake cost.
 */
#pragma once

#include "widgets/inspector/entry_detail.h"

#include <QColor>
#include <QString>

namespace idlescope {

/// The full panel text for @p d on @p table; @p color is the governor's.
QString entryDetailHtml(const EntryDetail &d, const IdleStateTable &table, const QColor &color);

/// One line for the inspector's title: "menu-6.14 · entry 1205 · span 1002 (entry 0 within the span) ·
/// at 3.297 ms": @p when after "at", by default d.axisNs (where the plots draw the entry) as a duration.
/// With @p traceSpan >= 0 (a trace's entry) the span is the trace's, named without the entry's
/// place in its stream row.
QString entryTitle(const EntryDetail &d, const QString &when = {}, std::int64_t traceSpan = -1);

/// "12 µs" etc. (formatDuration, UnitStyle::Micro) as a QString.
QString durationText(Ns ns);
/// A latency limit: "none (PM QoS default, …)" for the default, else durationText().
QString latencyLimitText(Ns ns);

} // namespace idlescope
