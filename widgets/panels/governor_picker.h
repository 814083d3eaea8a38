// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file governor_picker.h
 * The Setup panel's "Governors" group: a checkable list of every registered
 * variant, grouped by family and ordered by the kernel version each is based
 * on, each checked one with its own colour (the oracle is always there as a
 * reference; "recorded", the kernel's own choices, only for a kernel trace).
 * A variant's row can be duplicated (its context menu): a second instance of
 * the variant with a label and colour of its own, for the same variant at
 * other tunables (A/B), renamed by editing its row and removed from its menu.
 * Governors built from source ("src:FILE.c[@KERNEL]") are rows too.
 */
#pragma once

#include "widgets/runner/scenario_spec.h"

#include <QGroupBox>
#include <QMap>

class QListWidget;
class QListWidgetItem;

namespace idlescope {

class GovernorPicker : public QGroupBox {
    Q_OBJECT
public:
    explicit GovernorPicker(QWidget *parent = nullptr);

    /// Checked governors in list order, with their colours (settings left empty).
    std::vector<GovernorSpec> governors() const;
    /// Programmatic setter (session load, default scenario); emits nothing.
    void setGovernors(const std::vector<GovernorSpec> &governors);
    /// Check or uncheck one governor by name (GovernorSpec::name(); tests, shortcuts).
    void setGovernorChecked(const std::string &name, bool checked);

    /// Whether the workload is a kernel trace, which alone has a recorded run: the "recorded"
    /// row is enabled then; otherwise it is unchecked and disabled, its check kept for the
    /// next trace. Emits nothing.
    void setRecordedAvailable(bool available);
    /// A trace was opened: the kernel's own choices are shown beside the governors. Emits nothing.
    void checkRecorded();

    /// A second instance of governor @p name's variant, checked, in a row below it, with a
    /// label of its own ("menu-6.19 (B)") and the first colour no checked governor has.
    /// Emits governorDuplicated() then governorsChanged(); returns the label ("" when @p name
    /// is no row, or the oracle or the recorded run, which have nothing to tune).
    QString duplicateGovernor(const QString &name);
    /// Gives the second instance @p name the label @p label (also by editing its row's text).
    /// Refused (false, errorOccurred()) for a label that is not valid
    /// (experiments::governorLabelProblem()) or another governor's name. Emits governorRenamed()
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
    /// Removes source row @p id (an add that did not run); governorsChanged() when it was checked.
    void removeSourceGovernor(const QString &id);
    /// Source row @p id has no run because its file fails (its first run crashed, hung or
    /// was refused): @p failure, "" when it runs again. The row stays, its name in italics and
    /// the failure in its tooltip, for the file to be fixed and saved, as a run that fails
    /// later stays (stale). Emits nothing.
    void setSourceFailure(const QString &id, const QString &failure);
    /// What setSourceFailure() gave source row @p id ("" when none).
    QString sourceFailure(const QString &id) const;

signals:
    void governorsChanged();
    /// Second instance @p label of @p from's variant was added (its tunables start as @p from's).
    void governorDuplicated(const QString &from, const QString &label);
    /// Second instance @p from is now named @p to (its tunables and colour go with it).
    void governorRenamed(const QString &from, const QString &to);
    void errorOccurred(const QString &message);

private:
    /// A source row's tooltip: its file and kernel, and @p failure when it has no run.
    static QString sourceToolTip(const QString &id, const QString &failure = QString());
    void updateGovernorIcons();
    void updateRecordedRow();
    QColor colorFor(const QListWidgetItem *item);
    /// The row of governor @p name, or null.
    QListWidgetItem *rowOf(const QString &name) const;
    /// Takes row @p item (governor @p name) out; governorsChanged() when it was checked.
    void removeRow(QListWidgetItem *item, const QString &name);
    /// A second instance's row of @p variant labelled @p label, below the variant's last row.
    QListWidgetItem *addInstanceRow(const QString &variant, const QString &label);
    void showGovernorMenu(const QPoint &pos);
    /// A second instance's row text was edited: rename it, or put the label back.
    void instanceRowEdited(QListWidgetItem *item);

    QListWidget *m_governors;
    QMap<QString, QColor> m_colors; ///< colour given to a governor (by name) when it was first checked
    bool m_filling = false;
    bool m_recordedAvailable = false; ///< the workload is a kernel trace
    bool m_recordedParked = false;    ///< "recorded" was checked when a non-trace workload disabled it
};

} // namespace idlescope
