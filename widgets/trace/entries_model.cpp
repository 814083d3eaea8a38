// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/trace/entries_model.h"

#include "widgets/inspector/inspector_html.h"
#include "widgets/trace/trace_entry_text.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <utility>

namespace idlescope {

EntriesModel::EntriesModel(QObject *parent) : QAbstractTableModel(parent) {}

/// A request running on a worker: its inputs, its progress and cancel flag, and the watcher
/// that brings its rows back to the GUI thread.
struct EntriesModel::Job {
    Request request;
    std::shared_ptr<EntryOrderProgress> progress = std::make_shared<EntryOrderProgress>();
    QFutureWatcher<std::optional<std::vector<std::uint32_t>>> watcher;
};

EntriesModel::~EntriesModel()
{
    if (m_job)
        m_job->progress->cancel.store(true);
}

const GovernorRun *EntriesModel::shownRunData() const
{
    const Request &s = m_shown;
    if (!s.snap || s.run < 0 || s.run >= s.snap->governorCount())
        return nullptr;
    return s.snap->governors[static_cast<std::size_t>(s.run)].run.get();
}

void EntriesModel::setSnapshot(SnapshotPtr snapshot)
{
    std::string variant;
    if (m_want.snap && m_want.run >= 0 && m_want.run < m_want.snap->governorCount())
        variant = m_want.snap->governors[static_cast<std::size_t>(m_want.run)].run->variant;
    m_want.snap = std::move(snapshot);
    m_want.run = m_want.snap ? m_want.snap->indexOf(variant) : -1;
    if (m_want.run < 0 && m_want.snap && m_want.snap->governorCount() > 0)
        m_want.run = 0;
    refilter();
}

void EntriesModel::setRun(int g)
{
    m_want.run = g;
    refilter();
}

void EntriesModel::setFilter(const EntryFilter &filter)
{
    if (filter == m_want.filter) // the rows asked for already are (or are being made) these
        return;
    m_want.filter = filter;
    refilter();
}

void EntriesModel::sort(int column, Qt::SortOrder order)
{
    if (column == m_want.column && order == m_want.order)
        return;
    m_want.column = column;
    m_want.order = order;
    refilter();
}

void EntriesModel::refilter()
{
    // A newer request supersedes the running one: it stops at its next look at the flag,
    // and its rows, should they still come, are dropped (jobDone()).
    const bool wasBusy = isBusy();
    if (m_job) {
        m_job->progress->cancel.store(true);
        m_job.reset();
    }
    const Request want = m_want;
    const GovernorRun *r = want.snap && want.run >= 0 && want.run < want.snap->governorCount()
                               ? want.snap->governors[static_cast<std::size_t>(want.run)].run.get()
                               : nullptr;
    // Time and CPU are entry order: one pass over the flags (34 ms at 10 M entries,
    // docs/performance.md), no sort. A sort of 10 M keys takes seconds: on the worker.
    const bool entryOrder = want.column == Time || want.column == Cpu;
    if (!r || r->size() <= m_backgroundRows || entryOrder) {
        // Small, or no sort to make: at once, in the shown rows' storage.
        beginResetModel();
        std::vector<std::uint32_t> rows = std::move(m_rows);
        m_rows.clear();
        if (r)
            m_rows = std::move(*orderedEntries(*r, want.filter, static_cast<EntryKey>(want.column),
                                               want.order == Qt::AscendingOrder, nullptr, std::move(rows)));
        m_shown = want;
        endResetModel();
        emit rowsReplaced();
        if (wasBusy)
            emit busyChanged(false);
        return;
    }
    auto job = std::make_shared<Job>();
    job->request = want;
    Job *raw = job.get();
    connect(&job->watcher, &QFutureWatcherBase::finished, this, [this, raw] { jobDone(raw); });
    // The worker holds the snapshot (so the run) and the progress alive on its own.
    job->watcher.setFuture(QtConcurrent::run([snap = want.snap, run = want.run, filter = want.filter,
                                              key = static_cast<EntryKey>(want.column),
                                              ascending = want.order == Qt::AscendingOrder, progress = job->progress] {
        return orderedEntries(*snap->governors[static_cast<std::size_t>(run)].run, filter, key, ascending,
                              progress.get());
    }));
    m_job = std::move(job);
    if (!wasBusy)
        emit busyChanged(true);
}

void EntriesModel::jobDone(Job *job)
{
    if (!m_job || m_job.get() != job) // superseded or cancelled: its watcher goes with it
        return;
    std::optional<std::vector<std::uint32_t>> rows = m_job->watcher.result();
    const Request request = m_job->request;
    // The watcher is the sender of this call: delete it once back in the event loop.
    std::shared_ptr<Job> finished = std::move(m_job);
    QMetaObject::invokeMethod(
        this, [finished] {}, Qt::QueuedConnection);
    if (rows)
        install(request, std::move(*rows));
    emit busyChanged(false);
}

void EntriesModel::cancelPending()
{
    if (!m_job)
        return;
    m_job->progress->cancel.store(true);
    std::shared_ptr<Job> dropped = std::move(m_job);
    QMetaObject::invokeMethod(
        this, [dropped] {}, Qt::QueuedConnection);
    if (m_shown.snap == m_want.snap) {
        // What is shown is what is asked for now.
        m_want = m_shown;
    } else {
        // The rows shown are a previous snapshot's: the new run's entries in entry order
        // instead (no filter, no sort: made at once).
        m_want.filter = EntryFilter{};
        m_want.column = Time;
        m_want.order = Qt::AscendingOrder;
        refilter();
    }
    emit busyChanged(false);
}

double EntriesModel::progress() const
{
    return m_job ? m_job->progress->perMille.load(std::memory_order_relaxed) / 1000.0 : 0.0;
}

void EntriesModel::install(const Request &request, std::vector<std::uint32_t> rows)
{
    beginResetModel();
    m_shown = request;
    m_rows = std::move(rows);
    endResetModel();
    emit rowsReplaced();
}

std::int64_t EntriesModel::entryAt(int row) const
{
    return row >= 0 && static_cast<std::size_t>(row) < m_rows.size() ? m_rows[static_cast<std::size_t>(row)] : -1;
}

int EntriesModel::rowOf(std::int64_t entry) const
{
    if (entry < 0)
        return -1;
    const auto e = static_cast<std::uint32_t>(entry);
    if (m_shown.column == Time && m_shown.order == Qt::AscendingOrder) { // entry order: binary search
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
    const GovernorRun *r = shownRunData();
    if (!r || !index.isValid() || static_cast<std::size_t>(index.row()) >= m_rows.size())
        return {};
    const std::size_t i = m_rows[static_cast<std::size_t>(index.row())];
    if (role == Qt::TextAlignmentRole)
        return index.column() == State || index.column() == Miss || index.column() == End
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    // A trace's entry: the timestamp `trace-cmd report` prints, for looking the event up there.
    if (role == Qt::ToolTipRole && index.column() == Time) {
        const Ns ts = entryTraceNs(*m_shown.snap, m_shown.run, static_cast<std::int64_t>(i));
        return ts >= 0 ? QVariant(traceCmdText(ts)) : QVariant();
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Time:
        // Where the lanes draw it: a trace's time since its first event (the axis' clock, to the
        // microsecond), a stream's own time.
        return m_shown.snap->trace ? traceAxisText(r->startNs[i]) : durationText(r->startNs[i]);
    case Cpu: return m_shown.snap->trace ? QVariant(m_shown.snap->trace->cpu) : QVariant(QStringLiteral("\u2014"));
    case State: {
        const int s = r->state[i];
        return s >= 0 && s < m_shown.snap->table.count() ? QString::fromStdString(m_shown.snap->table[s].name)
                                                         : QString::number(s);
    }
    case Residency: return durationText(r->residencyNs[i]);
    case Prediction: return r->predictedNs[i] < 0 ? QStringLiteral("\u2014") : durationText(r->predictedNs[i]);
    case Miss:
        return r->has(i, ENTRY_ABOVE)   ? QStringLiteral("above")
               : r->has(i, ENTRY_BELOW) ? QStringLiteral("below")
                                        : QString();
    case End: return QString::fromUtf8(entryEndName(entryEnd(r->flags[i])));
    default: break;
    }
    return {};
}

QVariant EntriesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    const bool trace = m_want.snap && m_want.snap->trace;
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Time && trace)
        return tr("Seconds since the trace's first event (trace-cmd %1 s), the clock of the lanes' time axis; "
                  "a cell's tooltip gives its trace-cmd timestamp")
            .arg(traceTimestampText(m_want.snap->trace->originNs));
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    // The plots' and lanes' clock (a trace's from its first event), one clock in every view;
    // the trace-cmd timestamp is each cell's tooltip.
    case Time: return trace ? tr("trace time") : tr("stream time");
    case Cpu: return tr("CPU");
    case State: return tr("state");
    case Residency: return tr("residency");
    case Prediction: return tr("prediction");
    case Miss: return tr("miss");
    case End: return tr("ended by");
    default: break;
    }
    return {};
}

} // namespace idlescope
