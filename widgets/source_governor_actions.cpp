// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/source_governor_actions.h"

#include "core/source_governor/source_consent.h"

#include "core/governors/registry.h"
#include "core/replay/governor_run.h"
#include "core/source_governor/host_protocol.h"
#include "core/source_governor/source_governor.h"
#include "core/source_governor/source_governor_names.h"
#include "widgets/main_window.h"
#include "widgets/panels/message_bar.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/runner/source_file_watch.h"
#include "widgets/session/file_threads.h"
#include "widgets/view_state.h"

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressDialog>
#include <QPushButton>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace idlescope {

namespace {

/// The file of a "src:" id ("" for any other id).
QString sourcePathOf(const std::string &id)
{
    const Result<SourceGovernorSpec> spec = parseSourceGovernorId(id);
    return spec ? QString::fromStdString(spec->path) : QString();
}

/// @p path's file name with each character a name cannot hold as one '-', an accented
/// letter as its base letter ("mü nu.c" → "mu-nu.c"): core's default name replaces
/// byte by byte, which made "ü" two dashes ("m---nu") and lost the letter.
std::string nameableFileName(const QString &path)
{
    const QString decomposed = QFileInfo(path).fileName().normalized(QString::NormalizationForm_KD);
    QString out;
    for (const QChar c : decomposed) {
        if (c.isMark())
            continue; // the accent of a letter already kept
        if (c.isLowSurrogate())
            continue; // the high one stood for the whole character
        const bool nameable = c.unicode() < 128 && (c.isLetterOrNumber() || QStringLiteral("._+-").contains(c));
        out += nameable ? c : QChar(u'-');
    }
    return out.toStdString();
}

/// A built-in governor variant (neither the oracle, the recorded choices nor a source file).
bool isBuiltinVariant(const std::string &id)
{
    const VariantInfo *v = findVariant(id);
    return v && std::string_view(v->family) != "oracle";
}

/// Both governors prepared for the snapshot's stream, then core's diff (the first difference kept).
FirstDifference diffRuns(const SnapshotPtr &snap, int sourceIndex, int variantIndex)
{
    FirstDifference out;
    out.sourceIndex = sourceIndex;
    out.variantIndex = variantIndex;
    std::unique_ptr<Governor> govs[2];
    const int index[2] = {sourceIndex, variantIndex};
    const Ns limit = snap->spec.latencyLimitNs;
    for (int i = 0; i < 2; ++i) {
        const GovernorRun &run = *snap->governors[static_cast<std::size_t>(index[i])].run;
        auto gov = makeConfiguredGovernor(run.variant, run.settings);
        if (!gov) {
            out.error = QString::fromStdString(run.variant + ": " + gov.error().toString());
            return out;
        }
        if (Status s = prepareGovernor(**gov, snap->table, *snap->stream, limit); !s) {
            out.error = QString::fromStdString(run.variant + ": " + s.error().toString());
            return out;
        }
        govs[i] = std::move(*gov);
    }
    out.diff = diffGovernors(snap->table, *snap->stream, *govs[0], *govs[1], 1, limit);
    for (int i = 0; i < 2; ++i)
        if (Status s = finishGovernor(*govs[i], i == 0 ? &out.diff.a : &out.diff.b); !s)
            out.error = QString::fromStdString(s.error().toString());
    return out;
}

QString decisionText(const IdleStateTable &table, const EntryRecord &e)
{
    return QStringLiteral("state %1 %2, stop_tick %3")
        .arg(e.state)
        .arg(QString::fromStdString(table[e.state].name))
        .arg(e.stopTick ? 1 : 0);
}

/// What differs between decision @p a and @p b, compactly: "stop_tick 0 vs 1", "state 1 C2 vs 0 C1".
QString decisionChange(const IdleStateTable &table, const EntryRecord &a, const EntryRecord &b)
{
    QStringList parts;
    if (a.state != b.state)
        parts << QStringLiteral("state %1 %2 vs %3 %4")
                     .arg(a.state)
                     .arg(QString::fromStdString(table[a.state].name))
                     .arg(b.state)
                     .arg(QString::fromStdString(table[b.state].name));
    if (a.stopTick != b.stopTick)
        parts << QStringLiteral("stop_tick %1 vs %2").arg(a.stopTick ? 1 : 0).arg(b.stopTick ? 1 : 0);
    return parts.isEmpty() ? decisionText(table, a) + QStringLiteral(" vs ") + decisionText(table, b)
                           : parts.join(QStringLiteral(", "));
}

} // namespace

