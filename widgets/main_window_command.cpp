// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Edit → Copy as command: the `idlescope-cli compare` line of the comparison
 * on screen (widgets/export/compare_command.h), and what it takes to make it
 * reproduce that comparison: an edited table saved as a table file beside it,
 * a legacy-seeded scenario switched to the common seeding.
 */
#include "widgets/main_window.h"
#include "widgets/runner/workload_seeding.h"

#include "core/io/atomic_file.h"
#include "core/io/table_json.h"
#include "core/workloads/workload.h"
#include "core/workloads/workload_spec.h"
#include "widgets/export/compare_command.h"
#include "widgets/panels/message_center.h"
#include "widgets/panels/parameter_panel.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/simulation_runner.h"
#include "widgets/runner/spec_workload.h"
#include "widgets/runner/trace_workload.h"
#include "widgets/sweep/sweep_view.h"

#include <QClipboard>
#include <QFileDialog>
#include <QGuiApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

namespace idlescope {

namespace {

/// Asks what to do about @p question; the index of the button chosen in @p choices, -1 for Cancel.
int askChoice(QWidget *parent, const QString &question, const QStringList &choices)
{
    QMessageBox box(QMessageBox::Question, QObject::tr("Copy as command"), question, QMessageBox::Cancel, parent);
    QList<QPushButton *> buttons;
    for (const QString &c : choices)
        buttons << box.addButton(c, QMessageBox::AcceptRole);
    box.setDefaultButton(buttons.front());
    box.exec();
    return static_cast<int>(buttons.indexOf(static_cast<QPushButton *>(box.clickedButton())));
}

} // namespace

QString MainWindow::copyAsCommand()
{
    if (m_snapshot && usesLegacySeeding(m_snapshot->spec.workload)) {
        const int choice = askChoice(this,
                                     tr("This scenario comes from a session saved by an older idlescope and keeps "
                                        "its legacy seeding, which idlescope-cli does not have: the command would "
                                        "generate other spans.\n\nSwitch the scenario to the common seeding (its "
                                        "spans change; the session is then modified)?"),
                                     {tr("Switch and copy"), tr("Copy anyway")});
        if (choice < 0)
            return {};
        if (choice == 0)
            switchToCommonSeeding();
    }
    // The comparison on screen; after a switch, the scenario about to be shown.
    const ScenarioSpec spec = m_snapshot && !m_runner->isBusy() ? m_snapshot->spec : currentSpec();
    const int traceCpu = m_snapshot && m_snapshot->trace ? m_snapshot->trace->cpu : TRACE_BEST_CPU;
    CompareCommand cmd = compareCommand(spec, {}, traceCpu);
    if (cmd.tableEdited) {
        const int choice = askChoice(this,
                                     tr("The state table was edited; idlescope-cli reads tables from files. Save "
                                        "the edited table as a table file and name it in the command?"),
                                     {tr("Save table\u2026"), tr("Copy with the unedited table")});
        if (choice < 0)
            return {};
        if (choice == 0) {
            const QString path = QFileDialog::getSaveFileName(this, tr("Save the edited table"),
                                                              QString::fromStdString(spec.target.table.id)
                                                                  + QStringLiteral("-edited.json"),
                                                              tr("Table JSON (*.json)"));
            if (path.isEmpty())
                return {};
            if (Status s = writeFileAtomically(path.toStdString(), formatTableJson(spec.target.table)); !s) {
                QMessageBox::warning(this, tr("Copy as command"), QString::fromStdString(s.error().toString()));
                return {};
            }
            cmd = compareCommand(spec, path, traceCpu);
        }
    }
    QGuiApplication::clipboard()->setText(cmd.text);
    statusBar()->showMessage(tr("Copied: %1").arg(cmd.text), 10000);
    if (!cmd.caveats.isEmpty())
        m_messages->showNote(tr("Copied the command. %1").arg(cmd.caveats.join(QLatin1Char(' '))));
    return cmd.text;
}

void MainWindow::switchToCommonSeeding()
{
    WorkloadSourceSpec w = currentSpec().workload;
    if (!usesLegacySeeding(w))
        return;
    w.legacySeeding = false;
    m_setup->setWorkload(w);
    commitEdit(tr("Switch to common seeding"));
    simulate(true);
}

void MainWindow::openSweepPoint(const SweepRequest &request, int point)
{
    if (point < 0 || point >= static_cast<int>(request.values.size()))
        return;
    ScenarioSpec spec = request.scenario;
    const qint64 v = request.values[static_cast<std::size_t>(point)];
    if (request.axis.kind == SweepAxisChoice::Kind::Workload) {
        Result<workloads::ParamValues> values = generatorValues(spec.workload.text);
        if (values && values->info->paramIndex(request.axis.param.toStdString()) >= 0) {
            values->set(request.axis.param.toStdString(), v);
            spec.workload.text = workloads::generatorText(*values);
        }
        spec.workload.legacySeeding = false; // the sweep's seeding is the common one
        spec.workload.description = describeWorkload(spec.workload);
    } else {
        for (GovernorSpec &g : spec.governors) {
            if (g.name() != request.axis.governor)
                continue;
            const std::string name = request.axis.param.toStdString();
            std::erase_if(g.settings, [&name](const TunableSetting &s) { return s.first == name; });
            g.settings.emplace_back(name, v);
        }
    }
    showSpecInPanels(spec);
    commitEdit(tr("Open sweep point"));
    simulate(true);
}

} // namespace idlescope
