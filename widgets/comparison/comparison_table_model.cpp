// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/comparison/comparison_table_model.h"

#include "core/common/text_cells.h"
#include "core/energy/energy.h"
#include "core/experiments/closed_loop_format.h"
#include "core/experiments/comparison.h"
#include "core/governors/explain.h"
#include "core/governors/registry.h"
#include "core/trace/recorded_entries.h"

#include <QColor>
#include <QFont>

#include <algorithm>
#include <cmath>
#include <string_view>

namespace idlescope {

namespace {

struct ColumnInfo {
    const char *display;
    const char *csv;
    const char *help;
};

// The first six display names are those of the linux-pm test reports; the second names (the
// exports' headers) are idlescope-cli compare's, so that a file from either reads the same.
constexpr ColumnInfo kColumns[] = {
    {"gov", "governor", "Governor variant"},
    {"idles", "entries", "Idle entries (select calls)"},
    {"idle_misses", "idle_misses", "aboves + belows"},
    {"idle_miss_ratio", "idle_miss_ratio", "idle_misses / idles"},
    {"belows", "below", "Entries in a state too shallow: the next deeper enabled state would have paid off"},
    {"aboves", "above", "Entries in a state too deep: left before its target residency"},
    {"above %", "above_pct", "aboves as a percentage of idles"},
    {"below %", "below_pct", "belows as a percentage of idles"},
    {"latency cost", "latency_cost_us",
     "Wake delay (the state's real wake-up, not the governors' exit latency) paid on entries ended by a "
     "wakeup no timer announced (IPI, device interrupt)"},
    {"wakeups/s", "wakeups_per_s",
     "Throughput: wakeups no timer announced per second of the run's own time (every wake delay "
     "lengthens it; a trace keeps its own clock), as idlescope-cli compare --throughput prints it"},
    {"idle energy (J)", "idle_energy_J",
     "Time in each state x its power + entries x entry/exit energy, from the table's power data "
     "(power_mw in a table JSON file); \"no power data\" without it"},
    {"ops/s", "ops_per_s",
     "Closed loop: operations per second of the run (each wakeup's exit latency delays the next "
     "operation), as idlescope-cli compare --closed-loop prints it"},
    {"added latency mean", "added_latency_mean_us",
     "Closed loop: mean latency added to an operation, from its completion or message to the start of its "
     "handling (us)"},
    {"added latency p99", "added_latency_p99_us",
     "Closed loop: 99th percentile (nearest rank) of the latency added to an operation (us)"},
    {"energy (J)", "energy_J",
     "Closed loop: the energy of the loop's CPUs and their clusters (idle, entry/exit, entering, waking and "
     "busy time at the active power) over the slowest run's time, a faster run idling the rest in its "
     "cheapest state, as idlescope-cli compare --closed-loop prints it"},
    {"energy/op (\u00b5J)", "energy_per_op_uJ", "Closed loop: energy_J / operations, in \u00b5J"},
};

} // namespace

ComparisonTableModel::ComparisonTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void ComparisonTableModel::setSnapshot(SnapshotPtr snapshot)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_totals.clear();
    m_throughput.clear();
    m_energyPerOpUJ.clear();
    m_stateCount = 0;
    if (m_snapshot) {
        m_stateCount = m_snapshot->table.count();
        for (const GovernorResult &g : m_snapshot->governors) {
            // The runner built them on its worker; a hand-made snapshot: core's numbers from the run.
            m_totals.push_back(g.totals ? *g.totals : governorTotals(*g.run, m_snapshot->table));
            m_throughput.push_back(
                g.throughput
                    ? *g.throughput
                    : governorRunThroughput(m_snapshot->table, m_snapshot->power,
                                            m_snapshot->stream ? clockOf(*m_snapshot->stream) : StreamClock::Own,
                                            *g.run, m_totals.back()));
            m_energyPerOpUJ.push_back(
                g.closedLoop && m_snapshot->closedLoopMachine
                    ? energyPerOperationUJ(runEnergy(*m_snapshot->closedLoopMachine, g.closedLoop->counters,
                                                     g.closedLoop->energyWindowNs),
                                           g.closedLoop->operations)
                    : std::nan(""));
        }
    }
    endResetModel();
}

int ComparisonTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_totals.size());
}

bool ComparisonTableModel::columnApplies(int column) const
{
    const bool closedLoopColumn = column == OpsColumn || column == AddedMeanColumn || column == AddedP99Column
                                  || column == LoopEnergyColumn || column == LoopEnergyPerOpColumn;
    return !closedLoopColumn || (m_snapshot && m_snapshot->isClosedLoop());
}

int ComparisonTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : FirstStateColumn + m_stateCount;
}

Qt::ItemFlags ComparisonTableModel::flags(const QModelIndex &index) const
{
    return index.isValid() ? Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemNeverHasChildren : Qt::NoItemFlags;
}

const RunThroughput *ComparisonTableModel::throughput(int row) const
{
    const auto r = static_cast<std::size_t>(row);
    return r < m_throughput.size() ? &m_throughput[r] : nullptr;
}

bool ComparisonTableModel::lacksPowerData() const
{
    return std::any_of(m_throughput.begin(), m_throughput.end(),
                       [](const RunThroughput &t) { return !std::isfinite(t.idleEnergyJ); });
}

bool ComparisonTableModel::isRecorded(int row) const
{
    return m_snapshot->governors[static_cast<std::size_t>(row)].run->variant == trace::RECORDED_VARIANT;
}

QVariant ComparisonTableModel::rawValue(int row, int column) const
{
    const GovernorTotals &t = totals(row);
    const std::optional<ClosedLoopRun> &loop = m_snapshot->governors[static_cast<std::size_t>(row)].closedLoop;
    switch (column) {
    case GovColumn: return m_snapshot->name(row);
    case IdlesColumn: return qint64(t.idles);
    case IdleMissesColumn: return qint64(t.idleMisses);
    case IdleMissRatioColumn: return t.idleMissRatio;
    case BelowsColumn: return qint64(t.belows);
    case AbovesColumn: return qint64(t.aboves);
    case AbovePercentColumn: return t.abovePercent;
    case BelowPercentColumn: return t.belowPercent;
    case LatencyCostColumn: return qint64(t.latencyCostNs);
    case ThroughputColumn:
        return throughput(row) && !isRecorded(row) ? QVariant(throughput(row)->wakeupsPerSecond) : QVariant();
    // None without power data: the exports then write the display text, "no power data".
    case EnergyColumn:
        return throughput(row) && std::isfinite(throughput(row)->idleEnergyJ) ? QVariant(throughput(row)->idleEnergyJ)
                                                                              : QVariant();
    // A closed loop's figures in the units their keys name (added_latency_*_us: µs, as
    // compare --closed-loop prints them; the exports write these values).
    case OpsColumn: return loop ? QVariant(loop->opsPerSecond()) : QVariant();
    case AddedMeanColumn: return loop ? QVariant(loop->meanAddedNs / 1e3) : QVariant();
    case AddedP99Column: return loop ? QVariant(static_cast<double>(loop->p99AddedNs) / 1e3) : QVariant();
    case LoopEnergyColumn:
        return loop && throughput(row) && std::isfinite(throughput(row)->energyJ) ? QVariant(throughput(row)->energyJ)
                                                                                  : QVariant();
    case LoopEnergyPerOpColumn: {
        const double uj = m_energyPerOpUJ[static_cast<std::size_t>(row)];
        return loop && std::isfinite(uj) ? QVariant(uj) : QVariant();
    }
    default: break;
    }
    const auto state = static_cast<std::size_t>(column - FirstStateColumn);
    return state < t.usage.size() ? QVariant(qint64(t.usage[state])) : QVariant();
}

QString ComparisonTableModel::displayText(int row, int column) const
{
    const QVariant v = rawValue(row, column);
    switch (column) {
    case GovColumn: {
        const bool defaults = m_snapshot->governors[static_cast<std::size_t>(row)].atDefaults;
        // The same badge as the setup panel: a governor off its kernel defaults.
        const QString name = defaults ? v.toString() : v.toString() + QStringLiteral(" ✎");
        return m_snapshot->governors[static_cast<std::size_t>(row)].stale.isEmpty() ? name : name + tr(" (stale)");
    }
    case IdleMissRatioColumn: return QString::number(v.toDouble(), 'f', 3);
    case AbovePercentColumn:
    case BelowPercentColumn: return QString::number(v.toDouble(), 'f', 1) + QStringLiteral(" %");
    // No cost is a plain 0, not "0 ns" beside the other rows' us and ms.
    case LatencyCostColumn:
        return v.toLongLong() == 0 ? QStringLiteral("0")
                                   : QString::fromStdString(formatDuration(v.toLongLong(), UnitStyle::Micro));
    // The CLI's cells (formatCompareCell()), so that the two read the same.
    case ThroughputColumn:
        return v.isValid() ? QString::fromStdString(
                   experiments::formatCompareCell(experiments::CompareColumn::Kind::Micros, v.toDouble()))
                           : QStringLiteral("\u2014");
    case EnergyColumn:
        if (!throughput(row))
            return QStringLiteral("\u2014");
        return QString::fromStdString(
            experiments::formatCompareCell(experiments::CompareColumn::Kind::Joules, throughput(row)->idleEnergyJ));
    case OpsColumn: return closedLoopText(row, "ops_per_s");
    case AddedMeanColumn: return closedLoopText(row, "added_latency_mean_us");
    case AddedP99Column: return closedLoopText(row, "added_latency_p99_us");
    case LoopEnergyColumn: return closedLoopText(row, "energy_J");
    case LoopEnergyPerOpColumn: return closedLoopText(row, "energy_per_op_uJ");
    default: return QString::number(v.toLongLong());
    }
}