SourceGovernorActions::SourceGovernorActions(MainWindow *window) : QObject(window), m_window(window)
{
    m_add = new QAction(tr("Add governor from &source…"), this);
    m_add->setToolTip(tr("Build a kernel governor file (menu.c, teo.c, a patched copy) and replay it like "
                         "any governor; saving the file rebuilds it"));
    connect(m_add, &QAction::triggered, this, &SourceGovernorActions::openDialog);
    m_firstDifference = new QAction(tr("&First difference"), this);
    m_firstDifference->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D)); // Ctrl+D is Kernel defaults
    m_firstDifference->setToolTip(tr("Select the first entry where the governor built from source and the "
                                     "variant it patches decide differently"));
    m_firstDifference->setEnabled(false);
    connect(m_firstDifference, &QAction::triggered, this, &SourceGovernorActions::showFirstDifference);
    m_rename = new QAction(tr("&Rename governor from source…"), this);
    m_rename->setToolTip(tr("Give a governor built from source the name shown for it in every view"));
    m_rename->setEnabled(false);
    connect(m_rename, &QAction::triggered, this, &SourceGovernorActions::openRenameDialog);
    // What "First difference" found, at the status bar's right until the next snapshot.
    m_result = new QLabel(window);
    m_result->setObjectName(QStringLiteral("firstDifferenceResult"));
    m_result->setVisible(false);
    window->statusBar()->addPermanentWidget(m_result);
    m_watch = new SourceFileWatch(this);
    connect(m_watch, &SourceFileWatch::changed, this, &SourceGovernorActions::fileSaved);
    connect(&m_build, &QFutureWatcher<SourceBuildOutcome>::finished, this, &SourceGovernorActions::buildFinished);
    connect(&m_diff, &QFutureWatcher<FirstDifference>::finished, this, &SourceGovernorActions::differenceFinished);
    connect(&m_buildWarnings, &QFutureWatcher<QString>::finished, this,
            [this] { showCompilerWarnings(m_buildWarnings.result()); });
    connect(window, &MainWindow::snapshotShown, this, [this](const SnapshotPtr &snap) {
        watchSourceFiles();
        m_rename->setEnabled(!m_window->setupPanel()->sourceGovernorIds().isEmpty());
        bool source = false, builtin = false;
        for (const GovernorResult &g : snap->governors) {
            source = source || isSourceGovernorId(g.run->variant);
            builtin = builtin || isBuiltinVariant(g.run->variant);
        }
        m_firstDifference->setEnabled(source && builtin && !m_diff.isRunning());
        if (!m_diff.isRunning() && snap != m_shownFor)
            showResult(QString());
        confirmAdded(*snap);
        markFailingSources(*snap);
        showBuildWarnings(*snap);
    });
}

SourceGovernorActions::~SourceGovernorActions()
{
    // The workers touch only their own copies; wait so that none outlives the window.
    m_build.waitForFinished();
    m_diff.waitForFinished();
    m_buildWarnings.waitForFinished();
}

