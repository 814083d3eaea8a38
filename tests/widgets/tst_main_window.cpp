// SPDX-License-Identifier: GPL-3.0-or-later
// The main window end to end, offscreen: the default scenario runs and shows
// counts (menu's "too deep" problem on POWER10), the plots get data, a
// parameter change re-simulates and changes the counts, playback moves the
// views, a screenshot is written, and the application binary starts and quits.
#include "core/governors/registry.h"
#include "core/io/atomic_file.h"
#include "core/replay/reference_replay.h"
#include "widgets/inspector/entry_detail.h"
#include "widgets/inspector/episode_inspector.h"
#include "widgets/main_window.h"
#include "widgets/panels/governor_legend.h"
#include "widgets/panels/message_bar.h"
#include "widgets/panels/parameter_panel.h"
#include "widgets/panels/parameter_row.h"
#include "widgets/panels/playback_bar.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/panels/trace_workload_page.h"
#include "widgets/plots/plot_base.h"
#include "widgets/plots/time_plot.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/simulation_runner.h"
#include "widgets/runner/trace_workload.h"
#include "widgets/view_state.h"

#include "tests/test_files.h"
#include "tests/test_paths.h"
#include "window_fixture.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLocale>
#include <QProcess>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>

using namespace idlescope;

namespace {
constexpr int TIMEOUT_MS = test::WINDOW_TIMEOUT_MS;

using test::nextSnapshot;

/// Moves menu-6.19's RESIDENCY_THRESHOLD_NS slider to 200 us and releases it (one re-simulation).
void setMenu619ThresholdTo200us(MainWindow &w)
{
    ParameterRow *row = w.parameterPanel()->row("menu-6.19", QStringLiteral("RESIDENCY_THRESHOLD_NS"));
    QVERIFY(row);
    row->field()->setText(QStringLiteral("200")); // beyond the slider's fine range (0..60 us): typed
    row->field()->setModified(true);
    emit row->field()->editingFinished();
    QCOMPARE(row->value(), std::int64_t(200000));
}

/// The three time plots (state timeline, prediction, miss ratio).
QList<TimePlot *> timePlots(MainWindow &w)
{
    QList<TimePlot *> out;
    for (PlotBase *p : w.plots())
        if (auto *t = qobject_cast<TimePlot *>(p))
            out.append(t);
    return out;
}

/// The inspector shows entry @p entry of @p variant, explained from the snapshot shown (wait with QTRY).
bool inspectorShows(MainWindow &w, const char *variant, qint64 entry)
{
    const EntryDetail *d = w.inspector()->detail();
    const SnapshotPtr s = w.snapshot();
    const int g = s ? s->indexOf(variant) : -1;
    // The same wakeup: the inspector's replay has the run's own clock, the plots the stream's
    // time (span_clock.h), so the span is compared, not the start time.
    return d && g >= 0 && d->variant == variant && d->entryIndex == entry
           && d->entry.span == s->governors[std::size_t(g)].run->span[std::size_t(entry)];
}

/// Nothing selected anywhere: view state, every time plot's line, the inspector
/// (called as a test's last step: a failed check here fails that test).
void verifyNothingSelected(MainWindow &w)
{
    QCOMPARE(w.viewState()->selectedGovernor(), -1);
    QCOMPARE(w.viewState()->selectedEntry(), qint64(-1));
    w.refreshPlotsNow();
    for (TimePlot *p : timePlots(w))
        QCOMPARE(p->selectionLineNs(), qint64(-1));
    QVERIFY(w.inspector()->detail() == nullptr);
    QVERIFY(w.inspector()->plainText().startsWith(QStringLiteral("No entry selected")));
}

int stateIndex(const IdleStateTable &t, const char *name)
{
    for (int i = 0; i < t.count(); ++i)
        if (t[i].name == name)
            return i;
    return -1;
}
} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void defaultScenarioRunsAndShowsCounts();
    void menuIsTooDeepOnPower10();
    void plotsGetData();
    void sliderChangesParameterAndCounts();
    void tickRateChangesTheTable();
    void badStreamFileIsReportedNotFatal();
    void conformanceTableAndStreamLoad();
    void kernelTraceLoadsTheBusiestCpu();
    void kernelTraceBadCpuIsAnErrorNamingFileAndCpu();
    void kernelTraceDefaultCpuAndRewrittenFile();
    void kernelTraceSessionRoundTrip();
    void disablingAStateReSimulates();
    void noGovernorSelectedDoesNotCrash();
    void sessionRoundTripRestoresParametersAndView();
    void playbackMovesCursorAndCounts();
    void zoomIsSharedAndUndoable();
    void selectionLineFollowsAReSimulatedEntry();
    void selectionFollowsItsGovernorByVariant();
    void selectionClearedWithItsGovernorStaysCleared();
    void parameterChangeKeepsTheZoom();
    void screenshotIsWritten();
    void applicationStartsAndQuits();
};

void TestMainWindow::defaultScenarioRunsAndShowsCounts()
{
    MainWindow w;
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    const SnapshotPtr s = w.snapshot();
    QCOMPARE(s->table.id, std::string("pseries-power10-lpar"));
    QCOMPARE(s->table.tickHz, 100);
    QCOMPARE(s->table.count(), 2);
    QCOMPARE(s->table[0].name, std::string("snooze"));
    QVERIFY(s->table[0].polling);
    QCOMPARE(s->table[1].exitLatencyNs, Ns(12000));
    QCOMPARE(s->table[1].targetResidencyNs, Ns(120000));
    // IPI wakeups every 100 us: no timer ends a span.
    QCOMPARE((*s->stream)[0].wakeNs, Ns(100000));
    QVERIFY((*s->stream)[0].timerNs > (*s->stream)[0].wakeNs);
    QCOMPARE(s->stream->size(), std::size_t(200000));
    QVERIFY(s->oracleIndex() >= 0);
    QCOMPARE(s->governorCount(), static_cast<int>(defaultScenario().governors.size()));
    for (int g = 0; g < s->governorCount(); ++g) {
        const PrefixCounts c = w.legend()->shownCounts(g);
        QCOMPARE(c.entries, s->governors[static_cast<std::size_t>(g)].run->summary.entries);
        QVERIFY(c.entries >= 200000);
        QVERIFY(w.legend()->chipText(g).contains(
            QString::fromStdString(s->governors[static_cast<std::size_t>(g)].run->variant)));
    }
    // The oracle knows every wakeup: an IPI every 100 us never fits CEDE's 120 us.
    const int oracle = s->oracleIndex();
    QCOMPARE(w.legend()->shownCounts(oracle).usage[1], std::int64_t(0));
    QCOMPARE(w.legend()->shownCounts(oracle).totalAbove(), std::int64_t(0));
}

