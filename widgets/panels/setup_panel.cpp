// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/setup_panel.h"
#include "widgets/runner/workload_seeding.h"

#include "core/experiments/comparison.h"
#include "core/governors/registry.h"
#include "core/io/table_json.h"
#include "core/source_governor/source_governor.h"
#include "core/targets/builtin_targets.h"
#include "core/targets/sysfs_cpuidle.h"
#include "core/trace/table_proposal.h"
#include "core/workloads/workload.h"
#include "widgets/panels/trace_workload_page.h"
#include "widgets/panels/workload_form.h"
#include "widgets/panels/workload_spec_page.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/source_file_watch.h"
#include "widgets/runner/spec_workload.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPainter>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

namespace idlescope {

namespace {

enum StateColumn { ColName, ColExit, ColTarget, ColPolling, ColEnabled, ColCount };

/// A source row's sourceFileStamp() (governors() passes it on as GovernorSpec::sourceStamp).
constexpr int SOURCE_STAMP_ROLE = Qt::UserRole + 1;
/// A second instance's label (GovernorSpec::label); empty on a variant's own row.
constexpr int LABEL_ROLE = Qt::UserRole + 2;

/// The governor's name of a row (GovernorSpec::name()): its label, else its variant id.
QString rowName(const QListWidgetItem *item)
{
    const QString label = item->data(LABEL_ROLE).toString();
    return label.isEmpty() ? item->data(Qt::UserRole).toString() : label;
}

QString instanceToolTip(const QString &label, const QString &variant)
{
    return SetupPanel::tr("<b>%1</b>: a second instance of %2, with tunables of its own. Double-click to rename "
                          "it; its context menu removes it.")
        .arg(label.toHtmlEscaped(), variant.toHtmlEscaped());
}

QIcon colorIcon(const QColor &c, bool filled)
{
    QPixmap pm(12, 12);
    pm.fill(Qt::transparent);
    if (filled) { // unselected governors get a blank of the same size, so names line up
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(c.darker(120));
        p.setBrush(c);
        p.drawRoundedRect(QRectF(0.5, 0.5, 11, 11), 2, 2);
    }
    return QIcon(pm);
}

QString traceFileFilter()
{
    return SetupPanel::tr("Traces (*.dat *.txt *.gz *.trace *.report);;All files (*)");
}

/// The table's sanity bound (core/states), in the cell's unit.
constexpr double MAX_STATE_US = static_cast<double>(MAX_STATE_TIME_NS) / NSEC_PER_USEC;

/// The registry's variants grouped by family (in the registry's family order), each family
/// by the kernel version it is based on; patches keep their place after their base version.
std::vector<const VariantInfo *> sortedVariants()
{
    std::vector<const VariantInfo *> out = allVariants();
    std::vector<std::string> families;
    for (const VariantInfo *v : out)
        if (std::find(families.begin(), families.end(), v->family) == families.end())
            families.emplace_back(v->family);
    auto familyIndex = [&](const VariantInfo *v) {
        return std::find(families.begin(), families.end(), v->family) - families.begin();
    };
    std::stable_sort(out.begin(), out.end(), [&](const VariantInfo *a, const VariantInfo *b) {
        return std::pair(familyIndex(a), a->base) < std::pair(familyIndex(b), b->base);
    });
    return out;
}

QString usText(Ns ns)
{
    return QString::number(static_cast<double>(ns) / 1000.0, 'g', 10);
}

} // namespace

SetupPanel::SetupPanel(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(createTargetGroup());
    layout->addWidget(createWorkloadGroup());
    layout->addWidget(createGovernorGroup(), 1);
}

QWidget *SetupPanel::createTargetGroup()
{
    auto *box = new QGroupBox(tr("Target"), this);
    auto *v = new QVBoxLayout(box);
    m_targetCombo = new QComboBox(box);
    for (const QString &id : builtinTargetIds()) {
        m_targetCombo->addItem(id, QStringLiteral("builtin:") + id);
        m_targetCombo->setItemData(m_targetCombo->count() - 1, builtinTargetLabel(id), Qt::ToolTipRole);
    }
    m_targetCombo->insertSeparator(m_targetCombo->count());
    m_targetCombo->addItem(tr("This machine (sysfs)"), QStringLiteral("machine"));
    m_targetCombo->addItem(tr("Table file\u2026"), QStringLiteral("open"));
    v->addWidget(m_targetCombo);

    m_states = new QTableWidget(0, ColCount, box);
    m_states->setHorizontalHeaderLabels({tr("State"), tr("Exit \u00b5s"), tr("Target \u00b5s"), tr("Poll"), tr("On")});
    m_states->horizontalHeaderItem(ColExit)->setToolTip(tr("Exit latency (exit_latency_ns), in \u00b5s"));
    m_states->horizontalHeaderItem(ColTarget)->setToolTip(tr("Target residency (target_residency_ns), in \u00b5s"));
    m_states->verticalHeader()->hide();
    m_states->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    for (int c : {ColPolling, ColEnabled})
        m_states->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_states->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_states->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_states->setSelectionMode(QAbstractItemView::NoSelection);
    m_states->setToolTip(tr("Double-click a latency to edit it; untick \"On\" to disable a state"));
    v->addWidget(m_states);
    m_targetSource = new QLabel(box);
    m_targetSource->setWordWrap(true);
    m_targetSource->setStyleSheet(QStringLiteral("color:#707070; font-size:8pt;"));
    v->addWidget(m_targetSource);

    connect(m_targetCombo, &QComboBox::activated, this, &SetupPanel::chooseTarget);
    connect(m_states, &QTableWidget::cellChanged, this, &SetupPanel::stateCellChanged);
    return box;
}

QWidget *SetupPanel::createWorkloadGroup()
{
    auto *box = new QGroupBox(tr("Workload"), this);
    auto *v = new QVBoxLayout(box);
    m_workloadKind = new QComboBox(box);
    for (const workloads::GeneratorInfo &g : workloads::allGenerators()) {
        m_workloadKind->addItem(QString::fromUtf8(g.name), QString::fromUtf8(g.name));
        m_workloadKind->setItemData(m_workloadKind->count() - 1, QString::fromUtf8(g.summary), Qt::ToolTipRole);
    }
    m_workloadKind->addItem(tr("Spec (a + b, mix(\u2026))"), QString::fromUtf8(SPEC_WORKLOAD_KIND));
    m_workloadKind->setItemData(m_workloadKind->count() - 1,
                                tr("A compound workload as text, in idlescope-cli's --workload grammar"),
                                Qt::ToolTipRole);
    m_workloadKind->insertSeparator(m_workloadKind->count());
    m_workloadKind->addItem(tr("Stream file (CSV)"), QStringLiteral("csv"));
    m_workloadKind->addItem(tr("Kernel trace"), QStringLiteral("trace"));
    m_workloadKind->setItemData(m_workloadKind->count() - 1,
                                tr("ftrace text, trace-cmd .dat or report, perf script with power:cpu_idle events"),
                                Qt::ToolTipRole);
    v->addWidget(m_workloadKind);
    m_workloadPages = new QStackedWidget(box);
    v->addWidget(m_workloadPages);

    m_generatorForm = new WorkloadForm(m_workloadPages);
    m_workloadPages->addWidget(m_generatorForm);

    auto *csv = new QWidget(m_workloadPages);
    auto *h = new QHBoxLayout(csv);
    h->setContentsMargins(0, 0, 0, 0);
    m_streamPath = new QLabel(tr("no file"), csv);
    m_streamPath->setWordWrap(true);
    auto *browse = new QPushButton(tr("Open\u2026"), csv);
    h->addWidget(m_streamPath, 1);
    h->addWidget(browse);
    m_workloadPages->addWidget(csv);

    m_tracePage = new TraceWorkloadPage(m_workloadPages);
    m_workloadPages->addWidget(m_tracePage);

    m_specPage = new WorkloadSpecPage(m_workloadPages);
    m_workloadPages->addWidget(m_specPage);
    connect(m_specPage, &WorkloadSpecPage::valuesChanged, this, [this] {
        if (m_filling)
            return;
        m_generatorValues[QString::fromUtf8(SPEC_WORKLOAD_KIND)] = m_specPage->values();
        emit workloadChanged();
    });
    connect(m_tracePage, &TraceWorkloadPage::openRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open kernel trace"), QString(), traceFileFilter());
        if (!path.isEmpty())
            loadTraceFile(path);
    });
    connect(m_tracePage, &TraceWorkloadPage::errorOccurred, this, &SetupPanel::workloadFailed);
    connect(m_tracePage, &TraceWorkloadPage::warningOccurred, this, &SetupPanel::warningOccurred);
    // A trace opened, or another table chosen: propose the table the trace fits (or say it fits).
    connect(m_tracePage, &TraceWorkloadPage::summaryReady, this, &SetupPanel::proposeTable);
    connect(this, &SetupPanel::targetChanged, this, &SetupPanel::proposeTable);
    connect(m_tracePage, &TraceWorkloadPage::useTableClicked, this, &SetupPanel::acceptTableProposal);
    // A CPU picked by hand, or the busiest CPU found by the import: simulate it.
    for (auto signal : {&TraceWorkloadPage::cpuChanged, &TraceWorkloadPage::cpuResolved})
        connect(m_tracePage, signal, this, [this] {
            if (!m_filling && m_workloadKind->currentData().toString() == QLatin1String("trace"))
                emit workloadChanged();
        });

