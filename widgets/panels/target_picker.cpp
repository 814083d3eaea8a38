// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/target_picker.h"

#include "core/targets/builtin_targets.h"
#include "core/targets/sysfs_cpuidle.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/session/table_file.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QMetaMethod>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>
#include <utility>

namespace idlescope {

namespace {

enum StateColumn { ColName, ColExit, ColTarget, ColPolling, ColEnabled, ColCount };

/// The table's sanity bound (core/states), in the cell's unit.
constexpr double MAX_STATE_US = static_cast<double>(MAX_STATE_TIME_NS) / NSEC_PER_USEC;

QString usText(Ns ns)
{
    return QString::number(static_cast<double>(ns) / 1000.0, 'g', 10);
}

} // namespace

TargetPicker::TargetPicker(QWidget *parent) : QGroupBox(tr("Target"), parent)
{
    auto *box = this;
    auto *v = new QVBoxLayout(box);
    // Narrow side margins: the state table's five columns fit a 200-pixel Setup dock.
    v->setContentsMargins(3, v->contentsMargins().top(), 3, v->contentsMargins().bottom());
    m_targetCombo = new QComboBox(box);
    for (const QString &id : builtinTargetIds()) {
        m_targetCombo->addItem(id, QStringLiteral("builtin:") + id);
        m_targetCombo->setItemData(m_targetCombo->count() - 1, builtinTargetLabel(id), Qt::ToolTipRole);
    }
    m_targetCombo->insertSeparator(m_targetCombo->count());
    m_targetCombo->addItem(tr("This machine (sysfs)"), QStringLiteral("machine"));
    m_targetCombo->addItem(tr("Table file\u2026"), QStringLiteral("open"));
    v->addWidget(m_targetCombo);
    setFocusProxy(m_targetCombo); // focusing the group (e.g. from "no power data") lands on the table choice

    m_states = new QTableWidget(0, ColCount, box);
    // Units under the titles: a 200-pixel Setup dock has room for every column that way.
    m_states->setHorizontalHeaderLabels(
        {tr("State"), tr("Exit\n\u00b5s"), tr("Target\n\u00b5s"), tr("Poll"), tr("On")});
    m_states->horizontalHeaderItem(ColExit)->setToolTip(tr("Exit latency (exit_latency_ns), in \u00b5s"));
    m_states->horizontalHeaderItem(ColTarget)->setToolTip(tr("Target residency (target_residency_ns), in \u00b5s"));
    m_states->verticalHeader()->hide();
    // The name takes what is left; every other column is as wide as its title and values (four
    // equal stretched columns cut "Target µs" to "Target" in a narrow dock).
    m_states->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_states->horizontalHeader()->setSectionResizeMode(ColName, QHeaderView::Stretch);
    m_states->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_states->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_states->setSelectionMode(QAbstractItemView::NoSelection);
    m_states->setToolTip(tr("Double-click a latency to edit it; untick \"On\" to disable a state"));
    v->addWidget(m_states);
    m_targetSource = new QLabel(box);
    m_targetSource->setWordWrap(true);
    m_targetSource->setStyleSheet(QStringLiteral("color:#707070; font-size:8pt;"));
    v->addWidget(m_targetSource);

    connect(m_targetCombo, &QComboBox::activated, this, &TargetPicker::chooseTarget);
    connect(m_states, &QTableWidget::cellChanged, this, &TargetPicker::stateCellChanged);
}

void TargetPicker::setTarget(const TargetSpec &target)
{
    showTarget(target, nullptr);
}

void TargetPicker::keepTarget()
{
    const IdleStateTable pristine = m_pristine; // as it was: the file is not read again
    showTarget(m_target, &pristine);
}

void TargetPicker::showTarget(const TargetSpec &target, const IdleStateTable *pristine)
{
    // What the states are without edits: the source's table (a session or an undo may bring
    // an edited one). A sysfs table read before is kept; else the table given is its own.
    if (pristine) {
        m_pristine = *pristine;
    } else if (target.kind == TargetKind::Builtin) {
        Result<IdleStateTable> t = builtinTable(target.id);
        m_pristine = t ? std::move(*t) : target.table;
    } else if (target.kind == TargetKind::File) {
        // The file as read when it was opened (on the window's worker), never read again here:
        // an undo, a redo or a session reaches this on the GUI thread, and the file may hang.
        const auto read = m_tableFiles.constFind(target.path);
        m_pristine = read != m_tableFiles.cend() ? *read : target.table;
    } else if (!(m_target.kind == TargetKind::Machine && m_target.id == target.id)) {
        m_pristine = target.table;
    }
    m_target = target;
    const QString key = target.kind == TargetKind::File      ? QStringLiteral("file:") + target.path
                        : target.kind == TargetKind::Machine ? QStringLiteral("machine")
                                                             : QStringLiteral("builtin:") + target.id;
    int i = m_targetCombo->findData(key);
    if (i < 0) {
        const QString label = target.kind == TargetKind::File ? QFileInfo(target.path).fileName() : target.id;
        m_targetCombo->insertItem(m_targetCombo->count() - 1, label, key);
        i = m_targetCombo->count() - 2;
    }
    m_targetCombo->setCurrentIndex(i);
    fillStateTable();
}

bool TargetPicker::loadTableFile(const QString &path)
{
    auto table = readTableFile(path);
    if (!table) {
        emit errorOccurred(QString::fromStdString(table.error().toString()));
        return false;
    }
    showTableFile(path, std::move(*table));
    return true;
}

void TargetPicker::rememberTableFile(const QString &path, const IdleStateTable &table)
{
    m_tableFiles.insert(path, table);
}

void TargetPicker::showTableFile(const QString &path, IdleStateTable table)
{
    rememberTableFile(path, table);
    TargetSpec t;
    t.kind = TargetKind::File;
    t.id = QString::fromStdString(table.id);
    t.path = path;
    t.table = table;
    // The file's table as read is the one without edits: it is not read again.
    showTarget(t, &table);
    emit targetChanged();
}

QStringList TargetPicker::editedStates() const
{
    QStringList out;
    const IdleStateTable &t = m_target.table;
    if (t.count() != m_pristine.count())
        return out;
    for (int r = 0; r < t.count(); ++r) {
        QStringList what;
        if (t[r].exitLatencyNs != m_pristine[r].exitLatencyNs)
            what << tr("exit latency %1 \u00b5s").arg(usText(t[r].exitLatencyNs));
        if (t[r].targetResidencyNs != m_pristine[r].targetResidencyNs)
            what << tr("target residency %1 \u00b5s").arg(usText(t[r].targetResidencyNs));
        if (t[r].disabled != m_pristine[r].disabled)
            what << (t[r].disabled ? tr("disabled") : tr("enabled"));
        if (!what.isEmpty())
            out << QStringLiteral("%1: %2").arg(QString::fromStdString(t[r].name), what.join(QStringLiteral(", ")));
    }
    return out;
}

bool TargetPicker::confirmDiscardEdits()
{
    const QStringList edited = editedStates();
    if (edited.isEmpty())
        return true;
    QMessageBox box(QMessageBox::Warning, tr("Edited states"),
                    tr("%1 has edited states that another table replaces:").arg(m_target.id) + QStringLiteral("\n")
                        + edited.join(QLatin1Char('\n')),
                    QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setInformativeText(tr("Discard the edits? (Cancel keeps this table and its edits; saving a session "
                              "keeps them too.)"));
    box.setDefaultButton(QMessageBox::Cancel);
    return box.exec() == QMessageBox::Discard;
}

void TargetPicker::useTable(const QString &key)
{
    if (!confirmDiscardEdits())
        return;
    if (key.startsWith(QLatin1String("file:"))) {
        loadTableFile(key.mid(5));
        return;
    }
    const int i = m_targetCombo->findData(key);
    if (i < 0)
        return;
    m_targetCombo->setCurrentIndex(i);
    chooseConfirmed(key);
}

void TargetPicker::chooseTarget(int index)
{
    const QString key = m_targetCombo->itemData(index).toString();
    if (!confirmDiscardEdits()) {
        keepTarget(); // the combo back on the table kept, with its edits
        return;
    }
    chooseConfirmed(key);
}

void TargetPicker::openTableFile(const QString &path)
{
    // The window reads the file on its worker (the combo shows the table in force until then).
    if (!path.isEmpty() && isSignalConnected(QMetaMethod::fromSignal(&TargetPicker::tableFileRequested))) {
        keepTarget();
        emit tableFileRequested(path);
        return;
    }
    if (path.isEmpty() || !loadTableFile(path))
        keepTarget(); // back to the current entry
}

void TargetPicker::chooseConfirmed(const QString &key)
{
    if (key == QLatin1String("open")) {
        openTableFile(QFileDialog::getOpenFileName(this, tr("Open idle-state table"), QString(),
                                                   tr("Tables (*.json);;All files (*)")));
        return;
    }
    if (key == QLatin1String("machine")) {
        auto sys = readSysfsCpuidle();
        if (!sys) {
            emit errorOccurred(QString::fromStdString(sys.error().toString()));
            keepTarget();
            return;
        }
        for (const std::string &w : sys->warnings)
            emit warningOccurred(QString::fromStdString(w));
        TargetSpec t;
        t.kind = TargetKind::Machine;
        t.id = QString::fromStdString(sys->table.id);
        t.table = std::move(sys->table);
        setTarget(t);
        emit targetChanged();
        return;
    }
    if (key.startsWith(QLatin1String("file:"))) { // a file opened before: read again, as it is now
        openTableFile(key.mid(5));
        return;
    }
    auto table = builtinTable(key.mid(8));
    if (!table) {
        emit errorOccurred(QString::fromStdString(table.error().toString()));
        return;
    }
    TargetSpec t;
    t.kind = TargetKind::Builtin;
    t.id = key.mid(8);
    t.table = std::move(*table);
    setTarget(t);
    emit targetChanged();
}

void TargetPicker::fillStateTable()
{
    const QSignalBlocker block(m_states);
    const IdleStateTable &t = m_target.table;
    m_states->setRowCount(t.count());
    for (int r = 0; r < t.count(); ++r) {
        const IdleState &s = t[r];
        auto *name = new QTableWidgetItem(QString::fromStdString(s.name));
        name->setFlags(Qt::ItemIsEnabled);
        name->setToolTip(QString::fromStdString(s.desc));
        m_states->setItem(r, ColName, name);
        m_states->setItem(r, ColExit, new QTableWidgetItem(usText(s.exitLatencyNs)));
        m_states->setItem(r, ColTarget, new QTableWidgetItem(usText(s.targetResidencyNs)));
        auto *poll = new QTableWidgetItem(s.polling ? tr("yes") : QString());
        poll->setFlags(Qt::ItemIsEnabled);
        m_states->setItem(r, ColPolling, poll);
        auto *on = new QTableWidgetItem;
        on->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        on->setCheckState(s.disabled ? Qt::Unchecked : Qt::Checked);
        m_states->setItem(r, ColEnabled, on);
        for (int c : {ColExit, ColTarget})
            m_states->item(r, c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    // Never narrower than its columns' contents (the name's too): a dock narrower than that
    // scrolls to them (its scroll area), no column is cut.
    QHeaderView *header = m_states->horizontalHeader();
    header->setSectionResizeMode(ColName, QHeaderView::ResizeToContents);
    header->resizeSections(QHeaderView::ResizeToContents);
    int width = 2 * m_states->frameWidth();
    for (int c = 0; c < ColCount; ++c)
        width += header->sectionSize(c);
    header->setSectionResizeMode(ColName, QHeaderView::Stretch);
    m_states->setMinimumWidth(width);
    m_states->setFixedHeight(header->sizeHint().height() + 4
                             + t.count() * m_states->verticalHeader()->defaultSectionSize());
    m_targetSource->setText(QString::fromStdString(t.source));
    m_targetSource->setVisible(!t.source.empty());
}

void TargetPicker::stateCellChanged(int row, int column)
{
    Status st = Ok{};
    if (column == ColEnabled) {
        st = m_target.table.setDisabled(row, m_states->item(row, column)->checkState() != Qt::Checked);
    } else if (column == ColExit || column == ColTarget) {
        bool ok = false;
        const double us = m_states->item(row, column)->text().trimmed().toDouble(&ok);
        const char *field = column == ColExit ? "exit_latency_ns" : "target_residency_ns";
        if (!ok || !std::isfinite(us)) {
            st = Error{"", 0, field,
                       "'" + m_states->item(row, column)->text().toStdString() + "' is not a number of \u00b5s"};
        } else if (std::abs(us) > MAX_STATE_US) {
            // Checked before the conversion: llround of 1e30 us overflows (and read as negative).
            st = Error{"", 0, field,
                       "'" + m_states->item(row, column)->text().toStdString()
                           + "' \u00b5s is out of range (max 3600000000 \u00b5s, one hour)"};
        } else {
            const Ns ns = std::llround(us * 1000.0);
            st = column == ColExit ? m_target.table.setExitLatencyNs(row, ns)
                                   : m_target.table.setTargetResidencyNs(row, ns);
        }
    } else {
        return;
    }
    if (!st) {
        emit errorOccurred(tr("State %1: %2").arg(row).arg(QString::fromStdString(st.error().toString())));
        fillStateTable(); // show the values still in force
        return;
    }
    fillStateTable();
    emit statesEdited();
}

} // namespace idlescope