void TestMainWindow::menuIsTooDeepOnPower10()
{
    if (!findVariant("menu-6.14") || !findVariant("menu-6.19"))
        QFAIL("menu-6.14 and menu-6.19 must be registered for the default scenario");
    MainWindow w;
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    const SnapshotPtr s = w.snapshot();
    const int cede = stateIndex(s->table, "CEDE");
    const int menu = s->indexOf("menu-6.14");
    const int fixed = s->indexOf("menu-6.19"); // the merged residency-threshold patch (v4)
    QVERIFY(cede == 1 && menu >= 0 && fixed >= 0);
    const PrefixCounts m = w.legend()->shownCounts(menu);
    const PrefixCounts r = w.legend()->shownCounts(fixed);
    // menu v6.14's polling override sends ~every entry to CEDE, which each 97 us idle misses.
    QVERIFY2(m.above[1] > m.entries * 9 / 10, qPrintable(QString::number(m.above[1])));
    // v6.19's residency threshold keeps snooze: CEDE (120 us) is not below 15 us.
    QVERIFY2(r.above[1] < r.entries / 100, qPrintable(QString::number(r.above[1])));
}

void TestMainWindow::plotsGetData()
{
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    w.refreshPlotsNow();
    QCOMPARE(w.plots().size(), 6);
    for (PlotBase *p : w.plots()) {
        QVERIFY2(p->pointCount() > 0, qPrintable(p->title()));
        // Decimated: never anywhere near the 200000+ entries per governor.
        QVERIFY2(p->pointCount() < 100000, qPrintable(p->title() + QString::number(p->pointCount())));
    }
}

void TestMainWindow::sliderChangesParameterAndCounts()
{
    MainWindow w;
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    const int g = w.snapshot()->indexOf("menu-6.19");
    QVERIFY(g >= 0);
    ParameterRow *row = w.parameterPanel()->row("menu-6.19", QStringLiteral("RESIDENCY_THRESHOLD_NS"));
    QVERIFY(row);
    QCOMPARE(row->value(), std::int64_t(15000));
    QVERIFY(!w.parameterPanel()->isModified("menu-6.19"));
    const std::int64_t aboveBefore = w.legend()->shownCounts(g).totalAbove();

    // 200 us > CEDE's 120 us target residency: the override is allowed again, as in v6.14.
    const SnapshotPtr s = nextSnapshot(w, [&] {
        row->field()->setText(QStringLiteral("200")); // beyond the slider's fine range (0..60 us): typed
        row->field()->setModified(true);
        emit row->field()->editingFinished();
    });
    QVERIFY(s);
    QCOMPARE(row->value(), std::int64_t(200000));
    QVERIFY(w.parameterPanel()->isModified("menu-6.19"));
    const auto &settings = s->spec.governors[static_cast<std::size_t>(g)].settings;
    QCOMPARE(settings.size(), std::size_t(1));
    QCOMPARE(settings[0].first, std::string("RESIDENCY_THRESHOLD_NS"));
    QCOMPARE(settings[0].second, std::int64_t(200000));
    QCOMPARE(s->governors[static_cast<std::size_t>(g)].run->settings, settings);
    QVERIFY(!s->governors[static_cast<std::size_t>(g)].atDefaults);
    QVERIFY(w.legend()->chipText(g).contains(QStringLiteral("modified")));
    const std::int64_t aboveAfter = w.legend()->shownCounts(g).totalAbove();
    QVERIFY2(aboveAfter > aboveBefore + 100000,
             qPrintable(QStringLiteral("%1 -> %2").arg(aboveBefore).arg(aboveAfter)));
    // The other governors were not touched: menu-6.14 keeps its counts.
    const int menu = s->indexOf("menu-6.14");
    QVERIFY(s->governors[static_cast<std::size_t>(menu)].atDefaults);

    // Kernel defaults bring the counts back.
    const SnapshotPtr back = nextSnapshot(w, [&] { w.parameterPanel()->resetToKernelDefaults(); });
    QVERIFY(back);
    QCOMPARE(row->value(), std::int64_t(15000));
    QCOMPARE(w.legend()->shownCounts(g).totalAbove(), aboveBefore);
    QVERIFY(!w.parameterPanel()->isModified("menu-6.19"));
}

void TestMainWindow::tickRateChangesTheTable()
{
    MainWindow w;
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    const int oracle = w.snapshot()->oracleIndex();
    const std::int64_t before = w.legend()->shownCounts(oracle).entries;
    auto *combo = w.parameterPanel()->findChild<QComboBox *>();
    QVERIFY(combo);
    const SnapshotPtr s = nextSnapshot(w, [&] { combo->setCurrentIndex(combo->findData(1000)); });
    QVERIFY(s);
    QCOMPARE(s->table.tickHz, 1000);
    // The oracle polls through every 97 us idle. At 100 Hz the poll limit is CEDE's
    // 120 us; at 1000 Hz it is TICK_NSEC / 16 = 62.5 us, so each span takes two entries.
    QCOMPARE(before, std::int64_t(200000));
    QCOMPARE(w.legend()->shownCounts(oracle).entries, 2 * before);
}