    connect(m_workloadKind, &QComboBox::activated, this, &SetupPanel::chooseWorkload);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open wakeup stream"), QString(),
                                                          tr("Streams (*.csv *.csv.gz);;All files (*)"));
        if (!path.isEmpty())
            loadStreamFile(path);
    });
    connect(m_generatorForm, &WorkloadForm::valuesChanged, this, [this] {
        if (m_filling)
            return;
        m_generatorValues[m_workloadKind->currentData().toString()] = m_generatorForm->values();
        emit workloadChanged();
    });
    return box;
}

void SetupPanel::proposeTable()
{
    m_proposedTable.clear();
    const TraceSummary *s = m_tracePage->summary();
    if (!s) {
        m_tracePage->setTableProposal({}, {});
        return;
    }
    const QString current = QString::fromStdString(m_target.table.id);
    // The table idlescope-cli record read from the machine's sysfs beside the trace: the traced machine's own.
    if (!s->sidecarTable.isEmpty()) {
        const QString name = QFileInfo(s->sidecarTable).fileName();
        if (m_target.kind == QLatin1String("file")
            && QFileInfo(m_target.path).absoluteFilePath() == QFileInfo(s->sidecarTable).absoluteFilePath()) {
            m_tracePage->setTableProposal(tr("Table: %1, saved beside the trace when it was recorded.").arg(name), {});
            return;
        }
        m_proposedTable = QStringLiteral("file:") + s->sidecarTable;
        m_tracePage->setTableProposal(tr("The trace has its machine's table beside it (%1, saved by idlescope-cli "
                                         "record); the replay now uses %2.")
                                          .arg(name, current),
                                      tr("Use %1").arg(name));
        return;
    }
    if (s->statesSeen <= 0 || s->statesSeen == m_target.table.count()) {
        m_tracePage->setTableProposal({}, {});
        return;
    }
    std::vector<std::pair<std::string, int>> tables;
    for (const BuiltinTargetInfo &t : builtinTargets())
        tables.emplace_back(t.id, t.stateCount);
    const std::vector<std::string> ids = trace::tablesWithStates(tables, s->statesSeen);
    const QString seen = tr("The trace enters %1 idle states (cpu_idle state=0..%2); %3 has %4.")
                             .arg(s->statesSeen)
                             .arg(s->statesSeen - 1)
                             .arg(current)
                             .arg(m_target.table.count());
    if (ids.empty()) {
        m_tracePage->setTableProposal(seen + QLatin1Char(' ')
                                          + tr("No built-in table has %1 states: open the traced machine's table.")
                                                .arg(s->statesSeen),
                                      {});
        return;
    }
    QStringList names;
    for (const std::string &id : ids)
        names << QString::fromStdString(id);
    m_proposedTable = QStringLiteral("builtin:") + names.front();
    m_tracePage->setTableProposal(seen + QLatin1Char(' ')
                                      + tr("Built-in tables with %1 states: %2.").arg(s->statesSeen).arg(names.join(QStringLiteral(", "))),
                                  tr("Use %1").arg(names.front()));
}

