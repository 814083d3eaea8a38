// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Every input the fuzzers ever crashed on (tests/fuzz/regressions/<target>/),
 * replayed through the same calls as the fuzz target, in the ordinary test
 * run (no clang needed). An input must give a result or an Error with a
 * message; exported streams must pass the conformance reader's checks.
 */
#include "core/io/stream_csv.h"
#include "core/trace/stats_format.h"
#include "core/trace/trace_import.h"
#include "core/trace/trace_stats.h"
#include "core/trace/trace_stream.h"

#include "tests/test_paths.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace idlescope;
using namespace idlescope::trace;

namespace {

QStringList inputs(const char *target)
{
    const QDir dir(test::sourceDir() + QStringLiteral("/tests/fuzz/regressions/") + QString::fromUtf8(target));
    QStringList files;
    for (const QString &name : dir.entryList(QDir::Files | QDir::Hidden, QDir::Name))
        files << dir.filePath(name);
    return files;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestTraceFuzzRegressions : public QObject {
    Q_OBJECT

private slots:
    void textInputs()
    {
        const QStringList files = inputs("fuzz_trace_text");
        QVERIFY(!files.isEmpty()); // at least the .gitkeep: the folder is where the script looks
        IdleStateTable t;
        t.id = "fuzz";
        t.states = {{"WFI", "", 1000, 1000, false, false}, {"C2", "", 100000, 300000, false, false}};
        for (const QString &path : files) {
            const QByteArray bytes = readAll(path);
            Result<TraceImport> r = importTraceText(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())),
                                                    path.toStdString());
            if (!r) {
                QVERIFY2(!r.error().message.empty(), qPrintable(path));
                continue;
            }
            const TraceStats s = computeStats(*r, &t);
            QVERIFY(!formatStatsJson({*r, s, nullptr}).empty());
            for (const CpuTrace &c : r->cpus) {
                const StreamExport ex = toReplayStream(c);
                for (const IdleSpan &row : ex.stream)
                    QVERIFY2(validateSpan(row, "x", 1).ok(), qPrintable(path));
            }
        }
    }

    void fileInputs()
    {
        QTemporaryDir dir;
        const QStringList files = inputs("fuzz_trace_dat");
        QVERIFY(!files.isEmpty());
        for (const QString &path : files) {
            const QString copy = dir.filePath(QStringLiteral("input.dat"));
            QFile::remove(copy);
            QVERIFY(QFile::copy(path, copy));
            Result<TraceImport> r = importTrace(copy.toStdString());
            if (!r)
                QVERIFY2(!r.error().message.empty(), qPrintable(path));
        }
    }
};

QTEST_GUILESS_MAIN(TestTraceFuzzRegressions)
#include "tst_trace_fuzz_regressions.moc"
