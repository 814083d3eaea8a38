// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Governors built from source (core/source_governor, idlescope-cli replay
 * --governor-source): the decisions of a hand-checked governor file, and
 * the errors for a file that crashes, loops, does not compile or uses a
 * kernel helper the shim lacks. The governor files are tests/data/
 * source_governors/ (one .c file each); each says in a comment what it must do.
 */
#include "tests/cli/cli_test.h"
#include "tests/test_require.h"

#include "core/formats/stream_csv.h"
#include "core/io/table_json.h"
#include "core/replay/governor_run.h"
#include "core/source_governor/source_build.h"
#include "core/source_governor/source_governor.h"
#include "core/source_governor/source_governor_names.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>

namespace {

QString dataFile(const QString &name)
{
    return QStringLiteral(IDLESCOPE_TEST_DATA) + u"/source_governors/"_s + name;
}

/// replay of hop.csv on three_states.json through the governor file at @p path.
QStringList replayPathArgs(const QString &path)
{
    return {u"replay"_s,   u"--table"_s,           dataFile(u"three_states.json"_s),
            u"--stream"_s, dataFile(u"hop.csv"_s), u"--governor-source"_s,
            path};
}

QStringList replayArgs(const QString &governorFile)
{
    return replayPathArgs(dataFile(governorFile));
}

/// The first line of a replay's --entries file.
const QByteArray kEntriesHeader = "span,entry,state,stop_tick,residency_ns,above,below,got_tick,poll_time_limit\n";

/// A replay of replayArgs(@p governorFile) and the --entries file it wrote in @p dir.
struct EntriesOf {
    CliResult run;
    QByteArray entries;
};
EntriesOf replayEntries(const QString &governorFile, const QTemporaryDir &dir)
{
    const QString entries = dir.filePath(QFileInfo(governorFile).completeBaseName() + u".csv"_s);
    const CliResult run = runCli(replayArgs(governorFile) << u"--entries"_s << entries);
    return {run, readAll(entries)};
}

} // namespace

