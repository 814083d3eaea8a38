// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file cpu_lanes_view.h
 * Every CPU of a kernel trace (content of the "CPUs" dock): one lane group per
 * CPU, labelled cpuN, holding the kernel's recorded lane and one lane per
 * simulated governor (KernelShark's CPU tracks), and under it the per-CPU
 * counters with the "all CPUs" total summed as sysfs sums them, and the
 * energy where the machine has power data. CPUs with nothing to replay are
 * listed with the reason, in the selector ("All CPUs" or one CPU) too. Everything shown is core's machine comparison
 * (trace_machine_job.h), computed on a worker thread once per trace, table
 * and governor set; showing one CPU or all of them recomputes nothing.
 *
 * Lanes are drawn on the machine's common time axis (0 = the trace's first
 * event), each entry from its start to its end, shallow at the bottom of the
 * lane, deep at its top; the flat line between entries is the CPU running.
 */
#pragma once

#include "core/experiments/machine_comparison.h"
#include "widgets/runner/simulation_snapshot.h"
#include "widgets/trace/trace_machine_job.h"

#include <QFutureWatcher>
#include <QStringList>
#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>

class QCPAxis;
class QCPAxisTickerText;
class QComboBox;
class QCustomPlot;
class QLabel;
class QListWidget;
class QTabWidget;
class QTableWidget;
class QToolButton;

namespace idlescope {

class CpuLanesView : public QWidget {
    Q_OBJECT
public:
    explicit CpuLanesView(QWidget *parent = nullptr);
    ~CpuLanesView() override;

    /// Computes the machine comparison of @p snap's trace when its inputs changed
    /// (traceMachineKey()); a snapshot without a trace empties the view.
    void setSnapshot(SnapshotPtr snap);
    /// TRACE_ALL_CPUS (the default), or the one CPU whose group is drawn; the
    /// selector above the lanes does the same.
    void setShownCpu(int cpu);
    int shownCpu() const { return m_shownCpu; }

    /// For tests and benches.
    bool isComputing() const { return m_watcher.isRunning(); }
    int computeCount() const { return m_computed; }
    const MachineComparison *comparison() const { return m_result ? &*m_result : nullptr; }
    /// Each governor's agreement with the recorded run (empty without one; tests).
    const std::vector<GovernorAgreement> &agreement() const { return m_agreement; }
    /// "cpu0", "cpu1"… of the lane groups drawn, top to bottom.
    QStringList groupLabels() const { return m_groups; }
    /// Lane labels, top to bottom ("cpu4 · recorded", "cpu4 · menu-6.14", …).
    QStringList laneLabels() const { return m_lanes; }
    /// The run names on the lanes' left axis, one per lane, bottom lane first (tests); a name
    /// wider than the axis allows loses its middle ("src:…ernor.c").
    QStringList axisLaneLabels() const;
    /// The CPU names outside them, one per lane group, bottom group first (tests).
    QStringList axisGroupLabels() const;
    /// The state names on the right axis, bottom lane first (tests): each group's deepest at its
    /// top lane's ceiling, and a lane's own where it differs from its group's.
    QStringList axisStateLabels() const;
    /// The CPUs not replayed and why ("" when every CPU was).
    QString skippedText() const;
    /// The line above the lanes: the machine, the CPUs not replayed, what recorded counts (tests).
    QString statusText() const;
    /// What the view says with no trace to replay: how to get one, or why a closed loop has none.
    QString noTraceText() const;
    QTableWidget *table() const { return m_table; }
    /// The first disagreements of each governor with the kernel (issue 29 §3), one item per
    /// entry naming its CPU and its time on the lanes' axis (the trace-cmd timestamp in its
    /// tooltip): a click selects the kernel's entry in the inspector (disagreementPicked()).
    /// Empty without an agreement.
    QListWidget *disagreementList() const { return m_firstList; }
    /// The counters table as shown (the CPU shown, or all), as CSV or Markdown under a header
    /// that makes it stand alone: core's trace::formatCpuTable(); "" before a comparison.
    QString exportText(bool markdown) const;
    /// Writes exportText() to @p path (".csv", or ".md"/".markdown") through
    /// writeFileAtomically(); "" on success, else the error (an unknown suffix is one).
    QString exportTo(const QString &path) const;
    QToolButton *exportButton() const { return m_exportButton; }
    /// "All CPUs", then every CPU of the trace (those not replayed disabled, with the reason).
    QComboBox *cpuSelector() const { return m_cpuBox; }
    QCustomPlot *plot() const { return m_plot; }

public slots:
    /// Asks for a file name, then exportTo().
    void exportWithDialog();

signals:
    /// A comparison finished (or failed) and the view shows it.
    void computed();
    /// The user picked one CPU in the selector: the one-CPU views may replay it.
    void cpuPicked(int cpu);
    /// The user clicked a disagreement: the kernel's entry on @p cpu that began at @p traceNs
    /// (the trace's clock), for the inspector to select.
    void disagreementPicked(int cpu, qint64 traceNs);

private:
    void createPlot();
    struct Job {
        QString key;
        std::optional<MachineComparison> result;
        std::vector<GovernorAgreement> agreement;
        QString error;
    };
    void jobFinished();
    void rebuild();
    void fillPlot();
    /// @p run's lane of @p cpu drawn with its bottom at y = @p base, named on the left axis's
    /// ticker and, when @p nameDeepest, its deepest state on the right one, with a dashed line
    /// above it when @p separated (a new CPU group); returns its last end, ns.
    double addLane(const MachineRun &run, const CpuRun &cpu, double base, bool separated, bool nameDeepest,
                   QCPAxisTickerText &ticker, QCPAxisTickerText &stateTicker);
    /// The name of @p cpu's deepest state: the table's, or "state N" for a lane of another count.
    QString deepestStateName(const CpuRun &cpu) const;
    void fillTable();
    void fillSelector();
    void fillDisagreements();
    QColor colorOf(const MachineRun &run) const;
    /// The shown CPU in trace::cpuTable()'s terms.
    int tableCpu() const;
    /// What the trace cannot tell and why agrees % is empty: under the status and in an export.
    QStringList exportNotes() const;

    QComboBox *m_cpuBox;
    QLabel *m_status;
    QCustomPlot *m_plot;
    QCPAxis *m_groupAxis; ///< outside yAxis: the CPU of each lane group
    QTableWidget *m_table;
    QListWidget *m_firstList;
    QTabWidget *m_tabs;
    QToolButton *m_exportButton;
    SnapshotPtr m_snap;
    QString m_key; ///< of the comparison shown or being computed
    std::optional<MachineComparison> m_result;
    std::vector<GovernorAgreement> m_agreement; ///< of m_result's governors with its recorded run
    int m_shownCpu = TRACE_ALL_CPUS;
    int m_computed = 0;
    QStringList m_groups;
    QStringList m_lanes;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFutureWatcher<Job> m_watcher;
};

} // namespace idlescope
