// SPDX-License-Identifier: GPL-3.0-or-later
// A file that is not a trace, opened as one (a Markdown file): the panels go
// back to the scenario the plots show (no "Not imported" beside the previous
// run's plots), and the error cites the line it quotes.
#include "tests/test_files.h"
#include "tests/widgets/window_fixture.h"
#include "widgets/main_window.h"
#include "widgets/panels/message_bar.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/session/session.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace idlescope;

class TestFailedImport : public QObject {
    Q_OBJECT
private slots:
    void markdownAsTraceLeavesPanelsAndPlotsConsistent();
};

void TestFailedImport::markdownAsTraceLeavesPanelsAndPlotsConsistent()
{
    QTemporaryDir dir;
    const QString md = dir.filePath(QStringLiteral("notes.md"));
    // Line 1 a heading, 2 blank (skipped), 3 the first line that is not an event; 5 lines in all.
    test::writeFile(md, "# Notes\n\nsome text here\n\nmore text\n");
    MainWindow w;
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr && !w.isBusyShown(), test::WINDOW_TIMEOUT_MS);
    const SnapshotPtr before = w.snapshot();
    QVERIFY(sameScenario(w.currentSpec(), before->spec));
    QCOMPARE(w.openFile(md), QString()); // the file exists: its import runs on the pool
    QTRY_VERIFY_WITH_TIMEOUT(w.messageBar()->isVisible() && !w.messageBar()->text().isEmpty(), test::WINDOW_TIMEOUT_MS);
    const QString message = w.messageBar()->text();
    // The line quoted is line 3 (it cited line 5, the file's last).
    QVERIFY2(message.contains(QStringLiteral("notes.md:3:")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("some text here")), qPrintable(message));
    // Plots and panels tell one story: the previous run, and its workload in the panel.
    QCOMPARE(w.snapshot(), before);
    QVERIFY(sameScenario(w.currentSpec(), before->spec)); // it kept the trace, "Not imported"
    QCOMPARE(workloadKindName(w.currentSpec().workload), QStringLiteral("periodic"));
    QCOMPARE(w.currentSpec().governors.size(), before->spec.governors.size()); // 'recorded' unchecked again
    QVERIFY(!w.isWindowModified());                                            // nothing changed that could be saved
}

QTEST_MAIN(TestFailedImport)
#include "tst_failed_import.moc"
