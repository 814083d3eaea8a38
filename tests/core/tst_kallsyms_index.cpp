// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The .dat importer's own kallsyms index (core/trace/kallsyms_index.h): the
 * lookups tep_find_function() answers, on hand-made lines; and, on every
 * repository .dat, the same names and wakeup causes as libtraceevent's own
 * parse (ImportConfig::libraryKallsyms), in the isolating child and in process.
 */
#include "core/trace/kallsyms_index.h"
#include "core/trace/trace_import.h"

#include "tests/test_paths.h"
#include "tests/test_require.h"

#include <QDir>
#include <QTest>

using namespace idlescope;
using namespace idlescope::trace;

class TestKallsymsIndex : public QObject {
    Q_OBJECT

private slots:
    void parsesKallsymsLines()
    {
        KallsymsIndex k;
        k.parse("ffffffff81000000 T _stext\n"
                "ffffffff81000040 t $x\n" // an ARM mapping symbol: left out
                "ffffffff81000100 T tick_sched_timer\n"
                "ffffffff81000100 T tick_sched_timer_alias\n" // same address: the first wins
                "not a line\n"
                "ffffffff81000200\n" // no type, no name
                "ffffffffc0001000 t e1000_intr\t[e1000]\n"
                "ffffffffc0002000 T last_function"); // no newline at the end
        QCOMPARE(k.size(), size_t(5));
        QCOMPARE(QByteArray(k.find(0xffffffff81000100ULL)), QByteArray("tick_sched_timer"));
        // Inside a function: the one that starts below it ($x is not one).
        QCOMPARE(QByteArray(k.find(0xffffffff81000050ULL)), QByteArray("_stext"));
        QCOMPARE(QByteArray(k.find(0xffffffffc0001010ULL)), QByteArray("e1000_intr")); // module dropped
        QCOMPARE(QByteArray(k.find(0xffffffffc0002000ULL)), QByteArray("last_function"));
        QVERIFY(k.find(0xffffffffc0002001ULL) == nullptr); // past the last start: its end is unknown
        QVERIFY(k.find(0x1000) == nullptr);                // before the first
        KallsymsIndex empty;
        empty.parse("");
        QVERIFY(empty.find(0xffffffff81000100ULL) == nullptr);
    }

    void sameNamesAsLibtraceevent_data() { datFiles(); }
    void sameNamesAsLibtraceevent()
    {
        QFETCH(QString, file);
        QFETCH(bool, isolate);
        ImportConfig ours;
        ours.isolateDat = isolate;
        ImportConfig library = ours;
        library.libraryKallsyms = true;
        IDLESCOPE_REQUIRE_OK(a, importTrace(file.toStdString(), ours));
        IDLESCOPE_REQUIRE_OK(b, importTrace(file.toStdString(), library));
        QCOMPARE(a.names, b.names);
        // Every hrtimer callback was found by name, not left as a bare address.
        for (const std::string &n : a.names)
            QVERIFY2(n.rfind("0x", 0) != 0, n.c_str());
        QCOMPARE(a.cpus.size(), b.cpus.size());
        std::int64_t named = 0;
        for (size_t c = 0; c < a.cpus.size(); ++c) {
            QCOMPARE(a.cpus[c].entries.size(), b.cpus[c].entries.size());
            for (size_t i = 0; i < a.cpus[c].entries.size(); ++i) {
                QCOMPARE(a.cpus[c].entries[i].cause, b.cpus[c].entries[i].cause);
                QCOMPARE(a.cpus[c].entries[i].causeName, b.cpus[c].entries[i].causeName);
                named += a.cpus[c].entries[i].causeName >= 0 ? 1 : 0;
            }
        }
        // The VM recording has hrtimer events (its wakeups are named by callback); the two Arm
        // recordings have none (SOURCES.md), so there only the (empty) name lists are compared.
        QCOMPARE(named > 0, a.hasTimerEvents);
    }

private:
    void datFiles()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("isolate");
        const QDir dir(test::tracesDir());
        const QStringList dats = dir.entryList({QStringLiteral("*.dat")}, QDir::Files, QDir::Name);
        QCOMPARE(dats.size(), 3); // tests/data/traces/SOURCES.md lists three .dat recordings
        for (const QString &f : dats) {
            QTest::newRow(qPrintable(f + QStringLiteral(" child"))) << dir.filePath(f) << true;
            QTest::newRow(qPrintable(f + QStringLiteral(" in process"))) << dir.filePath(f) << false;
        }
    }
};

QTEST_GUILESS_MAIN(TestKallsymsIndex)
#include "tst_kallsyms_index.moc"