void SetupPanel::acceptTableProposal()
{
    const QString key = m_proposedTable;
    if (key.startsWith(QLatin1String("file:"))) {
        loadTableFile(key.mid(5));
        return;
    }
    const int i = m_targetCombo->findData(key);
    if (i < 0)
        return;
    m_targetCombo->setCurrentIndex(i);
    chooseTarget(i);
}

void SetupPanel::updateRecordedRow()
{
    const bool trace = m_workloadKind->currentData().toString() == QLatin1String("trace");
    const QSignalBlocker block(m_governors);
    for (int i = 0; i < m_governors->count(); ++i) {
        QListWidgetItem *item = m_governors->item(i);
        if (item->data(Qt::UserRole).toString() != QLatin1String("recorded"))
            continue;
        if (trace) {
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
            if (std::exchange(m_recordedParked, false))
                item->setCheckState(Qt::Checked);
        } else {
            if (item->checkState() == Qt::Checked) {
                m_recordedParked = true;
                item->setCheckState(Qt::Unchecked);
            }
            item->setFlags(Qt::ItemIsUserCheckable); // shown, not selectable: a generated stream has no recorded run
        }
    }
    updateGovernorIcons();
}

void SetupPanel::chooseWorkload(int index)
{
    const QString kind = m_workloadKind->itemData(index).toString();
    updateRecordedRow();
    if (kind == QLatin1String("csv") || kind == QLatin1String("trace")) {
        const bool csv = kind == QLatin1String("csv");
        m_workloadPages->setCurrentIndex(csv ? 1 : 2);
        // A trace whose CPU is still being chosen by its import simulates when it is (cpuResolved).
        const bool ready = csv ? !m_streamFile.isEmpty() : !m_tracePage->path().isEmpty() && m_tracePage->cpu() != TRACE_BEST_CPU;
        if (ready && !m_filling)
            emit workloadChanged();
        return;
    }
    if (kind == QLatin1String(SPEC_WORKLOAD_KIND)) {
        m_workloadPages->setCurrentIndex(3);
        m_specPage->setValues(m_generatorValues.value(kind, specWorkloadDefaults()));
        if (!m_filling)
            emit workloadChanged();
        return;
    }
    m_workloadPages->setCurrentIndex(0);
    const QVariantMap values = m_generatorValues.value(kind, generatorDefaults(kind));
    m_generatorForm->setGenerator(workloads::findGenerator(kind.toStdString()), values);
    if (!m_filling)
        emit workloadChanged();
}

