// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file trace_workload_page.h
 * The "Kernel trace" page of the setup panel's workload box: the file, a CPU
 * selector listing every CPU of the trace with its idle-span count ("CPU 0 —
 * 20,672 idle spans"; CPUs with nothing to replay are listed but disabled),
 * the format and event count, and the import's warnings (a count, with the
 * first warning of each kind, file:line and field, in the tooltip).
 *
 * The page imports in the background (QtConcurrent, widgets/runner/
 * trace_workload.h's cache, so the simulation's own import is a cache hit)
 * and never blocks the GUI thread. Until the import is done the selector
 * holds the requested CPU; TRACE_BEST_CPU is resolved to the CPU with the
 * most idle spans when it is.
 */
#pragma once

#include "widgets/runner/trace_workload.h"

#include <QFutureWatcher>
#include <QTimer>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace idlescope {

class TraceWorkloadPage : public QWidget {
    Q_OBJECT
public:
    explicit TraceWorkloadPage(QWidget *parent = nullptr);

    /// Show @p path with CPU @p cpu (TRACE_BEST_CPU: pick when imported) and list its CPUs
    /// once the background import finishes. Emits nothing now.
    void setTrace(const QString &path, int cpu);

    /// Replay CPU @p cpu, as picking it in the selector does (a CPU without spans is ignored).
    void pickCpu(int cpu);

    QString path() const { return m_path; }
    /// The CPU replayed (TRACE_BEST_CPU until an import resolved it).
    int cpu() const { return m_cpu; }
    /// fileStamp() of the file when setTrace() was called.
    QString stamp() const { return m_stamp; }
    bool isImporting() const { return m_watcher.isRunning(); }
    /// The last finished import of the current file, or null.
    const TraceSummary *summary() const { return m_summary ? &*m_summary : nullptr; }

    /// Widgets, for tests.
    QComboBox *cpuCombo() const { return m_cpuCombo; }
    QLabel *warningsLabel() const { return m_warnings; }
    /// The format and disclosure lines (tests).
    QLabel *infoLabel() const { return m_info; }
    /// Show the table proposed for the trace (@p text, and @p button on the button that takes it);
    /// an empty @p text hides the row.
    void setTableProposal(const QString &text, const QString &button);
    QLabel *tableProposalLabel() const { return m_tableNote; }
    QPushButton *useTableButton() const { return m_useTable; }
    /// The import's progress bar and its Cancel button (shown while importing).
    QProgressBar *importProgressBar() const { return m_progressBar; }
    QPushButton *cancelImportButton() const { return m_cancelImport; }
    /// Stop the running import (the Cancel button); errorOccurred says "import cancelled".
    void cancelImport();

signals:
    /// The "Open…" button was pressed.
    void openRequested();
    /// The user picked another CPU.
    void cpuChanged();
    /// The user took the proposed table.
    void useTableClicked();
    /// An import resolved TRACE_BEST_CPU to a CPU (simulate now).
    void cpuResolved();
    /// The CPU list is filled (or the import failed: errorOccurred came first).
    void summaryReady();
    /// An import failed (the message names the file).
    void errorOccurred(const QString &message);
    /// An import succeeded with warnings (a one-line count per kind), or found no CPU to replay.
    void warningOccurred(const QString &message);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// warningOccurred() with the import's warning count, if it had any.
    void announceWarnings();
    struct ImportJob {
        std::uint64_t serial = 0; ///< m_serial when it was started
        std::optional<TraceSummary> summary;
        QString error;
    };
    void importFinished();
    /// The format and counts line, then what the trace cannot tell about the CPU (trace_disclosure.h).
    void showInfo();
    void fillCpus();
    void showRequestedCpuOnly(const QString &note);
    void elideFileName();

    QLabel *m_file;
    QComboBox *m_cpuCombo;
    QLabel *m_info;
    QLabel *m_warnings;
    QLabel *m_tableNote;
    QPushButton *m_useTable;
    QProgressBar *m_progressBar;
    QPushButton *m_cancelImport;
    QTimer m_progressTimer;
    std::shared_ptr<TraceImportProgress> m_importProgress;

    QString m_path;
    QString m_stamp;
    int m_cpu = TRACE_BEST_CPU;
    std::uint64_t m_serial = 0; ///< bumped by every setTrace()
    std::optional<TraceSummary> m_summary;
    QFutureWatcher<ImportJob> m_watcher;
};

} // namespace idlescope