class TestSourceGovernor : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_cache;
    QTemporaryDir m_out;

    /// 200,000 spans of one entry each on three_states.json (8 MB: 49 slots of 4096 spans
    /// through the host's ring of 8, the last one part full), written once; empty when it
    /// cannot be written.
    QString longStream()
    {
        const QString path = m_out.filePath(u"long.csv"_s);
        if (QFile::exists(path))
            return path;
        QByteArray csv("gap_ns,timer_ns,wake_ns,latency_req_ns,util\n");
        for (int i = 0; i < 200000; ++i)
            csv += "100000,1000000000,200000,-1,0\n";
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(csv) != csv.size())
            return {};
        return path;
    }

    /// replay of longStream() on three_states.json through the source governor @p file
    /// (tests/data/source_governors); @p inChild as runCli()'s.
    CliResult replayLong(const QString &file, const std::function<void()> &inChild = {})
    {
        const QString stream = longStream();
        if (stream.isEmpty())
            return {-1, {}, u"cannot write the long stream"_s};
        return runCli({u"replay"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--stream"_s, stream,
                       u"--governor-source"_s, dataFile(file)},
                      inChild);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid());
        // Every build of this test goes to a cache of its own (the children inherit it).
        qputenv("IDLESCOPE_CACHE_DIR", m_cache.path().toUtf8());
    }

    void hopDecidesAsComputedByHand()
    {
        // The table in hop.c's comment, row by row: states 0,1,2,1,0,0, the
        // tick always stopped, residency = wake_ns + exit latency, rows 0,
        // 1, 5 below and rows 2, 3 above.
        const QString entries = m_out.filePath(u"hop.csv"_s);
        const QString summary = m_out.filePath(u"hop.json"_s);
        const auto r = runCli(replayArgs(u"hop.c"_s) << u"--entries"_s << entries << u"--summary"_s << summary);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(readAll(entries), QByteArray(kEntriesHeader
                                              + "0,0,0,1,201000,0,1,0,0\n"
                                                "1,0,1,1,2010000,0,1,0,0\n"
                                                "2,0,2,1,130000,1,0,0,0\n"
                                                "3,0,1,1,30000,1,0,0,0\n"
                                                "4,0,0,1,6000,0,0,0,0\n"
                                                "5,0,0,1,151000,0,1,0,0\n"));
        const QByteArray json = readAll(summary);
        // end_now_ns = 1e9 + 6 gaps of 100 us + the six residencies (2,528,000 ns).
        QVERIFY2(json.contains("\"entries\": 6, \"end_now_ns\": 1003128000"), json.constData());
        // C1: rows 0, 4, 5 = 201000 + 6000 + 151000 ns; below on rows 0 and 5.
        QVERIFY2(json.contains("\"name\": \"C1\", \"usage\": 3, \"time_ns\": 358000, \"above\": 0, \"below\": 2"),
                 json.constData());
        QVERIFY2(json.contains("\"variant\": \"src:"), json.constData());
    }

    void srcIdAndNameAreTheSameGovernor()
    {
        // --governor src:FILE is --governor-source FILE; --name replaces the label only.
        const auto a = runCli({u"replay"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--stream"_s,
                               dataFile(u"hop.csv"_s), u"--governor"_s, u"src:"_s + dataFile(u"hop.c"_s)});
        const auto b = runCli(replayArgs(u"hop.c"_s) << u"--name"_s << u"my-hop"_s);
        QVERIFY2(a.exitCode == 0, qPrintable(a.err));
        QVERIFY2(b.exitCode == 0, qPrintable(b.err));
        QVERIFY(b.out.contains(u"\"variant\": \"src:my-hop\""_s)); // as the window shows it
        QString aOut = a.out;
        aOut.replace(u"src:"_s + dataFile(u"hop.c"_s), u"src:my-hop"_s);
        QCOMPARE(aOut, b.out);
        QVERIFY(b.out.contains(u"\"end_now_ns\": 1003128000"_s));
    }

    void aBuildIsCachedByContent()
    {
        // Three runs of hop.c (above) made one object; a copy with other
        // content makes a second one.
        const QDir governors(m_cache.path() + u"/governors"_s);
        QCOMPARE(governors.entryList({u"*.so"_s}, QDir::Files).size(), 1);
        const QString copy = m_out.filePath(u"hop2.c"_s);
        QVERIFY(QFile::copy(dataFile(u"hop.c"_s), copy));
        QFile f(copy);
        QVERIFY(f.open(QIODevice::Append));
        f.write("/* a changed file */\n");
        f.close();
        const auto r = runCli({u"replay"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--stream"_s,
                               dataFile(u"hop.csv"_s), u"--governor-source"_s, copy});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(governors.entryList({u"*.so"_s}, QDir::Files).size(), 2);
    }

    void aStopTickByteOtherThanOneStopsTheTick()
    {
        // odd_bool.c stores the byte 2 in *stop_tick and picks state 0 each time. The host
        // read it as a C++ bool: the decision byte then carried DECISION_POLL_LIMIT instead
        // of DECISION_STOP_TICK (2 << 4), and the next decisions were read as its value. Any
        // byte but 0 is "stop the tick", as C's conversion to bool makes it. On hop.csv with
        // three_states.json, state 0 (C1, exit latency 1 us) each time: residency = wake_ns
        // + 1000 ns (hop.c's comment), rows 0, 1 and 5 below (C2's 50 us target residency).
        const EntriesOf r = replayEntries(u"odd_bool.c"_s, m_out);
        QVERIFY2(r.run.exitCode == 0, qPrintable(r.run.err));
        QCOMPARE(r.entries, QByteArray(kEntriesHeader
                                       + "0,0,0,1,201000,0,1,0,0\n"
                                         "1,0,0,1,2001000,0,1,0,0\n"
                                         "2,0,0,1,31000,0,0,0,0\n"
                                         "3,0,0,1,21000,0,0,0,0\n"
                                         "4,0,0,1,6000,0,0,0,0\n"
                                         "5,0,0,1,151000,0,1,0,0\n"));
    }

    void aHeaderBesideIsPartOfTheBuildAndNoOtherIsRead()
    {
        // gov/pick.c returns the state pick.h beside it defines: a change there builds the
        // file again, and the replay takes the new state. The compiler reads private copies
        // of the file and the headers beside it only (what a yes covers,
        // docs/testing-your-patch.md): ../inc/pick.h, read from the user's folder before, is
        // not found now, and the message says why.
        using namespace idlescope;
        const QString root = m_out.filePath(u"pick"_s);
        QVERIFY(QDir().mkpath(root + u"/gov"_s) && QDir().mkpath(root + u"/inc"_s));
        const QString header = root + u"/gov/pick.h"_s;
        writeFile(header, "#define PICK 1\n");
        const auto pickFile = [](const char *include) {
            return "#include <linux/cpuidle.h>\n#include <linux/kernel.h>\n#include \"" + QByteArray(include)
                   + "\"\n"
                     "static int pick_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool "
                     "*stop_tick)\n{\n\treturn PICK;\n}\n"
                     "static struct cpuidle_governor pick_governor = { .name = \"pick\", .rating = 1, .select = "
                     "pick_select };\n"
                     "static int __init init_pick(void)\n{\n\treturn "
                     "cpuidle_register_governor(&pick_governor);\n}\n"
                     "postcore_initcall(init_pick);\n";
        };
        writeFile(root + u"/gov/pick.c"_s, pickFile("pick.h"));
        const std::string source = (root + u"/gov/pick.c"_s).toStdString();
        IDLESCOPE_REQUIRE_OK(table, readTableJson(dataFile(u"three_states.json"_s).toStdString()));
        IDLESCOPE_REQUIRE_OK(stream, readStreamCsv(dataFile(u"hop.csv"_s).toStdString()));
        const auto states = [&]() -> std::vector<int> {
            const Result<GovernorRun> run = runGovernor(table, stream, "src:" + source);
            return run ? std::vector<int>(run->state.begin(), run->state.end()) : std::vector<int>{};
        };
        // three_states.json has no polling state: each of hop.csv's six rows is one entry.
        QCOMPARE(states(), std::vector<int>(6, 1));
        IDLESCOPE_REQUIRE_OK(again, source_governor::buildSourceGovernor(source));
        QVERIFY(again.cached);
        writeFile(header, "#define PICK 2\n");
        IDLESCOPE_REQUIRE_OK(rebuilt, source_governor::buildSourceGovernor(source));
        QVERIFY(!rebuilt.cached);
        QCOMPARE(states(), std::vector<int>(6, 2));

        writeFile(root + u"/inc/pick.h"_s, "#define PICK 1\n");
        writeFile(root + u"/gov/up.c"_s, pickFile("../inc/pick.h"));
        const auto up = source_governor::buildSourceGovernor((root + u"/gov/up.c"_s).toStdString());
        QVERIFY(!up);
        QVERIFY2(up.error().message.find("note: ../inc/pick.h was not found next to " + root.toStdString()
                                         + "/gov/up.c (a build reads the file and the headers beside it only)")
                     != std::string::npos,
                 up.error().message.c_str());
    }

    void localClockInReflectIsTheWakeupTime()
    {
        // span.c's comment, row by row: states 0,1,1,0,0,0. Before the fix the
        // host left local_clock() at the select's time in reflect(), every span
        // measured 0 and every entry stayed in C1 (teo-5.14's own kernel file
        // then missed 4 of the kit's 48 files).
        const EntriesOf r = replayEntries(u"span.c"_s, m_out);
        QVERIFY2(r.run.exitCode == 0, qPrintable(r.run.err));
        QCOMPARE(r.entries, QByteArray(kEntriesHeader
                                       + "0,0,0,1,201000,0,1,0,0\n"
                                         "1,0,1,1,2010000,0,1,0,0\n"
                                         "2,0,1,1,40000,1,0,0,0\n"
                                         "3,0,0,1,21000,0,0,0,0\n"
                                         "4,0,0,1,6000,0,0,0,0\n"
                                         "5,0,0,1,151000,0,1,0,0\n"));
    }

    void aGovernorMayOwnThePollWindow()
    {
        // window.c sets dev->poll_limit_ns in select() and in reflect(); the
        // replay's polling ends where the window says (its comment's table).
        const QString entries = m_out.filePath(u"window.csv"_s);
        const auto r =
            runCli({u"replay"_s, u"--table"_s, dataFile(u"poll_halt.json"_s), u"--stream"_s, dataFile(u"window.csv"_s),
                    u"--governor-source"_s, dataFile(u"window.c"_s), u"--entries"_s, entries});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(readAll(entries), QByteArray(kEntriesHeader
                                              + "0,0,0,0,20000,0,1,0,1\n"
                                                "0,1,1,1,31000,0,0,0,0\n"
                                                "1,0,0,0,30000,0,1,0,0\n"
                                                "2,0,0,0,40000,0,1,0,1\n"
                                                "2,1,1,1,61000,0,0,0,0\n"
                                                "3,0,0,0,10000,0,1,0,0\n"));
    }

    void runGovernorTakesASourceId()
    {
        // The engine's own entry point (the GUI's runs): the same decisions as
        // the CLI above, and reasoningAt() finds entry 4 (row 2's halt).
        using namespace idlescope;
        IDLESCOPE_REQUIRE_OK(table, readTableJson(dataFile(u"poll_halt.json"_s).toStdString()));
        IDLESCOPE_REQUIRE_OK(stream, readStreamCsv(dataFile(u"window.csv"_s).toStdString()));
        const std::string id = "src:" + dataFile(u"window.c"_s).toStdString();
        IDLESCOPE_REQUIRE_OK(run, runGovernor(table, stream, id));
        QCOMPARE(run.variant, id);
        QCOMPARE(std::vector<int>(run.state.begin(), run.state.end()), (std::vector<int>{0, 1, 0, 0, 1, 0}));
        QCOMPARE(std::vector<Ns>(run.residencyNs.begin(), run.residencyNs.end()),
                 (std::vector<Ns>{20000, 31000, 30000, 40000, 61000, 10000}));
        QCOMPARE(run.summary.endNowNs, Ns{1000232000});
        QVERIFY(run.has(0, ENTRY_POLL_TIME_LIMIT) && !run.has(2, ENTRY_POLL_TIME_LIMIT));
        QVERIFY(run.has(1, ENTRY_STOP_TICK) && !run.has(0, ENTRY_STOP_TICK));
        IDLESCOPE_REQUIRE_OK(at, reasoningAt(table, stream, id, {}, 4));
        QCOMPARE(at.entry.span, 2);
        QCOMPARE(at.entry.state, 1);
        QCOMPARE(at.entry.residencyNs, Ns{61000});
        // A source file has no tunables: a setting is refused, not ignored.
        QVERIFY(!runGovernor(table, stream, id, {.settings = {{"INTERVALS", 4}}}).ok());
    }

    void aNameStandsForItsFile()
    {
        // The window's names (source_governor_names.h): "src:my-window" is window.c
        // run with v6.19's core, with runGovernorTakesASourceId's decisions and the
        // name as its variant.
        using namespace idlescope;
        const std::string file = dataFile(u"window.c"_s).toStdString();
        IDLESCOPE_REQUIRE_OK(table, readTableJson(dataFile(u"poll_halt.json"_s).toStdString()));
        IDLESCOPE_REQUIRE_OK(stream, readStreamCsv(dataFile(u"window.csv"_s).toStdString()));
        QVERIFY(!runGovernor(table, stream, "src:my-window").ok()); // no such file yet
        const NamedSourceFile named{file, {6, 19}};
        QVERIFY(nameSourceGovernor("my-window", named).ok());
        QVERIFY(nameSourceGovernor("my-window", named).ok()); // again: the same file
        IDLESCOPE_REQUIRE_OK(spec, parseSourceGovernorId("src:my-window"));
        QCOMPARE(spec.path, file);
        QCOMPARE(spec.core.name(), std::string("6.19"));
        QCOMPARE(sourceGovernorFileId("src:my-window"), "src:" + file + "@6.19");
        QCOMPARE(sourceGovernorFileId("menu-6.19"), std::string("menu-6.19"));
        QCOMPARE(sourceGovernorFileId("src:" + file), "src:" + file); // unnamed: already a file id
        IDLESCOPE_REQUIRE_OK(run, runGovernor(table, stream, "src:my-window"));
        QCOMPARE(run.variant, std::string("src:my-window"));
        QCOMPARE(std::vector<int>(run.state.begin(), run.state.end()), (std::vector<int>{0, 1, 0, 0, 1, 0}));
        QCOMPARE(run.summary.endNowNs, Ns{1000232000});
        // One name, one file; names a list, a kernel suffix or a path could mistake are refused.
        const Status other = nameSourceGovernor("my-window", NamedSourceFile{dataFile(u"hop.c"_s).toStdString(), {}});
        QVERIFY(!other.ok());
        QVERIFY2(other.error().message.find("already names " + file + " (v6.19)") != std::string::npos,
                 other.error().message.c_str());
        for (const char *bad : {"", "a,b", "a@6.19", "dir/x", ".hidden", "two words"})
            QVERIFY2(!nameSourceGovernor(bad, named).ok(), bad);
        // The default is the file's base name, with what a name cannot hold as '-'.
        QCOMPARE(defaultSourceGovernorName("/src/linux/drivers/cpuidle/governors/menu.c"), std::string("menu"));
        QCOMPARE(defaultSourceGovernorName("teo-6.19.c"), std::string("teo-6.19"));
        QCOMPARE(defaultSourceGovernorName("/tmp/my menu,v2.c"), std::string("my-menu-v2"));
        QCOMPARE(defaultSourceGovernorName("/tmp/.hidden.c"), std::string("hidden"));
        QCOMPARE(defaultSourceGovernorName("/tmp/"), std::string("governor"));
    }

    void aCrashNamesItsSignalAndEntry()
    {
        // crash.c dereferences NULL in its fourth select().
        const auto r = runCli(replayArgs(u"crash.c"_s));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"crashed in select() at entry 3 (stream row 3): SIGSEGV"_s), qPrintable(r.err));
    }

    void aCrashWhileTheStreamIsStillBeingSentIsNamed()
    {
        // The host reads the stream as it replays it: 200,000 spans (8 MB, six times what
        // the host's ring holds) are mostly unsent when crash.c dies at entry 3 or when the host
        // refuses unregistered.c before its first span. Both are told as for hop.csv's
        // six rows, and the replay ends instead of waiting to send the rest.
        const QString stream = longStream();
        QVERIFY(!stream.isEmpty());
        const auto args = [&](const QString &file) {
            return QStringList{u"replay"_s,   u"--table"_s, dataFile(u"three_states.json"_s),
                               u"--stream"_s, stream,       u"--governor-source"_s,
                               dataFile(file)};
        };
        const std::pair<QString, QString> failures[] = {{u"crash.c"_s,
                                                         u"crashed in select() at entry 3 (stream row 3): SIGSEGV"_s},
                                                        {u"unregistered.c"_s, u"the file registers no governor"_s}};
        for (const auto &[file, message] : failures) {
            const auto failed = runCli(args(file));
            QCOMPARE(failed.exitCode, 2);
            QVERIFY2(failed.err.contains(message), qPrintable(failed.err));
        }
        // And one that runs to the end replays every span. hop.c as in its comment: C1 first
        // (residency 201000), then an idle of 200000 >= 2 * 50000 takes it to C2, where each
        // idle of 200000 stays (not >= 2 * 500000, not < 50000): 199,999 entries of
        // 200000 + 10000 ns; end_now_ns = 1e9 + 200000 gaps of 100 us + 201000 + 199999 * 210000.
        const auto r = runCli(args(u"hop.c"_s));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(u"\"spans\": 200000, \"entries\": 200000, \"end_now_ns\": 62999991000"_s),
                 qPrintable(r.out.left(300)));
        QVERIFY2(r.out.contains(u"\"name\": \"C2\", \"usage\": 199999, \"time_ns\": 41999790000"_s),
                 qPrintable(r.out.left(400)));
    }

    void aCrashAfterTheFirstDecisionsIsNamed()
    {
        // late_crash.c picks C1 (state 0) until select() 100000, where it dies: by then
        // the host has sent its first pieces of decisions (16 KiB each) and idlescope is
        // playing them back. The crash is known only when the host ends: the CLI's
        // replay and the engine's runGovernor() (the GUI's runs) both say it.
        const QString stream = longStream();
        QVERIFY(!stream.isEmpty());
        const QString message = u"crashed in select() at entry 100000 (stream row 100000): SIGSEGV"_s;
        const auto r = runCli({u"replay"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--stream"_s, stream,
                               u"--governor-source"_s, dataFile(u"late_crash.c"_s)});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY2(!r.out.contains(u"\"entries\""_s), qPrintable(r.out.left(200))); // no summary of a run that failed

        using namespace idlescope;
        IDLESCOPE_REQUIRE_OK(table, readTableJson(dataFile(u"three_states.json"_s).toStdString()));
        IDLESCOPE_REQUIRE_OK(spans, readStreamCsv(stream.toStdString()));
        const Result<GovernorRun> run = runGovernor(table, spans, "src:" + dataFile(u"late_crash.c"_s).toStdString());
        QVERIFY(!run.ok());
        QVERIFY2(QString::fromStdString(run.error().message).contains(message), run.error().message.c_str());
        // reasoningAt() stops at its entry; the host's later crash still makes it fail.
        QVERIFY(!reasoningAt(table, spans, "src:" + dataFile(u"late_crash.c"_s).toStdString(), {}, 5).ok());
    }

    void aLongLogIsCutOnAWholeLineAndSaysSo()
    {
        // chatty.c prints 15 characters a select(): 200,000 selects print 3,000,000, of
        // which 64 KiB (65,536) are kept; the last whole line ends at 4,369 * 15 = 65,535.
        // Before, the log stopped in the middle of a line without a word.
        const auto r = replayLong(u"chatty.c"_s);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err.right(300)));
        QVERIFY2(r.err.endsWith(u"chatty select!\n\u2026 log cut at 65535 characters (of 3000000)\n"_s),
                 qPrintable(r.err.right(300)));
        QCOMPARE(r.err.count(u"chatty select!\n"_s), 4369);
    }

    void theHostsRefusalSurvivesAFullLog()
    {
        // loud_refusal.c prints 15 characters in each of its 10,001 selects (150,015), then
        // the host refuses its state 3 at entry 10000 in a line of its own of 93 characters
        // ("idlescope-governor-host: " and the 67 of the message below, and a newline), which
        // came after the 64 KiB kept of the log: the error said only "refused to run".
        const auto r = replayLong(u"loud_refusal.c"_s);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u": select() returned state 3 at entry 10000; the table has states 0..2\n"_s),
                 qPrintable(r.err.left(300)));
        QVERIFY2(!r.err.contains(u"refused to run"_s), qPrintable(r.err.left(300)));
        // The log is cut as chatty.c's, at the last whole line of 15 within 65,536 characters,
        // of all 150,108 on the host's stderr (the governor's and the host's line); the host's
        // line is the error's, not a line of the log.
        QVERIFY2(r.err.contains(u"loud select!!!\n\u2026 log cut at 65535 characters (of 150108)\n"_s),
                 qPrintable(r.err.right(300)));
        QCOMPARE(r.err.count(u"idlescope-governor-host"_s), 0);
    }

    void aGovernorPrintingTheHostsPrefixIsNotKeptWhole()
    {
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("AddressSanitizer's allocator needs more than this test's 256 MiB data limit to start idlescope-cli");
#endif
        // spoof_host.c prints, in each of its 2,001 selects, 30 lines of 3,026 characters
        // that begin as the host's own lines do (181 MB in all), and then the host refuses
        // its state 3. The host's lines found past the 64 KiB of the log are kept apart; all
        // of these were: under a data limit of 256 MiB the CLI died of std::bad_alloc (its
        // peak without a limit: 380 MB, against 20 MB now that only the last 16 KiB of such
        // lines are kept, by /usr/bin/time -v).
        const auto r = replayLong(u"spoof_host.c"_s, [] {
            const rlimit limit{256u << 20, 256u << 20};
            setrlimit(RLIMIT_DATA, &limit);
        });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u": select() returned state 3 at entry 2000; the table has states 0..2\n"_s),
                 qPrintable(r.err.left(300)));
    }

    void anEndlessLoopIsStoppedAtTheTimeout()
    {
        // endless.c loops for ever in its second reflect() (entry 1).
        const auto r = runCli(replayArgs(u"endless.c"_s) << u"--timeout"_s << u"1"_s);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"did not return in reflect() at entry 1 (stream row 1) within 1 s"_s),
                 qPrintable(r.err));
    }

    void compareStopsAnEndlessLoopAtItsTimeout()
    {
        // compare took no --timeout: endless.c waited the fixed 10 s there. Its option is
        // replay's, with the same check and message.
        const QStringList common{u"compare"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--workload"_s,
                                 u"csv:"_s + dataFile(u"hop.csv"_s)};
        auto r = runCli(QStringList(common) << u"--governors"_s << u"ladder-latest,src:"_s + dataFile(u"endless.c"_s)
                                            << u"--timeout"_s << u"1"_s);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"did not return in reflect() at entry 1 (stream row 1) within 1 s"_s),
                 qPrintable(r.err));
        for (const QString &bad : {u"0"_s, u"86401"_s, u"1.5"_s, u"x"_s}) {
            r = runCli(QStringList(common)
                       << u"--governors"_s << u"src:"_s + dataFile(u"hop.c"_s) << u"--timeout"_s << bad);
            const auto replay = runCli(replayArgs(u"hop.c"_s) << u"--timeout"_s << bad);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(u"field '--timeout': '"_s + bad
                                    + u"' is not a number of seconds from 1 to 86400"_s),
                     qPrintable(r.err));
            QCOMPARE(r.err, replay.err);
        }
        // Without a governor built from source there is nothing for it to stop.
        r = runCli(QStringList(common) << u"--governors"_s << u"ladder-latest"_s << u"--timeout"_s << u"5"_s);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"--timeout goes with a src: governor in --governors"_s), qPrintable(r.err));
    }

    void aCompileErrorIsTheCompilersOwn()
    {
        // broken.c lacks the ';' at the end of line 13, so gcc and clang both
        // stop at the 'return' on line 15, column 9 (a tab counts as one column).
        const auto r = runCli(replayArgs(u"broken.c"_s));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"broken.c:15:9: error:"_s), qPrintable(r.err));
        QVERIFY2(r.err.contains(u"does not build"_s), qPrintable(r.err));
    }

    void aFileThatIsNoTextIsRefusedBeforeCompiling()
    {
        // A binary given by mistake: before the check the compiler answered /bin/ls with
        // 147,330 lines. The NUL byte is on line 2 (after one newline), byte 8.
        const QString binary = m_out.filePath(u"binary.c"_s);
        writeFile(binary, QByteArray("int x;\nab", 9) + QByteArray(1, '\0')
                              + QByteArray("\x7f"
                                           "ELF\n"));
        const auto r = runCli(replayPathArgs(binary));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(binary + u":2: not a C source file: it holds a NUL byte (at byte 9)"_s),
                 qPrintable(r.err));
        QVERIFY2(!r.err.contains(u"error:"_s), qPrintable(r.err));
    }

    void theCompilersOutputIsCapped()
    {
        // 200 lines of "int vN = ;": gcc and clang say at least one line for each error, and
        // stop after 50 errors (-fmax-errors=50, so that a file of 300,000 errors does not
        // build for minutes); 50 lines are kept, the first error's file:line:column among
        // them, and the rest (at least one line for each of the other errors) are counted.
        QByteArray text;
        for (int i = 0; i < 200; ++i)
            text += "int v" + QByteArray::number(i) + " = ;\n";
        const QString file = m_out.filePath(u"many_errors.c"_s);
        writeFile(file, text);
        const auto r = runCli(replayPathArgs(file));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"many_errors.c:1:10: error:"_s), qPrintable(r.err));
        QVERIFY2(!r.err.contains(u"many_errors.c:200:"_s), qPrintable(r.err));
        const QRegularExpression more(u"\n\u2026 (\\d+) more lines of compiler output\n"_s);
        const QRegularExpressionMatch m = more.match(r.err);
        QVERIFY2(m.hasMatch(), qPrintable(r.err));
        QVERIFY2(m.captured(1).toInt() >= 50, qPrintable(m.captured(1)));
        const QString kept = r.err.left(m.capturedStart());
        QVERIFY2(kept.count(u'\n') <= 50 + 2, qPrintable(r.err)); // + the "does not build" line and the error prefix
        QVERIFY(kept.toUtf8().size() <= 8 * 1024 + 500);
        // Each cap by itself, on made-up output.
        using idlescope::source_governor::capCompilerOutput;
        std::string lines;
        for (int i = 0; i < 60; ++i)
            lines += "l" + std::to_string(i) + "\n";
        std::string expected;
        for (int i = 0; i < 50; ++i)
            expected += "l" + std::to_string(i) + "\n";
        QCOMPARE(capCompilerOutput(lines), expected + "\u2026 10 more lines of compiler output\n");
        QCOMPARE(capCompilerOutput(expected), expected);
        // Five lines of 3000 bytes: two fit in 8 KiB, the third would not.
        const std::string wide(2999, 'x');
        const std::string five = wide + "\n" + wide + "\n" + wide + "\n" + wide + "\n" + wide + "\n";
        QCOMPARE(capCompilerOutput(five), five.substr(0, 6000) + "\u2026 3 more lines of compiler output\n");
    }

    void theWarningsAreShownAgainOnACacheHit()
    {
        // warns.c's #warning is on line 13, column 2 (its comment). Before, the build found
        // in the cache printed nothing: the user saw the warning once, then never again.
        const QString where = dataFile(u"warns.c"_s) + u":13:2: warning: "_s;
        const auto first = runCli(replayArgs(u"warns.c"_s));
        QVERIFY2(first.exitCode == 0, qPrintable(first.err));
        QVERIFY2(first.err.contains(where) && first.err.contains(u"warns.c is built with this warning"_s),
                 qPrintable(first.err));
        const auto cached = runCli(replayArgs(u"warns.c"_s));
        QVERIFY2(cached.exitCode == 0, qPrintable(cached.err));
        QCOMPARE(cached.err, first.err);
        QCOMPARE(cached.out, first.out);
        // The same bytes elsewhere are the same cached build: its warnings name the file given.
        const QString copy = m_out.filePath(u"warns-copy.c"_s);
        QVERIFY(QFile::copy(dataFile(u"warns.c"_s), copy));
        const auto other = runCli(replayPathArgs(copy));
        QVERIFY2(other.exitCode == 0, qPrintable(other.err));
        QCOMPARE(other.err, QString(first.err).replace(dataFile(u"warns.c"_s), copy));
        // An object cached without its warnings (before they were kept) is built again, once.
        const QStringList records = QDir(m_cache.filePath(u"governors"_s)).entryList({u"*.so.warnings"_s}, QDir::Files);
        QVERIFY(!records.isEmpty());
        for (const QString &record : records)
            QVERIFY(QFile::remove(m_cache.filePath(u"governors/"_s + record)));
        const auto rebuilt = runCli(replayArgs(u"warns.c"_s));
        QCOMPARE(rebuilt.err, first.err);
        QCOMPARE(QDir(m_cache.filePath(u"governors"_s)).entryList({u"*.so.warnings"_s}, QDir::Files).size(), 1);
    }

    void aCFileIsCompiledAsCWhateverItsName()
    {
        // Patched copies are often named menu.c.orig, menu.c~ or have no extension; by
        // its suffix the compiler took the first for a linker script and menu.h for a
        // header to precompile. Each replays as hop.c does (its comment's end_now_ns).
        for (const QString &name : {u"hop.c.orig"_s, u"hop.c~"_s, u"hop"_s, u"hop.h"_s, u"hop.C"_s}) {
            const QString dir = m_out.filePath(u"named-"_s + QString::number(qHash(name)));
            QVERIFY(QDir().mkpath(dir));
            const QString copy = dir + u"/"_s + name;
            QVERIFY(QFile::copy(dataFile(u"hop.c"_s), copy));
            const auto r = runCli(replayPathArgs(copy));
            QVERIFY2(r.exitCode == 0, qPrintable(name + u": "_s + r.err));
            QVERIFY2(r.out.contains(u"\"entries\": 6, \"end_now_ns\": 1003128000"_s), qPrintable(r.out));
        }
    }

    void aMissingShimSymbolIsNamed()
    {
        const auto r = runCli(replayArgs(u"unsupported.c"_s));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"unsupported.c:16:16: error: implicit declaration of function"_s), qPrintable(r.err));
        QVERIFY2(r.err.contains(u"note: get_cpu_idle_time_us is not provided yet by idlescope's kernel shim"_s),
                 qPrintable(r.err));
    }

    void aNoteForAShimGapOnlyWhereTheShimCouldHelp()
    {
        // "this is not C;" on line 3: gcc reads "unknown type name 'this'" there, but the
        // syntax error on the same line says it is broken C, not a kernel symbol.
        const QString dir = m_out.filePath(u"notes"_s);
        QVERIFY(QDir().mkpath(dir));
        writeFile(dir + u"/syntax.c"_s, "#include <linux/kernel.h>\nstatic int f(void)\n{\n this is not C;\n}\n");
        auto r = runCli(replayPathArgs(dir + u"/syntax.c"_s));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"syntax.c:4:"_s), qPrintable(r.err));
        QVERIFY2(!r.err.contains(u"kernel symbol"_s) && !r.err.contains(u"note:"_s), qPrintable(r.err));
        // A header of the user's own, in quotes, that is not there: no shim header is missing.
        writeFile(dir + u"/own_header.c"_s, "#include <linux/kernel.h>\n#include \"../inc/other/myhdr.h\"\n");
        r = runCli(replayPathArgs(dir + u"/own_header.c"_s));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"note: ../inc/other/myhdr.h was not found next to "_s + dir
                                + u"/own_header.c (a build reads the file and the headers beside it only)"_s),
                 qPrintable(r.err));
        QVERIFY2(!r.err.contains(u"not provided yet"_s), qPrintable(r.err));
        // A kernel header the shim lacks, and an unknown type alone on its line, still get theirs.
        writeFile(dir + u"/kernel_gap.c"_s, "#include <linux/kernel.h>\nstatic struct_from_kernel_t x;\n");
        r = runCli(replayPathArgs(dir + u"/kernel_gap.c"_s));
        QVERIFY2(r.err.contains(u"note: if struct_from_kernel_t is a kernel symbol, it is not provided yet"_s),
                 qPrintable(r.err));
        writeFile(dir + u"/no_header.c"_s, "#include <linux/no_such_header.h>\n");
        r = runCli(replayPathArgs(dir + u"/no_header.c"_s));
        QVERIFY2(r.err.contains(u"note: <linux/no_such_header.h> is not provided yet by idlescope's kernel shim"_s),
                 qPrintable(r.err));
    }

    void aGovernorThatExitsIsToldWithItsStatusAndEntry()
    {
        // exits.c calls exit_group(0) in its third select(): status 0, but no end record.
        const auto r = runCli(replayArgs(u"exits.c"_s));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(
                     u"exited with status 0 in select() at entry 2 (stream row 2) (a governor never exits)"_s),
                 qPrintable(r.err));
    }

    void aFileWithAtInItsNameIsASourceId()
    {
        // "src:x@6.19.c": no kernel version after the '@', and x@6.19.c is a file.
        const QString file = m_out.filePath(u"hop@6.19.c"_s);
        QVERIFY(QFile::copy(dataFile(u"hop.c"_s), file));
        const QStringList common{u"compare"_s,
                                 u"--table"_s,
                                 dataFile(u"three_states.json"_s),
                                 u"--workload"_s,
                                 u"csv:"_s + dataFile(u"hop.csv"_s),
                                 u"--iterations"_s,
                                 u"1"_s,
                                 u"--format"_s,
                                 u"csv"_s,
                                 u"--governors"_s};
        auto r = runCli(QStringList(common) << u"ladder-latest,src:"_s + file);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // hop.c's row as in compareHasARowForASourceGovernor.
        QVERIFY2(r.out.contains(u"src:"_s + file + u",1,6,6,3,2,1,2,3,5,"_s), qPrintable(r.out));
        // With its kernel after it, as any file.
        r = runCli(QStringList(common) << u"src:"_s + file + u"@6.19"_s);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // No such file: what is wrong with the id, not "unknown governor variant".
        r = runCli(QStringList(common) << u"src:"_s + m_out.filePath(u"none@6.19.c"_s));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"'6.19.c' is not a kernel version (e.g. 6.19) after the last '@' (a file whose "
                                u"name holds '@' is src:FILE@VERSION)"_s),
                 qPrintable(r.err));
        QVERIFY2(!r.err.contains(u"unknown governor variant"_s), qPrintable(r.err));
    }

    void compareHasARowForASourceGovernor()
    {
        // hop.c's decisions (its comment): usage C1 3, C2 2, C3 1; 2 above,
        // 3 below; the six wakeups are no timers, so each pays its state's
        // exit latency: 1 + 10 + 100 + 10 + 1 + 1 = 123 us.
        const auto r = runCli({u"compare"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--workload"_s,
                               u"csv:"_s + dataFile(u"hop.csv"_s), u"--governors"_s,
                               u"ladder-latest,src:"_s + dataFile(u"hop.c"_s), u"--iterations"_s, u"1"_s, u"--format"_s,
                               u"csv"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString row = u"src:"_s + dataFile(u"hop.c"_s) + u",1,6,6,3,2,1,2,3,5,"_s;
        QVERIFY2(r.out.contains(row), qPrintable(r.out));
        QVERIFY2(r.out.contains(u",6,123.000\n"_s), qPrintable(r.out));
    }

    void compareRefusesASourceGovernorWhereItCannotRun()
    {
        // A whole machine replays every CPU at once; the host replays one stream.
        auto r = runCli({u"compare"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--machine"_s, u"2"_s,
                         u"--workload"_s, u"periodic:kind=ipi,interval_us=50"_s, u"--governors"_s,
                         u"src:"_s + dataFile(u"hop.c"_s)});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"not a whole machine"_s), qPrintable(r.err));
        // A file that does not build is reported once, before any replay.
        r = runCli({u"compare"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--workload"_s,
                    u"csv:"_s + dataFile(u"hop.csv"_s), u"--governors"_s, u"src:"_s + dataFile(u"broken.c"_s)});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count(u"broken.c:15:9: error:"_s), 1);
    }

    void compareSaysASourceFileListedTwiceHasNoTunables()
    {
        // The hint was a variant's, "(then --set LABEL:NAME=VALUE sets its tunables)", which
        // a source file does not take (its tunables are in the file).
        const auto r = runCli({u"compare"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--workload"_s,
                               u"csv:"_s + dataFile(u"hop.csv"_s), u"--governors"_s,
                               u"src:"_s + dataFile(u"hop.c"_s) + u",src:"_s + dataFile(u"hop.c"_s)});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(
                     u"listed twice; a governor built from source has no tunables for a second instance "
                     u"to differ in (edit a copy of the file, or give another kernel: src:FILE@VERSION)\n"_s),
                 qPrintable(r.err));
        QVERIFY2(!r.err.contains(u"--set"_s), qPrintable(r.err));
    }

    void diffFindsWhereHopLeavesTheLadder()
    {
        // ladder-latest on the same rows (ladder_governor.cpp's rules; three_states.json has
        // no polling state, so first_idx is 0, promotion times 1 and 10 us, demotion times
        // 10 and 100 us, 4 long residencies to step deeper, 1 short one to step back):
        //  row 0: -1000 (zeroed device, u64: long) count 1 -> C1, residency 201000
        //  row 1: 200000 long, count 2 -> C1, residency 2001000     hop: C2 (differs)
        //  row 2: 2000000 long, count 3 -> C1, residency 31000      hop: C3 (differs)
        //  row 3: 30000 long, count 4 -> C2, residency 30000        hop: C2
        //  row 4: 20000 long (> 10 us), not short -> C2, 15000      hop: C1 (differs)
        //  row 5: 5000 < 10 us, short -> C1                         hop: C1
        // Entry 1 is the first difference, on the same history: now at its select is
        // 1e9 + 100 us + 201 us + 100 us = 1,000,401,000 ns, 3,599,000 ns before a tick.
        const auto r = runCli({u"diff-governors"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--stream"_s,
                               dataFile(u"hop.csv"_s), u"--governor"_s, u"ladder-latest"_s, u"--governor-source"_s,
                               dataFile(u"hop.c"_s), u"--name"_s, u"hop"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.startsWith(u"ladder-latest and src:hop decide differently on 3 entries in 3 of 6 stream rows"_s),
                 qPrintable(r.out));
        const qsizetype first = r.out.indexOf(u"\nentry 1 (stream row 1, entry 0 of the row)\n"_s);
        QVERIFY2(first > 0, qPrintable(r.out));
        QVERIFY(r.out.indexOf(u"\nentry 2 (stream row 2"_s) > first);
        QVERIFY(r.out.indexOf(u"\nentry 4 (stream row 4"_s) > first);
        QVERIFY(!r.out.contains(u"\nentry 3 "_s));
        QVERIFY2(r.out.contains(u"inputs:         sleep length 1000000000 ns, delta_next 3599000 ns, latency limit "
                                u"none, tick running, wakeup in 2000000 ns\n"
                                u"  ladder-latest:  state 0 C1, stop_tick 1 (residency 2001000 ns, below)\n"
                                u"  src:hop:        state 1 C2, stop_tick 1 (residency 2010000 ns, below)\n"_s),
                 qPrintable(r.out));
    }

    void diffFirstZeroGivesOnlyTheCount()
    {
        // diffFindsWhereHopLeavesTheLadder's count, and nothing else; six entries each
        // (hop.csv's six rows, no polling state on three_states.json).
        const auto r = runCli({u"diff-governors"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--stream"_s,
                               dataFile(u"hop.csv"_s), u"--governor"_s, u"ladder-latest"_s, u"--governor-source"_s,
                               dataFile(u"hop.c"_s), u"--name"_s, u"hop"_s, u"--first"_s, u"0"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out, u"ladder-latest and src:hop decide differently on 3 entries in 3 of 6 stream rows "
                        u"(ladder-latest: 6 entries, src:hop: 6).\n"_s);
    }

    void diffAndReplayNameABadGovernorAlike()
    {
        // diff-governors took a src: id without parsing it: "src:" (no file) was an
        // "unknown variant" there, and replay said what is wrong with it.
        const QStringList common{u"--table"_s, dataFile(u"three_states.json"_s), u"--stream"_s, dataFile(u"hop.csv"_s)};
        for (const QString &id : {u"src:"_s, u"menu-9.99"_s}) {
            const auto diff = runCli(QStringList{u"diff-governors"_s} + common
                                     + QStringList{u"--governor"_s, id, u"--governor"_s, u"ladder-latest"_s});
            const auto replay = runCli(QStringList{u"replay"_s} + common + QStringList{u"--governor"_s, id});
            QCOMPARE(diff.exitCode, 2);
            QCOMPARE(replay.exitCode, 2);
            QCOMPARE(diff.err, replay.err);
        }
        const auto r = runCli(QStringList{u"diff-governors"_s} + common
                              + QStringList{u"--governor"_s, u"src:"_s, u"--governor"_s, u"ladder-latest"_s});
        QCOMPARE(r.err, u"idlescope-cli: field 'governor': 'src:': no file after src:\n"_s);
    }

    void diffOnATraceIsDiffOnItsImportedStream()
    {
        // --trace T --cpu 0 replays the spans `import` exports for CPU 0.
        const QString trace = idlescope::test::tracePath(u"lisa-juno-sched_load-6cpu.dat"_s);
        const QString spans = m_out.filePath(u"juno.csv"_s);
        auto r = runCli({u"import"_s, trace, u"--stream"_s, spans});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList common{u"--table"_s,           u"arm-juno-r0"_s,     u"--governor"_s, u"ladder-latest"_s,
                                 u"--governor-source"_s, dataFile(u"hop.c"_s), u"--name"_s,     u"hop"_s};
        const auto fromTrace =
            runCli(QStringList{u"diff-governors"_s, u"--trace"_s, trace, u"--cpu"_s, u"0"_s} + common);
        const auto fromStream =
            runCli(QStringList{u"diff-governors"_s, u"--stream"_s, m_out.filePath(u"juno.cpu0.csv"_s)} + common);
        QVERIFY2(fromTrace.exitCode == 0, qPrintable(fromTrace.err));
        QVERIFY2(fromStream.exitCode == 0, qPrintable(fromStream.err));
        QVERIFY(fromStream.out.startsWith(u"ladder-latest and src:hop decide differently on "_s));
        QCOMPARE(fromTrace.out, fromStream.out);
        // The CPU it took is told as diff-governors' own ("compare: trace ..." before).
        QVERIFY2(fromTrace.err.contains(u"\ndiff-governors: trace "_s + trace + u", CPU 0, "_s),
                 qPrintable(fromTrace.err));
        QVERIFY2(!fromTrace.err.contains(u"compare:"_s), qPrintable(fromTrace.err));
    }

    void diffOfAGovernorWithItselfFindsNothing()
    {
        const auto r = runCli({u"diff-governors"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--stream"_s,
                               dataFile(u"hop.csv"_s), u"--governor"_s, u"src:"_s + dataFile(u"hop.c"_s),
                               u"--governor-source"_s, dataFile(u"hop.c"_s), u"--name"_s, u"hop"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(u"decide alike on all 6 entries of 6 stream rows"_s), qPrintable(r.out));
    }

    void whatTheKernelWouldRefuseIsRefused()
    {
        // No initcall: nothing registered.
        auto r = runCli(replayArgs(u"unregistered.c"_s));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"the file registers no governor"_s), qPrintable(r.err));
        // State 3 of a three-state table, on the third select.
        r = runCli(replayArgs(u"past_the_table.c"_s));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"select() returned state 3 at entry 2; the table has states 0..2"_s),
                 qPrintable(r.err));
        // A directory is no source file.
        r = runCli(replayArgs(QString()));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"not a file"_s), qPrintable(r.err));
    }

    void replayGeneratesCompareFirstStream()
    {
        // replay --workload is the stream compare --export-streams writes for
        // its first iteration (p0-i1.csv: seed 1, point 0, iteration 0), so the
        // two replays print the same summary, byte for byte.
        const QString dir = m_out.filePath(u"exported"_s);
        QVERIFY(QDir().mkpath(dir));
        const QString workload = u"periodic:kind=ipi,interval_us=50"_s;
        auto r = runCli({u"compare"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--governors"_s,
                         u"ladder-latest"_s, u"--workload"_s, workload, u"--spans"_s, u"500"_s, u"--iterations"_s,
                         u"1"_s, u"--export-streams"_s, dir});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto fromFile = runCli({u"replay"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--stream"_s,
                                      dir + u"/p0-i1.csv"_s, u"--governor-source"_s, dataFile(u"hop.c"_s)});
        const auto generated = runCli({u"replay"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--workload"_s,
                                       workload, u"--spans"_s, u"500"_s, u"--governor-source"_s, dataFile(u"hop.c"_s)});
        QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
        QVERIFY2(generated.exitCode == 0, qPrintable(generated.err));
        QVERIFY(generated.out.contains(u"\"spans\": 500,"_s));
        QCOMPARE(generated.out, fromFile.out);
        // A sweep is no single stream.
        r = runCli({u"replay"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--workload"_s,
                    u"periodic:kind=ipi,interval_us=30..60:2"_s, u"--governor"_s, u"ladder-latest"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"sweeps 2 points"_s), qPrintable(r.err));
    }

    void badOptionsAreRefused()
    {
        auto r = runCli(replayArgs(u"hop.c"_s) << u"--governor"_s << u"menu-6.19"_s);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"one of --governor and --governor-source"_s), qPrintable(r.err));
        r = runCli(replayArgs(u"hop.c"_s) << u"--kernel"_s << u"4.19"_s);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"older than the kernels"_s), qPrintable(r.err));
        // Past the newest kernel the shim follows, as before the oldest: its cpuidle core may
        // have changed since (7.5 and 9.9 ran without a word).
        for (const QString &newer : {u"7.1"_s, u"7.5"_s, u"9.9"_s, u"8.0"_s}) {
            r = runCli(replayArgs(u"hop.c"_s) << u"--kernel"_s << newer);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(u"field '--kernel': v"_s + newer
                                    + u" is newer than the kernels idlescope's shim follows (v5.10 ... v7.0)"_s),
                     qPrintable(r.err));
        }
        for (const char *edge : {"5.10", "7.0", "v6.19"})
            QVERIFY2(idlescope::source_governor::parseKernelCore(edge).ok(), edge);
        QVERIFY(!idlescope::source_governor::parseKernelCore("5.9").ok());
        // --name is refused where compare refuses a label: "menu-6.19 and menu-6.19 decide
        // differently" named a source file as the built-in variant it was compared with.
        const std::pair<QString, QString> badNames[] = {
            {u"menu-6.19"_s, u"the label menu-6.19 is another variant's id"_s},
            {u"oracle"_s, u"the label oracle is another variant's id"_s},
            {u"recorded"_s, u"the label recorded names the kernel's own choices in a trace"_s},
            {u"a,b"_s, u"a label may not hold ','"_s},
            {QString(), u"a label may not be empty"_s}};
        for (const auto &[name, message] : badNames) {
            r = runCli({u"diff-governors"_s, u"--table"_s, dataFile(u"three_states.json"_s), u"--stream"_s,
                        dataFile(u"hop.csv"_s), u"--governor"_s, u"menu-6.19"_s, u"--governor-source"_s,
                        dataFile(u"hop.c"_s), u"--name"_s, name});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(u"field '--name': "_s + message), qPrintable(r.err));
        }
        r = runCli(replayArgs(u"no-such-file.c"_s));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"no-such-file.c: cannot read the governor source"_s), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestSourceGovernor)
#include "tst_source_governor.moc"