void TestMainWindow::badStreamFileIsReportedNotFatal()
{
    MainWindow w;
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.csv"));
    test::writeFile(path, "gap_ns,timer_ns,wake_ns,latency_req_ns\n10,100,nan,-1\n");
    QSignalSpy failed(w.runner(), &SimulationRunner::runFailed);
    QVERIFY(w.setupPanel()->loadStreamFile(path));
    QVERIFY(failed.wait(TIMEOUT_MS) || !failed.isEmpty());
    const QString msg = failed.first().first().toString();
    QVERIFY2(msg.contains(QStringLiteral("bad.csv")) && msg.contains(QStringLiteral(":2")), qPrintable(msg));
    QVERIFY(w.snapshot() != nullptr); // the last good snapshot stays
}

void TestMainWindow::conformanceTableAndStreamLoad()
{
    MainWindow w;
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    const QString kit = test::kitDir();
    SnapshotPtr s = nextSnapshot(w, [&] {
        QVERIFY(w.setupPanel()->loadTableFile(kit + QStringLiteral("/tables/intel-skx.json")));
    });
    QVERIFY(s);
    QCOMPARE(s->table.id, std::string("intel-skx"));
    QCOMPARE(s->spec.target.kind, TargetKind::File);
    s = nextSnapshot(w, [&] {
        QVERIFY(w.setupPanel()->loadStreamFile(kit + QStringLiteral("/streams/pipe-wakeups.csv")));
    });
    QVERIFY(s);
    QCOMPARE(s->stream->size(), std::size_t(4000)); // STREAMS.md: pipe-wakeups has 4000 spans
    QVERIFY(s->workloadDescription.contains(QStringLiteral("pipe-wakeups.csv")));
    // The replay is the conformance kit's: menu-6.14's totals equal its expected summary.
    const int menu = s->indexOf("menu-6.14");
    QVERIFY(menu >= 0);
    QFile f(kit + QStringLiteral("/expected/menu-6.14/pipe-wakeups__intel-skx.summary.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject expected = QJsonDocument::fromJson(f.readAll()).object();
    const GovernorRun &run = *s->governors[std::size_t(menu)].run;
    QCOMPARE(run.summary.entries, expected.value(QStringLiteral("entries")).toInteger());
    const QJsonArray states = expected.value(QStringLiteral("states")).toArray();
    QCOMPARE(states.size(), s->table.count());
    for (int i = 0; i < states.size(); ++i) {
        const QJsonObject st = states[i].toObject();
        QCOMPARE(w.legend()->shownCounts(menu).usage[std::size_t(i)], st.value(QStringLiteral("usage")).toInteger());
        QCOMPARE(w.legend()->shownCounts(menu).above[std::size_t(i)], st.value(QStringLiteral("above")).toInteger());
        QCOMPARE(w.legend()->shownCounts(menu).below[std::size_t(i)], st.value(QStringLiteral("below")).toInteger());
    }
}

namespace {

QString pipeTrace()
{
    return test::tracesDir() + QStringLiteral("/vm-amd-2cpu-pipe100us.ftrace.txt.gz");
}

/// The trace page's background import listed the file's CPUs (wait with QTRY_VERIFY).
bool summaryShown(TraceWorkloadPage *page)
{
    return !page->isImporting() && page->summary() != nullptr;
}

bool comboItemEnabled(QComboBox *combo, int row)
{
    auto *model = qobject_cast<QStandardItemModel *>(combo->model());
    return model && model->item(row) && model->item(row)->isEnabled();
}

/// ftrace text on 2 CPUs: each CPU switches to the idle task, then @p spans[cpu]
/// times enters state 1 for 199 us, leaves idle and comes back 99 us later.
/// `idlescope-cli import` exports spans[cpu] rows per CPU (the last span is cut
/// by the trace's end), each with wake_ns = timer_ns = 200000.
QByteArray syntheticTrace(const int (&spans)[2])
{
    struct Line {
        qint64 us;
        int cpu;
        QByteArray text;
    };
    std::vector<Line> lines;
    auto stamp = [](qint64 us) {
        return QByteArray::number(100 + us / 1000000) + '.' + QByteArray::number(us % 1000000).rightJustified(6, '0');
    };
    auto toIdle = [&](int cpu, qint64 us) {
        lines.push_back({us, cpu,
                         QByteArray("        work-10") + QByteArray::number(cpu) + "    [00" + QByteArray::number(cpu)
                             + "] d..2.   " + stamp(us) + ": sched_switch: prev_comm=work prev_pid=10"
                             + QByteArray::number(cpu) + " prev_prio=120 prev_state=S ==> next_comm=swapper/"
                             + QByteArray::number(cpu) + " next_pid=0 next_prio=120"});
    };
    for (int cpu = 0; cpu < 2; ++cpu) {
        const QByteArray c = QByteArray::number(cpu);
        qint64 t = 0;
        toIdle(cpu, t);
        for (int i = 0; i < spans[cpu]; ++i, t += 300) {
            const QByteArray idle = "          <idle>-0       [00" + c + "] d..1.   ";
            lines.push_back({t + 1, cpu, idle + stamp(t + 1) + ": cpu_idle: state=1 cpu_id=" + c});
            lines.push_back({t + 200, cpu, idle + stamp(t + 200) + ": cpu_idle: state=4294967295 cpu_id=" + c});
            lines.push_back({t + 201, cpu,
                             "        <idle>-0    [00" + c + "] d..2.   " + stamp(t + 201)
                                 + ": sched_switch: prev_comm=swapper/" + c
                                 + " prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=work next_pid=10" + c
                                 + " next_prio=120"});
            toIdle(cpu, t + 300);
        }
    }
    std::stable_sort(lines.begin(), lines.end(), [](const Line &a, const Line &b) { return a.us < b.us; });
    QByteArray out = "# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:2\n#\n";
    for (const Line &l : lines)
        out += l.text + '\n';
    return out;
}

} // namespace

void TestMainWindow::kernelTraceLoadsTheBusiestCpu()
{
    MainWindow w;
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    const int importsBefore = traceImportCount();
    // No CPU given: the import picks the one with the most idle spans, as `compare --trace` does.
    SnapshotPtr s = nextSnapshot(w, [&] { QVERIFY(w.setupPanel()->loadTraceFile(pipeTrace())); });
    QVERIFY(s);
    QCOMPARE(s->spec.workload.kind, WorkloadKind::Trace);
    QCOMPARE(s->spec.workload.cpu, 0);
    // idlescope-cli import vm-amd-2cpu-pipe100us.ftrace.txt.gz --cpu 0 --stream /tmp/x.csv
    //   -> 21571 lines (header + 21570 rows: 20672 spans, one row more per in-idle wakeup);
    //   first row 26267000,1733000,7000,-1,0,0,1 (its first entry ended by an interrupt): the
    //   span starts at 972.846267 s, 8114 us after the CPU's first event, and the gap is made
    //   26267 us so that the replay (1 s, 0 modulo 20 ms) is at 972.846267 s modulo 20 ms,
    //   6267 us; its timer is the tick at 972.848000 s (no cpuidle driver: a tick that fires
    //   in idle was the next event), 1733 us on.
    // (--cpu 1 exports nothing: "CPU 1 has no complete idle span to export", see below.)
    QCOMPARE(s->stream->size(), std::size_t(21570));
    QCOMPARE((*s->stream)[0].gapNs, Ns(26267000));
    QCOMPARE((*s->stream)[0].timerNs, Ns(1733000));
    QCOMPARE((*s->stream)[0].wakeNs, Ns(7000));
    QVERIFY(!(*s->stream)[0].needResched);
    QCOMPARE(s->workloadDescription, QStringLiteral("trace vm-amd-2cpu-pipe100us.ftrace.txt.gz, CPU 0"));
    // One import, never on the GUI thread (the page's task or the runner's worker).
    QCOMPARE(traceImportCount(), importsBefore + 1);
    QVERIFY(!lastTraceImportOnGuiThread());

    // The selector lists both CPUs with their span counts; CPU 1 has none to replay.
    TraceWorkloadPage *page = w.setupPanel()->tracePage();
    QTRY_VERIFY_WITH_TIMEOUT(summaryShown(page), TIMEOUT_MS);
    QComboBox *cpus = page->cpuCombo();
    QCOMPARE(cpus->count(), 2);
    QCOMPARE(cpus->currentIndex(), 0);
    QCOMPARE(cpus->itemText(0), QStringLiteral("CPU 0 \u2014 %1 idle spans").arg(QLocale().toString(20672)));
    QVERIFY(comboItemEnabled(cpus, 0));
    QCOMPARE(cpus->itemText(1), QStringLiteral("CPU 1 \u2014 no complete span"));
    QVERIFY(!comboItemEnabled(cpus, 1));
    // The same account of the spans as `idlescope-cli import` prints per CPU; all of the
    // trace's 21574 idle entries are CPU 0's ("1 with idle entries").
    QCOMPARE(cpus->itemData(0, Qt::ToolTipRole).toString(),
             QStringLiteral(
                 "20676 spans = 20672 exported + 4 missing a sched_switch; %1 cpu_idle entries \u00b7 the most "
                 "idle spans")
                 .arg(QLocale().toString(21574)));
    QCOMPARE(cpus->itemData(1, Qt::ToolTipRole).toString(),
             QStringLiteral("Nothing to replay: 20785 spans = 0 exported + 20784 missing a sched_switch + 1 cut by the "
                            "trace's end"));
    // Import warnings are shown with their count and the first of each kind with file:line and field.
    QVERIFY(page->warningsLabel()->isVisibleTo(page));
    QVERIFY2(page->warningsLabel()->text().contains(QStringLiteral("missing_switch \u00d7 20788")),
             qPrintable(page->warningsLabel()->text()));
    QVERIFY2(page->warningsLabel()->toolTip().contains(
                 QStringLiteral("vm-amd-2cpu-pipe100us.ftrace.txt.gz:45: missing_switch (field 'sched_switch')")),
             qPrintable(page->warningsLabel()->toolTip()));
    QCOMPARE(page->summary()->warningTotal, qint64(2 + 1 + 20788));
    // The window says so too, as a warning (not an error), and the trace's own
    // runs do not take it away (they did when the trace was opened here, but
    // not when opened from the command line).
    QVERIFY(!w.messageBar()->isHidden());
    QCOMPARE(w.messageBar()->kind(), MessageBar::Kind::Warning);
    QVERIFY2(w.messageBar()->text().contains(QStringLiteral("vm-amd-2cpu-pipe100us.ftrace.txt.gz: imported with "))
                 && w.messageBar()->text().contains(QStringLiteral("missing_switch \u00d7 20788")),
             qPrintable(w.messageBar()->text()));
    // Nor a slider; another workload does.
    nextSnapshot(w, [&] {
        w.parameterPanel()->setLatencyLimitNs(2000000);
        w.runner()->requestNow(w.currentSpec());
    });
    QVERIFY(!w.messageBar()->isHidden());
    nextSnapshot(w, [&] { w.applySpec(defaultScenario()); });
    QVERIFY(w.messageBar()->isHidden());
    // Opened as a file (the command line, the .desktop file): the same warning.
    s = nextSnapshot(w, [&] { QCOMPARE(w.openFile(pipeTrace()), QString()); });
    QVERIFY(s);
    QVERIFY(!w.messageBar()->isHidden());
    QCOMPARE(w.messageBar()->kind(), MessageBar::Kind::Warning);
    QVERIFY(w.messageBar()->text().contains(QStringLiteral("imported with ")));
}

void TestMainWindow::kernelTraceBadCpuIsAnErrorNamingFileAndCpu()
{
    MainWindow w;
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    SnapshotPtr s = nextSnapshot(w, [&] { QVERIFY(w.setupPanel()->loadTraceFile(pipeTrace(), 0)); });
    QVERIFY(s);
    const int imports = traceImportCount();
    // CPU 1 of this trace has only cut spans (no sched_switch away from idle is recorded).
    QSignalSpy failed(w.runner(), &SimulationRunner::runFailed);
    QVERIFY(w.setupPanel()->loadTraceFile(pipeTrace(), 1));
    QVERIFY(failed.wait(TIMEOUT_MS) || !failed.isEmpty());
    QString message = failed.first().first().toString();
    QVERIFY2(message.contains(QStringLiteral("vm-amd-2cpu-pipe100us.ftrace.txt.gz"))
                 && message.contains(
                     QStringLiteral("field 'cpu': CPU 1 has no complete idle span (20785 spans = 0 "
                                    "exported + 20784 missing a sched_switch + 1 cut by the trace's end)")),
             qPrintable(message));
    QCOMPARE(w.snapshot(), s); // the last good snapshot stays
    // A CPU the trace does not have.
    failed.clear();
    QVERIFY(w.setupPanel()->loadTraceFile(pipeTrace(), 9));
    QVERIFY(failed.wait(TIMEOUT_MS) || !failed.isEmpty());
    message = failed.first().first().toString();
    QVERIFY2(message.contains(QStringLiteral("field 'cpu': CPU 9 is not in the trace (it has CPUs 0..1)")),
             qPrintable(message));
    // The selector shows such a CPU for what it is (a session may name one).
    TraceWorkloadPage page;
    page.setTrace(pipeTrace(), 9);
    QTRY_VERIFY_WITH_TIMEOUT(summaryShown(&page), TIMEOUT_MS);
    QCOMPARE(page.cpu(), 9);
    QCOMPARE(page.cpuCombo()->currentText(), QStringLiteral("CPU 9 \u2014 not in the trace"));
    QVERIFY(!comboItemEnabled(page.cpuCombo(), page.cpuCombo()->currentIndex()));
    // Changing the CPU never imports the file again.
    QCOMPARE(traceImportCount(), imports);
    // A file that is not a trace: the error names it.
    QTemporaryDir dir;
    const QString junk = dir.filePath(QStringLiteral("junk.txt"));
    test::writeFile(junk, "not a trace\n");
    QSignalSpy errors(w.setupPanel(), &SetupPanel::workloadFailed); // the window puts its plots' scenario back
    QVERIFY(w.setupPanel()->loadTraceFile(junk));
    QVERIFY(errors.wait(TIMEOUT_MS) || !errors.isEmpty());
    QVERIFY2(errors.first().first().toString().startsWith(junk), qPrintable(errors.first().first().toString()));
    QVERIFY(!w.setupPanel()->loadTraceFile(dir.filePath(QStringLiteral("missing.dat"))));
    // "Kernel trace" chosen but no file opened: a plain error, not an empty file name.
    WorkloadSourceSpec none;
    none.kind = WorkloadKind::Trace;
    w.setupPanel()->setWorkload(none);
    QCOMPARE(w.setupPanel()->tracePage()->cpuCombo()->count(), 0);
    failed.clear();
    w.runner()->requestNow(w.currentSpec());
    QVERIFY(failed.wait(TIMEOUT_MS) || !failed.isEmpty());
    QCOMPARE(failed.first().first().toString(),
             QStringLiteral("field 'workload': no trace file chosen (File \u2192 Open kernel trace\u2026)"));
}

void TestMainWindow::kernelTraceDefaultCpuAndRewrittenFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("two-cpus.txt"));
    auto write = [&](const int(&spans)[2]) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(syntheticTrace(spans));
    };
    write({1, 3});
    MainWindow w;
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    // CPU 1 has 3 complete spans, CPU 0 one: CPU 1 is the default.
    SnapshotPtr s = nextSnapshot(w, [&] { QVERIFY(w.setupPanel()->loadTraceFile(path)); });
    QVERIFY(s);
    QCOMPARE(s->spec.workload.cpu, 1);
    QCOMPARE(s->stream->size(), std::size_t(3));
    QCOMPARE((*s->stream)[1].gapNs, Ns(100000)); // from the first span's exit at 200 us to 300 us
    QCOMPARE((*s->stream)[1].wakeNs, Ns(200000));
    QTRY_VERIFY_WITH_TIMEOUT(summaryShown(w.setupPanel()->tracePage()), TIMEOUT_MS);
    QCOMPARE(w.setupPanel()->tracePage()->cpuCombo()->currentText(), QStringLiteral("CPU 1 \u2014 3 idle spans"));
    QCOMPARE(w.setupPanel()->tracePage()->cpuCombo()->itemText(0), QStringLiteral("CPU 0 \u2014 1 idle span"));
    // Picking CPU 0 in the selector replays its one span, without importing again.
    const int importsBeforePick = traceImportCount();
    QComboBox *cpus = w.setupPanel()->tracePage()->cpuCombo();
    s = nextSnapshot(w, [&] {
        cpus->setCurrentIndex(0);
        emit cpus->activated(0); // what a click does
    });
    QVERIFY(s);
    QCOMPARE(s->spec.workload.cpu, 0);
    QCOMPARE(s->stream->size(), std::size_t(1));
    QCOMPARE(s->workloadDescription, QStringLiteral("trace two-cpus.txt, CPU 0"));
    QCOMPARE(traceImportCount(), importsBeforePick);
    // The same path rewritten on disk (another size), the same CPU chosen: opening it
    // again imports it again and replays the new spans, not a cached stream.
    const int imports = traceImportCount();
    write({2, 5});
    s = nextSnapshot(w, [&] { QVERIFY(w.setupPanel()->loadTraceFile(path)); });
    QVERIFY(s);
    QCOMPARE(traceImportCount(), imports + 1);
    QCOMPARE(s->spec.workload.cpu, 1);
    QCOMPARE(s->stream->size(), std::size_t(5));
    QTRY_VERIFY_WITH_TIMEOUT(summaryShown(w.setupPanel()->tracePage()), TIMEOUT_MS);
    QCOMPARE(w.setupPanel()->tracePage()->cpuCombo()->itemText(0), QStringLiteral("CPU 0 \u2014 2 idle spans"));
}

