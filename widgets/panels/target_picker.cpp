// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/target_picker.h"

#include "core/states/wake_delay.h"
#include "core/targets/builtin_targets.h"
#include "core/targets/sysfs_cpuidle.h"
#include "widgets/panels/wake_delay_source.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/session/table_file.h"

#include <QColor>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QMetaMethod>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>
#include <utility>

namespace idlescope {

namespace {

enum StateColumn { ColName, ColExit, ColTarget, ColPolling, ColEnabled, ColCount };
/// The wake-up table under it: what a woken task waits in each state (the governors read Exit).
enum WakeColumn { WakeName, WakeDelay, WakeEntry, WakeFrom, WakeCount };

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
    // Narrow side margins: the state table's columns take what the Setup dock has.
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
    m_states->horizontalHeaderItem(ColExit)->setToolTip(
        tr("Exit latency (exit_latency_ns), in \u00b5s: what the governors read"));
    m_states->horizontalHeaderItem(ColTarget)->setToolTip(tr("Target residency (target_residency_ns), in \u00b5s"));
    setUpStateTable(m_states);
    m_states->setToolTip(tr("Double-click a latency to edit it; untick \"On\" to disable a state"));
    v->addWidget(m_states);

    createWakeTable(v);
    createWakeDelaysRow(v);

    m_targetSource = new QLabel(box);
    m_targetSource->setWordWrap(true);
    m_targetSource->setStyleSheet(QStringLiteral("color:#707070; font-size:8pt;"));
    v->addWidget(m_targetSource);

    connect(m_targetCombo, &QComboBox::activated, this, &TargetPicker::chooseTarget);
    connect(m_states, &QTableWidget::cellChanged, this, &TargetPicker::stateCellChanged);
    connect(m_wake, &QTableWidget::cellChanged, this, &TargetPicker::wakeCellChanged);
    connect(m_wakeDelaysChoose, &QToolButton::clicked, this, &TargetPicker::openWakeDelaysFile);
    connect(m_wakeDelaysClear, &QToolButton::clicked, this, [this] { chooseWakeDelaysFile(QString()); });
}

void TargetPicker::createWakeTable(QVBoxLayout *v)
{
    // The wake-up, beside what the governors read but a table of its own: a 200-pixel Setup
    // dock has room for five columns, not eight.
    m_wake = new QTableWidget(0, WakeCount, this);
    m_wake->setObjectName(QStringLiteral("wakeTable"));
    m_wake->setHorizontalHeaderLabels({tr("Wake-up"), tr("Wake\n\u00b5s"), tr("Entry\n\u00b5s"), tr("From")});
    m_wake->horizontalHeaderItem(WakeName)->setToolTip(
        tr("What a woken task waits in each state: the closed loop, throughput and energy use it; the "
           "governors never read it (they read Exit above)"));
    m_wake->horizontalHeaderItem(WakeDelay)->setToolTip(
        tr("Wake delay (wake_delay_ns), in \u00b5s, once the state is entered. Empty it to use the exit latency"));
    m_wake->horizontalHeaderItem(WakeEntry)->setToolTip(
        tr("Entry cost (entry_latency_ns), in \u00b5s: a wakeup during the entry waits for the rest of it"));
    m_wake->horizontalHeaderItem(WakeFrom)->setToolTip(
        tr("Where the wake delay comes from: wult (the measured file below), DT (the device tree's "
           "exit-latency-us), table (the table's wake_delay_ns), edited (here), exit (none given: the exit "
           "latency)"));
    setUpStateTable(m_wake);
    m_wake->setToolTip(tr("Double-click a wake delay or entry cost to edit it"));
    v->addWidget(m_wake);
}

void TargetPicker::createWakeDelaysRow(QVBoxLayout *v)
{
    // The measured wake delays: a file of wult's samples replaces the wake delays of the states
    // it names (compare --wake-delays); cleared, the table's own are used again.
    // The buttons on a line of their own, the file's name under them at the table's width.
    auto *wake = new QHBoxLayout;
    wake->setSpacing(4);
    wake->addWidget(new QLabel(tr("Wake delays:"), this));
    wake->addStretch(1);
    m_wakeDelaysChoose = new QToolButton(this);
    m_wakeDelaysChoose->setObjectName(QStringLiteral("wakeDelaysChoose"));
    m_wakeDelaysChoose->setText(tr("Measured\u2026"));
    m_wakeDelaysChoose->setToolTip(
        tr("Use the mean wake latency per state of a wult datapoints.csv (columns ReqCState and WakeLatency) "
           "instead of the table's wake delays"));
    wake->addWidget(m_wakeDelaysChoose);
    m_wakeDelaysClear = new QToolButton(this);
    m_wakeDelaysClear->setObjectName(QStringLiteral("wakeDelaysClear"));
    m_wakeDelaysClear->setText(tr("Clear"));
    m_wakeDelaysClear->setToolTip(tr("Back to the table's own wake delays"));
    wake->addWidget(m_wakeDelaysClear);
    v->addLayout(wake);
    m_wakeDelaysFile = new QLabel(this);
    m_wakeDelaysFile->setObjectName(QStringLiteral("wakeDelaysFile"));
    m_wakeDelaysFile->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_wakeDelaysFile->setWordWrap(true);
    // A long name is cut rather than widening the dock (the whole path is its tooltip).
    m_wakeDelaysFile->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    v->addWidget(m_wakeDelaysFile);
    fillWakeDelaysRow();
}

void TargetPicker::setUpStateTable(QTableWidget *table)
{
    table->verticalHeader()->hide();
    // The name takes what is left; every other column is as wide as its title and values (four
    // equal stretched columns cut "Target µs" to "Target" in a narrow dock).
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->setSelectionMode(QAbstractItemView::NoSelection);
}

void TargetPicker::fitStateTable(QTableWidget *table)
{
    // Never narrower than its columns' contents (the name's too): a dock narrower than that
    // scrolls to them (its scroll area), no column is cut.
    QHeaderView *header = table->horizontalHeader();
    header->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    header->resizeSections(QHeaderView::ResizeToContents);
    int width = 2 * table->frameWidth();
    for (int c = 0; c < table->columnCount(); ++c)
        width += header->sectionSize(c);
    header->setSectionResizeMode(0, QHeaderView::Stretch);
    table->setMinimumWidth(width);
    table->setFixedHeight(header->sizeHint().height() + 4
                          + table->rowCount() * table->verticalHeader()->defaultSectionSize());
}

void TargetPicker::setWakeDelaysPath(const QString &path)
{
    if (path == m_wakeDelaysPath)
        return;
    m_wakeDelaysPath = path;
    fillWakeDelaysRow();
    fillStateTable();
}

void TargetPicker::chooseWakeDelaysFile(const QString &path)
{
    if (path == m_wakeDelaysPath)
        return;
    setWakeDelaysPath(path);
    emit wakeDelaysChanged();
}

void TargetPicker::openWakeDelaysFile()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open measured wake delays"),
                                     m_wakeDelaysPath.isEmpty() ? QString() : QFileInfo(m_wakeDelaysPath).path(),
                                     tr("wult datapoints (*.csv *.csv.gz);;All files (*)"));
    if (!path.isEmpty()) // Cancel keeps the file in force
        chooseWakeDelaysFile(path);
}

