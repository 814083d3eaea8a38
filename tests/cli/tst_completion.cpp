// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The bash completion of idlescope-cli (packaging/completion/idlescope-cli):
 * bash sources it, COMP_WORDS / COMP_CWORD are set as bash sets them for a
 * command line, the completion function runs, and COMPREPLY is compared with
 * what the CLI itself lists (commands, options, governor variant ids, table ids).
 */
#include "tests/cli_process.h"
#include "tests/test_paths.h"

#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

/// COMPREPLY for the command line @p words with the cursor on the last word.
QStringList complete(const QStringList &words)
{
    QString quoted;
    for (const QString &w : words)
        quoted += u" '"_s + QString(w).replace(u"'"_s, u"'\\''"_s) + u'\'';
    const QString script = u"source '"_s + idlescope::test::sourceDir()
                           + u"/packaging/completion/idlescope-cli'\n"
                             u"COMP_WORDS=("_s
                           + quoted
                           + u")\n"
                             u"COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n"
                             u"COMP_WORDS[0]='"_s
                           + QStringLiteral(IDLESCOPE_CLI)
                           + u"'\n"
                             u"_idlescope_cli\n"
                             u"printf '%s\\n' \"${COMPREPLY[@]}\"\n"_s;
    QProcess bash;
    bash.start(u"bash"_s, {u"--norc"_s, u"-c"_s, script});
    if (!bash.waitForFinished(60000) || bash.exitCode() != 0)
        return {u"bash failed: "_s + QString::fromUtf8(bash.readAllStandardError())};
    return QString::fromUtf8(bash.readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts);
}

/// What idlescope-cli prints for @p args; a run that did not finish normally gives its
/// error instead (runCli()), which lists nothing the completion could match.
QString cli(const QStringList &args)
{
    const idlescope::test::CliResult r = idlescope::test::runCli(args);
    return r.exitCode < 0 ? r.err : r.out;
}

} // namespace

class TestCompletion : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(u"bash"_s).isEmpty())
            QSKIP("bash is not installed");
    }

    void commands()
    {
        const QStringList all = complete({u"idlescope-cli"_s, u""_s});
        for (const QString &c :
             {u"replay"_s, u"governors"_s, u"compare"_s, u"import"_s, u"trace-stats"_s, u"help"_s, u"--version"_s})
            QVERIFY2(all.contains(c), qPrintable(all.join(u' ')));
        QCOMPARE(complete({u"idlescope-cli"_s, u"tr"_s}), QStringList{u"trace-stats"_s});
        QCOMPARE(complete({u"idlescope-cli"_s, u"help"_s, u"gov"_s}), QStringList{u"governors"_s});
    }

    void governorsAreOffered()
    {
        // Every id `idlescope-cli governors` lists (first column under the header).
        QStringList ids;
        const QStringList lines = cli({u"governors"_s}).split(u'\n', Qt::SkipEmptyParts);
        for (qsizetype i = 1; i < lines.size(); ++i)
            ids << lines[i].section(u' ', 0, 0);
        QVERIFY(ids.contains(u"menu-6.14"_s) && ids.contains(u"teo-latest"_s) && ids.contains(u"haltpoll-latest"_s));
        QStringList offered = complete({u"idlescope-cli"_s, u"replay"_s, u"--governor"_s, u""_s});
        offered.sort();
        ids.sort();
        QCOMPARE(offered, ids);
        // A prefix narrows to that family; --governors completes the item after the comma.
        const QStringList teo = complete({u"idlescope-cli"_s, u"replay"_s, u"--governor"_s, u"teo-"_s});
        QVERIFY(!teo.isEmpty());
        for (const QString &t : teo)
            QVERIFY2(t.startsWith(u"teo-"_s), qPrintable(t));
        const QStringList list = complete({u"idlescope-cli"_s, u"compare"_s, u"--governors"_s, u"menu-6.14,lad"_s});
        QVERIFY(list.contains(u"menu-6.14,ladder-latest"_s));
        for (const QString &t : list)
            QVERIFY2(t.startsWith(u"menu-6.14,ladder"_s), qPrintable(t));
    }

    void optionsAndTables()
    {
        const QStringList opts = complete({u"idlescope-cli"_s, u"compare"_s, u"--"_s});
        for (const QString &o : {u"--table"_s, u"--workload"_s, u"--governors"_s, u"--format"_s, u"--trace"_s})
            QVERIFY2(opts.contains(o), qPrintable(opts.join(u' ')));
        QCOMPARE(complete({u"idlescope-cli"_s, u"trace-stats"_s, u"x.dat"_s, u"--form"_s}), QStringList{u"--format"_s});
        QCOMPARE(complete({u"idlescope-cli"_s, u"compare"_s, u"--format"_s, u""_s}),
                 (QStringList{u"md"_s, u"csv"_s, u"json"_s}));
        // resources/targets/pseries-power10-lpar.json and intel-skx.json are built in.
        const QStringList tables = complete({u"idlescope-cli"_s, u"compare"_s, u"--table"_s, u""_s});
        for (const QString &t : {u"pseries-power10-lpar"_s, u"intel-skx"_s, u"this-machine"_s})
            QVERIFY2(tables.contains(t), qPrintable(tables.join(u' ')));
    }
};

QTEST_GUILESS_MAIN(TestCompletion)
#include "tst_completion.moc"
