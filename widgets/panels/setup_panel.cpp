// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/setup_panel.h"
#include "widgets/runner/workload_seeding.h"

#include "core/targets/builtin_targets.h"
#include "core/trace/table_proposal.h"
#include "core/workloads/workload.h"
#include "widgets/panels/governor_picker.h"
#include "widgets/panels/target_picker.h"
#include "widgets/panels/trace_workload_page.h"
#include "widgets/panels/workload_form.h"
#include "widgets/panels/workload_spec_page.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/spec_workload.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <utility>

namespace idlescope {

namespace {

QString traceFileFilter()
{
    return SetupPanel::tr("Traces (*.dat *.txt *.gz *.trace *.report);;All files (*)");
}

/// The workload combo's roles: the item's WorkloadKind, and a generator item's generator.
constexpr int KIND_ROLE = Qt::UserRole;
constexpr int GENERATOR_ROLE = Qt::UserRole + 1;

} // namespace

SetupPanel::SetupPanel(QWidget *parent) : QWidget(parent)
{
    setupUi();
    createConnections();
}

void SetupPanel::setupUi()
{
    auto *layout = new QVBoxLayout(this);
    m_targetPicker = new TargetPicker(this);
    layout->addWidget(m_targetPicker);
    layout->addWidget(createWorkloadGroup());
    m_governorPicker = new GovernorPicker(this);
    layout->addWidget(m_governorPicker, 1);
}

QWidget *SetupPanel::createWorkloadGroup()
{
    auto *box = new QGroupBox(tr("Workload"), this);
    auto *v = new QVBoxLayout(box);
    m_workloadKind = new QComboBox(box);
    fillWorkloadKinds();
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
    m_streamBrowse = new QPushButton(tr("Open\u2026"), csv);
    h->addWidget(m_streamPath, 1);
    h->addWidget(m_streamBrowse);
    m_workloadPages->addWidget(csv);

    m_tracePage = new TraceWorkloadPage(m_workloadPages);
    m_workloadPages->addWidget(m_tracePage);

    m_specPage = new WorkloadSpecPage(m_workloadPages);
    m_workloadPages->addWidget(m_specPage);
    return box;
}

void SetupPanel::fillWorkloadKinds()
{
    for (const workloads::GeneratorInfo &g : workloads::allGenerators()) {
        m_workloadKind->addItem(QString::fromUtf8(g.name), static_cast<int>(WorkloadKind::Generator));
        m_workloadKind->setItemData(m_workloadKind->count() - 1, QString::fromUtf8(g.name), GENERATOR_ROLE);
        m_workloadKind->setItemData(m_workloadKind->count() - 1, QString::fromUtf8(g.summary), Qt::ToolTipRole);
    }
    m_workloadKind->addItem(tr("Spec (a + b, mix(\u2026))"), static_cast<int>(WorkloadKind::Spec));
    m_workloadKind->setItemData(m_workloadKind->count() - 1,
                                tr("A compound workload as text, in idlescope-cli's --workload grammar"),
                                Qt::ToolTipRole);
    m_workloadKind->insertSeparator(m_workloadKind->count());
    m_workloadKind->addItem(tr("Stream file (CSV)"), static_cast<int>(WorkloadKind::Csv));
    m_workloadKind->addItem(tr("Kernel trace"), static_cast<int>(WorkloadKind::Trace));
    m_workloadKind->setItemData(m_workloadKind->count() - 1,
                                tr("ftrace text, trace-cmd .dat or report, perf script with power:cpu_idle events"),
                                Qt::ToolTipRole);
}

void SetupPanel::createConnections()
{
    connectWorkloadPages();
    connect(m_targetPicker, &TargetPicker::targetChanged, this, &SetupPanel::targetChanged);
    connect(m_targetPicker, &TargetPicker::statesEdited, this, &SetupPanel::statesEdited);
    connect(m_targetPicker, &TargetPicker::errorOccurred, this, &SetupPanel::errorOccurred);
    connect(m_targetPicker, &TargetPicker::warningOccurred, this, &SetupPanel::warningOccurred);
    connect(m_governorPicker, &GovernorPicker::governorsChanged, this, &SetupPanel::governorsChanged);
    connect(m_governorPicker, &GovernorPicker::governorDuplicated, this, &SetupPanel::governorDuplicated);
    connect(m_governorPicker, &GovernorPicker::governorRenamed, this, &SetupPanel::governorRenamed);
    connect(m_governorPicker, &GovernorPicker::errorOccurred, this, &SetupPanel::errorOccurred);
}

void SetupPanel::connectWorkloadPages()
{
    connect(m_specPage, &WorkloadSpecPage::valuesChanged, this, [this] {
        if (m_filling)
            return;
        m_generatorValues[m_workloadKind->currentIndex()] = m_specPage->workload();
        emit workloadChanged();
    });
    connectTracePage();
    connect(m_workloadKind, &QComboBox::activated, this, &SetupPanel::chooseWorkload);
    connect(m_streamBrowse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open wakeup stream"), QString(),
                                                          tr("Streams (*.csv *.csv.gz);;All files (*)"));
        if (!path.isEmpty())
            loadStreamFile(path);
    });
    connect(m_generatorForm, &WorkloadForm::valuesChanged, this, [this] {
        if (m_filling)
            return;
        m_generatorValues[m_workloadKind->currentIndex()] = m_generatorForm->workload();
        emit workloadChanged();
    });
}

