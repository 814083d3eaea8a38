// SPDX-License-Identifier: GPL-3.0-or-later
// idlescope: the GUI. Options for scripts and docs:
//   --screenshot FILE   render the default scenario (one miss open in the inspector) to FILE (PNG), exit
//   --measure SPANS     time re-simulation + replot and playback frames, print them, exit
//   --jitter US         with --measure: +-US of jitter on the IPI wakeups (default 0)
//   [FILE]              a session (.idlescope) to open, or a stream CSV / kernel trace to load
//                       as the workload (the .desktop file's Exec=idlescope %f); with
//                       --screenshot, the window is rendered once it is shown; a file that
//                       cannot be opened ends a --screenshot or --measure with exit 2, and so
//                       does a governor of it that cannot run (a src: that is no file) and a
//                       session whose workload or wake delays file does not read (the message
//                       names the session and the field: workload.path, wake_delays)
#include "app/gui/measure.h"
#include "core/io/atomic_file.h"
#include "core/source_governor/source_consent.h"
#include "widgets/main_window.h"
#include "widgets/panels/message_bar.h"
#include "widgets/panels/workload_form.h"
#include "widgets/runner/simulation_runner.h"
#include "widgets/session/recovery_store.h"
#include "widgets/session/session_opener.h"
#include "widgets/session/source_consent.h"
#include "widgets/start_size.h"
#include "widgets/trace/cpu_lanes_view.h"
#include "widgets/view_state.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QFileInfo>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>

#include <malloc.h>

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

/// Waits for the snapshot of @p file's workload (any snapshot when @p file is empty or a
/// session, or once loading it failed), opens one of the first governor's misses in the
/// inspector (what the window is for), renders the window to @p path and quits.
void screenshotWhenReady(idlescope::MainWindow &w, const QString &path, const QString &file)
{
    const bool anySnapshot = file.isEmpty() || file.endsWith(QLatin1String(".idlescope"), Qt::CaseInsensitive);
    const std::string filePath = file.toStdString();
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection =
        QObject::connect(&w, &idlescope::MainWindow::snapshotShown, &w, [&w, path, filePath, anySnapshot, connection] {
            const idlescope::SnapshotPtr snap = w.snapshot();
            // A trace whose CPU the import still chooses shows the default scenario first.
            if (!anySnapshot && snap->spec.workload.path != filePath && w.messageBar()->text().isEmpty())
                return;
            QObject::disconnect(*connection);
            if (!anySnapshot
                && snap->spec.workload.path != filePath) { // its import failed: no picture of another scenario
                std::fprintf(stderr, "idlescope: %s\n", qPrintable(w.messageBar()->text()));
                QApplication::exit(2);
                return;
            }
            // A governor of the scenario that could not run (a session's src: naming a FIFO,
            // /dev/zero or a folder) is missing from the picture: a picture of another scenario,
            // given as this one's. The CLI refuses such a run with exit 2; so does the script,
            // in the build's words, which name the file.
            if (!snap->failures.empty()) {
                for (const idlescope::GovernorFailure &f : snap->failures)
                    std::fprintf(stderr, "idlescope: %s\n", qPrintable(f.error));
                QApplication::exit(2);
                return;
            }
            if (snap->governorCount() > 0) {
                const idlescope::GovernorRun &run = *snap->governors[0].run;
                // Past the warm-up of a generated stream; a trace's recorded run has none.
                for (std::size_t i = snap->trace ? 0 : 1000; i < run.size(); ++i)
                    if (run.has(i, idlescope::ENTRY_ABOVE) || run.has(i, idlescope::ENTRY_BELOW)) {
                        w.viewState()->selectEntry(0, static_cast<qint64>(i));
                        break;
                    }
            }
            // A trace: the CPUs dock in front, tall enough for its lane groups.
            auto *lanesDock = snap->trace ? qobject_cast<QDockWidget *>(w.cpuLanes()->parentWidget()) : nullptr;
            if (lanesDock) {
                w.resize(1600, 1200); // room for the lane groups under the plots
                lanesDock->raise();
                w.resizeDocks({lanesDock}, {360}, Qt::Vertical);
            }
            // Let the layout settle at its final size (and the CPUs dock compute) before drawing.
            auto *wait = new QTimer(&w);
            wait->setInterval(200);
            QObject::connect(wait, &QTimer::timeout, &w, [&w, wait, path, filePath, lanesDock] {
                if (lanesDock && w.cpuLanes()->isComputing())
                    return;
                wait->stop();
                // Never over what the window read: the file given, or the stream or table
                // a session names (device and inode, links followed).
                const idlescope::SnapshotPtr shown = w.snapshot();
                std::vector<std::string> inputs{filePath};
                if (shown)
                    inputs.insert(inputs.end(), {shown->spec.workload.path, shown->spec.target.path.toStdString()});
                if (idlescope::Status s = idlescope::checkDistinctPaths(inputs, {path.toStdString()}); !s) {
                    std::fprintf(stderr, "idlescope: --screenshot: %s\n", s.error().toString().c_str());
                    QApplication::exit(2);
                    return;
                }
                QString error;
                const bool ok = w.saveScreenshot(path, &error);
                if (ok)
                    std::fprintf(stdout, "wrote %s\n", qPrintable(path));
                else
                    std::fprintf(stderr, "idlescope: --screenshot: %s\n", qPrintable(error));
                QApplication::exit(ok ? 0 : 1);
            });
            wait->start();
        });
}