void TargetPicker::showMeasuredWakeDelays(const QString &path, const std::vector<MeasuredWakeDelay> &measured)
{
    if (path.isEmpty())
        return;
    m_measured.insert(path, measured);
    if (path == m_wakeDelaysPath)
        fillStateTable();
}

void TargetPicker::fillWakeDelaysRow()
{
    const bool file = !m_wakeDelaysPath.isEmpty();
    m_wakeDelaysFile->setText(file ? QFileInfo(m_wakeDelaysPath).fileName() : tr("the table's own"));
    m_wakeDelaysFile->setAccessibleName(tr("Measured wake delays file"));
    m_wakeDelaysFile->setToolTip(file ? m_wakeDelaysPath : QString());
    // The table's own in grey, as the table's source is: a file chosen reads as a value.
    m_wakeDelaysFile->setStyleSheet(file ? QString() : QStringLiteral("color:#707070;"));
    m_wakeDelaysClear->setEnabled(file);
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
        if (t[r].wakeDelayNs != m_pristine[r].wakeDelayNs)
            what << tr("wake delay %1 \u00b5s").arg(usText(baseWakeDelayNs(t[r])));
        if (t[r].entryLatencyNs != m_pristine[r].entryLatencyNs)
            what << tr("entry cost %1 \u00b5s").arg(usText(t[r].entryLatencyNs));
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
    fitStateTable(m_states);
    fillWakeTable();
    m_targetSource->setText(QString::fromStdString(t.source));
    m_targetSource->setVisible(!t.source.empty());
}

