// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/view_state.h"

#include <algorithm>

namespace idlescope {

ViewState::ViewState(QObject *parent) : QObject(parent) {}

void ViewState::setFullRange(qint64 startNs, qint64 endNs)
{
    m_fullStart = startNs;
    m_fullEnd = std::max(endNs, startNs + 1);
    m_stack.clear();
    m_start = m_fullStart;
    m_end = m_fullEnd;
    emit rangeChanged(m_start, m_end);
}

void ViewState::updateFullRange(qint64 startNs, qint64 endNs)
{
    endNs = std::max(endNs, startNs + 1);
    if (startNs == m_fullStart && endNs == m_fullEnd)
        return;
    const bool wholeShown = m_start == m_fullStart && m_end == m_fullEnd;
    // A zoom-out back to "everything" still means everything.
    for (QPair<qint64, qint64> &r : m_stack)
        if (r.first == m_fullStart && r.second == m_fullEnd)
            r = {startNs, endNs};
    m_fullStart = startNs;
    m_fullEnd = endNs;
    if (wholeShown) {
        m_start = m_fullStart;
        m_end = m_fullEnd;
    } else {
        // setRange()'s clamp, without its early return: the full range changed even
        // when the window did not, and scroll bars and playback follow rangeChanged.
        const qint64 width = std::clamp<qint64>(m_end - m_start, 1, m_fullEnd - m_fullStart);
        m_start = std::clamp(m_start, m_fullStart, m_fullEnd - width);
        m_end = m_start + width;
    }
    emit rangeChanged(m_start, m_end);
}

void ViewState::setRange(qint64 startNs, qint64 endNs)
{
    if (endNs < startNs)
        std::swap(startNs, endNs);
    // Keep the width when a pan runs into an edge, so panning never zooms.
    const qint64 width = std::clamp<qint64>(endNs - startNs, 1, m_fullEnd - m_fullStart);
    startNs = std::clamp(startNs, m_fullStart, m_fullEnd - width);
    endNs = startNs + width;
    if (startNs == m_start && endNs == m_end)
        return;
    m_start = startNs;
    m_end = endNs;
    emit rangeChanged(m_start, m_end);
}

void ViewState::zoomTo(qint64 startNs, qint64 endNs)
{
    m_stack.append({m_start, m_end});
    setRange(startNs, endNs);
}

bool ViewState::zoomOut()
{
    if (m_stack.isEmpty())
        return false;
    const auto r = m_stack.takeLast();
    setRange(r.first, r.second);
    return true;
}

void ViewState::resetZoom()
{
    m_stack.clear();
    setRange(m_fullStart, m_fullEnd);
}

void ViewState::setCursorNs(qint64 ns)
{
    if (ns == m_cursor)
        return;
    m_cursor = ns;
    emit cursorChanged(ns);
}

void ViewState::selectEntry(int governorIndex, qint64 entryIndex)
{
    if (governorIndex == m_selGov && entryIndex == m_selEntry)
        return;
    m_selGov = governorIndex;
    m_selEntry = entryIndex;
    emit entrySelected(governorIndex, entryIndex);
}

} // namespace idlescope