QWidget *SetupPanel::createGovernorGroup()
{
    auto *box = new QGroupBox(tr("Governors"), this);
    auto *v = new QVBoxLayout(box);
    m_governors = new QListWidget(box);
    m_governors->setUniformItemSizes(true);
    {
        // The kernel's own choices, as a row like any governor's (a kernel trace only: governors()).
        auto *item = new QListWidgetItem(QStringLiteral("recorded"), m_governors);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
        item->setToolTip(tr("<b>recorded</b><br>What the kernel itself chose in the trace (the states of "
                            "power:cpu_idle and their measured residencies). Only for a kernel trace."));
        item->setData(Qt::UserRole, QStringLiteral("recorded"));
    }
    for (const VariantInfo *info : sortedVariants()) {
        auto *item = new QListWidgetItem(QString::fromUtf8(info->id), m_governors);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
        item->setToolTip(QStringLiteral("<b>%1</b> (%2)<br>%3")
                             .arg(QString::fromUtf8(info->id), QString::fromUtf8(info->kernel),
                                  QString::fromUtf8(info->summary)));
        item->setData(Qt::UserRole, QString::fromUtf8(info->id));
    }
    v->addWidget(m_governors);
    auto *hint = new QLabel(tr("Right-click a governor to duplicate it: the same variant at other tunables."), box);
    hint->setWordWrap(true);
    hint->setStyleSheet(QStringLiteral("color:#707070; font-size:8pt;"));
    v->addWidget(hint);
    updateGovernorIcons();
    m_governors->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_governors->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_governors, &QWidget::customContextMenuRequested, this, &SetupPanel::showGovernorMenu);
    connect(m_governors, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        if (m_filling)
            return;
        if (item->text() != rowName(item)) { // a second instance's label was edited
            instanceRowEdited(item);
            return;
        }
        updateGovernorIcons();
        emit governorsChanged();
    });
    return box;
}

