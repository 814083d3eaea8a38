// SPDX-License-Identifier: GPL-3.0-or-later
// The message bar's policy (widgets/panels/message_center.h), without a window: which
// message a run, a failure or a warning leaves on the bar. Each case feeds the events in
// the order the window hears them (runner started → message → snapshot) and reads the bar.
#include "widgets/panels/message_bar.h"
#include "widgets/panels/message_center.h"

#include <QStatusBar>
#include <QTest>

using namespace idlescope;

class TestMessageCenter : public QObject {
    Q_OBJECT
private slots:
    void errorOutlivesTheRunUnderWay();
    void errorIsNotClearedByTheStartUpFallback();
    void warningStaysWithItsWorkload();
    void snapshotWarningsReplaceAnError();
    void failureHeardTwiceKeepsTheFirstWording();
    void noteIsClearedByTheNextRun();
    void statusBarShowsOneShortLine();
};

namespace {

WorkloadSourceSpec traceWorkload(const QString &path)
{
    WorkloadSourceSpec w;
    w.kind = WorkloadKind::Trace;
    w.path = path.toStdString();
    return w;
}

WorkloadSourceSpec periodic()
{
    return WorkloadSourceSpec(WorkloadKind::Generator);
}

/// The window's message bar and status bar with the center that drives them, job @p job under way.
struct Bars {
    explicit Bars(quint64 job) { messages.runStarted(job); }

    MessageBar bar;
    QStatusBar status;
    MessageCenter messages{&bar, &status};
};

/// The bar of @p b shows @p text as @p kind and its status bar @p line (a failure is the caller's test's).
void checkShown(const Bars &b, const QString &text, MessageBar::Kind kind, const QString &line)
{
    QCOMPARE(b.bar.text(), text);
    QCOMPARE(b.bar.kind(), kind);
    QCOMPARE(b.status.currentMessage(), line);
}

} // namespace

void TestMessageCenter::errorOutlivesTheRunUnderWay()
{
    Bars b(4);
    const QString error = QStringLiteral("t.json:3: exit_latency_ns: not a number");
    b.messages.showError(error);
    checkShown(b, error, MessageBar::Kind::Error, error);
    // Job 4 was under way when the error came: its snapshot knows nothing of it.
    b.messages.snapshotShown({}, 4, periodic(), false);
    QCOMPARE(b.bar.text(), error);
    // Job 5 was asked for after it and succeeded: the error is over.
    b.messages.runStarted(5);
    b.messages.snapshotShown({}, 5, periodic(), false);
    QVERIFY(b.bar.isHidden());
    QCOMPARE(b.bar.text(), QString());
}

void TestMessageCenter::errorIsNotClearedByTheStartUpFallback()
{
    MessageBar bar;
    MessageCenter messages(&bar, nullptr);
    messages.runStarted(1);
    messages.runFailed(QStringLiteral("/x/gone.csv: no such file"));
    // The default scenario (job 2) stands in for the start-up file: the failure stays in view.
    messages.runStarted(2);
    messages.snapshotShown({}, 2, periodic(), true);
    QCOMPARE(bar.text(), QStringLiteral("/x/gone.csv: no such file"));
    QCOMPARE(bar.kind(), MessageBar::Kind::Error);
}

void TestMessageCenter::warningStaysWithItsWorkload()
{
    MessageBar bar;
    MessageCenter messages(&bar, nullptr);
    const WorkloadSourceSpec juno = traceWorkload(QStringLiteral("/t/juno.dat"));
    messages.runStarted(7);
    messages.showWarning(QStringLiteral("juno.dat: 3 events out of order"), juno);
    // Later runs of the same file (another CPU, a slider) keep it.
    WorkloadSourceSpec cpu2 = juno;
    cpu2.cpu = 2;
    messages.runStarted(8);
    messages.snapshotShown({}, 8, cpu2, false);
    QCOMPARE(bar.text(), QStringLiteral("juno.dat: 3 events out of order"));
    QCOMPARE(bar.kind(), MessageBar::Kind::Warning);
    // Another workload's run ends it.
    messages.runStarted(9);
    messages.snapshotShown({}, 9, traceWorkload(QStringLiteral("/t/other.dat")), false);
    QVERIFY(bar.isHidden());
}

void TestMessageCenter::snapshotWarningsReplaceAnError()
{
    MessageBar bar;
    MessageCenter messages(&bar, nullptr);
    messages.runStarted(3);
    messages.showError(QStringLiteral("Label 'a b' refused"));
    // Even the run under way: a snapshot's own warnings are what the bar shows now.
    messages.snapshotShown({QStringLiteral("src:x.c: build failed"), QStringLiteral("teo-6.14: no states")}, 3,
                           periodic(), false);
    QCOMPARE(bar.text(), QStringLiteral("src:x.c: build failed\nteo-6.14: no states"));
    QCOMPARE(bar.kind(), MessageBar::Kind::Warning);
}

void TestMessageCenter::failureHeardTwiceKeepsTheFirstWording()
{
    MessageBar bar;
    MessageCenter messages(&bar, nullptr);
    messages.runStarted(2);
    // A session's trace fails its import (worded for the session), then the run that read it fails the same way.
    messages.runFailed(QStringLiteral("bad.dat:12: cpu: missing"),
                       QStringLiteral("Could not open session s.idlescope: bad.dat:12: cpu: missing"));
    messages.runFailed(QStringLiteral("bad.dat:12: cpu: missing"));
    QCOMPARE(bar.text(), QStringLiteral("Could not open session s.idlescope: bad.dat:12: cpu: missing"));
    // Another failure is shown.
    messages.runFailed(QStringLiteral("other.csv:1: gap_ns: negative"));
    QCOMPARE(bar.text(), QStringLiteral("other.csv:1: gap_ns: negative"));
    // A reworded failure is shown even when the bar ends with its message.
    messages.runFailed(QStringLiteral("other.csv:1: gap_ns: negative"),
                       QStringLiteral("Could not open session t.idlescope: other.csv:1: gap_ns: negative"));
    QCOMPARE(bar.text(), QStringLiteral("Could not open session t.idlescope: other.csv:1: gap_ns: negative"));
}

void TestMessageCenter::noteIsClearedByTheNextRun()
{
    Bars b(6);
    // Copy as command's caveats: on the bar only (the status bar says what was copied), and
    // not pinned to the run under way: even job 6's snapshot clears it (an error would stay).
    b.messages.showNote(QStringLiteral("Copied the command. --workload cannot carry the trace's CPU."));
    checkShown(b, QStringLiteral("Copied the command. --workload cannot carry the trace's CPU."),
               MessageBar::Kind::Warning, QString());
    b.messages.snapshotShown({}, 6, periodic(), false);
    QVERIFY(b.bar.isHidden());
}

void TestMessageCenter::statusBarShowsOneShortLine()
{
    // The status bar paints its message on one line: a compiler's 20,000 lines go to
    // the bar (and its tooltip), the status bar gets the first line, cut at 300 characters.
    MessageBar bar;
    QStatusBar status;
    MessageCenter messages(&bar, &status);
    const QString first = QString(400, u'a');
    messages.showError(first + QStringLiteral("\nsecond line"));
    QCOMPARE(status.currentMessage(), QString(300, u'a') + QChar(0x2026));
    QCOMPARE(bar.text(), first + QStringLiteral("\nsecond line"));
    QCOMPARE(bar.shownText(), QString(240, u'a') + QChar(0x2026) + QStringLiteral("\nsecond line"));
}

QTEST_MAIN(TestMessageCenter)
#include "tst_message_center.moc"