void TestMainWindow::kernelTraceSessionRoundTrip()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("trace.idlescope"));
    {
        MainWindow w;
        QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
        QVERIFY(nextSnapshot(w, [&] { QVERIFY(w.setupPanel()->loadTraceFile(pipeTrace(), 0)); }));
        QCOMPARE(w.saveSessionTo(path), QString());
    }
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject workload =
        QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("workload")).toObject();
    QCOMPARE(workload.value(QStringLiteral("kind")).toString(), QStringLiteral("trace"));
    QCOMPARE(workload.value(QStringLiteral("path")).toString(), pipeTrace());
    QCOMPARE(workload.value(QStringLiteral("params")).toObject().value(QStringLiteral("cpu")).toInt(-1), 0);

    MainWindow w;
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    const SnapshotPtr s = nextSnapshot(w, [&] { QCOMPARE(w.openSession(path), QString()); });
    QVERIFY(s);
    QCOMPARE(s->spec.workload.kind, WorkloadKind::Trace);
    QCOMPARE(QString::fromStdString(s->spec.workload.path), pipeTrace());
    QCOMPARE(s->spec.workload.cpu, 0);
    QCOMPARE(s->stream->size(), std::size_t(21570)); // rows, as above
    QCOMPARE(w.setupPanel()->workload().kind, WorkloadKind::Trace);
    QTRY_VERIFY_WITH_TIMEOUT(summaryShown(w.setupPanel()->tracePage()), TIMEOUT_MS);
    QCOMPARE(w.setupPanel()->tracePage()->cpu(), 0);
    QCOMPARE(w.setupPanel()->tracePage()->cpuCombo()->currentIndex(), 0);
}

