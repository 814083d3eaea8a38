// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The arbiter of "faithful": every file in shared/conformance/expected/ is
 * replayed with its variant, stream and table, and every entry row and the
 * summary must match the kernel's own decisions exactly. On a mismatch the
 * first differing row is printed with the expected and actual values and the
 * governor's reasoning record at that entry. Each row is also run as the GUI
 * and the CLI run it (runGovernor(), no reasoning record kept) and must make
 * the same decisions.
 *
 * IDLESCOPE_CONFORMANCE_FILTER=<substring> restricts the rows (e.g. "teo-6.14/").
 */
#include "tests/test_paths.h"
#include "tests/test_require.h"

#include "core/formats/csv_fields.h"
#include "core/formats/line_reader.h"
#include "core/formats/replay_output.h"
#include "core/formats/stream_csv.h"
#include "core/governors/explain.h"
#include "core/io/table_json.h"
#include "core/replay/governor_factory.h"
#include "core/replay/governor_run.h"
#include "core/replay/reference_replay.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <map>
#include <vector>

using namespace idlescope;
using namespace Qt::StringLiterals;

class TestConformance : public QObject {
    Q_OBJECT

private:
    std::map<QString, IdleStateTable> m_tables;
    std::map<QString, IdleStream> m_streams;
    QString m_root;

    /// The kit's file @p folder/@p name@p suffix, read by @p read once into @p cache; an
    /// unreadable one is an error for each row that needs it.
    template <typename T, typename Read>
    Result<const T *> readOnce(std::map<QString, T> &cache, const QString &folder, const QString &name,
                               const QString &suffix, Read read)
    {
        auto it = cache.find(name);
        if (it == cache.end()) {
            Result<T> r = read((m_root + u'/' + folder + u'/' + name + suffix).toStdString());
            if (!r)
                return r.error();
            it = cache.emplace(name, std::move(*r)).first;
        }
        return &it->second;
    }

    /// The kit's table @p id.
    Result<const IdleStateTable *> table(const QString &id)
    {
        return readOnce(m_tables, u"tables"_s, id, u".json"_s,
                        [](const std::string &path) { return readTableJson(path); });
    }

    /// The kit's stream @p name.
    Result<const IdleStream *> stream(const QString &name)
    {
        return readOnce(m_streams, u"streams"_s, name, u".csv"_s,
                        [](const std::string &path) { return readStreamCsv(path); });
    }

private slots:
    void initTestCase()
    {
        m_root = test::kitDir();
        QVERIFY2(QDir(m_root + u"/expected"_s).exists(), qPrintable(u"conformance kit not found at "_s + m_root));
    }