WorkloadSpec SetupPanel::workload() const
{
    WorkloadSpec w;
    w.kind = m_workloadKind->currentData().toString();
    if (w.kind == QLatin1String("csv")) {
        w.path = m_streamFile;
        w.params.insert(QStringLiteral("file_stamp"), m_streamStamp);
    } else if (w.kind == QLatin1String("trace")) {
        w.path = m_tracePage->path();
        w.params.insert(QStringLiteral("cpu"), m_tracePage->cpu());
        w.params.insert(QStringLiteral("file_stamp"), m_tracePage->stamp());
    } else if (w.kind == QLatin1String(SPEC_WORKLOAD_KIND)) {
        w.params = m_specPage->values();
    } else {
        w.params = m_generatorForm->values();
        if (m_legacySeeding) // the form has no seeding field: an old session's spans stay its own
            w.params.insert(QString::fromUtf8(SEEDING_PARAM), QString::fromUtf8(LEGACY_SEEDING));
    }
    w.description = describeWorkload(w);
    return w;
}

std::vector<GovernorSpec> SetupPanel::governors() const
{
    std::vector<GovernorSpec> out;
    for (int i = 0; i < m_governors->count(); ++i) {
        QListWidgetItem *item = m_governors->item(i);
        if (item->checkState() != Qt::Checked)
            continue;
        if (item->data(Qt::UserRole).toString() == QLatin1String("recorded")
            && m_workloadKind->currentData().toString() != QLatin1String("trace"))
            continue; // a generated stream has no recorded choices
        GovernorSpec g;
        g.variant = item->data(Qt::UserRole).toString().toStdString();
        g.label = item->data(LABEL_ROLE).toString().toStdString();
        g.color = m_colors.value(rowName(item), QColor(Qt::gray));
        g.sourceStamp = item->data(SOURCE_STAMP_ROLE).toString();
        out.push_back(g);
    }
    return out;
}

void SetupPanel::setTarget(const TargetSpec &target)
{
    m_target = target;
    const QString key = target.kind == QLatin1String("file")      ? QStringLiteral("file:") + target.path
                        : target.kind == QLatin1String("machine") ? QStringLiteral("machine")
                                                                  : QStringLiteral("builtin:") + target.id;
    int i = m_targetCombo->findData(key);
    if (i < 0) {
        const QString label = target.kind == QLatin1String("file") ? QFileInfo(target.path).fileName() : target.id;
        m_targetCombo->insertItem(m_targetCombo->count() - 1, label, key);
        i = m_targetCombo->count() - 2;
    }
    m_targetCombo->setCurrentIndex(i);
    fillStateTable();
}

void SetupPanel::setWorkload(const WorkloadSpec &w)
{
    m_filling = true;
    m_legacySeeding = usesLegacySeeding(w);
    const int i = m_workloadKind->findData(w.kind);
    if (i >= 0) {
        m_workloadKind->setCurrentIndex(i);
        if (w.kind == QLatin1String("csv")) {
            m_streamFile = w.path;
            m_streamStamp = fileStamp(w.path); // the file as it is now, never a session's stamp
            m_streamPath->setText(QFileInfo(w.path).fileName());
            m_streamPath->setToolTip(w.path);
        } else if (w.kind == QLatin1String("trace")) {
            // The stamp is taken from the file as it is now, never from a session.
            m_tracePage->setTrace(w.path, w.params.value(QStringLiteral("cpu"), TRACE_BEST_CPU).toInt());
        } else {
            m_generatorValues[w.kind] = w.params;
        }
        chooseWorkload(i);
    } else {
        emit errorOccurred(tr("Unknown workload '%1'").arg(w.kind));
    }
    m_filling = false;
}