void SourceGovernorActions::addTo(QMenu *menu)
{
    menu->addAction(m_add);
    menu->addAction(m_rename);
    menu->addAction(m_firstDifference);
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
    // QFormLayout's addRow(QString, QLayout *) gives its label no buddy, so the '&' showed
    // as it is: the label needs the line edit as its buddy for Alt+F to mean something.
    auto *fileLabel = new QLabel(tr("&File:"), &dialog);
    fileLabel->setBuddy(path);
    form->addRow(fileLabel, row);
    auto *kernel = new QLineEdit(&dialog);
    kernel->setPlaceholderText(tr("7.0 (the default); the version the file comes from, e.g. 6.19"));
    kernel->setToolTip(tr("The cpuidle core and idle loop the file runs with (5.10 to 7.0), as "
                          "idlescope-cli's --kernel"));
    form->addRow(tr("&Kernel version:"), kernel);
    // Why the version typed is refused, under it, with the dialog left open to fix it.
    auto *kernelError = new QLabel(&dialog);
    kernelError->setObjectName(QStringLiteral("sourceKernelError"));
    // Two lines of its own rather than word wrap: a wrapped label does not grow the dialog
    // it appears in, and was shown cut in half.
    kernelError->setStyleSheet(QStringLiteral("color:#c0392b;"));
    kernelError->hide();
    form->addRow(QString(), kernelError);
    connect(kernel, &QLineEdit::textEdited, kernelError, &QLabel::hide);
    auto *name = new QLineEdit(&dialog);
    name->setObjectName(QStringLiteral("sourceName"));
    name->setPlaceholderText(tr("the file's name, e.g. my-menu"));
    name->setToolTip(tr("What the governor is called in every view and in the session (src:NAME); "
                        "letters, digits and . _ + -. Governors → Rename changes it later."));
    form->addRow(tr("&Name:"), name);
    // The name follows the file until the user types one of their own.
    bool ownName = false;
    const auto propose = [&] {
        if (!ownName)
            name->setText(path->text().trimmed().isEmpty()
                              ? QString()
                              : proposedName(path->text().trimmed(), kernel->text().trimmed()));
    };
    connect(path, &QLineEdit::textChanged, &dialog, propose);
    connect(kernel, &QLineEdit::textChanged, &dialog, propose);
    connect(name, &QLineEdit::textEdited, &dialog, [&] { ownName = !name->text().isEmpty(); });
    path->setObjectName(QStringLiteral("sourcePath"));
    kernel->setObjectName(QStringLiteral("sourceKernel"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Build and add"));
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        const QString version = kernel->text().trimmed();
        if (!version.isEmpty() && !source_governor::parseKernelCore(version.toStdString())) {
            kernelError->setText(tr("\u201c%1\u201d is not a kernel version idlescope runs.\nType the version "
                                    "the file comes from, such as 6.19, or leave this empty for 7.0.")
                                     .arg(version));
            kernelError->show();
            kernel->setFocus();
            return;
        }
        dialog.accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() == QDialog::Accepted && !path->text().trimmed().isEmpty()) {
        const QString file = path->text().trimmed();
        const QString given = name->text().trimmed();
        addFromSource(file, kernel->text().trimmed(),
                      given.isEmpty() ? proposedName(file, kernel->text().trimmed()) : given);
    }
}

QString SourceGovernorActions::proposedName(const QString &path, const QString &kernel)
{
    const std::string file = QFileInfo(path).absoluteFilePath().toStdString();
    const Result<source_governor::KernelCore> core =
        kernel.isEmpty() ? Result<source_governor::KernelCore>(source_governor::KernelCore{})
                         : source_governor::parseKernelCore(kernel.toStdString());
    const std::string base = defaultSourceGovernorName(nameableFileName(path));
    for (int n = 1;; ++n) {
        const std::string candidate = n == 1 ? base : base + "-" + std::to_string(n);
        const std::optional<NamedSourceFile> had = namedSourceFile(candidate);
        if (!had || (core && had->path == file && had->core.name() == core->name()))
            return QString::fromStdString(candidate);
    }
}

void SourceGovernorActions::openRenameDialog()
{
    const QStringList ids = m_window->setupPanel()->sourceGovernorIds();
    if (ids.isEmpty())
        return;
    QDialog dialog(m_window);
    dialog.setWindowTitle(tr("Rename governor from source"));
    auto *form = new QFormLayout(&dialog);
    auto *which = new QComboBox(&dialog);
    which->setObjectName(QStringLiteral("sourceGovernor"));
    for (const QString &id : ids)
        which->addItem(id, id);
    // The governor selected in the views, when it is one of them.
    if (const SnapshotPtr snap = m_window->snapshot()) {
        const int g = m_window->viewState()->selectedGovernor();
        if (g >= 0 && g < snap->governorCount())
            if (const int i = which->findData(QString::fromStdString(snap->governors[std::size_t(g)].run->variant));
                i >= 0)
                which->setCurrentIndex(i);
    }
    form->addRow(tr("&Governor:"), which);
    auto *name = new QLineEdit(&dialog);
    name->setObjectName(QStringLiteral("sourceName"));
    const auto current = [&] {
        const QString id = which->currentData().toString();
        const Result<SourceGovernorSpec> spec = parseSourceGovernorId(id.toStdString());
        // A named one shows its name; an unnamed one the name it would be given.
        if (spec && namedSourceFile(id.mid(int(SOURCE_GOVERNOR_PREFIX.size())).toStdString()))
            name->setText(id.mid(int(SOURCE_GOVERNOR_PREFIX.size())));
        else if (spec)
            name->setText(proposedName(QString::fromStdString(spec->path), QString::fromStdString(spec->core.name())));
    };
    connect(which, &QComboBox::currentIndexChanged, &dialog, current);
    current();
    form->addRow(tr("&Name:"), name);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Rename"));
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() == QDialog::Accepted)
        renameSourceGovernor(which->currentData().toString(), name->text().trimmed());
}

