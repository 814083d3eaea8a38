// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file setup_panel.h
 * What to simulate: the target (target_picker.h: a table and its editable
 * states), the workload (a synthetic generator of core/workloads with its
 * parameters, a compound workload as text, a stream CSV file, or a kernel
 * trace with a CPU selector, trace_workload_page.h) and the governors
 * (governor_picker.h). The panel composes the two pickers with the workload
 * group and joins them where the workload matters: a kernel trace enables the
 * "recorded" row and is offered the table it fits.
 */
#pragma once

#include "widgets/panels/governor_picker.h"
#include "widgets/panels/target_picker.h"
#include "widgets/runner/scenario_spec.h"

#include <QMap>
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QStackedWidget;

namespace idlescope {

class TraceWorkloadPage;
class WorkloadSpecPage;
class WorkloadForm;

class SetupPanel : public QWidget {
    Q_OBJECT
public:
    explicit SetupPanel(QWidget *parent = nullptr);

    TargetSpec target() const { return m_targetPicker->target(); }
    WorkloadSourceSpec workload() const;
    /// Checked governors in list order, with their colours (settings left empty).
    std::vector<GovernorSpec> governors() const { return m_governorPicker->governors(); }

    /// Programmatic setters (session load, default scenario); they emit nothing.
    void setTarget(const TargetSpec &target) { m_targetPicker->setTarget(target); }
    void setWorkload(const WorkloadSourceSpec &workload);
    void setGovernors(const std::vector<GovernorSpec> &governors) { m_governorPicker->setGovernors(governors); }

    /// Load a table JSON / stream CSV (menus, tests); false with errorOccurred() on failure.
    bool loadTableFile(const QString &path) { return m_targetPicker->loadTableFile(path); }
    bool loadStreamFile(const QString &path);
    /// A kernel trace (ftrace / trace-cmd / perf script): imported in the background, then
    /// CPU @p cpu is simulated (-1: the CPU with the most idle spans, once the import found it).
    /// False with errorOccurred() when the file does not exist; import errors come later.
    bool loadTraceFile(const QString &path, int cpu = -1);
    /// The kernel-trace page (CPU list, warnings), for tests.
    TraceWorkloadPage *tracePage() const { return m_tracePage; }
    WorkloadSpecPage *specPage() const { return m_specPage; }
    TargetPicker *targetPicker() const { return m_targetPicker; }
    GovernorPicker *governorPicker() const { return m_governorPicker; }

    /// The governor picker's (governor_picker.h), for the window and tests.
    void setGovernorChecked(const std::string &name, bool checked)
    {
        m_governorPicker->setGovernorChecked(name, checked);
    }
    QString duplicateGovernor(const QString &name) { return m_governorPicker->duplicateGovernor(name); }
    bool renameGovernor(const QString &name, const QString &label)
    {
        return m_governorPicker->renameGovernor(name, label);
    }
    void removeGovernor(const QString &name) { m_governorPicker->removeGovernor(name); }
    void addSourceGovernor(const QString &id, const QString &stamp) { m_governorPicker->addSourceGovernor(id, stamp); }
    QStringList sourceGovernorIds() const { return m_governorPicker->sourceGovernorIds(); }
    void setSourceStamp(const QString &id, const QString &stamp) { m_governorPicker->setSourceStamp(id, stamp); }
    void renameSourceGovernor(const QString &id, const QString &newId)
    {
        m_governorPicker->renameSourceGovernor(id, newId);
    }
    void removeSourceGovernor(const QString &id) { m_governorPicker->removeSourceGovernor(id); }
    void setSourceFailure(const QString &id, const QString &failure)
    {
        m_governorPicker->setSourceFailure(id, failure);
    }
    QString sourceFailure(const QString &id) const { return m_governorPicker->sourceFailure(id); }

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
    /// The table picker, the workload group (its kinds and a page each) and the governor picker.
    void setupUi();
    QWidget *createWorkloadGroup();
    void fillWorkloadKinds();
    void createConnections();
    /// The workload pages' edits and opens, and the trace page's table proposal.
    void connectWorkloadPages();
    void connectTracePage();
    /// The table proposed for the trace opened (TraceWorkloadPage's proposal row), from its
    /// summary: the table saved beside it, or the built-in tables with its state count.
    void proposeTable();
    /// A trace the user opened has its summary: replay it on the proposed table (the machine's
    /// own beside it, else the built-in one that fits best) rather than on the table chosen
    /// before, and say so where the proposal was. True when the target changed.
    bool adoptProposedTable();
    void chooseWorkload(int index);
    /// The file workload of @p kind at @p path set as loadStreamFile() and loadTraceFile() do
    /// (@p cpu: a trace's, -1 as in WorkloadSourceSpec); false with errorOccurred() when the file does not exist.
    bool setWorkloadFile(WorkloadKind kind, const QString &path, int cpu = -1);
    /// The kind of the workload combo's item @p index, and the item that shows @p w (-1 for none).
    WorkloadKind itemKind(int index) const;
    int itemOf(const WorkloadSourceSpec &w) const;

    TargetPicker *m_targetPicker;
    GovernorPicker *m_governorPicker;

    QComboBox *m_workloadKind;
    QStackedWidget *m_workloadPages;
    WorkloadForm *m_generatorForm;
    /// The workload the user gave each item of the combo (a generator, the spec), so switching back keeps it.
    QMap<int, WorkloadSourceSpec> m_generatorValues;
    /// The workload set last keeps the legacy seeding (an old session's): edits keep it too.
    bool m_legacySeeding = false;
    QLabel *m_streamPath;
    QPushButton *m_streamBrowse; ///< opens a stream file
    QString m_streamFile;
    QString m_streamStamp; ///< fileStamp() of m_streamFile when it was opened
    TraceWorkloadPage *m_tracePage;
    WorkloadSpecPage *m_specPage; ///< Spec and ClosedLoop: a workload in the command line's grammar
    bool m_filling = false;
    QString m_proposedTable;          ///< target key of the proposed table ("builtin:id", "file:path"), or ""
    QString m_adoptFor;               ///< a trace opened by the user whose table is picked once its summary is read
    bool m_simulateOnSummary = false; ///< its CPU was given: simulate once the table is picked
    QString m_adoptedKey;             ///< the table picked for the trace ("" when none was)
    QString m_adoptedNote;            ///< what the trace page says about it while it is the target
};

} // namespace idlescope
