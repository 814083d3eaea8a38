// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The man pages the build writes (packaging/man/make_manpage.cmake) list every
 * command and every option the binaries' own help lists, so they cannot fall
 * out of step with it; --version and -V print the project version; the GUI's
 * --help and --version work with no display and no platform plugin.
 */
#include "tests/test_paths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

/// This build tree: the CLI is <build>/app/cli/idlescope-cli.
QDir buildDir()
{
    return QDir(QFileInfo(QStringLiteral(IDLESCOPE_CLI)).absoluteDir().filePath(u"../.."_s));
}

struct Run {
    int exitCode = -1;
    QString out, err;
};

/// Runs @p program with no display of any kind in its environment.
Run runHeadless(const QString &program, const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &v : {u"DISPLAY"_s, u"WAYLAND_DISPLAY"_s, u"QT_QPA_PLATFORM"_s})
        env.remove(v);
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(60000))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

/// The roff source of a generated page with its escapes undone where options
/// are concerned ("\-" is the minus an option is typed with).
QString manText(const QString &name)
{
    QFile f(buildDir().filePath(u"packaging/man/"_s + name + u".1"_s));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).replace(u"\\-"_s, u"-"_s).replace(u"\\e"_s, u"\\"_s);
}

/// Every "--option" and "-x" short option a help text mentions.
QSet<QString> optionsIn(const QString &help)
{
    QSet<QString> out;
    static const QRegularExpression re(u"(?<![\\w-])(--[a-z][a-z-]*|-[a-zA-Z])(?![\\w-])"_s);
    for (auto it = re.globalMatch(help); it.hasNext();)
        out.insert(it.next().captured(1));
    return out;
}

/// The command names listed under "commands:" in idlescope-cli --help.
QStringList commandsIn(const QString &usage)
{
    QStringList out;
    const qsizetype at = usage.indexOf(u"commands:\n"_s);
    if (at < 0)
        return out;
    for (const QString &line : usage.mid(at + 10).split(u'\n')) {
        if (!line.startsWith(u"  "_s))
            break;
        out << line.trimmed().section(u' ', 0, 0);
    }
    return out;
}

} // namespace

class TestManpage : public QObject {
    Q_OBJECT

private slots:
    void cliPageListsEveryCommandAndOption()
    {
        const QString page = manText(u"idlescope-cli"_s);
        QVERIFY2(!page.isEmpty(), "packaging/man/idlescope-cli.1 was not generated");
        QVERIFY(page.contains(u".TH IDLESCOPE-CLI 1"_s));

        const Run usage = runHeadless(QStringLiteral(IDLESCOPE_CLI), {u"--help"_s});
        QCOMPARE(usage.exitCode, 0);
        const QStringList commands = commandsIn(usage.out);
        // main.cpp's kCommands: at least the five of the first release.
        for (const QString &c : {u"replay"_s, u"governors"_s, u"compare"_s, u"import"_s, u"trace-stats"_s})
            QVERIFY2(commands.contains(c), qPrintable(c));
        int checked = 0;
        for (const QString &o : optionsIn(usage.out)) {
            QVERIFY2(page.contains(o), qPrintable(u"--help's "_s + o + u" is not in the man page"_s));
            ++checked;
        }
        QVERIFY(checked >= 3); // -h, --help, -V, --version
        for (const QString &c : commands) {
            QVERIFY2(page.contains(u"\n.SS "_s + c + u'\n'), qPrintable(u"no section for "_s + c));
            const Run help = runHeadless(QStringLiteral(IDLESCOPE_CLI), {u"help"_s, c});
            QCOMPARE(help.exitCode, 0);
            const QSet<QString> options = optionsIn(help.out);
            QVERIFY2(!options.isEmpty() || c == u"governors"_s, qPrintable(c));
            for (const QString &o : options)
                QVERIFY2(page.contains(o),
                         qPrintable(u"help "_s + c + u" lists "_s + o + u", the man page does not"_s));
            // Each line of the command's help is in the page, in order, verbatim.
            qsizetype from = page.indexOf(u"\n.SS "_s + c + u'\n');
            for (const QString &line : help.out.split(u'\n', Qt::SkipEmptyParts)) {
                QString roff = line;
                if (roff.startsWith(u'.') || roff.startsWith(u'\''))
                    roff.prepend(u"\\&"_s);
                const qsizetype at = page.indexOf(roff, from);
                QVERIFY2(at > from, qPrintable(c + u": "_s + line));
                from = at;
            }
        }
    }

    void guiPageListsEveryOption()
    {
        const QString gui = buildDir().filePath(u"app/gui/idlescope"_s);
        if (!QFile::exists(gui))
            QSKIP("the GUI is not built (IDLESCOPE_BUILD_GUI=OFF)");
        const QString page = manText(u"idlescope"_s);
        QVERIFY2(!page.isEmpty(), "packaging/man/idlescope.1 was not generated");
        const Run help = runHeadless(gui, {u"--help"_s});
        QCOMPARE(help.exitCode, 0);
        const QSet<QString> options = optionsIn(help.out);
        for (const QString &o : {u"--screenshot"_s, u"--measure"_s, u"--jitter"_s, u"--help"_s, u"--version"_s})
            QVERIFY2(options.contains(o), qPrintable(o));
        for (const QString &o : options)
            QVERIFY2(page.contains(o), qPrintable(u"idlescope --help lists "_s + o + u", the man page does not"_s));
    }

    void versionWithoutADisplay()
    {
        // CMakeLists.txt: project(idlescope VERSION 0.1.0 ...); the CLI and the GUI print it.
        for (const QString &flag : {u"--version"_s, u"-V"_s}) {
            const Run r = runHeadless(QStringLiteral(IDLESCOPE_CLI), {flag});
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(QRegularExpression(u"^idlescope-cli \\d+\\.\\d+\\.\\d+\\n$"_s).match(r.out).hasMatch(),
                     qPrintable(r.out));
        }
        const QString gui = buildDir().filePath(u"app/gui/idlescope"_s);
        if (!QFile::exists(gui))
            QSKIP("the GUI is not built (IDLESCOPE_BUILD_GUI=OFF)");
        const Run cli = runHeadless(QStringLiteral(IDLESCOPE_CLI), {u"--version"_s});
        const Run r = runHeadless(gui, {u"--version"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err)); // it aborted here: "could not connect to display"
        QCOMPARE(r.out.trimmed(), cli.out.trimmed().replace(u"idlescope-cli"_s, u"idlescope"_s));
        const Run bad = runHeadless(gui, {u"--help"_s, u"--no-such-option"_s});
        QCOMPARE(bad.exitCode, 1); // QCommandLineParser::process() on an unknown option
        QVERIFY(bad.err.contains(u"no-such-option"_s));
    }
};

QTEST_GUILESS_MAIN(TestManpage)
#include "tst_manpage.moc"