bool SourceGovernorActions::renameSourceGovernor(const QString &id, const QString &name)
{
    const Result<SourceGovernorSpec> spec = parseSourceGovernorId(id.toStdString());
    if (!spec || !m_window->setupPanel()->sourceGovernorIds().contains(id)) {
        showError(tr("%1 is not a governor built from source of this window").arg(id));
        return false;
    }
    const QString newId = QStringLiteral("src:") + name;
    if (newId == id)
        return true;
    if (m_window->setupPanel()->sourceGovernorIds().contains(newId)) {
        showError(tr("%1 is already a governor of this window").arg(newId));
        return false;
    }
    if (Status s = nameSourceGovernor(name.toStdString(), NamedSourceFile{spec->path, spec->core}); !s) {
        showError(QString::fromStdString(s.error().toString()));
        return false;
    }
    m_window->setupPanel()->renameSourceGovernor(id, newId);
    watchSourceFiles();
    emit governorsEdited();
    return true;
}

void SourceGovernorActions::showError(const QString &message)
{
    m_window->messageBar()->showMessage(MessageBar::Kind::Error, message);
}

void SourceGovernorActions::addFromSource(const QString &path, const QString &kernel, const QString &name)
{
    if (m_build.isRunning())
        return; // one build at a time; the menu item is disabled meanwhile
    QString id = QStringLiteral("src:") + QFileInfo(path).absoluteFilePath();
    if (!kernel.isEmpty())
        id += QLatin1Char('@') + kernel;
    const auto fail = [this](const QString &message) {
        showError(message);
        emit buildFailed(message);
    };
    const Result<SourceGovernorSpec> spec = parseSourceGovernorId(id.toStdString());
    if (!spec)
        return fail(QString::fromStdString(spec.error().toString()));
    if (!name.isEmpty()) {
        if (Status s = nameSourceGovernor(name.toStdString(), NamedSourceFile{spec->path, spec->core}); !s)
            return fail(QString::fromStdString(s.error().toString()));
        id = QStringLiteral("src:") + name;
    }
    // The user picked this file in the window: it is theirs to build and run, edits included.
    source_governor::grantSourcePath(spec->path);
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
        std::string warnings;
        const Status s = buildSourceGovernorOf(id, &warnings);
        // The stamp here too: hashing the file is a read, kept off the GUI thread.
        return s ? SourceBuildOutcome{QString(), QString::fromStdString(warnings), sourceFileStamp(sourcePathOf(id))}
                 : SourceBuildOutcome{QString::fromStdString(s.error().toString()), QString(), QString()};
    }));
}