void SetupPanel::setGovernors(const std::vector<GovernorSpec> &governors)
{
    m_filling = true;
    // Second instances are the scenario's: the rows of the one shown before go.
    for (int i = m_governors->count() - 1; i >= 0; --i)
        if (!m_governors->item(i)->data(LABEL_ROLE).toString().isEmpty())
            delete m_governors->takeItem(i);
    for (int i = 0; i < m_governors->count(); ++i)
        m_governors->item(i)->setCheckState(Qt::Unchecked);
    for (const GovernorSpec &g : governors) {
        const QString id = QString::fromStdString(g.variant);
        if (isSourceGovernorId(g.variant) && !sourceGovernorIds().contains(id)) // a session's: its file as it is now
            addSourceGovernor(id, sourceFileStamp(QString::fromStdString(parseSourceGovernorId(g.variant)->path)));
        const QString name = QString::fromStdString(g.name());
        QListWidgetItem *item = rowOf(name);
        if (!item && !g.label.empty() && rowOf(id))
            item = addInstanceRow(id, name);
        m_colors[name] = g.color;
        if (item)
            item->setCheckState(Qt::Checked);
    }
    m_recordedParked = false;
    updateRecordedRow(); // a session's "recorded" on a generated stream: parked like a checked one
    updateGovernorIcons();
    m_filling = false;
}

void SetupPanel::setGovernorChecked(const std::string &name, bool checked)
{
    if (QListWidgetItem *item = rowOf(QString::fromStdString(name)))
        item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

QListWidgetItem *SetupPanel::rowOf(const QString &name) const
{
    for (int i = 0; i < m_governors->count(); ++i)
        if (rowName(m_governors->item(i)) == name)
            return m_governors->item(i);
    return nullptr;
}

QListWidgetItem *SetupPanel::addInstanceRow(const QString &variant, const QString &label)
{
    int last = -1;
    for (int i = 0; i < m_governors->count(); ++i)
        if (m_governors->item(i)->data(Qt::UserRole).toString() == variant)
            last = i;
    const QListWidgetItem *own = m_governors->item(last);
    auto *item = new QListWidgetItem(label);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsEditable);
    item->setData(Qt::UserRole, variant);
    item->setData(LABEL_ROLE, label);
    item->setData(SOURCE_STAMP_ROLE, own->data(SOURCE_STAMP_ROLE));
    item->setToolTip(instanceToolTip(label, variant));
    item->setCheckState(Qt::Unchecked);
    m_governors->insertItem(last + 1, item);
    return item;
}

QString SetupPanel::duplicateGovernor(const QString &name)
{
    const QListWidgetItem *from = rowOf(name);
    const QString variant = from ? from->data(Qt::UserRole).toString() : QString();
    if (!from || variant == QLatin1String("oracle") || variant == QLatin1String("recorded"))
        return {};
    // "menu-6.19 (B)", then (C)...: the first letter no row has.
    QString label;
    for (int n = 1; label.isEmpty() || rowOf(label); ++n)
        label = n < 26 ? QStringLiteral("%1 (%2)").arg(variant, QChar(u'A' + n))
                       : QStringLiteral("%1 (%2)").arg(variant).arg(n + 1);
    const bool filling = std::exchange(m_filling, true);
    addInstanceRow(variant, label)->setCheckState(Qt::Checked);
    updateGovernorIcons();
    m_filling = filling;
    emit governorDuplicated(name, label);
    emit governorsChanged();
    return label;
}

bool SetupPanel::renameGovernor(const QString &name, const QString &label)
{
    QListWidgetItem *item = rowOf(name);
    if (!item || item->data(LABEL_ROLE).toString().isEmpty())
        return false;
    if (label == name)
        return true;
    QString problem = QString::fromStdString(workloads::governorLabelProblem(label.toStdString()));
    if (problem.isEmpty() && (rowOf(label) || findVariant(label.toStdString())))
        problem = tr("%1 is already a governor's name").arg(label);
    if (!problem.isEmpty()) {
        emit errorOccurred(tr("Label '%1' refused: %2").arg(label, problem));
        return false;
    }
    const bool filling = std::exchange(m_filling, true);
    item->setData(LABEL_ROLE, label);
    item->setText(label);
    item->setToolTip(instanceToolTip(label, item->data(Qt::UserRole).toString()));
    if (m_colors.contains(name))
        m_colors[label] = m_colors.take(name);
    m_filling = filling;
    emit governorRenamed(name, label);
    if (item->checkState() == Qt::Checked)
        emit governorsChanged();
    return true;
}

void SetupPanel::removeGovernor(const QString &name)
{
    QListWidgetItem *item = rowOf(name);
    if (!item || item->data(LABEL_ROLE).toString().isEmpty())
        return;
    const bool checked = item->checkState() == Qt::Checked;
    m_colors.remove(name);
    delete m_governors->takeItem(m_governors->row(item));
    if (checked)
        emit governorsChanged();
}