void SetupPanel::connectTracePage()
{
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
    // After the proposal: a trace just opened is replayed on the table it fits, never on an
    // unrelated one chosen before (a Juno trace on POWER10's table) without a word.
    connect(m_tracePage, &TraceWorkloadPage::summaryReady, this, [this] {
        if (m_adoptFor.isEmpty() || m_adoptFor != m_tracePage->path()
            || itemKind(m_workloadKind->currentIndex()) != WorkloadKind::Trace) {
            m_adoptFor.clear();
            return;
        }
        m_adoptFor.clear();
        const bool switched = adoptProposedTable(); // the table's change simulates the trace
        if (std::exchange(m_simulateOnSummary, false) && !switched)
            emit workloadChanged();
    });
    connect(m_tracePage, &TraceWorkloadPage::useTableClicked, this,
            [this] { m_targetPicker->useTable(m_proposedTable); });
    // A CPU picked by hand, or the busiest CPU found by the import: simulate it.
    for (auto signal : {&TraceWorkloadPage::cpuChanged, &TraceWorkloadPage::cpuResolved})
        connect(m_tracePage, signal, this, [this] {
            if (!m_filling && itemKind(m_workloadKind->currentIndex()) == WorkloadKind::Trace)
                emit workloadChanged();
        });
}

bool SetupPanel::adoptProposedTable()
{
    if (m_proposedTable.isEmpty())
        return false;
    const TargetSpec before = m_targetPicker->target();
    const QString key = m_proposedTable;
    QString why = m_tracePage->tableProposalLabel()->text();
    m_targetPicker->useTable(key); // asks first when the table shown has edited states
    const TargetSpec after = m_targetPicker->target();
    if (after.kind == before.kind && after.id == before.id && after.path == before.path)
        return false; // kept (the edits were kept, or the table did not load): the proposal stays
    // The proposal's words, as what was done: "Proposed: X (why)" -> "Replayed on X (why)".
    why.replace(tr("Proposed:"), tr("Replayed on"));
    m_adoptedKey = key;
    m_adoptedNote = key.startsWith(QLatin1String("file:"))
                        ? tr("Replayed on %1, the table saved beside the trace when it was recorded (it was %2).")
                              .arg(QFileInfo(key.mid(5)).fileName(), before.id)
                        : why + QLatin1Char(' ')
                              + tr("The table chosen when the trace was opened; it was %1 (choose another under "
                                   "Target).")
                                    .arg(before.id);
    m_tracePage->setTableProposal(m_adoptedNote, {});
    return true;
}