void SourceGovernorActions::buildFinished()
{
    const auto [error, warnings, stamp] = m_build.result();
    m_progress->hide();
    m_add->setEnabled(true);
    const QString id = std::exchange(m_buildingId, QString());
    if (!error.isEmpty()) {
        // The compiler's own file:line:column lines, as it printed them.
        m_window->messageBar()->showMessage(MessageBar::Kind::Error, error);
        emit buildFailed(error);
        return;
    }
    m_window->setupPanel()->addSourceGovernor(id, stamp);
    m_addedId = id;
    m_addedWarnings = warnings;
    watchSourceFiles();
    emit governorsEdited();
    emit built(id);
}

void SourceGovernorActions::confirmAdded(const SimulationSnapshot &snap)
{
    if (m_addedId.isEmpty())
        return;
    const std::string id = m_addedId.toStdString();
    if (std::none_of(snap.spec.governors.begin(), snap.spec.governors.end(),
                     [&](const GovernorSpec &g) { return g.variant == id; }))
        return; // a run asked for before the add
    const QString added = std::exchange(m_addedId, QString());
    const QString warnings = std::exchange(m_addedWarnings, QString());
    if (snap.indexOf(id) >= 0) {
        for (const GovernorSpec &g : snap.spec.governors)
            if (g.variant == id)
                m_warnedStamps[added] = g.sourceStamp; // not again by showBuildWarnings()
        showCompilerWarnings(warnings);
        return;
    }
    // It built but did not run. A governor that fails (it crashed, hung or was refused in its
    // first run) stays, marked as failing (the snapshot's handler), as one whose later save
    // fails: the file is to be fixed and saved. A file that registers no governor is none:
    // that add leaves nothing behind, no row and no Parameters box, as a build that failed.
    QStringList why = snap.errors.filter(added);
    if (!why.isEmpty() && why.filter(QString::fromUtf8(source_governor::HOST_NO_GOVERNOR)).isEmpty())
        return;
    const QString message = tr("%1 was not added: %2").arg(added, (why.isEmpty() ? snap.errors : why).join(u'\n'));
    m_window->setupPanel()->removeSourceGovernor(added);
    watchSourceFiles();
    showError(message);
    emit buildFailed(message);
}

void SourceGovernorActions::showCompilerWarnings(const QString &warnings)
{
    if (warnings.isEmpty())
        return;
    // As idlescope-cli prints them, after the shown run's own messages (and, as those,
    // until the next run).
    const SnapshotPtr snap = m_window->snapshot();
    QStringList shown = snap ? snap->errors : QStringList();
    m_window->messageBar()->showMessage(MessageBar::Kind::Warning, (shown << warnings.trimmed()).join(u'\n'));
}

void SourceGovernorActions::markFailingSources(const SimulationSnapshot &snap)
{
    // A run (up to date or stale) is marked in the legend and table; a failure with no run
    // (SimulationSnapshot::failures) here.
    for (const QString &id : m_window->setupPanel()->sourceGovernorIds()) {
        const std::string variant = id.toStdString();
        const auto failed = std::find_if(snap.failures.begin(), snap.failures.end(),
                                         [&](const GovernorFailure &f) { return f.variant == variant; });
        m_window->setupPanel()->setSourceFailure(id, failed == snap.failures.end() ? QString() : failed->error);
    }
}