    void kernelDecisions_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<QString>("streamName");
        QTest::addColumn<QString>("tableId");
        const QByteArray filter = qgetenv("IDLESCOPE_CONFORMANCE_FILTER");
        QDir expected(m_root + u"/expected"_s);
        int rows = 0;
        for (const QString &variant : expected.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            QDir vdir(expected.filePath(variant));
            for (const QString &f : vdir.entryList({u"*.csv.gz"_s}, QDir::Files, QDir::Name)) {
                const QString base = f.chopped(7); // ".csv.gz"
                const qsizetype sep = base.indexOf(u"__"_s);
                const QString tag = variant + u'/' + base;
                if (!filter.isEmpty() && !tag.contains(QString::fromLocal8Bit(filter)))
                    continue;
                QTest::newRow(qPrintable(tag)) << variant << base.left(sep) << base.mid(sep + 2);
                ++rows;
            }
        }
        QVERIFY2(rows > 0 || !filter.isEmpty(), "no expected files found");
    }

    void kernelDecisions()
    {
        QFETCH(QString, variant);
        QFETCH(QString, streamName);
        QFETCH(QString, tableId);

        std::unique_ptr<Governor> gov = createGovernor(variant.toStdString());
        QVERIFY2(gov, qPrintable(u"variant not implemented: "_s + variant));
        IDLESCOPE_REQUIRE_OK(drvPtr, table(tableId));
        IDLESCOPE_REQUIRE_OK(spansPtr, stream(streamName));
        const IdleStateTable &drv = *drvPtr;
        const IdleStream &spans = *spansPtr;

        const QString base = m_root + u"/expected/"_s + variant + u'/' + streamName + u"__"_s + tableId;
        LineReader expected((base + u".csv.gz"_s).toStdString());
        QVERIFY2(expected.ok(), expected.error().toString().c_str());
        std::string_view line;
        QVERIFY(expected.next(line));
        QCOMPARE(QString::fromUtf8(line.data(), line.size()), QString::fromUtf8(ENTRIES_CSV_HEADER));

        std::string firstMismatch;
        std::string actualRow;
        std::int64_t rowsCompared = 0;
        bool expectedEnded = false;
        const ReplaySummary summary = replayStream(drv, spans, *gov, [&](const EntryRecord &e, const Governor &g) {
            if (!firstMismatch.empty())
                return;
            actualRow.clear();
            appendEntryCsv(actualRow, e);
            actualRow.pop_back();
            if (!expected.next(line)) {
                expectedEnded = true;
                firstMismatch = "extra entry " + actualRow;
                return;
            }
            ++rowsCompared;
            if (line != actualRow)
                firstMismatch = "row " + std::to_string(expected.lineNumber() - 1) + " (span " + std::to_string(e.span)
                                + ", entry " + std::to_string(e.entry) + ")\n  expected: " + std::string(line)
                                + "\n  actual:   " + actualRow + "\n  at select: now=" + std::to_string(e.startNs)
                                + " sleep_length=" + std::to_string(e.sleepLengthNs) + " delta_next="
                                + std::to_string(e.deltaNextNs) + " latency_req=" + std::to_string(e.latencyReqNs)
                                + " remaining_wake=" + std::to_string(e.remainingWakeNs)
                                + "\n  reasoning: " + describeReasoning(g.reasoning());
        });
        if (firstMismatch.empty() && !expectedEnded && expected.next(line))
            firstMismatch = "missing entries from row " + std::to_string(expected.lineNumber() - 1) + ": expected "
                            + std::string(line);
        QVERIFY2(firstMismatch.empty(), firstMismatch.c_str());
        QVERIFY(rowsCompared > 0);

        QFile sj(base + u".summary.json"_s);
        QVERIFY(sj.open(QIODevice::ReadOnly));
        const std::string expectedSummary = sj.readAll().toStdString();
        QCOMPARE(QString::fromStdString(formatSummaryJson(summary, drv, variant.toStdString())),
                 QString::fromStdString(expectedSummary));
    }

    void entriesOnly_data() { kernelDecisions_data(); }

    /// The GUI's and the CLI's runs (runGovernor) tell the governor that nobody reads its
    /// reasoning record (Governor::keepReasoning), and teo then skips it: the same rows must
    /// make the same decisions that way as the replay above, which matched the kernel's.
    void entriesOnly()
    {
        QFETCH(QString, variant);
        QFETCH(QString, streamName);
        QFETCH(QString, tableId);
        IDLESCOPE_REQUIRE_OK(drvPtr, table(tableId));
        IDLESCOPE_REQUIRE_OK(spansPtr, stream(streamName));
        std::unique_ptr<Governor> gov = createGovernor(variant.toStdString());
        QVERIFY(gov);
        std::vector<EntryRecord> recorded;
        const ReplaySummary summary =
            replayStream(*drvPtr, *spansPtr, *gov,
                         [&](const EntryRecord &e, const Governor &) { recorded.push_back(e); });
        IDLESCOPE_REQUIRE_OK(run, runGovernor(*drvPtr, *spansPtr, variant.toStdString()));
        QCOMPARE(run.size(), recorded.size());
        // Every entry is compared; the message is made for the first differing one only
        // (made for each entry, it took most of the test's time under the asan preset).
        for (std::size_t i = 0; i < recorded.size(); ++i) {
            const EntryRecord &e = recorded[i];
            const bool same = run.state[i] == e.state && run.has(i, ENTRY_STOP_TICK) == e.stopTick
                              && run.predictedNs[i] == e.predictedNs && run.residencyNs[i] == e.residencyNs;
            if (!same)
                QFAIL(qPrintable(u"entry %1 (span %2) differs"_s.arg(i).arg(e.span)));
        }
        QCOMPARE(QString::fromStdString(formatSummaryJson(run.summary, *drvPtr, variant.toStdString())),
                 QString::fromStdString(formatSummaryJson(summary, *drvPtr, variant.toStdString())));
    }
};

QTEST_GUILESS_MAIN(TestConformance)
#include "tst_conformance.moc"