void TestMainWindow::disablingAStateReSimulates()
{
    MainWindow w;
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    auto *table = w.setupPanel()->findChild<QTableWidget *>();
    QVERIFY(table);
    const SnapshotPtr s = nextSnapshot(w, [&] { table->item(1, 4)->setCheckState(Qt::Unchecked); }); // CEDE off
    QVERIFY(s);
    QVERIFY(s->table[1].disabled);
    const int menu = s->indexOf("menu-6.14");
    QCOMPARE(w.legend()->shownCounts(menu).usage[1], std::int64_t(0));
    QCOMPARE(w.legend()->shownCounts(menu).totalAbove(), std::int64_t(0));
    // A bad latency is refused and the table keeps its value.
    QSignalSpy err(w.setupPanel(), &SetupPanel::errorOccurred);
    table->item(1, 1)->setText(QStringLiteral("-5"));
    QCOMPARE(err.count(), 1);
    QCOMPARE(w.setupPanel()->target().table[1].exitLatencyNs, Ns(12000));
    QCOMPARE(table->item(1, 1)->text(), QStringLiteral("12"));
}

void TestMainWindow::noGovernorSelectedDoesNotCrash()
{
    MainWindow w;
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    const SnapshotPtr s = nextSnapshot(w, [&] {
        for (const GovernorSpec &g : w.currentSpec().governors)
            w.setupPanel()->setGovernorChecked(g.variant, false);
    });
    QVERIFY(s);
    QCOMPARE(s->governorCount(), 0);
    w.refreshPlotsNow();
    w.playbackBar()->stepForward();
    w.playbackBar()->play();
    w.playbackBar()->advance(1000000);
    w.playbackBar()->pause();
}