void SourceGovernorActions::showBuildWarnings(const SimulationSnapshot &snap)
{
    std::vector<std::string> ids;
    for (const GovernorSpec &g : snap.spec.governors) {
        const int k = snap.indexOf(g.variant);
        // A fresh run of the file (a stale one is the last good run: its file failed).
        if (!isSourceGovernorId(g.variant) || k < 0 || !snap.governors[std::size_t(k)].stale.isEmpty())
            continue;
        if (std::exchange(m_warnedStamps[QString::fromStdString(g.variant)], g.sourceStamp) != g.sourceStamp)
            ids.push_back(g.variant);
    }
    if (ids.empty())
        return;
    // The run has just built the file: this finds it in the cache (hashing a large file may
    // still take a while, hence the worker thread).
    m_buildWarnings.waitForFinished();
    m_buildWarnings.setFuture(QtConcurrent::run([ids] {
        QStringList all;
        for (const std::string &id : ids) {
            std::string warnings;
            if (buildSourceGovernorOf(id, &warnings) && !warnings.empty())
                all << QString::fromStdString(warnings).trimmed();
        }
        return all.join(u'\n');
    }));
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
    // Hashed off the GUI thread (a large file, or one on a network folder that stopped
    // answering, would hold the window), on the threads that read the window's files.
    const quint64 serial = ++m_stampSerials[path];
    const StampReader read = m_stampReader ? m_stampReader : StampReader(sourceFileStamp);
    QtConcurrent::run(&fileThreads(), [path, read] {
        return read(path);
    }).then(this, [this, path, serial](const QString &stamp) {
        if (m_stampSerials.value(path) == serial) // else a later save of the file is being hashed
            stampRead(path, stamp);
    });
}