void SetupPanel::proposeTable()
{
    m_proposedTable.clear();
    const TraceSummary *s = m_tracePage->summary();
    if (!s) {
        m_tracePage->setTableProposal({}, {});
        return;
    }
    const TargetSpec target = m_targetPicker->target();
    const QString targetKey = target.kind == TargetKind::File      ? QStringLiteral("file:") + target.path
                              : target.kind == TargetKind::Machine ? QStringLiteral("machine")
                                                                   : QStringLiteral("builtin:") + target.id;
    if (!m_adoptedKey.isEmpty() && targetKey == m_adoptedKey) { // the table picked when the trace was opened
        m_tracePage->setTableProposal(m_adoptedNote, {});
        return;
    }
    m_adoptedKey.clear();
    const QString current = QString::fromStdString(target.table.id);
    // The table idlescope-cli record read from the machine's sysfs beside the trace: the traced machine's own.
    if (!s->sidecarTable.isEmpty()) {
        const QString name = QFileInfo(s->sidecarTable).fileName();
        if (target.kind == TargetKind::File
            && QFileInfo(target.path).absoluteFilePath() == QFileInfo(s->sidecarTable).absoluteFilePath()) {
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
    // The built-in tables that fit what the trace and the machine described beside it say,
    // best first, each with its reason (core/trace/table_proposal.h).
    const trace::TracedMachine &machine = s->machine;
    const bool described = !machine.path.empty();
    std::vector<trace::TableCandidate> tables;
    for (const BuiltinTargetInfo &t : builtinTargets())
        tables.push_back({t.id, t.driver, t.stateCount});
    const std::vector<trace::TableChoice> choices = trace::proposeTables(tables, s->statesSeen, machine);
    const bool currentIsBest = !choices.empty() && QString::fromStdString(choices.front().id) == current;
    if ((s->statesSeen <= 0 && !described) || currentIsBest || (!described && s->statesSeen == target.table.count())) {
        m_tracePage->setTableProposal({}, {});
        return;
    }
    QString seen = s->statesSeen > 0 ? tr("The trace enters %1 idle states (cpu_idle state=0..%2); %3 has %4.")
                                           .arg(s->statesSeen)
                                           .arg(s->statesSeen - 1)
                                           .arg(current)
                                           .arg(target.table.count())
                                     : QString();
    if (described) {
        const QString none = tr("unknown");
        seen += (seen.isEmpty() ? QString() : QStringLiteral(" "))
                + tr("The machine (%1): %2%3, cpuidle driver %4.")
                      .arg(QFileInfo(QString::fromStdString(machine.path)).fileName(),
                           machine.arch.empty() ? tr("architecture unknown") : QString::fromStdString(machine.arch),
                           machine.hypervisor ? tr(", a virtual machine") : QString(),
                           machine.driver.empty() ? none : QString::fromStdString(machine.driver));
    }
    if (choices.empty()) {
        m_tracePage->setTableProposal(seen + QLatin1Char(' ')
                                          + tr("No built-in table fits: open the traced machine's table."),
                                      {});
        return;
    }
    const QString first = QString::fromStdString(choices.front().id);
    QString text =
        seen + QLatin1Char(' ') + tr("Proposed: %1 (%2).").arg(first, QString::fromStdString(choices.front().why));
    QStringList others;
    for (std::size_t i = 1; i < choices.size() && i < 4; ++i)
        others << QString::fromStdString(choices[i].id);
    if (!others.isEmpty())
        text += QLatin1Char(' ') + tr("Also: %1.").arg(others.join(QStringLiteral(", ")));
    m_proposedTable = QStringLiteral("builtin:") + first;
    m_tracePage->setTableProposal(text, tr("Use %1").arg(first));
}

WorkloadKind SetupPanel::itemKind(int index) const
{
    return static_cast<WorkloadKind>(m_workloadKind->itemData(index, KIND_ROLE).toInt());
}

int SetupPanel::itemOf(const WorkloadSourceSpec &w) const
{
    if (w.kind == WorkloadKind::Generator) {
        const workloads::GeneratorInfo *g = workloadGenerator(w);
        return g ? m_workloadKind->findData(QString::fromUtf8(g->name), GENERATOR_ROLE) : -1;
    }
    // The spec page shows a closed loop too (its loop box).
    const WorkloadKind kind = w.kind == WorkloadKind::ClosedLoop ? WorkloadKind::Spec : w.kind;
    return m_workloadKind->findData(static_cast<int>(kind), KIND_ROLE);
}

void SetupPanel::chooseWorkload(int index)
{
    const WorkloadKind kind = itemKind(index);
    m_governorPicker->setRecordedAvailable(itemKind(m_workloadKind->currentIndex()) == WorkloadKind::Trace);
    if (kind == WorkloadKind::Csv || kind == WorkloadKind::Trace) {
        const bool csv = kind == WorkloadKind::Csv;
        m_workloadPages->setCurrentIndex(csv ? 1 : 2);
        // A trace whose CPU is still being chosen by its import simulates when it is (cpuResolved).
        const bool ready =
            csv ? !m_streamFile.isEmpty() : !m_tracePage->path().isEmpty() && m_tracePage->cpu() != TRACE_BEST_CPU;
        if (ready && !m_filling)
            emit workloadChanged();
        return;
    }
    if (kind == WorkloadKind::Spec) {
        m_workloadPages->setCurrentIndex(3);
        m_specPage->setWorkload(m_generatorValues.value(index, defaultSpecWorkload()));
        if (!m_filling)
            emit workloadChanged();
        return;
    }
    m_workloadPages->setCurrentIndex(0);
    const workloads::GeneratorInfo *g =
        workloads::findGenerator(m_workloadKind->itemData(index, GENERATOR_ROLE).toString().toStdString());
    m_generatorForm->setWorkload(m_generatorValues.value(index, generatorWorkload(*g)));
    if (!m_filling)
        emit workloadChanged();
}

WorkloadSourceSpec SetupPanel::workload() const
{
    WorkloadSourceSpec w;
    switch (itemKind(m_workloadKind->currentIndex())) {
    case WorkloadKind::Csv:
        w.kind = WorkloadKind::Csv;
        w.path = m_streamFile.toStdString();
        w.fileStamp = m_streamStamp.toStdString();
        break;
    case WorkloadKind::Trace:
        w.kind = WorkloadKind::Trace;
        w.path = m_tracePage->path().toStdString();
        w.cpu = m_tracePage->cpu();
        w.fileStamp = m_tracePage->stamp().toStdString();
        break;
    case WorkloadKind::Spec:
    case WorkloadKind::ClosedLoop: w = m_specPage->workload(); break;
    case WorkloadKind::Generator:
        w = m_generatorForm->workload();
        w.legacySeeding = m_legacySeeding; // the form has no seeding field: an old session's spans stay its own
        break;
    }
    w.description = describeWorkload(w);
    return w;
}

void SetupPanel::setWorkload(const WorkloadSourceSpec &w)
{
    m_filling = true;
    m_legacySeeding = usesLegacySeeding(w);
    const int i = itemOf(w);
    if (i >= 0) {
        m_workloadKind->setCurrentIndex(i);
        const QString path = QString::fromStdString(w.path);
        if (w.kind == WorkloadKind::Csv) {
            m_streamFile = path;
            m_streamStamp = fileStamp(path); // the file as it is now, never a session's stamp
            m_streamPath->setText(QFileInfo(path).fileName());
            m_streamPath->setToolTip(path);
        } else if (w.kind == WorkloadKind::Trace) {
            // The stamp is taken from the file as it is now, never from a session.
            m_tracePage->setTrace(path, w.cpu);
        } else {
            m_generatorValues[i] = w;
        }
        chooseWorkload(i);
    } else {
        emit errorOccurred(tr("Unknown workload '%1'").arg(QString::fromStdString(w.text)));
    }
    m_filling = false;
}

bool SetupPanel::setWorkloadFile(WorkloadKind kind, const QString &path, int cpu)
{
    if (!QFileInfo::exists(path)) {
        emit errorOccurred(tr("%1: no such file").arg(path));
        return false;
    }
    WorkloadSourceSpec w;
    w.kind = kind;
    w.path = path.toStdString();
    w.cpu = cpu;
    setWorkload(w);
    return true;
}

bool SetupPanel::loadStreamFile(const QString &path)
{
    if (!setWorkloadFile(WorkloadKind::Csv, path))
        return false;
    emit workloadChanged();
    return true;
}

bool SetupPanel::loadTraceFile(const QString &path, int cpu)
{
    m_adoptedKey.clear(); // a trace opened again gets its table again
    if (!setWorkloadFile(WorkloadKind::Trace, path, cpu))
        return false;
    // A trace opened: show the kernel's own choices beside the governors.
    m_governorPicker->checkRecorded();
    const bool cpuGiven = m_tracePage->cpu() != TRACE_BEST_CPU;
    if (m_tracePage->summary()) { // already imported: its table now
        if (!adoptProposedTable() && cpuGiven)
            emit workloadChanged();
        return true;
    }
    // Once imported, the trace's table is picked (adoptProposedTable()), then it is simulated:
    // with the CPU still to choose, cpuResolved does; with a CPU given, the summary does (the
    // simulation would wait for the same import anyway).
    m_adoptFor = m_tracePage->path();
    m_simulateOnSummary = cpuGiven;
    return true;
}

} // namespace idlescope