void TestMainWindow::sessionRoundTripRestoresParametersAndView()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("round.idlescope"));
    qint64 start = 0, end = 0;
    {
        MainWindow w;
        QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
        const SnapshotPtr s = nextSnapshot(w, [&] {
            w.parameterPanel()->applySettings("menu-6.14", {{"INTERVALS", 12}});
            w.parameterPanel()->setLatencyLimitNs(50000);
            w.runner()->requestNow(w.currentSpec());
        });
        QVERIFY(s);
        w.viewState()->zoomTo(w.viewState()->fullEndNs() / 4, w.viewState()->fullEndNs() / 2);
        start = w.viewState()->rangeStartNs();
        end = w.viewState()->rangeEndNs();
        QCOMPARE(w.saveSessionTo(path), QString());
    }
    MainWindow w;
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    const SnapshotPtr s = nextSnapshot(w, [&] { QCOMPARE(w.openSession(path), QString()); });
    QVERIFY(s);
    QCOMPARE(w.parameterPanel()->row("menu-6.14", QStringLiteral("INTERVALS"))->value(), std::int64_t(12));
    QCOMPARE(w.parameterPanel()->latencyLimitNs(), Ns(50000));
    QCOMPARE(s->spec.latencyLimitNs, Ns(50000)); // the replay applies it (tst_simulation_runner)
    const int menu = s->indexOf("menu-6.14");
    QCOMPARE(s->governors[std::size_t(menu)].run->settings, (std::vector<TunableSetting>{{"INTERVALS", 12}}));
    QCOMPARE(w.viewState()->rangeStartNs(), start);
    QCOMPARE(w.viewState()->rangeEndNs(), end);
    // A missing file is read on the worker too; its error names it in the message bar.
    const QString missing = dir.filePath(QStringLiteral("missing.idlescope"));
    QCOMPARE(w.openSession(missing), QString());
    QTRY_VERIFY_WITH_TIMEOUT(w.messageBar()->text().contains(missing), TIMEOUT_MS);
}

void TestMainWindow::playbackMovesCursorAndCounts()
{
    MainWindow w;
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    PlaybackBar *bar = w.playbackBar();
    bar->toStart();
    QCOMPARE(w.viewState()->cursorNs(), qint64(0));
    QCOMPARE(w.legend()->shownCounts(0).entries, std::int64_t(0)); // the first entry starts after the 3 us gap
    bar->stepForward();
    QCOMPARE(w.viewState()->cursorNs(), w.snapshot()->governors[0].run->startNs[0]);
    QCOMPARE(w.legend()->shownCounts(0).entries, std::int64_t(1));
    bar->stepForward();
    QCOMPARE(w.viewState()->cursorNs(), w.snapshot()->governors[0].run->startNs[1]);
    QCOMPARE(w.legend()->shownCounts(0).entries, std::int64_t(2));
    bar->stepBackward();
    QCOMPARE(w.legend()->shownCounts(0).entries, std::int64_t(1));
    bar->advance(1000000000); // 1 s of wall time at 1x: 1 s of run
    QVERIFY(w.viewState()->cursorNs() > 900000000);
    const std::int64_t partial = w.legend()->shownCounts(0).entries;
    QVERIFY(partial > 8000 && partial < 20000);
    bar->toEnd();
    QCOMPARE(w.viewState()->cursorNs(), qint64(-1));
    QCOMPARE(w.legend()->shownCounts(0).entries, w.snapshot()->governors[0].run->summary.entries);
}