void SetupPanel::instanceRowEdited(QListWidgetItem *item)
{
    const QString label = item->data(LABEL_ROLE).toString();
    if (label.isEmpty() || item->text() == label)
        return;
    const QString typed = item->text();
    {
        const bool filling = std::exchange(m_filling, true);
        item->setText(label); // kept when the new label is refused
        m_filling = filling;
    }
    renameGovernor(label, typed);
}

void SetupPanel::showGovernorMenu(const QPoint &pos)
{
    QListWidgetItem *item = m_governors->itemAt(pos);
    if (!item)
        return;
    const QString name = rowName(item);
    const QString variant = item->data(Qt::UserRole).toString();
    QMenu menu(this);
    QAction *dup = menu.addAction(tr("Duplicate %1 (other tunables)").arg(variant), this,
                                  [this, name] { duplicateGovernor(name); });
    dup->setEnabled(variant != QLatin1String("oracle") && variant != QLatin1String("recorded"));
    if (!item->data(LABEL_ROLE).toString().isEmpty()) {
        menu.addAction(tr("Rename…"), this, [this, item] { m_governors->editItem(item); });
        menu.addAction(tr("Remove %1").arg(name), this, [this, name] { removeGovernor(name); });
    }
    menu.exec(m_governors->viewport()->mapToGlobal(pos));
}

void SetupPanel::addSourceGovernor(const QString &id, const QString &stamp)
{
    const bool filling = m_filling;
    m_filling = true;
    QListWidgetItem *item = rowOf(id); // the file's own row, not a second instance's
    if (!item) {
        const Result<SourceGovernorSpec> spec = parseSourceGovernorId(id.toStdString());
        const QString path = spec ? QString::fromStdString(spec->path) : id;
        const QString kernel = spec ? QString::fromStdString(spec->core.name()) : QString();
        item = new QListWidgetItem(id, m_governors);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setData(Qt::UserRole, id);
        item->setToolTip(tr("<b>%1</b><br>Built from source: %2, run with the cpuidle core of v%3 in its own "
                            "process. Saving the file rebuilds and re-simulates it.")
                             .arg(QFileInfo(path).fileName().toHtmlEscaped(), path.toHtmlEscaped(), kernel));
    }
    item->setData(SOURCE_STAMP_ROLE, stamp);
    item->setCheckState(Qt::Checked);
    updateGovernorIcons();
    m_filling = filling;
}

QStringList SetupPanel::sourceGovernorIds() const
{
    QStringList ids;
    for (int i = 0; i < m_governors->count(); ++i)
        if (const QString id = m_governors->item(i)->data(Qt::UserRole).toString();
            isSourceGovernorId(id.toStdString()) && m_governors->item(i)->data(LABEL_ROLE).toString().isEmpty())
            ids << id;
    return ids;
}

void SetupPanel::setSourceStamp(const QString &id, const QString &stamp)
{
    for (int i = 0; i < m_governors->count(); ++i)
        if (m_governors->item(i)->data(Qt::UserRole).toString() == id)
            m_governors->item(i)->setData(SOURCE_STAMP_ROLE, stamp);
}

void SetupPanel::renameSourceGovernor(const QString &id, const QString &newId)
{
    for (int i = 0; i < m_governors->count(); ++i) {
        QListWidgetItem *item = m_governors->item(i);
        if (item->data(Qt::UserRole).toString() != id)
            continue;
        const bool filling = m_filling;
        m_filling = true;
        item->setText(newId);
        item->setData(Qt::UserRole, newId);
        if (m_colors.contains(id))
            m_colors[newId] = m_colors.take(id);
        m_filling = filling;
    }
}

bool SetupPanel::loadTableFile(const QString &path)
{
    auto table = readTableJson(path.toStdString());
    if (!table) {
        emit errorOccurred(QString::fromStdString(table.error().toString()));
        return false;
    }
    TargetSpec t;
    t.kind = QStringLiteral("file");
    t.id = QString::fromStdString(table->id);
    t.path = path;
    t.table = std::move(*table);
    setTarget(t);
    emit targetChanged();
    return true;
}

