// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file view_state.h
 * The one shared view state every plot and panel follows (after hotspot's
 * FilterAndZoomStack): the visible time range with a zoom stack, the playback
 * cursor, and the selected entry. Times are ns relative to the run start
 * (GovernorRun::startNs), as qint64.
 *
 * Stable API shared with widgets/inspector: the inspector connects to
 * entrySelected() to learn the selected entry and calls selectEntry() on
 * "next miss" / "previous miss", so the plots move their cursor too.
 */
#pragma once

#include <QObject>
#include <QPair>
#include <QVector>

namespace idlescope {

class ViewState : public QObject {
    Q_OBJECT
public:
    explicit ViewState(QObject *parent = nullptr);

    /// The whole run [0, end] ns; resets the zoom stack and shows everything.
    void setFullRange(qint64 startNs, qint64 endNs);
    qint64 fullStartNs() const { return m_fullStart; }
    qint64 fullEndNs() const { return m_fullEnd; }
    /// The same run's extent after a re-simulation (new exit latencies move the end):
    /// the zoom stack and the visible window stay (clamped into [startNs, endNs]); a
    /// view (or a zoom-stack entry) that showed the whole old range shows the whole new
    /// one. Emits rangeChanged when the full range changed.
    void updateFullRange(qint64 startNs, qint64 endNs);

    /// Visible range (ns relative to run start); start < end always.
    qint64 rangeStartNs() const { return m_start; }
    qint64 rangeEndNs() const { return m_end; }

    /// Show [startNs, endNs] (clamped to the full range) without touching the zoom stack (pan, live follow).
    void setRange(qint64 startNs, qint64 endNs);
    /// Push the current range, then show [startNs, endNs] (a zoom the user can undo).
    void zoomTo(qint64 startNs, qint64 endNs);
    /// Back to the range before the last zoomTo(); false when the stack is empty.
    bool zoomOut();
    /// Show the full range and clear the stack.
    void resetZoom();
    int zoomDepth() const { return static_cast<int>(m_stack.size()); }

    /// Playback / hover cursor (ns relative to run start), -1 for none.
    qint64 cursorNs() const { return m_cursor; }
    void setCursorNs(qint64 ns);

    /// Selected entry: governor index into SimulationSnapshot::runs and entry index into its columns.
    int selectedGovernor() const { return m_selGov; }
    qint64 selectedEntry() const { return m_selEntry; }
    /// Select an entry (emits entrySelected when it changes); (-1, -1) clears the selection.
    void selectEntry(int governorIndex, qint64 entryIndex);

signals:
    void rangeChanged(qint64 startNs, qint64 endNs);
    void cursorChanged(qint64 ns);
    void entrySelected(int governorIndex, qint64 entryIndex);

private:
    qint64 m_fullStart = 0;
    qint64 m_fullEnd = 1;
    qint64 m_start = 0;
    qint64 m_end = 1;
    qint64 m_cursor = -1;
    int m_selGov = -1;
    qint64 m_selEntry = -1;
    QVector<QPair<qint64, qint64>> m_stack;
};

} // namespace idlescope