void TargetPicker::fillWakeTable()
{
    const QSignalBlocker block(m_wake);
    const IdleStateTable &t = m_target.table;
    const bool samePristine = m_pristine.count() == t.count();
    static const std::vector<MeasuredWakeDelay> none;
    const auto read = m_measured.constFind(m_wakeDelaysPath);
    const std::vector<MeasuredWakeDelay> &measured = read != m_measured.cend() ? *read : none;
    const QString fileName = QFileInfo(m_wakeDelaysPath).fileName();
    m_wake->setRowCount(t.count());
    for (int r = 0; r < t.count(); ++r) {
        const IdleState &s = t[r];
        const MeasuredWakeDelay *m = m_wakeDelaysPath.isEmpty() ? nullptr : measuredFor(measured, s.name);
        const WakeDelaySource source = wakeDelaySource(s, samePristine ? &m_pristine[r] : nullptr, m);
        const QString why = wakeDelaySourceText(source, s, m, fileName);
        auto *name = new QTableWidgetItem(QString::fromStdString(s.name));
        name->setFlags(Qt::ItemIsEnabled);
        name->setToolTip(why);
        m_wake->setItem(r, WakeName, name);
        auto *wake = new QTableWidgetItem(usText(m ? m->meanNs : baseWakeDelayNs(s)));
        if (m) // the file's: edited in the file, not here
            wake->setFlags(Qt::ItemIsEnabled);
        else if (source == WakeDelaySource::ExitLatency) // the exit latency standing in, in grey
            wake->setForeground(QColor(0x70, 0x70, 0x70));
        wake->setToolTip(why);
        m_wake->setItem(r, WakeDelay, wake);
        auto *entry = new QTableWidgetItem(usText(s.entryLatencyNs));
        entry->setToolTip(why);
        m_wake->setItem(r, WakeEntry, entry);
        auto *from = new QTableWidgetItem(wakeDelaySourceWord(source));
        from->setFlags(Qt::ItemIsEnabled);
        from->setToolTip(why);
        m_wake->setItem(r, WakeFrom, from);
        for (int c : {WakeDelay, WakeEntry})
            m_wake->item(r, c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    fitStateTable(m_wake);
}

Status TargetPicker::editTime(int row, TimeField field, const QString &cell)
{
    static const char *const FIELDS[] = {"exit_latency_ns", "target_residency_ns", "wake_delay_ns", "entry_latency_ns"};
    const char *name = FIELDS[field];
    const bool wakeUp = field == WakeDelayField || field == EntryCostField;
    const QString text = cell.trimmed();
    // An emptied wake delay is none of the state's own (the exit latency stands in), an
    // emptied entry cost none at all: as a table JSON file without those keys.
    if (text.isEmpty() && wakeUp)
        return setWakeTime(row, field, field == WakeDelayField ? NO_WAKE_DELAY : 0);
    bool ok = false;
    const double us = text.toDouble(&ok);
    if (!ok || !std::isfinite(us))
        return Error{"", 0, name, "'" + text.toStdString() + "' is not a number of \u00b5s"};
    if (std::abs(us) > MAX_STATE_US) // before the conversion: llround of 1e30 us overflows (and reads as negative)
        return Error{"", 0, name,
                     "'" + text.toStdString() + "' \u00b5s is out of range (max 3600000000 \u00b5s, one hour)"};
    const Ns ns = std::llround(us * 1000.0);
    if (ns < 0 && wakeUp) // -1 ns would read as "none of its own"
        return Error{"", 0, name, "'" + text.toStdString() + "' \u00b5s is negative"};
    switch (field) {
    case ExitLatencyField: return m_target.table.setExitLatencyNs(row, ns);
    case TargetResidencyField: return m_target.table.setTargetResidencyNs(row, ns);
    default:
        // A wake delay equal to the one in force changes nothing (the exit latency shown for a
        // state without one stays the exit latency, following its edits).
        if (field == WakeDelayField && ns == baseWakeDelayNs(m_target.table[row]))
            return Ok{};
        return setWakeTime(row, field, ns);
    }
}

Status TargetPicker::setWakeTime(int row, TimeField field, Ns ns)
{
    // IdleStateTable has no setter for these (governors never read them): set, validated, kept or undone.
    IdleStateTable edited = m_target.table;
    IdleState &s = edited.states[static_cast<std::size_t>(row)];
    (field == WakeDelayField ? s.wakeDelayNs : s.entryLatencyNs) = ns;
    if (Status v = edited.validate(); !v)
        return v;
    m_target.table = std::move(edited);
    return Ok{};
}

void TargetPicker::stateCellChanged(int row, int column)
{
    if (column == ColEnabled)
        endEdit(row, m_target.table.setDisabled(row, m_states->item(row, column)->checkState() != Qt::Checked));
    else if (column == ColExit || column == ColTarget)
        endEdit(row, editTime(row, column == ColExit ? ExitLatencyField : TargetResidencyField,
                              m_states->item(row, column)->text()));
}

void TargetPicker::wakeCellChanged(int row, int column)
{
    if (column == WakeDelay || column == WakeEntry)
        endEdit(row, editTime(row, column == WakeDelay ? WakeDelayField : EntryCostField,
                              m_wake->item(row, column)->text()));
}

void TargetPicker::endEdit(int row, const Status &st)
{
    if (!st) {
        emit errorOccurred(tr("State %1: %2").arg(row).arg(QString::fromStdString(st.error().toString())));
        fillStateTable(); // show the values still in force
        return;
    }
    fillStateTable();
    emit statesEdited();
}

} // namespace idlescope