void SourceGovernorActions::stampRead(const QString &path, const QString &stamp)
{
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

int SourceGovernorActions::patchedVariantIndex(const std::string &id, const std::vector<std::string> &variants)
{
    const Result<SourceGovernorSpec> spec = parseSourceGovernorId(id);
    if (!spec)
        return -1;
    const QString name = QFileInfo(QString::fromStdString(spec->path)).fileName();
    // Its kernel against each variant's: a patch of menu.c of v6.19 is compared with
    // menu-6.19, not with whichever menu variant the list shows first.
    const auto distance = [&](const VariantInfo &v) {
        return std::abs((v.base.major - spec->core.major) * 1000 + (v.base.minor - spec->core.minor));
    };
    int best = -1, onlyBuiltin = -1, builtins = 0;
    for (std::size_t i = 0; i < variants.size(); ++i) {
        if (!isBuiltinVariant(variants[i]))
            continue;
        ++builtins;
        onlyBuiltin = static_cast<int>(i);
        const VariantInfo &v = *findVariant(variants[i]);
        if (!name.startsWith(QString::fromUtf8(v.family)))
            continue;
        if (best < 0)
            best = static_cast<int>(i);
        const VariantInfo &had = *findVariant(variants[std::size_t(best)]);
        if (distance(v) < distance(had) || (distance(v) == distance(had) && had.base < v.base))
            best = static_cast<int>(i);
    }
    return best >= 0 ? best : builtins == 1 ? onlyBuiltin : -1;
}

void SourceGovernorActions::showFirstDifference()
{
    const SnapshotPtr snap = m_window->snapshot();
    if (!snap || !snap->stream || m_diff.isRunning())
        return;
    std::vector<std::string> variants;
    for (const GovernorResult &g : snap->governors)
        variants.push_back(g.run->variant);
    // The selected governor when it is built from source, else the first one that is.
    int source = m_window->viewState()->selectedGovernor();
    if (source < 0 || source >= snap->governorCount() || !isSourceGovernorId(variants[std::size_t(source)])) {
        source = -1;
        for (std::size_t i = 0; i < variants.size() && source < 0; ++i)
            if (isSourceGovernorId(variants[i]))
                source = static_cast<int>(i);
    }
    const int variant = source < 0 ? -1 : patchedVariantIndex(variants[std::size_t(source)], variants);
    if (source < 0 || variant < 0) {
        m_last = FirstDifference{};
        m_last.error = source < 0 ? tr("First difference needs a governor built from source and a built-in "
                                       "variant shown")
                                  : tr("First difference: none of the governors shown is of %1's family; "
                                       "show the variant it patches (Governors list)")
                                        .arg(QString::fromStdString(variants[std::size_t(source)]));
        showResult(m_last.error);
        emit differenceShown(m_last.error);
        return;
    }
    m_firstDifference->setEnabled(false);
    showResult(tr("Looking for the first difference…"),
               tr("Replaying %1 and %2 side by side")
                   .arg(QString::fromStdString(variants[std::size_t(source)]),
                        QString::fromStdString(variants[std::size_t(variant)])));
    m_diffSnapshot = snap;
    m_diff.setFuture(QtConcurrent::run([snap, source, variant] { return diffRuns(snap, source, variant); }));
}

void SourceGovernorActions::differenceFinished()
{
    m_last = m_diff.result();
    m_firstDifference->setEnabled(true);
    const SnapshotPtr snap = std::exchange(m_diffSnapshot, nullptr);
    QString text;
    if (!m_last.error.isEmpty()) {
        text = tr("First difference: %1").arg(m_last.error);
        m_window->messageBar()->showMessage(MessageBar::Kind::Error, text);
        showResult(tr("First difference: the governors could not be compared (the message above says why)"));
        emit differenceShown(text);
        return;
    }
    QString brief; // the status bar's words; the tooltip has the whole text
    {
        m_shownFor = snap;
        const GovernorDiff &d = m_last.diff;
        const QString a = QString::fromStdString(snap->governors[std::size_t(m_last.sourceIndex)].run->variant);
        const QString b = QString::fromStdString(snap->governors[std::size_t(m_last.variantIndex)].run->variant);
        if (d.differingEntries == 0) {
            text = tr("%1 and %2 decide alike on all %3 entries.").arg(a, b).arg(d.a.entries);
            brief = tr("%1 vs %2: alike on all %3 entries").arg(a, b).arg(d.a.entries);
        } else {
            const EntryDifference &x = d.first.front();
            text = tr("%1 and %2 decide differently on %3 entries in %4 of %5 stream rows; the first, entry %6 "
                      "(stream row %7): %8 vs %9.")
                       .arg(a, b)
                       .arg(d.differingEntries)
                       .arg(d.differingSpans)
                       .arg(d.a.spans)
                       .arg(x.entry)
                       .arg(x.span)
                       .arg(x.inA ? decisionText(snap->table, x.a) : tr("no such entry"),
                            x.inB ? decisionText(snap->table, x.b) : tr("no such entry"));
            brief = tr("%1 vs %2: %3 entries differ, first at entry %4 (stream row %5): %6")
                        .arg(a, b)
                        .arg(d.differingEntries)
                        .arg(x.entry)
                        .arg(x.span)
                        .arg(x.inA && x.inB ? decisionChange(snap->table, x.a, x.b) : tr("one run ended"));
            // The source governor's entry there (the diff numbers entries by its replay).
            const auto last = static_cast<qint64>(snap->governors[std::size_t(m_last.sourceIndex)].run->size()) - 1;
            if (m_window->snapshot() == snap) // not when a newer snapshot moved the runs meanwhile
                m_window->viewState()->selectEntry(m_last.sourceIndex, std::min<qint64>(x.entry, last));
        }
    }
    showResult(brief, text);
    emit differenceShown(text);
}

void SourceGovernorActions::showResult(const QString &text, const QString &toolTip)
{
    m_result->setText(text);
    m_result->setToolTip(toolTip.isEmpty() ? text : toolTip);
    m_result->setVisible(!text.isEmpty());
}

} // namespace idlescope
