// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file target_picker.h
 * The Setup panel's "Target" group: which idle-state table is simulated (a
 * built-in table of core/targets, this machine's sysfs table, or a table
 * JSON file) and the table itself, editable: a state's exit latency and
 * target residency can be changed (in µs) and a state disabled. An edit that
 * the table refuses (not a number, out of range, an order the kernel would
 * not accept) is reported and the values in force are shown again.
 */
#pragma once

#include "widgets/runner/scenario_spec.h"

#include <QGroupBox>

class QComboBox;
class QLabel;
class QTableWidget;

namespace idlescope {

class TargetPicker : public QGroupBox {
    Q_OBJECT
public:
    explicit TargetPicker(QWidget *parent = nullptr);

    TargetSpec target() const { return m_target; }
    /// Shows @p target (session load, default scenario); emits nothing.
    void setTarget(const TargetSpec &target);
    /// Loads a table JSON file as the target; false with errorOccurred() on failure. It reads
    /// on the calling thread: the window reads on its worker and calls showTableFile().
    bool loadTableFile(const QString &path);
    /// Makes @p table, read from the table file @p path, the target (targetChanged()).
    void showTableFile(const QString &path, IdleStateTable table);
    /// Makes the table of combo key @p key the target, as if chosen ("builtin:ID", "file:PATH").
    /// Asks first when the table shown has edited states (confirmDiscardEdits()).
    void useTable(const QString &key);
    /// The states whose exit latency, target residency or "On" the user edited, against the
    /// table as its source gives it ("CEDE: exit latency"); empty when none was.
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
    /// The user chose the table file @p path ("Table file…"): when this is connected, the
    /// receiver reads it (off the GUI thread) and calls showTableFile(); else it is read here.
    void tableFileRequested(const QString &path);
    /// A sysfs state read with a warning.
    void warningOccurred(const QString &message);

private:
    /// setTarget(), with the table's pristine form when known (else read from its source).
    void showTarget(const TargetSpec &target, const IdleStateTable *pristine);
    /// The combo and states back on the table in force (a choice declined or failed).
    void keepTarget();
    void fillStateTable();
    void stateCellChanged(int row, int column);
    void chooseTarget(int index);
    /// chooseTarget() once the edits may go.
    void chooseConfirmed(const QString &key);

    TargetSpec m_target;
    /// m_target's table as its source gives it (built-in, file, sysfs), before any edit.
    IdleStateTable m_pristine;
    QComboBox *m_targetCombo;
    QTableWidget *m_states;
    QLabel *m_targetSource;
};

} // namespace idlescope