QVariant ComparisonTableModel::noValueReason(int row, int column) const
{
    if (rawValue(row, column).isValid())
        return {};
    switch (column) {
    case ThroughputColumn:
    case EnergyColumn:
        if (column == ThroughputColumn && isRecorded(row))
            return tr("the kernel's recorded choices are not replayed, so they have no run time of their own");
        return tr("no power data for table %1 (power_mw of each state, in a table JSON file)")
            .arg(QString::fromStdString(m_snapshot->table.id));
    case OpsColumn:
    case AddedMeanColumn:
    case AddedP99Column: return tr("not a closed-loop run");
    case LoopEnergyColumn:
    case LoopEnergyPerOpColumn:
        if (!m_snapshot->governors[static_cast<std::size_t>(row)].closedLoop)
            return tr("not a closed-loop run");
        if (throughput(row) && !std::isfinite(throughput(row)->idleEnergyJ))
            return tr("no power data for table %1 (power_mw of each state, in a table JSON file)")
                .arg(QString::fromStdString(m_snapshot->table.id));
        return tr("no active power (active_power_mw): the busy time is not priced");
    default: return {};
    }
}

QString ComparisonTableModel::closedLoopText(int row, const char *name) const
{
    const std::optional<ClosedLoopRun> &loop = m_snapshot->governors[static_cast<std::size_t>(row)].closedLoop;
    if (!loop || !m_snapshot->closedLoopMachine)
        return QStringLiteral("\u2014");
    // compare --closed-loop's own cell; the latencies in us, as its column names say.
    const QString cell = QString::fromStdString(closedLoopCell(*m_snapshot->closedLoopMachine, *loop, name));
    return std::string_view(name).starts_with("added_latency_") ? cell + QStringLiteral(" \u00b5s") : cell;
}

