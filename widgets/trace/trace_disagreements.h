// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_disagreements.h
 * The first entries where a simulated governor entered another state than
 * the kernel did (issue 29 §3), on the CPU the window replays, as links the
 * inspector shows: a click selects the kernel's entry there, so that the
 * inspector opens it with every governor's choice beside the kernel's.
 *
 * The pairing is core's (trace::compareEntries(), the one compare --agreement
 * and the CPUs dock use): the k-th recorded entry of a stream row with the
 * k-th simulated entry of the same row, on the snapshot's own runs. Nothing
 * under a latency limit: the kernel ran without it.
 */
#pragma once

#include "widgets/runner/simulation_snapshot.h"

#include <QString>
#include <QUrl>

#include <cstdint>
#include <vector>

namespace idlescope {

struct DisagreementLink {
    int governor = -1;               ///< the simulated run (snapshot index)
    int recorded = -1;               ///< the recorded run (snapshot index)
    std::int64_t recordedEntry = -1; ///< the kernel's entry (index in the recorded run)
    Ns traceNs = 0;                  ///< its cpu_idle enter, trace clock
    int recordedState = 0;
    int simulatedState = 0;
};

/// Up to @p keep first disagreements of every simulated governor of @p snap (the oracle and
/// the recorded run left out) with its recorded run, governor by governor, each by trace time.
/// Empty without a trace, a recorded run, or under a latency limit.
std::vector<DisagreementLink> firstDisagreements(const SimulationSnapshot &snap, std::size_t keep);

/// "entry:G/E", the link that selects entry E of run G.
QUrl entryLink(int governor, std::int64_t entry);
/// The run and entry of an entryLink(); false for any other URL.
bool parseEntryLink(const QUrl &url, int *governor, std::int64_t *entry);

/// The inspector's section: per governor, its disagreements as links to the kernel's entries
/// at their place on the lanes' axis, the trace-cmd timestamp after each ("0.182389 s: the kernel
/// cluster-sleep-0, menu-6.14 WFI (trace-cmd 2084.203832 s)"). Empty when @p links is.
QString disagreementsHtml(const SimulationSnapshot &snap, const std::vector<DisagreementLink> &links);

} // namespace idlescope
