// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/trace/entries_model.h"

#include "widgets/inspector/inspector_html.h"
#include "widgets/trace/trace_entry_text.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace idlescope
{

const char *entryEndName(EntryEnd e)
{
    switch (e) {
    case EntryEnd::Timer:
        return "timer";
    case EntryEnd::Wakeup:
        return "wakeup";
    case EntryEnd::Tick:
        return "tick";
    case EntryEnd::PollLimit:
        return "poll limit";
    case EntryEnd::Other:
        break;
    }
    return "other";
}

EntryEnd entryEnd(std::uint8_t flags)
{
    if (flags & ENTRY_WOKEN_BY_WAKEUP)
        return (flags & ENTRY_TIMER_WAKE) ? EntryEnd::Timer : EntryEnd::Wakeup;
    if (flags & ENTRY_POLL_TIME_LIMIT)
        return EntryEnd::PollLimit;
    if (flags & ENTRY_GOT_TICK)
        return EntryEnd::Tick;
    return EntryEnd::Other;
}

EntriesModel::EntriesModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

const GovernorRun *EntriesModel::currentRun() const
{
    if (!m_snap || m_run < 0 || m_run >= m_snap->governorCount())
        return nullptr;
    return &m_snap->runs[static_cast<std::size_t>(m_run)];
}

void EntriesModel::setSnapshot(SnapshotPtr snapshot)
{
    std::string variant;
    if (const GovernorRun *r = currentRun())
        variant = r->variant;
    m_snap = std::move(snapshot);
    m_run = m_snap ? m_snap->indexOf(variant) : -1;
    if (m_run < 0 && m_snap && m_snap->governorCount() > 0)
        m_run = 0;
    refilter();
}

void EntriesModel::setRun(int g)
{
    m_run = g;
    refilter();
}

void EntriesModel::setFilter(const EntryFilter &filter)
{
    m_filter = filter;
    refilter();
}

void EntriesModel::refilter()
{
    beginResetModel();
    m_rows.clear();
    if (const GovernorRun *r = currentRun()) {
        const EntryFilter &f = m_filter;
        const std::size_t n = r->size();
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint8_t flags = r->flags[i];
            if (f.missMask && !(flags & f.missMask))
                continue;
            if (f.state >= 0 && r->state[i] != f.state)
                continue;
            const Ns res = r->residencyNs[i];
            if ((f.minResidencyNs >= 0 && res < f.minResidencyNs)
                || (f.maxResidencyNs >= 0 && res > f.maxResidencyNs))
                continue;
            if (f.end >= 0 && static_cast<int>(entryEnd(flags)) != f.end)
                continue;
            m_rows.push_back(static_cast<std::uint32_t>(i));
        }
    }
    endResetModel();
    if (m_sortColumn != Time || m_sortOrder != Qt::AscendingOrder)
        sort(m_sortColumn, m_sortOrder);
}

std::int64_t EntriesModel::entryAt(int row) const
{
    return row >= 0 && static_cast<std::size_t>(row) < m_rows.size() ? m_rows[static_cast<std::size_t>(row)]
                                                                     : -1;
}

int EntriesModel::rowOf(std::int64_t entry) const
{
    if (entry < 0)
        return -1;
    const auto e = static_cast<std::uint32_t>(entry);
    if (m_sortColumn == Time && m_sortOrder == Qt::AscendingOrder) { // entry order: binary search
        const auto it = std::lower_bound(m_rows.begin(), m_rows.end(), e);
        return it != m_rows.end() && *it == e ? static_cast<int>(it - m_rows.begin()) : -1;
    }
    const auto it = std::find(m_rows.begin(), m_rows.end(), e);
    return it != m_rows.end() ? static_cast<int>(it - m_rows.begin()) : -1;
}

int EntriesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int EntriesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EntriesModel::data(const QModelIndex &index, int role) const
{
    const GovernorRun *r = currentRun();
    if (!r || !index.isValid() || static_cast<std::size_t>(index.row()) >= m_rows.size())
        return {};
    const std::size_t i = m_rows[static_cast<std::size_t>(index.row())];
    if (role == Qt::TextAlignmentRole)
        return index.column() == State || index.column() == Miss || index.column() == End
            ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
            : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Time: {
        const Ns ts = entryTraceNs(*m_snap, m_run, static_cast<std::int64_t>(i));
        return ts >= 0 ? traceTimestampText(ts) : durationText(r->startNs[i]);
    }
    case Cpu:
        return m_snap->trace ? QVariant(m_snap->trace->cpu) : QVariant(QStringLiteral("\u2014"));
    case State: {
        const int s = r->state[i];
        return s >= 0 && s < m_snap->table.count() ? QString::fromStdString(m_snap->table[s].name)
                                                   : QString::number(s);
    }
    case Residency:
        return durationText(r->residencyNs[i]);
    case Prediction:
        return r->predictedNs[i] < 0 ? QStringLiteral("\u2014") : durationText(r->predictedNs[i]);
    case Miss:
        return r->has(i, ENTRY_ABOVE) ? QStringLiteral("above")
            : r->has(i, ENTRY_BELOW)  ? QStringLiteral("below")
                                      : QString();
    case End:
        return QString::fromUtf8(entryEndName(entryEnd(r->flags[i])));
    default:
        break;
    }
    return {};
}

QVariant EntriesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Time:
        return m_snap && m_snap->trace ? tr("trace time (s)") : tr("stream time");
    case Cpu:
        return tr("CPU");
    case State:
        return tr("state");
    case Residency:
        return tr("residency");
    case Prediction:
        return tr("prediction");
    case Miss:
        return tr("miss");
    case End:
        return tr("ended by");
    default:
        break;
    }
    return {};
}

void EntriesModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_sortOrder = order;
    const GovernorRun *r = currentRun();
    if (!r)
        return;
    emit layoutAboutToBeChanged();
    // Sort keys straight from the run's columns; ties in entry order (reversed when descending).
    auto key = [&](std::uint32_t i) -> std::int64_t {
        switch (column) {
        case State:
            return r->state[i];
        case Residency:
            return r->residencyNs[i];
        case Prediction:
            return r->predictedNs[i];
        case Miss:
            return r->has(i, ENTRY_ABOVE) ? 2 : r->has(i, ENTRY_BELOW) ? 1 : 0;
        case End:
            return static_cast<std::int64_t>(entryEnd(r->flags[i]));
        default:
            return i; // time and CPU: entry order
        }
    };
    const bool ascending = order == Qt::AscendingOrder;
    if (column == Time || column == Cpu) { // entry order: the keys are the rows themselves
        if (ascending)
            std::sort(m_rows.begin(), m_rows.end());
        else
            std::sort(m_rows.begin(), m_rows.end(), std::greater<>());
    } else {
        // Each key read once, in row order, then (key, entry) pairs sorted in one array: a
        // comparison that read the run's columns at two random entries took 10 s of CPU for
        // 10 M rows (bench/bench_entries_gui.cpp), the pairs about a tenth of it.
        std::vector<std::pair<std::int64_t, std::uint32_t>> keyed(m_rows.size());
        for (std::size_t k = 0; k < m_rows.size(); ++k)
            keyed[k] = { key(m_rows[k]), m_rows[k] };
        if (ascending)
            std::sort(keyed.begin(), keyed.end());
        else
            std::sort(keyed.begin(), keyed.end(), std::greater<>());
        for (std::size_t k = 0; k < m_rows.size(); ++k)
            m_rows[k] = keyed[k].second;
    }
    emit layoutChanged();
}

} // namespace idlescope