/// The names desktops and QSettings know the application by; the desktop file
/// is named after the AppStream component id (io.github.idlescope.desktop).
void setApplicationIdentity()
{
    QCoreApplication::setApplicationName(QStringLiteral("idlescope"));
    QCoreApplication::setOrganizationName(QStringLiteral("idlescope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(IDLESCOPE_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.idlescope"));
}

/// The command line, declared on @p parser by the constructor.
struct GuiOptions {
    const QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                        QStringLiteral(
                                            "Render the window (the default scenario, or the file given) to <file> "
                                            "(PNG) and exit; 2 if the file cannot be opened."),
                                        QStringLiteral("file")};
    const QCommandLineOption measure{QStringLiteral("measure"),
                                     QStringLiteral("Measure re-simulation + replot latency and playback frame "
                                                    "time on a stream of <spans> spans, print, exit."),
                                     QStringLiteral("spans")};
    const QCommandLineOption jitter{QStringLiteral("jitter"),
                                    QStringLiteral("With --measure: +-<us> of jitter on the default scenario's "
                                                   "100 us IPI wakeups (default 0; 30 makes menu's pattern "
                                                   "detector work on every decision)."),
                                    QStringLiteral("us"), QStringLiteral("0")};
    const QCommandLineOption allowSource{
        QStringLiteral("allow-source"),
        QStringLiteral("Build and run the governor source files the session given names, without asking "
                       "(by default the window asks first, and a scripted run refuses them).")};

    explicit GuiOptions(QCommandLineParser &parser)
    {
        parser.setApplicationDescription(QStringLiteral("A lab for the Linux kernel's cpuidle governors"));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOption(screenshot);
        parser.addOption(measure);
        parser.addOption(jitter);
        parser.addOption(allowSource);
        parser.addPositionalArgument(QStringLiteral("file"),
                                     QStringLiteral("A session (.idlescope) to open, or a stream (.csv) or kernel "
                                                    "trace to load as the workload."),
                                     QStringLiteral("[file]"));
    }
};

/// What the command line asks for, read by readCommandLine().
struct GuiRun {
    QString file; ///< the file to open, absolute ("" for none)
    QString shot; ///< --screenshot's picture ("" for none)
    bool shooting = false, measuring = false, allowSource = false;
    qint64 spans = 0, jitterUs = 0; ///< --measure's span count and --jitter's microseconds

    /// A script: it neither reads nor writes the user's settings, and no one is there to ask.
    bool scripted() const { return shooting || measuring; }
};

