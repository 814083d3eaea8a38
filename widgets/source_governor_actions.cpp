// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/source_governor_actions.h"

#include "core/source_governor/source_governor.h"
#include "widgets/main_window.h"
#include "widgets/panels/message_bar.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/runner/source_file_watch.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMenu>
#include <QProgressDialog>
#include <QPushButton>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace idlescope {

namespace {

/// The file of a "src:" id ("" for any other id).
QString sourcePathOf(const std::string &id)
{
    const Result<SourceGovernorSpec> spec = parseSourceGovernorId(id);
    return spec ? QString::fromStdString(spec->path) : QString();
}

} // namespace

SourceGovernorActions::SourceGovernorActions(MainWindow *window) : QObject(window), m_window(window)
{
    m_add = new QAction(tr("Add governor from &source…"), this);
    m_add->setToolTip(tr("Build a kernel governor file (menu.c, teo.c, a patched copy) and replay it like "
                         "any governor; saving the file rebuilds it"));
    connect(m_add, &QAction::triggered, this, &SourceGovernorActions::openDialog);
    m_watch = new SourceFileWatch(this);
    connect(m_watch, &SourceFileWatch::changed, this, &SourceGovernorActions::fileSaved);
    connect(&m_build, &QFutureWatcher<QString>::finished, this, &SourceGovernorActions::buildFinished);
    connect(window, &MainWindow::snapshotShown, this, [this] { watchSourceFiles(); });
}

SourceGovernorActions::~SourceGovernorActions()
{
    // The worker touches only its own copies; wait so that it does not outlive the window.
    m_build.waitForFinished();
}

void SourceGovernorActions::addTo(QMenu *menu)
{
    menu->addAction(m_add);
}

bool SourceGovernorActions::isBuilding() const
{
    return m_build.isRunning();
}

void SourceGovernorActions::openDialog()
{
    QDialog dialog(m_window);
    dialog.setWindowTitle(tr("Add governor from source"));
    auto *form = new QFormLayout(&dialog);
    auto *path = new QLineEdit(&dialog);
    path->setMinimumWidth(360);
    path->setPlaceholderText(tr("menu.c, teo.c, a patched copy…"));
    auto *browse = new QPushButton(tr("Browse…"), &dialog);
    connect(browse, &QPushButton::clicked, &dialog, [&] {
        const QString file = QFileDialog::getOpenFileName(&dialog, tr("Governor source file"), path->text(),
                                                          tr("C files (*.c);;All files (*)"));
        if (!file.isEmpty())
            path->setText(file);
    });
    auto *row = new QHBoxLayout;
    row->addWidget(path, 1);
    row->addWidget(browse);
    form->addRow(tr("&File:"), row);
    auto *kernel = new QLineEdit(&dialog);
    kernel->setPlaceholderText(tr("7.0 (the default); the version the file comes from, e.g. 6.19"));
    kernel->setToolTip(tr("The cpuidle core and idle loop the file runs with (5.10 to 7.0), as "
                          "idlescope-cli's --kernel"));
    form->addRow(tr("&Kernel version:"), kernel);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Build and add"));
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() == QDialog::Accepted && !path->text().trimmed().isEmpty())
        addFromSource(path->text().trimmed(), kernel->text().trimmed());
}

void SourceGovernorActions::addFromSource(const QString &path, const QString &kernel)
{
    if (m_build.isRunning())
        return; // one build at a time; the menu item is disabled meanwhile
    QString id = QStringLiteral("src:") + QFileInfo(path).absoluteFilePath();
    if (!kernel.isEmpty())
        id += QLatin1Char('@') + kernel;
    if (const Result<SourceGovernorSpec> spec = parseSourceGovernorId(id.toStdString()); !spec) {
        const QString message = QString::fromStdString(spec.error().toString());
        m_window->messageBar()->showMessage(MessageBar::Kind::Error, message);
        emit buildFailed(message);
        return;
    }
    m_buildingId = id;
    m_add->setEnabled(false);
    if (!m_progress) {
        m_progress = new QProgressDialog(m_window);
        m_progress->setWindowTitle(tr("Add governor from source"));
        m_progress->setRange(0, 0); // a compiler says nothing about how far it is
        m_progress->setMinimumDuration(0);
        m_progress->setCancelButton(nullptr); // the build is short and not cancellable
        m_progress->setAutoReset(false);
        m_progress->setAutoClose(false);
    }
    m_progress->setLabelText(tr("Building %1 with idlescope's kernel shim…").arg(QFileInfo(path).fileName()));
    m_progress->show();
    m_build.setFuture(QtConcurrent::run([id = id.toStdString()] {
        const Status s = buildSourceGovernorOf(id);
        return s ? QString() : QString::fromStdString(s.error().toString());
    }));
}

void SourceGovernorActions::buildFinished()
{
    const QString error = m_build.result();
    m_progress->hide();
    m_add->setEnabled(true);
    const QString id = std::exchange(m_buildingId, QString());
    if (!error.isEmpty()) {
        // The compiler's own file:line:column lines, as it printed them.
        m_window->messageBar()->showMessage(MessageBar::Kind::Error, error);
        emit buildFailed(error);
        return;
    }
    m_window->setupPanel()->addSourceGovernor(id, sourceFileStamp(sourcePathOf(id.toStdString())));
    watchSourceFiles();
    emit governorsEdited();
    emit built(id);
}

void SourceGovernorActions::watchSourceFiles()
{
    QStringList paths;
    for (const QString &id : m_window->setupPanel()->sourceGovernorIds())
        if (const QString p = sourcePathOf(id.toStdString()); !p.isEmpty() && !paths.contains(p))
            paths << p;
    m_watch->setPaths(paths);
}

void SourceGovernorActions::fileSaved(const QString &path)
{
    const QString stamp = sourceFileStamp(path);
    bool changed = false;
    const std::vector<GovernorSpec> shown = m_window->setupPanel()->governors();
    for (const QString &id : m_window->setupPanel()->sourceGovernorIds()) {
        if (sourcePathOf(id.toStdString()) != path)
            continue;
        for (const GovernorSpec &g : shown)
            if (QString::fromStdString(g.variant) == id && g.sourceStamp != stamp)
                changed = true;
        m_window->setupPanel()->setSourceStamp(id, stamp);
    }
    if (changed) // a save that kept the bytes (or an unchecked row) re-simulates nothing
        emit sourceFileSaved();
}

} // namespace idlescope