QString ComparisonTableModel::toolTip(int row, int column) const
{
    const GovernorRun &run = *m_snapshot->governors[static_cast<std::size_t>(row)].run;
    const GovernorTotals &t = totals(row);
    if (column == GovColumn) {
        const VariantInfo *v = findVariant(run.variant);
        QString tip =
            v ? QStringLiteral("%1 (%2)\n%3")
                    .arg(QString::fromUtf8(v->id), QString::fromUtf8(v->kernel), QString::fromUtf8(v->summary))
              : m_snapshot->name(row);
        for (const auto &[name, value] : run.settings)
            tip += QStringLiteral("\n%1 = %2").arg(QString::fromStdString(name)).arg(value);
        if (m_snapshot->governors[static_cast<std::size_t>(row)].displayName() != run.variant)
            tip = tr("%1: an instance of %2").arg(m_snapshot->name(row), tip);
        if (const QString &stale = m_snapshot->governors[static_cast<std::size_t>(row)].stale; !stale.isEmpty())
            tip += tr("\n\nStale: the last good run; the file now fails:\n%1").arg(stale);
        return tip;
    }
    if (column == LatencyCostColumn)
        return tr("%1 ns over %2 entries ended by a wakeup no timer announced")
            .arg(t.latencyCostNs)
            .arg(t.latencyCostEntries);
    if (column == ThroughputColumn || column == EnergyColumn) {
        const RunThroughput *tp = throughput(row);
        if (!tp || (column == ThroughputColumn && isRecorded(row)))
            return tr("The kernel's recorded run has no replay clock: no duration or throughput");
        if (column == ThroughputColumn)
            return tr("%1 wakeups no timer announced in %2 of the run's own time")
                .arg(tp->wakeups)
                .arg(QString::fromStdString(formatDuration(tp->durationNs, UnitStyle::Micro)));
        if (!std::isfinite(tp->idleEnergyJ))
            return QString::fromStdString(tp->missing);
        return std::isfinite(tp->energyJ) ? tr("idle + entry/exit %1 J; with the busy time at the active power %2 J")
                                                .arg(tp->idleEnergyJ, 0, 'g', 6)
                                                .arg(tp->energyJ, 0, 'g', 6)
                                          : tr("idle + entry/exit %1 J (no active power: the busy time is not priced)")
                                                .arg(tp->idleEnergyJ, 0, 'g', 6);
    }
    if (column == LoopEnergyColumn || column == LoopEnergyPerOpColumn)
        return QString::fromUtf8(kColumns[column].help);
    if (column == OpsColumn || column == AddedMeanColumn || column == AddedP99Column) {
        const std::optional<ClosedLoopRun> &loop = m_snapshot->governors[static_cast<std::size_t>(row)].closedLoop;
        if (!loop)
            return tr("Only a closed-loop workload (Spec, closed loop) has operations and their added latency");
        return tr("%1 operations in %2; added latency mean %3 us, p99 %4 us, max %5 us")
            .arg(loop->operations)
            .arg(QString::fromStdString(formatDuration(loop->durationNs, UnitStyle::Micro)))
            .arg(loop->meanAddedNs / 1e3, 0, 'f', 3)
            .arg(static_cast<double>(loop->p99AddedNs) / 1e3, 0, 'f', 3)
            .arg(static_cast<double>(loop->maxAddedNs) / 1e3, 0, 'f', 3);
    }
    if (column >= FirstStateColumn) {
        const int state = column - FirstStateColumn;
        const StateStats &s = run.summary.states[static_cast<std::size_t>(state)];
        return tr("%1: usage %2, above %3, below %4, time %5")
            .arg(QString::fromStdString(m_snapshot->table[state].name))
            .arg(s.usage)
            .arg(s.above)
            .arg(s.below)
            .arg(QString::fromStdString(formatDuration(s.timeNs, UnitStyle::Micro)));
    }
    return QString::fromUtf8(kColumns[column].help);
}

bool ComparisonTableModel::isBest(int row, int column) const
{
    if (m_totals.size() < 2 || (column != IdleMissesColumn && column != LatencyCostColumn))
        return false;
    const qint64 mine = rawValue(row, column).toLongLong();
    for (int r = 0; r < rowCount(); ++r)
        if (rawValue(r, column).toLongLong() < mine)
            return false;
    return true;
}

QVariant ComparisonTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || !m_snapshot || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const int row = index.row();
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole: return displayText(row, column);
    // The exports' latency_cost_us is in µs, as compare prints it; sorting is the same.
    case Qt::EditRole:
        return column == LatencyCostColumn ? QVariant(rawValue(row, column).toLongLong() / 1e3) : rawValue(row, column);
    case Qt::ToolTipRole: return toolTip(row, column);
    case GovernorIndexRole: return row;
    case NoValueReasonRole: return noValueReason(row, column);
    case Qt::DecorationRole:
        if (column == GovColumn && m_snapshot->governors[static_cast<std::size_t>(row)].color.isValid())
            return m_snapshot->governors[static_cast<std::size_t>(row)].color;
        return {};
    case Qt::TextAlignmentRole:
        return column == GovColumn ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                                   : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::FontRole:
        if (isBest(row, column)) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    default: return {};
    }
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section >= FirstStateColumn) {
        const IdleState &s = m_snapshot->table[section - FirstStateColumn];
        switch (role) {
        // compare's usage_<state>: the column counts entries, and says so.
        case Qt::DisplayRole:
        case Qt::EditRole: return QString::fromStdString("usage_" + columnSafe(s.name));
        case Qt::ToolTipRole:
            return tr("Entries that chose %1 (exit latency %2, target residency %3)")
                .arg(QString::fromStdString(s.name),
                     QString::fromStdString(formatDuration(s.exitLatencyNs, UnitStyle::Micro)),
                     QString::fromStdString(formatDuration(s.targetResidencyNs, UnitStyle::Micro)));
        default: return {};
        }
    }
    switch (role) {
    case Qt::DisplayRole: return QString::fromUtf8(kColumns[section].display);
    case Qt::EditRole: return QString::fromUtf8(kColumns[section].csv);
    case Qt::ToolTipRole: return QString::fromUtf8(kColumns[section].help);
    default: return {};
    }
}

} // namespace idlescope