/// --help and --version print and exit before the window system is touched: they work
/// without a display (the man page is written from --help at build time).
void printHelpWithoutDisplay(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--")
            break;
        if (a == "-h" || a == "--help" || a == "--help-all" || a == "-v" || a == "--version") {
            QCoreApplication core(argc, argv);
            setApplicationIdentity();
            QCommandLineParser parser;
            const GuiOptions options(parser);
            parser.process(core); // prints and exits 0 (1 on a bad command line)
        }
    }
}

/// --measure's span count and --jitter's microseconds into @p run; false, said on stderr, when
/// either is out of range.
bool readMeasureOptions(const QCommandLineParser &parser, const GuiOptions &options, GuiRun *run)
{
    bool ok = false;
    run->spans = parser.value(options.measure).toLongLong(&ok);
    if (!ok || run->spans < 1 || run->spans > idlescope::WORKLOAD_MAX_SPANS) {
        std::fprintf(stderr, "--measure: '%s' is not a span count from 1 to %d\n",
                     qPrintable(parser.value(options.measure)), idlescope::WORKLOAD_MAX_SPANS);
        return false;
    }
    run->jitterUs = parser.value(options.jitter).toLongLong(&ok);
    if (!ok || run->jitterUs < 0 || run->jitterUs >= 100) {
        std::fprintf(stderr, "--jitter: '%s' is not a jitter in us from 0 to 99\n",
                     qPrintable(parser.value(options.jitter)));
        return false;
    }
    return true;
}

/// The picture may replace neither the file it shows nor a folder, device or FIFO: refused
/// before the window opens anything (the session's own files are checked again once it is
/// loaded, in screenshotWhenReady()). False, said on stderr, when refused.
bool screenshotPathAllowed(const GuiRun &run)
{
    const std::string shot = run.shot.toStdString();
    idlescope::Status s = idlescope::checkOutputPath(shot);
    if (s && !run.file.isEmpty())
        s = idlescope::checkDistinctPaths({run.file.toStdString()}, {shot});
    if (!s)
        std::fprintf(stderr, "idlescope: --screenshot: %s\n", s.error().toString().c_str());
    return bool(s);
}

/// The command line into @p run; false, said on stderr, when it is bad (exit 2, as in
/// idlescope-cli: process() would exit with 1). --help and --version print and exit.
bool readCommandLine(QCommandLineParser &parser, const GuiOptions &options, GuiRun *run)
{
    const QStringList arguments = QApplication::arguments();
    if (!parser.parse(arguments)) {
        std::fprintf(stderr, "idlescope: %s\n", qPrintable(parser.errorText()));
        return false;
    }
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("version")))
        parser.process(arguments); // prints and exits 0
    const QStringList files = parser.positionalArguments();
    if (files.size() > 1) {
        std::fprintf(stderr, "idlescope: one file at a time (%lld given)\n", static_cast<long long>(files.size()));
        return false;
    }
    run->file = files.isEmpty() ? QString() : QFileInfo(files.first()).absoluteFilePath();
    run->shooting = parser.isSet(options.screenshot);
    run->shot = parser.value(options.screenshot);
    run->measuring = parser.isSet(options.measure);
    run->allowSource = parser.isSet(options.allowSource);
    if (parser.isSet(options.jitter) && !run->measuring) {
        std::fprintf(stderr, "--jitter: only with --measure\n");
        return false;
    }
    if (run->measuring && !readMeasureOptions(parser, options, run))
        return false;
    return !run->shooting || screenshotPathAllowed(*run);
}

