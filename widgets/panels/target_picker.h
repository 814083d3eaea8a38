// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file target_picker.h
 * The Setup panel's "Target" group: which idle-state table is simulated (a
 * built-in table of core/targets, this machine's sysfs table, or a table
 * JSON file) and the table itself, editable: a state's exit latency, target
 * residency, wake delay and entry cost can be changed (in µs) and a state
 * disabled. An edit that the table refuses (not a number, out of range, an
 * order the kernel would not accept) is reported and the values in force are
 * shown again. Under it, the wake-up table: each state's wake delay and entry
 * cost (what the throughput and energy charge; the governors read the exit
 * latency) and where the wake delay comes from (wake_delay_source.h); and the
 * scenario's measured wake delays (a wult CSV, compare's --wake-delays): the
 * file chosen, or the table's own.
 */
#pragma once

#include "core/formats/wult_csv.h"
#include "widgets/runner/scenario_spec.h"

#include <QGroupBox>
#include <QHash>

class QComboBox;
class QLabel;
class QTableWidget;
class QToolButton;
class QVBoxLayout;

namespace idlescope {

class TargetPicker : public QGroupBox {
    Q_OBJECT
public:
    explicit TargetPicker(QWidget *parent = nullptr);

    TargetSpec target() const { return m_target; }
    /// Shows @p target (session load, undo, default scenario); emits nothing. A table file is not
    /// read: its table without edits is the one last read (showTableFile(), rememberTableFile()),
    /// else, for a file never read, the target's own.
    void setTarget(const TargetSpec &target);
    /// Table file @p path gave @p table when the window read it (on its worker, with a session or
    /// a recovery copy): setTarget() takes it as that file's table without edits.
    void rememberTableFile(const QString &path, const IdleStateTable &table);
    /// The target's table as its source gives it, before any edit (a table file's as last read).
    const IdleStateTable &pristineTable() const { return m_pristine; }
    /// Loads a table JSON file as the target; false with errorOccurred() on failure. It reads
    /// on the calling thread: the window reads on its worker and calls showTableFile().
    bool loadTableFile(const QString &path);
    /// Makes @p table, read from the table file @p path, the target (targetChanged()); the table
    /// is remembered as the file's (rememberTableFile()).
    void showTableFile(const QString &path, IdleStateTable table);
    /// Makes the table of combo key @p key the target, as if chosen ("builtin:ID", "file:PATH").
    /// Asks first when the table shown has edited states (confirmDiscardEdits()).
    void useTable(const QString &key);
    /// The scenario's measured wake delays (ScenarioSpec::wakeDelaysPath), "" for the table's own.
    QString wakeDelaysPath() const { return m_wakeDelaysPath; }
    /// Shows @p path as the measured wake delays (session load, undo); emits nothing.
    void setWakeDelaysPath(const QString &path);
    /// The user chose measured wake delays @p path ("" clears them: the table's own again), as
    /// the file dialog and the clear button do: wakeDelaysChanged() when it is another.
    void chooseWakeDelaysFile(const QString &path);
    /// The states file @p path measured, as a run read it (SimulationSnapshot::measuredWakeDelays):
    /// the rows of those states show their measured wake delay while @p path is chosen.
    void showMeasuredWakeDelays(const QString &path, const std::vector<MeasuredWakeDelay> &measured);
    /// The states whose exit latency, target residency, wake delay, entry cost or "On" the
    /// user edited, against the table as its source gives it ("CEDE: exit latency"); empty
    /// when none was.
    QStringList editedStates() const;
    /// True when there are no edited states, or the user agreed to discard them (the
    /// window's Discard / Cancel question); false keeps them: the caller changes nothing.
    bool confirmDiscardEdits();

signals:
    /// Another table was chosen (built-in, sysfs, file): its tick rate is the new default.
    void targetChanged();
    /// A cell of the state table was edited (a latency, a state disabled): only that
    /// state changed, the tick rate the user chose stays.
    void statesEdited();
    void errorOccurred(const QString &message);
    /// The user chose other measured wake delays, or cleared them (wakeDelaysPath()).
    void wakeDelaysChanged();
    /// The user chose the table file @p path ("Table file…", or a file's entry opened before):
    /// when this is connected, the receiver reads it (off the GUI thread) and calls
    /// showTableFile(); else it is read here.
    void tableFileRequested(const QString &path);
    /// A sysfs state read with a warning.
    void warningOccurred(const QString &message);

private:
    /// setTarget(), with the table's pristine form when known (else a built-in's own table, a
    /// table file's as last read, this machine's as read before).
    void showTarget(const TargetSpec &target, const IdleStateTable *pristine);
    /// The combo and states back on the table in force (a choice declined or failed).
    void keepTarget();
    void fillStateTable();
    /// The wake-delay row under the table: the file's name, or the table's own.
    void fillWakeDelaysRow();
    /// The µs fields a cell edits.
    enum TimeField { ExitLatencyField, TargetResidencyField, WakeDelayField, EntryCostField };
    /// The edit @p cell of state @p row's @p field, applied to m_target.table.
    Status editTime(int row, TimeField field, const QString &cell);
    /// State @p row's wake delay or entry cost (@p field) set to @p ns, if the table takes it.
    Status setWakeTime(int row, TimeField field, Ns ns);
    /// The wake-up table (wake delay, entry cost and their source per state).
    void fillWakeTable();
    void wakeCellChanged(int row, int column);
    /// A cell edit of state @p row done (@p st): statesEdited(), or the error and the values in force.
    void endEdit(int row, const Status &st);
    /// Headers and scrolling of the state and wake-up tables, and their size once filled.
    static void setUpStateTable(QTableWidget *table);
    /// The constructor's parts: the wake-up table under the states, and the row that chooses
    /// a file of measured wake delays with the file's name under it.
    void createWakeTable(QVBoxLayout *v);
    void createWakeDelaysRow(QVBoxLayout *v);
    static void fitStateTable(QTableWidget *table);
    /// The file dialog of the wake-delay row's "Measured…" button.
    void openWakeDelaysFile();
    void stateCellChanged(int row, int column);
    void chooseTarget(int index);
    /// chooseTarget() once the edits may go.
    void chooseConfirmed(const QString &key);
    /// Table file @p path chosen in the combo: read by the window on its worker when it listens
    /// (tableFileRequested()), else here; "" (no file chosen) keeps the table in force.
    void openTableFile(const QString &path);

    TargetSpec m_target;
    /// m_target's table as its source gives it (built-in, file, sysfs), before any edit.
    IdleStateTable m_pristine;
    /// Each table file's table as last read, by path: showing the file again reads nothing.
    QHash<QString, IdleStateTable> m_tableFiles;
    QComboBox *m_targetCombo;
    QTableWidget *m_states;
    QTableWidget *m_wake; ///< wake delay and entry cost per state, and where they come from
    QLabel *m_targetSource;
    QString m_wakeDelaysPath;
    /// Each measured file's states as a run last read them, by path.
    QHash<QString, std::vector<MeasuredWakeDelay>> m_measured;
    QLabel *m_wakeDelaysFile;
    QToolButton *m_wakeDelaysChoose;
    QToolButton *m_wakeDelaysClear;
};

} // namespace idlescope