bool SetupPanel::loadStreamFile(const QString &path)
{
    if (!QFileInfo::exists(path)) {
        emit errorOccurred(tr("%1: no such file").arg(path));
        return false;
    }
    WorkloadSpec w;
    w.kind = QStringLiteral("csv");
    w.path = path;
    setWorkload(w);
    emit workloadChanged();
    return true;
}

bool SetupPanel::loadTraceFile(const QString &path, int cpu)
{
    if (!QFileInfo::exists(path)) {
        emit errorOccurred(tr("%1: no such file").arg(path));
        return false;
    }
    WorkloadSpec w;
    w.kind = QStringLiteral("trace");
    w.path = path;
    w.params.insert(QStringLiteral("cpu"), cpu);
    setWorkload(w);
    // A trace opened: show the kernel's own choices beside the governors.
    for (int i = 0; i < m_governors->count(); ++i)
        if (m_governors->item(i)->data(Qt::UserRole).toString() == QLatin1String("recorded")) {
            const QSignalBlocker block(m_governors);
            m_governors->item(i)->setCheckState(Qt::Checked);
            updateGovernorIcons();
        }
    // With the CPU still to choose, the page's import decides it and cpuResolved simulates.
    if (m_tracePage->cpu() != TRACE_BEST_CPU)
        emit workloadChanged();
    return true;
}

void SetupPanel::chooseTarget(int index)
{
    const QString key = m_targetCombo->itemData(index).toString();
    if (key == QLatin1String("open")) {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open idle-state table"), QString(),
                                                          tr("Tables (*.json);;All files (*)"));
        if (path.isEmpty() || !loadTableFile(path))
            setTarget(m_target); // back to the current entry
        return;
    }
    if (key == QLatin1String("machine")) {
        auto sys = readSysfsCpuidle();
        if (!sys) {
            emit errorOccurred(QString::fromStdString(sys.error().toString()));
            setTarget(m_target);
            return;
        }
        for (const std::string &w : sys->warnings)
            emit warningOccurred(QString::fromStdString(w));
        TargetSpec t;
        t.kind = QStringLiteral("machine");
        t.id = QString::fromStdString(sys->table.id);
        t.table = std::move(sys->table);
        setTarget(t);
        emit targetChanged();
        return;
    }
    if (key.startsWith(QLatin1String("file:"))) {
        loadTableFile(key.mid(5));
        return;
    }
    auto table = builtinTable(key.mid(8));
    if (!table) {
        emit errorOccurred(QString::fromStdString(table.error().toString()));
        return;
    }
    TargetSpec t;
    t.kind = QStringLiteral("builtin");
    t.id = key.mid(8);
    t.table = std::move(*table);
    setTarget(t);
    emit targetChanged();
}

void SetupPanel::fillStateTable()
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
    m_states->setFixedHeight(m_states->horizontalHeader()->height() + 4
                             + t.count() * m_states->verticalHeader()->defaultSectionSize());
    m_targetSource->setText(QString::fromStdString(t.source));
    m_targetSource->setVisible(!t.source.empty());
}

void SetupPanel::stateCellChanged(int row, int column)
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

void SetupPanel::updateGovernorIcons()
{
    for (int i = 0; i < m_governors->count(); ++i) {
        QListWidgetItem *item = m_governors->item(i);
        const bool on = item->checkState() == Qt::Checked;
        const QSignalBlocker block(m_governors);
        if (!on) // a colour is the governor's only while it is selected
            m_colors.remove(rowName(item));
        item->setIcon(colorIcon(on ? colorFor(item) : QColor(Qt::gray), on));
    }
}

QColor SetupPanel::colorFor(const QListWidgetItem *item)
{
    const QString id = rowName(item);
    if (m_colors.contains(id))
        return m_colors.value(id);
    // The first palette colour no checked governor uses.
    for (int n = 0;; ++n) {
        const QColor c = governorColor(n, item->data(Qt::UserRole).toString().toStdString());
        bool used = false;
        for (int i = 0; i < m_governors->count(); ++i) {
            const QString other = rowName(m_governors->item(i));
            if (other != id && m_governors->item(i)->checkState() == Qt::Checked && m_colors.value(other) == c)
                used = true;
        }
        if (!used || n > 32) {
            m_colors[id] = c;
            return c;
        }
    }
}

} // namespace idlescope