void TestMainWindow::zoomIsSharedAndUndoable()
{
    MainWindow w;
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    ViewState *v = w.viewState();
    const qint64 end = v->fullEndNs();
    QCOMPARE(v->rangeStartNs(), qint64(0));
    v->zoomTo(end / 4, end / 2);
    w.refreshPlotsNow();
    for (int i = 0; i < 3; ++i) { // the three time plots
        QCPAxis *x = w.plots()[i]->customPlot()->xAxis;
        QCOMPARE(qRound64(x->range().lower), end / 4);
        QCOMPARE(qRound64(x->range().upper), end / 2);
    }
    QVERIFY(v->zoomOut());
    QCOMPARE(v->rangeEndNs(), end);
    QVERIFY(!v->zoomOut());
}

void TestMainWindow::selectionLineFollowsAReSimulatedEntry()
{
    // Audit: the inspector moved to the re-simulated entry (11.63 s) while the plots'
    // dashed line stayed at the old run's 10.500053 s.
    MainWindow w;
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    const SnapshotPtr s0 = w.snapshot();
    const int g = s0->indexOf("menu-6.19");
    QVERIFY(g >= 0);
    w.viewState()->selectEntry(g, 100000);
    const qint64 before = s0->governors[std::size_t(g)].run->startNs[100000];
    // Span 100000's start on the stream's time: 100,001 gaps of 5 us (run_us) and 100,000
    // idle intervals of 100 us, 10.500005 s.
    QCOMPARE(before / 1000, qint64(10500005));
    QTRY_VERIFY_WITH_TIMEOUT(inspectorShows(w, "menu-6.19", 100000), TIMEOUT_MS);
    w.refreshPlotsNow();
    QCOMPARE(timePlots(w).size(), 3);
    for (TimePlot *p : timePlots(w))
        QCOMPARE(p->selectionLineNs(), before);

    const SnapshotPtr s = nextSnapshot(w, [&] { setMenu619ThresholdTo200us(w); });
    QVERIFY(s && s != s0);
    QCOMPARE(s->indexOf("menu-6.19"), g);
    QCOMPARE(w.viewState()->selectedGovernor(), g);
    // The same wakeup (stream span), not the same entry number: the new run
    // splits spans differently, so entry 100000 is another moment now.
    const GovernorRun &old = *s0->governors[std::size_t(g)].run;
    const GovernorRun &now = *s->governors[std::size_t(g)].run;
    const qint64 moved = w.viewState()->selectedEntry();
    QVERIFY(moved >= 0);
    QCOMPARE(now.span[std::size_t(moved)], old.span[100000]);
    QVERIFY(moved == 0 || now.span[std::size_t(moved) - 1] != old.span[100000]); // its first entry, as before
    QVERIFY(old.span[99999] != old.span[100000]);
    const qint64 after = now.startNs[std::size_t(moved)];
    // The same wakeup at the same x: every run is on the stream's time, whatever CEDE's exit
    // latencies did to its own clock (they moved it when each run kept its own).
    QCOMPARE(after, before);
    w.refreshPlotsNow();
    for (TimePlot *p : timePlots(w)) {
        QCOMPARE(p->selectionLineNs(), after);
        QCOMPARE(p->selectionLineColor(), s->governors[std::size_t(g)].color);
    }
    QTRY_VERIFY_WITH_TIMEOUT(inspectorShows(w, "menu-6.19", moved), TIMEOUT_MS);

    // A latency limit below CEDE's exit latency: every governor polls, each span
    // is split at the polling limit into more entries; the selection stays on
    // the same wakeup (seen in a user trial: entry 50000 became a wakeup 1.3 s earlier).
    const SnapshotPtr limited = nextSnapshot(w, [&] {
        w.parameterPanel()->setLatencyLimitNs(5000);
        w.runner()->requestNow(w.currentSpec());
    });
    QVERIFY(limited);
    const qint64 polled = w.viewState()->selectedEntry();
    QCOMPARE(limited->governors[std::size_t(g)].run->span[std::size_t(polled)], old.span[100000]);
    QVERIFY(limited->governors[std::size_t(g)].run->size() != now.size());
    QTRY_VERIFY_WITH_TIMEOUT(inspectorShows(w, "menu-6.19", polled), TIMEOUT_MS);
}

