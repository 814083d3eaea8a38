// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file governor_legend.h
 * The strip above the plots: one chip per governor with its colour, a
 * "modified" badge when its tunables differ from the kernel's, and its
 * counts up to the playback cursor (entries, above, below, idle-miss ratio)
 * — the legend of every plot and the numbers at a glance. The chips wrap
 * to more rows (flow_layout.h) rather than widen the window.
 */
#pragma once

#include "core/stats/run_counts.h"
#include "widgets/runner/simulation_snapshot.h"

#include <QStringList>
#include <QWidget>

class QLabel;

namespace idlescope {

class FlowLayout;
class ViewState;

class GovernorLegend : public QWidget {
    Q_OBJECT
public:
    GovernorLegend(ViewState *view, QWidget *parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    /// Counts shown for governor @p g (tests read them).
    PrefixCounts shownCounts(int g) const;
    /// The plain text of governor @p g's chip.
    QString chipText(int g) const;
    /// Rows the chips take at the legend's current width (tests).
    int rowCount() const;
    /// True while the chips leave their above/below counts to their tooltips, so that they fit
    /// on one row (a 1024-pixel projector: the full chips took two rows off the plots).
    bool isCompact() const { return m_compact; }

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void refresh();
    /// Full chips when they fit on one row at the legend's width, else compact ones.
    void chooseCompact();

    ViewState *m_view;
    SnapshotPtr m_snap;
    FlowLayout *m_layout;
    QList<QLabel *> m_chips;
    QStringList m_full;  ///< each chip's full text (name, badges, miss %, above, below)
    QStringList m_short; ///< without above and below
    bool m_compact = false;
    std::vector<PrefixCounts> m_shown;
};

} // namespace idlescope
