// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file setup_panel.h
 * What to simulate: the target (a built-in table of core/targets, this
 * machine's sysfs table, or a table JSON file, shown in an editable state
 * table where latencies can be changed and states disabled), the workload (a
 * synthetic generator of core/workloads with its parameters, a stream CSV
 * file, or a kernel trace with a CPU selector, trace_workload_page.h) and the governors (a checkable list of every
 * registered variant, each checked one with its own colour; the oracle is
 * always available as a reference). A variant's row can be duplicated (its
 * context menu): a second instance of the variant with a label and colour of
 * its own, for the same variant at other tunables (A/B).
 */
#pragma once

#include "widgets/runner/scenario_spec.h"

#include <QMap>
#include <QWidget>

class QComboBox;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QPushButton;
class QStackedWidget;
class QTableWidget;

namespace idlescope {

class TraceWorkloadPage;
class WorkloadSpecPage;
class WorkloadForm;

class SetupPanel : public QWidget {
    Q_OBJECT
public:
    explicit SetupPanel(QWidget *parent = nullptr);

    TargetSpec target() const { return m_target; }
    WorkloadSpec workload() const;
    /// Checked governors in list order, with their colours (settings left empty).
    std::vector<GovernorSpec> governors() const;

    /// Programmatic setters (session load, default scenario); they emit nothing.
    void setTarget(const TargetSpec &target);
    void setWorkload(const WorkloadSpec &workload);
    void setGovernors(const std::vector<GovernorSpec> &governors);

    /// Load a table JSON / stream CSV (menus, tests); false with errorOccurred() on failure.
    bool loadTableFile(const QString &path);
    bool loadStreamFile(const QString &path);
    /// A kernel trace (ftrace / trace-cmd / perf script): imported in the background, then
    /// CPU @p cpu is simulated (-1: the CPU with the most idle spans, once the import found it).
    /// False with errorOccurred() when the file does not exist; import errors come later.
    bool loadTraceFile(const QString &path, int cpu = -1);
    /// The kernel-trace page (CPU list, warnings), for tests.
    TraceWorkloadPage *tracePage() const { return m_tracePage; }
    WorkloadSpecPage *specPage() const { return m_specPage; }

    /// Check or uncheck one governor by name (GovernorSpec::name(); tests, shortcuts).
    void setGovernorChecked(const std::string &name, bool checked);

    /// A second instance of governor @p name's variant, checked, in a row below it, with a
    /// label of its own ("menu-6.19 (B)") and the first colour no checked governor has.
    /// Emits governorDuplicated() then governorsChanged(); returns the label ("" when @p name
    /// is no row, or the oracle or the recorded run, which have nothing to tune).
    QString duplicateGovernor(const QString &name);
    /// Gives the second instance @p name the label @p label (also by editing its row's text).
    /// Refused (false, errorOccurred()) for a label that is not valid
    /// (workloads::governorLabelProblem()) or another governor's name. Emits governorRenamed()
    /// then governorsChanged().
    bool renameGovernor(const QString &name, const QString &label);
    /// Removes the row of the second instance @p name (a variant's own row stays).
    void removeGovernor(const QString &name);

    /// A governor built from source ("src:FILE.c[@KERNEL]"): a row of the list, checked,
    /// its file's content as @p stamp (sourceFileStamp()). Emits nothing.
    void addSourceGovernor(const QString &id, const QString &stamp);
    /// The ids of the rows built from source, checked or not.
    QStringList sourceGovernorIds() const;
    /// The file of source row @p id was saved: @p stamp is its content now. Emits nothing.
    void setSourceStamp(const QString &id, const QString &stamp);
    /// Source row @p id is now @p newId (a new name for its file), its check and colour kept. Emits nothing.
    void renameSourceGovernor(const QString &id, const QString &newId);

signals:
    /// Another table was chosen (built-in, sysfs, file): its tick rate is the new default.
    void targetChanged();
    /// A cell of the state table was edited (a latency, a state disabled): only that
    /// state changed, the tick rate the user chose stays.
    void statesEdited();
    void workloadChanged();
    void governorsChanged();
    /// Second instance @p label of @p from's variant was added (its tunables start as @p from's).
    void governorDuplicated(const QString &from, const QString &label);
    /// Second instance @p from is now named @p to (its tunables and colour go with it).
    void governorRenamed(const QString &from, const QString &to);
    void errorOccurred(const QString &message);
    /// The workload shown could not be made (a file opened as a trace that does not
    /// import): the window puts the scenario of its plots back in the panels.
    void workloadFailed(const QString &message);
    /// Something the user should know that did not stop the workload or target
    /// (a trace's import warnings, a sysfs state read with a warning).
    void warningOccurred(const QString &message);

private:
    QWidget *createTargetGroup();
    QWidget *createWorkloadGroup();
    QWidget *createGovernorGroup();
    void fillStateTable();
    void stateCellChanged(int row, int column);
    void chooseTarget(int index);
    void updateGovernorIcons();
    /// The "recorded" row: enabled for a kernel trace; unchecked and disabled for any other
    /// workload (there is no recorded run), its check kept for the next trace.
    void updateRecordedRow();
    /// The table proposed for the trace opened (TraceWorkloadPage's proposal row), from its
    /// summary: the table saved beside it, or the built-in tables with its state count.
    void proposeTable();
    void acceptTableProposal();
    QColor colorFor(const QListWidgetItem *item);
    /// The row of governor @p name, or null.
    QListWidgetItem *rowOf(const QString &name) const;
    /// A second instance's row of @p variant labelled @p label, below the variant's last row.
    QListWidgetItem *addInstanceRow(const QString &variant, const QString &label);
    void showGovernorMenu(const QPoint &pos);
    /// A second instance's row text was edited: rename it, or put the label back.
    void instanceRowEdited(QListWidgetItem *item);

    TargetSpec m_target;
    QComboBox *m_targetCombo;
    QTableWidget *m_states;
    QLabel *m_targetSource;

    void chooseWorkload(int index);

    QComboBox *m_workloadKind;
    QStackedWidget *m_workloadPages;
    WorkloadForm *m_generatorForm;
    /// Values the user gave each generator, so switching back keeps them.
    QMap<QString, QVariantMap> m_generatorValues;
    /// The workload set last keeps the legacy seeding (an old session's): edits keep it too.
    bool m_legacySeeding = false;
    QLabel *m_streamPath;
    QString m_streamFile;
    QString m_streamStamp; ///< fileStamp() of m_streamFile when it was opened
    TraceWorkloadPage *m_tracePage;
    WorkloadSpecPage *m_specPage; ///< kind "spec": a workload in the command line's grammar

    QListWidget *m_governors;
    QMap<QString, QColor> m_colors; ///< colour given to a governor (by name) when it was first checked
    bool m_filling = false;
    QString m_proposedTable;       ///< target combo key of the proposed table ("builtin:id", "file:path"), or ""
    bool m_recordedParked = false; ///< "recorded" was checked when a non-trace workload disabled it
};

} // namespace idlescope