/// Who answers a session's request to build governor source files, the window's size, and
/// what a script or a user gets beside the window: the window shown.
void showWindow(idlescope::MainWindow &w, const GuiRun &run)
{
    if (run.allowSource)
        w.setSourceConsentAsker([](const idlescope::SourceConsentRequest &) { return true; });
    else if (!run.scripted()) // a script has no one to ask
        w.setSourceConsentAsker(
            [&w](const idlescope::SourceConsentRequest &r) { return idlescope::sourceConsentDialog(&w, r); });
    w.runner()->setPrefaultHeap(true); // the heap is kept (mallopt in main())
    // A script's picture and timings are at the size the window is laid out for, whatever the
    // screen (docs/ shows them); a user's window is the size it last closed at.
    if (run.scripted())
        w.resize(idlescope::COMFORTABLE_WINDOW_SIZE);
    else
        w.applyStartSize();
    w.show();
    if (!run.scripted()) {
        // Unsaved work is kept in a recovery copy; one left by a crash is offered when no file is opened.
        w.enableRecovery(idlescope::RecoveryStore::defaultDir());
        if (run.file.isEmpty())
            QTimer::singleShot(0, &w, [&w] { w.offerRecovery(); });
    }
    // A session is read on a worker: its error comes later, and a script stops on it as on
    // an error known at once (the picture or timing would be the default scenario's).
    // A session read but refused when its scenario failed to build (a workload path naming
    // /dev/zero or a FIFO) too: the window falls back to the default scenario, no picture of it.
    if (run.scripted()) {
        const auto stop = [](const QString &err) {
            std::fprintf(stderr, "idlescope: %s\n", qPrintable(err));
            QApplication::exit(2);
        };
        QObject::connect(w.sessionOpener(), &idlescope::SessionOpener::errorOccurred, &w, stop);
        QObject::connect(w.sessionOpener(), &idlescope::SessionOpener::sessionRefused, &w, stop);
        // Not a failure (the session's own table is the picture's), but said: it was read.
        QObject::connect(w.sessionOpener(), &idlescope::SessionOpener::targetTableNotUsed, &w,
                         [](const QString &note) { std::fprintf(stderr, "idlescope: %s\n", qPrintable(note)); });
    }
}

/// Starts the picture or the timings of @p run once the window shows what it is to show.
void startScript(idlescope::MainWindow &w, const GuiRun &run)
{
    const auto script = [&w, run] {
        if (run.shooting)
            screenshotWhenReady(w, run.shot, run.file);
        if (run.measuring)
            QTimer::singleShot(0, &w, [&w, spans = run.spans, jitterUs = run.jitterUs] {
                QApplication::exit(idlescope::runMeasurements(w, spans, jitterUs));
            });
    };
    // The default scenario simulates while a session is read: its snapshot is no picture of
    // the session. The script starts once the session is read and applied (scenarioRead:
    // the window's own handler, connected first, has asked for its run).
    if (w.sessionOpener()->isReading())
        QObject::connect(w.sessionOpener(), &idlescope::SessionOpener::scenarioRead, &w, script,
                         Qt::SingleShotConnection);
    else
        script();
}

} // namespace

int main(int argc, char **argv)
{
    // Every re-simulation frees and allocates the run columns again (tens of
    // MB per million entries). Keeping freed blocks in the heap instead of
    // returning them to the kernel saves the page faults of fresh memory,
    // which cost as much as the replay itself on a virtual machine. glibc
    // refuses an mmap threshold above 32 MB (and setting the trim threshold
    // would then freeze it at 128 KB), so large blocks are kept off mmap
    // altogether: they come from the heap and go back to it.
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
    mallopt(M_ARENA_MAX, 1); // worker threads reuse the same warm heap
    printHelpWithoutDisplay(argc, argv);

    QApplication app(argc, argv);
    setApplicationIdentity();
    QCommandLineParser parser;
    const GuiOptions options(parser);
    GuiRun run;
    if (!readCommandLine(parser, options, &run))
        return 2;

    // Scripted runs neither read nor write the user's saved window layout.
    QTemporaryDir scratch;
    if (run.scripted())
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, scratch.path());

    // A session names governor source files: none is built or run without the user's yes
    // (core/source_governor/source_consent.h); the yeses given before are remembered by hash.
    idlescope::source_governor::requireSourceConsent(true);
    idlescope::SourceConsentStore().grantRemembered();

    idlescope::MainWindow w;
    showWindow(w, run);
    if (!run.file.isEmpty())
        if (const QString err = w.openFile(run.file); !err.isEmpty()) {
            std::fprintf(stderr, "idlescope: %s\n", qPrintable(err)); // also in the window's message bar
            // A script asked for this file's picture or timing: the default scenario's would
            // be a wrong answer given as a right one.
            if (run.scripted())
                return 2;
        }
    startScript(w, run);
    return app.exec();
}
