// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * compare --shard K/N and merge: the shards split the (point, iteration) work
 * units every N-th, and merging the N shard files prints byte for byte what
 * the unsharded compare prints (JSON, CSV, Markdown, aggregates only), in any
 * order of the files and also when GNU parallel runs the shards; bad merges
 * (a missing shard, one given twice, shards of different comparisons) are
 * refused with exit 2 naming the field.
 */
#include "tests/cli_process.h"
#include "tests/test_paths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

using idlescope::test::CliResult;
using idlescope::test::runCli;

namespace {

// Two sweep points x 3 iterations = 6 work units, two governors and the oracle each.
const QStringList kCase = {u"compare"_s,
                           u"--table"_s,
                           u"pseries-power10-lpar"_s,
                           u"--workload"_s,
                           u"periodic:kind=ipi,interval_us=30/100,jitter_us=5"_s,
                           u"--governors"_s,
                           u"menu-6.14,teo-6.14"_s,
                           u"--spans"_s,
                           u"400"_s,
                           u"--iterations"_s,
                           u"3"_s,
                           u"--seed"_s,
                           u"7"_s};

} // namespace

class TestShard : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_shard[3]; // shards 1/2, 2/2 and 1/1

    QString path(const QString &name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QStringList specs = {u"1/2"_s, u"2/2"_s, u"1/1"_s};
        for (int i = 0; i < 3; ++i) {
            m_shard[i] = path(u"shard%1.json"_s.arg(i));
            const CliResult r = runCli(kCase + QStringList{u"--shard"_s, specs[i], u"--output"_s, m_shard[i]});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        }
    }

    void shardsSplitTheWorkUnits()
    {
        // Unit j = point * 3 + iteration; shard K of 2 has the j with j % 2 == K - 1:
        // shard 1: j = 0, 2, 4 = (0,0) (0,2) (1,1); shard 2: j = 1, 3, 5 = (0,1) (1,0) (1,2).
        const QList<QSet<QString>> expected = {{u"0,0"_s, u"0,2"_s, u"1,1"_s}, {u"0,1"_s, u"1,0"_s, u"1,2"_s}};
        for (int i = 0; i < 2; ++i) {
            QFile f(m_shard[i]);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
            QCOMPARE(root.value(u"shard"_s).toArray(), (QJsonArray{i + 1, 2}));
            QSet<QString> units;
            const QJsonArray runs = root.value(u"runs"_s).toArray();
            QCOMPARE(runs.size(), 3 * 2); // 3 units x 2 governors
            for (const QJsonValue &v : runs) {
                const QJsonObject run = v.toObject();
                units.insert(QString::number(run.value(u"point"_s).toInt()) + u','
                             + QString::number(run.value(u"iteration"_s).toInt()));
                // counters[0] is the run's spans: --spans 400.
                QCOMPARE(run.value(u"counters"_s).toArray().at(0).toString(), u"400"_s);
            }
            QCOMPARE(units, expected[i]);
        }
    }

    void mergedEqualsUnsharded_data()
    {
        QTest::addColumn<QStringList>("format");
        QTest::newRow("json") << QStringList{u"--format"_s, u"json"_s};
        QTest::newRow("csv") << QStringList{u"--format"_s, u"csv"_s};
        QTest::newRow("md") << QStringList{u"--format"_s, u"md"_s};
        QTest::newRow("csv aggregates") << QStringList{u"--format"_s, u"csv"_s, u"--aggregates-only"_s};
    }

    void mergedEqualsUnsharded()
    {
        QFETCH(QStringList, format);
        const CliResult whole = runCli(kCase + format);
        QCOMPARE(whole.exitCode, 0);
        QVERIFY(whole.out.size() > 500);
        for (const QStringList &files :
             {QStringList{m_shard[0], m_shard[1]}, QStringList{m_shard[1], m_shard[0]}, QStringList{m_shard[2]}}) {
            const CliResult merged = runCli(QStringList{u"merge"_s} + files + format);
            QVERIFY2(merged.exitCode == 0, qPrintable(merged.err));
            QCOMPARE(merged.out, whole.out);
        }
    }

    void gnuParallel()
    {
        const QString parallel = QStandardPaths::findExecutable(u"parallel"_s);
        if (parallel.isEmpty())
            QSKIP("GNU parallel is not installed (packaging/install-deps.sh installs it)");
        // As docs/sweeps.md runs it: one job per shard, {} the shard number.
        QStringList quoted;
        for (const QString &a : kCase)
            quoted << u"'"_s + a + u"'"_s;
        const QString command = u"'"_s + QStringLiteral(IDLESCOPE_CLI) + u"' "_s + quoted.join(u' ')
                                + u" --shard {}/2 --output '"_s + path(u"par{}.json"_s) + u"'"_s;
        QProcess p;
        p.start(parallel, {u"--will-cite"_s, u"--halt"_s, u"now,fail=1"_s, command, u":::"_s, u"1"_s, u"2"_s});
        QVERIFY(p.waitForFinished(300000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const CliResult merged = runCli({u"merge"_s, path(u"par1.json"_s), path(u"par2.json"_s)});
        QCOMPARE(merged.exitCode, 0);
        const CliResult whole = runCli(kCase + QStringList{u"--format"_s, u"json"_s});
        QCOMPARE(merged.out, whole.out);
    }

    void badMergesAreRefused()
    {
        CliResult r = runCli({u"merge"_s, m_shard[0]});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"shard 2/2 is missing"_s), qPrintable(r.err));
        r = runCli({u"merge"_s, m_shard[0], m_shard[0], m_shard[1]});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"shard 1 is given twice"_s), qPrintable(r.err));
        r = runCli({u"merge"_s, m_shard[0], m_shard[2]});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"shard"_s), qPrintable(r.err));

        QStringList otherSeed = kCase;
        otherSeed[otherSeed.indexOf(u"7"_s)] = u"8"_s;
        const QString other = path(u"other-seed.json"_s);
        QCOMPARE(runCli(otherSeed + QStringList{u"--shard"_s, u"2/2"_s, u"--output"_s, other}).exitCode, 0);
        r = runCli({u"merge"_s, m_shard[0], other});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"'seed'"_s) && r.err.contains(u"different comparisons"_s), qPrintable(r.err));

        r = runCli({u"merge"_s, QStringLiteral(IDLESCOPE_SOURCE_DIR) + u"/resources/targets/intel-skx.json"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"not a shard file"_s), qPrintable(r.err));

        for (const QString &bad : {u"3/2"_s, u"0/2"_s, u"1"_s, u"a/b"_s}) {
            r = runCli(kCase + QStringList{u"--shard"_s, bad});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(u"--shard"_s), qPrintable(r.err));
        }
        r = runCli(kCase + QStringList{u"--shard"_s, u"1/2"_s, u"--format"_s, u"csv"_s});
        QCOMPARE(r.exitCode, 2);

        // The merged table may not replace one of its shards: refused, the shard keeps its bytes.
        QFile shard(m_shard[1]);
        QVERIFY(shard.open(QIODevice::ReadOnly));
        const QByteArray before = shard.readAll();
        shard.close();
        r = runCli({u"merge"_s, m_shard[0], m_shard[1], u"--output"_s, m_shard[1]});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"would overwrite the input"_s), qPrintable(r.err));
        QVERIFY(shard.open(QIODevice::ReadOnly));
        QCOMPARE(shard.readAll(), before);
    }
};

QTEST_GUILESS_MAIN(TestShard)
#include "tst_shard.moc"