void TestMainWindow::selectionFollowsItsGovernorByVariant()
{
    // Audit: teo-6.14 (index 2) selected, menu-6.14 unchecked: the selection stayed index 2,
    // now the oracle, in the inspector, while the plots kept teo's green line.
    MainWindow w;
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    QCOMPARE(w.snapshot()->indexOf("teo-6.14"), 2);
    w.viewState()->selectEntry(2, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(inspectorShows(w, "teo-6.14", 5000), TIMEOUT_MS);

    SnapshotPtr s = nextSnapshot(w, [&] { w.setupPanel()->setGovernorChecked("menu-6.14", false); });
    QVERIFY(s);
    QCOMPARE(s->indexOf("menu-6.14"), -1);
    QCOMPARE(s->indexOf("teo-6.14"), 1);
    QCOMPARE(s->indexOf("oracle"), 2);
    QCOMPARE(w.viewState()->selectedGovernor(), 1);
    QCOMPARE(w.viewState()->selectedEntry(), qint64(5000));
    w.refreshPlotsNow();
    for (TimePlot *p : timePlots(w)) {
        QCOMPARE(p->selectionLineNs(), s->governors[1].run->startNs[5000]);
        QCOMPARE(p->selectionLineColor(), s->governors[1].color);
    }
    QTRY_VERIFY_WITH_TIMEOUT(inspectorShows(w, "teo-6.14", 5000), TIMEOUT_MS);

    // Its governor removed, the selection is cleared everywhere.
    s = nextSnapshot(w, [&] { w.setupPanel()->setGovernorChecked("teo-6.14", false); });
    QVERIFY(s);
    QCOMPARE(s->indexOf("teo-6.14"), -1);
    QCOMPARE(s->governorCount(), 2);
    verifyNothingSelected(w);
}

void TestMainWindow::selectionClearedWithItsGovernorStaysCleared()
{
    // Audit: every governor unchecked, then teo-6.14 checked again: the inspector said
    // "No entry selected" but the plots still drew the old dashed line.
    MainWindow w;
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    w.viewState()->selectEntry(0, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(inspectorShows(w, "menu-6.14", 5000), TIMEOUT_MS);
    QVERIFY(nextSnapshot(w, [&] {
        for (const GovernorSpec &g : w.currentSpec().governors)
            w.setupPanel()->setGovernorChecked(g.variant, false);
    }));
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot()->governorCount() == 0 && !w.runner()->isBusy(), TIMEOUT_MS);
    QCOMPARE(w.viewState()->selectedGovernor(), -1);
    QCOMPARE(w.viewState()->selectedEntry(), qint64(-1));

    const SnapshotPtr s = nextSnapshot(w, [&] { w.setupPanel()->setGovernorChecked("teo-6.14", true); });
    QVERIFY(s);
    QCOMPARE(s->governorCount(), 1);
    verifyNothingSelected(w);
}

void TestMainWindow::parameterChangeKeepsTheZoom()
{
    // Audit: zoomed to 10.000-10.002 s, a slider release showed the whole run again
    // because the run's end moved (exit latencies are part of the timeline).
    MainWindow w;
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    ViewState *v = w.viewState();
    const qint64 endBefore = w.snapshot()->durationNs();
    QCOMPARE(v->fullEndNs(), endBefore);
    v->zoomTo(10000000000, 10002000000);

    SnapshotPtr s = nextSnapshot(w, [&] { setMenu619ThresholdTo200us(w); });
    QVERIFY(s);
    // On the stream's time the end stays where it was (it moved while each run kept its own clock).
    QCOMPARE(s->durationNs(), endBefore);
    // The full range is the new run's (scroll bars, zoom-out) ...
    QCOMPARE(v->fullStartNs(), qint64(0));
    QCOMPARE(v->fullEndNs(), s->durationNs());
    // ... and the window stays where the user put it.
    QCOMPARE(v->rangeStartNs(), qint64(10000000000));
    QCOMPARE(v->rangeEndNs(), qint64(10002000000));
    QCOMPARE(v->zoomDepth(), 1);
    w.refreshPlotsNow();
    for (TimePlot *p : timePlots(w)) {
        QCOMPARE(qRound64(p->customPlot()->xAxis->range().lower), qint64(10000000000));
        QCOMPARE(qRound64(p->customPlot()->xAxis->range().upper), qint64(10002000000));
    }
    // Zooming out shows the whole new run, not the old one's end.
    QVERIFY(v->zoomOut());
    QCOMPARE(v->rangeStartNs(), qint64(0));
    QCOMPARE(v->rangeEndNs(), s->durationNs());

    // A new workload shows everything.
    v->zoomTo(1000000000, 1002000000);
    const QString kit = test::kitDir();
    s = nextSnapshot(w, [&] {
        QVERIFY(w.setupPanel()->loadStreamFile(kit + QStringLiteral("/streams/pipe-wakeups.csv")));
    });
    QVERIFY(s);
    QCOMPARE(s->stream->size(), std::size_t(4000));
    QCOMPARE(v->rangeStartNs(), qint64(0));
    QCOMPARE(v->rangeEndNs(), s->durationNs());
    QCOMPARE(v->zoomDepth(), 0);
}

void TestMainWindow::screenshotIsWritten()
{
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, TIMEOUT_MS);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("shot.png"));
    QVERIFY(w.saveScreenshot(path));
    const QImage img(path);
    QCOMPARE(img.size(), w.size());
    // Not a blank frame: the governor colours are drawn somewhere.
    bool seen = false;
    const QRgb menuBlue = governorColor(0, "menu-6.14").rgb();
    for (int y = 0; y < img.height() && !seen; y += 2)
        for (int x = 0; x < img.width() && !seen; x += 2)
            seen = img.pixel(x, y) == menuBlue;
    QVERIFY(seen);

    // On a full disk the old picture stays whole (issue 30 item 3: QPixmap::save() wrote in
    // place and cut it to what fitted). Every write of the savers returns ENOSPC here.
    const QByteArray old = test::readAll(path);
    setWriteSyscallForTesting([](int, const void *, size_t) -> ssize_t {
        errno = ENOSPC;
        return -1;
    });
    QString error;
    const bool saved = w.saveScreenshot(path, &error);
    setWriteSyscallForTesting(nullptr);
    QVERIFY(!saved);
    QVERIFY2(error.contains(QStringLiteral("No space left on device")), qPrintable(error));
    QCOMPARE(test::readAll(path), old);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("shot.png")});
}

void TestMainWindow::applicationStartsAndQuits()
{
    // The app binary sits next to the CLI's build folder: app/gui/idlescope.
    const QString cli = QStringLiteral(IDLESCOPE_CLI);
    const QString app = QFileInfo(cli).absolutePath() + QStringLiteral("/../gui/idlescope");
    QVERIFY2(QFileInfo::exists(app), qPrintable(app + QStringLiteral(" not built")));
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("smoke.png"));
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    p.start(app, {QStringLiteral("--screenshot"), out});
    QVERIFY(p.waitForFinished(TIMEOUT_MS));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 0);
    QVERIFY(QFileInfo(out).size() > 10000);
}

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
