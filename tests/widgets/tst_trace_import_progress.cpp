// SPDX-License-Identifier: GPL-3.0-or-later
// A large trace imports with a progress bar and a Cancel button (issue 13): the
// import runs on the thread pool, the page shows both while it runs, Cancel stops
// it ("import cancelled", nothing kept), a simulation waiting for the same file
// does not import it behind the user's back, and opening it again imports it.
#include "widgets/panels/trace_workload_page.h"
#include "widgets/runner/trace_workload.h"

#include "tests/test_files.h"

#include <QFile>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace idlescope;

class TestTraceImportProgress : public QObject {
    Q_OBJECT
private slots:
    void cancelStopsTheImport();
};

namespace {

constexpr int ENTRIES = 150000;

/// ftrace text with @p entries cpu_idle entries on CPU 0 (state 1 for 200 us every 300 us):
/// 2 lines an entry, 4.6 x the importer's progress interval of 65536 lines.
QByteArray bigTrace(int entries)
{
    QByteArray text = "# tracer: nop\n";
    text.reserve(entries * 2 * 80);
    auto stamp = [](qint64 us) {
        return QByteArray::number(100 + us / 1000000) + '.' + QByteArray::number(us % 1000000).rightJustified(6, '0');
    };
    for (qint64 i = 0, t = 0; i < entries; ++i, t += 300) {
        text += "          <idle>-0       [000] d..1.   " + stamp(t + 1) + ": cpu_idle: state=1 cpu_id=0\n";
        text += "          <idle>-0       [000] d..1.   " + stamp(t + 201) + ": cpu_idle: state=4294967295 cpu_id=0\n";
    }
    return text;
}

} // namespace

void TestTraceImportProgress::cancelStopsTheImport()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.ftrace.txt"));
    test::writeFile(path, bigTrace(ENTRIES));
    TraceWorkloadPage page;
    QSignalSpy errors(&page, &TraceWorkloadPage::errorOccurred);
    QSignalSpy ready(&page, &TraceWorkloadPage::summaryReady);
    const int imports = traceImportCount();
    page.setTrace(path, TRACE_BEST_CPU);
    QVERIFY(page.isImporting());
    QVERIFY(page.importProgressBar()->isVisibleTo(&page));
    QVERIFY(page.cancelImportButton()->isVisibleTo(&page));
    page.cancelImportButton()->click();
    QVERIFY(ready.wait(60000) || !ready.isEmpty());
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors.front().front().toString().contains(QStringLiteral("import cancelled")),
             qPrintable(errors.front().front().toString()));
    QVERIFY(page.summary() == nullptr);
    QVERIFY(!page.importProgressBar()->isVisibleTo(&page));
    QVERIFY(!page.cancelImportButton()->isVisibleTo(&page));
    QCOMPARE(traceImportCount(), imports + 1);
    // The runner asking for the cancelled file gets the same answer, without a second import.
    const Result<IdleStream> stream = traceWorkloadStream(path, 0);
    QVERIFY(!stream);
    QVERIFY(QString::fromStdString(stream.error().toString()).contains(QStringLiteral("import cancelled")));
    QCOMPARE(traceImportCount(), imports + 1);

    // Opened again: imported to the end, every entry kept.
    ready.clear();
    page.setTrace(path, TRACE_BEST_CPU);
    QVERIFY(ready.wait(120000) || !ready.isEmpty());
    QVERIFY(page.summary());
    QCOMPARE(traceImportCount(), imports + 2);
    QCOMPARE(page.summary()->cpus.at(0).entries, qint64(ENTRIES));
    QVERIFY(!page.importProgressBar()->isVisibleTo(&page));
}

QTEST_MAIN(TestTraceImportProgress)
#include "tst_trace_import_progress.moc"
