// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Desktop integration and install layout: the desktop entry, the icon and
 * the AppStream metainfo agree with each other (names, categories, licence,
 * binaries), and `cmake --install` of this build tree puts the CLI, the GUI
 * (when built) and the three files where desktops look for them; the install
 * components split them: `--component cli` is the CLI with its helper
 * programs, man page and completion and nothing of the GUI, `--component gui`
 * the GUI with its helpers and desktop files and not the CLI.
 */
#include "tests/test_paths.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace Qt::StringLiterals;

namespace {

QString packagingFile(const QString &name)
{
    return idlescope::test::sourceDir() + u"/packaging/"_s + name;
}

/// Key=value pairs of the [Desktop Entry] group.
QMap<QString, QString> desktopEntry(const QString &path)
{
    QMap<QString, QString> keys;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return keys;
    bool inGroup = false;
    while (!f.atEnd()) {
        const QString line = QString::fromUtf8(f.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(u'#'))
            continue;
        if (line.startsWith(u'[')) {
            inGroup = line == u"[Desktop Entry]"_s;
            continue;
        }
        const qsizetype eq = line.indexOf(u'=');
        if (inGroup && eq > 0)
            keys.insert(line.left(eq), line.mid(eq + 1));
    }
    return keys;
}

/// Text of the elements of the metainfo file, "tag" or "tag@type" -> values.
QMultiMap<QString, QString> metainfo(const QString &path, QString *error)
{
    QMultiMap<QString, QString> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = u"cannot open "_s + path;
        return out;
    }
    QXmlStreamReader xml(&f);
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        QString key = xml.name().toString();
        const QString type = xml.attributes().value(u"type"_s).toString();
        if (!type.isEmpty())
            key += u'@' + type;
        if (key == u"component@desktop-application"_s) {
            out.insert(key, QString());
            continue;
        }
        if (key == u"description"_s || key == u"releases"_s || key == u"provides"_s || key == u"categories"_s
            || key == u"keywords"_s || key == u"release"_s || key.startsWith(u"screenshot"_s))
            continue;
        out.insert(key, xml.readElementText(QXmlStreamReader::SkipChildElements).trimmed());
    }
    if (xml.hasError())
        *error = path + u":"_s + QString::number(xml.lineNumber()) + u": "_s + xml.errorString();
    return out;
}

/// The version attributes of <release> elements, newest (first) first.
QStringList metainfoReleases(const QString &path)
{
    QStringList out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    QXmlStreamReader xml(&f);
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"release"_s)
            out << xml.attributes().value(u"version"_s).toString();
    return out;
}

/// This build tree (the CLI is <build>/app/cli/idlescope-cli).
QDir buildDir()
{
    return QDir(QFileInfo(QStringLiteral(IDLESCOPE_CLI)).absoluteDir().filePath(u"../.."_s));
}

/// `cmake --install <build> [--component C] --prefix P`: "" when it succeeded, else why not.
QString cmakeInstall(const QString &cmake, const QString &prefix, const QString &component = {})
{
    QStringList args = {u"--install"_s, buildDir().absolutePath(), u"--prefix"_s, prefix};
    if (!component.isEmpty())
        args << u"--component"_s << component;
    QProcess p;
    p.start(cmake, args);
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit)
        return u"cmake --install did not finish"_s;
    return p.exitCode() == 0 ? QString() : QString::fromUtf8(p.readAllStandardError());
}

/// Every file under @p root, relative to it, sorted.
QStringList filesUnder(const QString &root)
{
    QStringList out;
    QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << QDir(root).relativeFilePath(it.next());
    out.sort();
    return out;
}

} // namespace

class TestInstall : public QObject {
    Q_OBJECT

private slots:
    void desktopEntryIconAndMetainfoAgree()
    {
        const auto entry = desktopEntry(packagingFile(u"io.github.idlescope.desktop"_s));
        QCOMPARE(entry.value(u"Type"_s), u"Application"_s);
        QCOMPARE(entry.value(u"Exec"_s).section(u' ', 0, 0), u"idlescope"_s);
        QCOMPARE(entry.value(u"Icon"_s), u"idlescope"_s);
        QCOMPARE(entry.value(u"Categories"_s), u"Development;Profiling;"_s);
        QVERIFY(!entry.value(u"Comment"_s).isEmpty());

        // The icon the entry names is our scalable SVG.
        QFile svg(idlescope::test::sourceDir() + u"/resources/icons/idlescope.svg"_s);
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QXmlStreamReader x(&svg);
        while (!x.atEnd() && x.readNext() != QXmlStreamReader::StartElement) {}
        QCOMPARE(x.name().toString(), u"svg"_s);
        QCOMPARE(x.attributes().value(u"viewBox"_s).toString(), u"0 0 128 128"_s);

        QString error;
        const auto meta = metainfo(packagingFile(u"io.github.idlescope.metainfo.xml"_s), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(meta.contains(u"component@desktop-application"_s));
        QCOMPARE(meta.value(u"id"_s), u"io.github.idlescope"_s);
        QCOMPARE(meta.value(u"project_license"_s), u"GPL-3.0-or-later"_s);
        QCOMPARE(meta.value(u"metadata_license"_s), u"CC0-1.0"_s);
        // The desktop file is named after the component id (AppStream's rule; the GUI's
        // setDesktopFileName says the same to Wayland compositors).
        QCOMPARE(meta.value(u"launchable@desktop-id"_s), meta.value(u"id"_s) + u".desktop"_s);
        QCOMPARE(meta.value(u"icon@stock"_s), entry.value(u"Icon"_s));
        const QStringList binaries = meta.values(u"binary"_s);
        QVERIFY(binaries.contains(u"idlescope"_s));
        QVERIFY(binaries.contains(u"idlescope-cli"_s));
        // The screenshot is the README's, and the newest release is this version.
        QCOMPARE(meta.value(u"image@source"_s),
                 u"https://raw.githubusercontent.com/idlescope/idlescope/main/docs/screenshot-main.png"_s);
        QVERIFY(QFile::exists(idlescope::test::sourceDir() + u"/docs/screenshot-main.png"_s));
        QProcess cli;
        cli.start(QStringLiteral(IDLESCOPE_CLI), {u"--version"_s});
        QVERIFY(cli.waitForFinished(60000));
        const QString version = QString::fromUtf8(cli.readAllStandardOutput()).trimmed().section(u' ', 1);
        QVERIFY(!version.isEmpty());
        QCOMPARE(metainfoReleases(packagingFile(u"io.github.idlescope.metainfo.xml"_s)).value(0), version);
        const QStringList categories = meta.values(u"category"_s);
        QCOMPARE(categories.size(), 2);
        QVERIFY(categories.contains(u"Development"_s) && categories.contains(u"Profiling"_s));
    }

    void cmakeInstallLaysOutTheFiles()
    {
        // This build tree: the CLI is <build>/app/cli/idlescope-cli.
        const QDir build = buildDir();
        QVERIFY2(QFile::exists(build.filePath(u"cmake_install.cmake"_s)), qPrintable(build.absolutePath()));
        const QString cmake = QStandardPaths::findExecutable(u"cmake"_s);
        if (cmake.isEmpty())
            QSKIP("cmake is not on PATH");
        const bool gui = QFile::exists(build.filePath(u"app/gui/idlescope"_s));
        const QString cache = [&] {
            QFile f(build.filePath(u"CMakeCache.txt"_s));
            return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
        }();
        if (!gui && !cache.contains(u"IDLESCOPE_BUILD_GUI:BOOL=OFF"_s))
            QSKIP("the GUI is configured but not built, so cmake --install cannot run");

        QTemporaryDir prefix;
        QVERIFY(prefix.isValid());
        const QString error = cmakeInstall(cmake, prefix.path());
        QVERIFY2(error.isEmpty(), qPrintable(error));

        const QDir root(prefix.path());
        QVERIFY(QFileInfo(root.filePath(u"bin/idlescope-cli"_s)).isExecutable());
        QVERIFY(QFile::exists(root.filePath(u"share/doc/idlescope/copyright"_s)));
        // Debian's places: the changelog and the man pages gzip'd, the completion by command name.
        for (const QString &gz : {u"share/doc/idlescope/changelog.gz"_s, u"share/man/man1/idlescope-cli.1.gz"_s}) {
            QFile f(root.filePath(gz));
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(gz));
            QCOMPARE(f.read(2), QByteArray("\x1f\x8b")); // gzip magic
        }
        QVERIFY(QFile::exists(root.filePath(u"share/bash-completion/completions/idlescope-cli"_s)));
        // The copyright is DEP-5 and points to the GPL in common-licenses instead of carrying it.
        QFile copyright(root.filePath(u"share/doc/idlescope/copyright"_s));
        QVERIFY(copyright.open(QIODevice::ReadOnly));
        const QByteArray text = copyright.readAll();
        QVERIFY(text.startsWith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"));
        QVERIFY(text.contains("/usr/share/common-licenses/GPL-3"));
        QVERIFY(text.contains("QCustomPlot"));
        QVERIFY(!text.contains("TERMS AND CONDITIONS")); // the full licence text is not copied
        // Where the installed CLI looks for the host of source governors (governor_host_path.cpp).
        QVERIFY(QFileInfo(root.filePath(u"libexec/idlescope/idlescope-governor-host"_s)).isExecutable());
        // ...and for the reader of .dat files (dat_reader_path.cpp).
        QVERIFY(QFileInfo(root.filePath(u"libexec/idlescope/idlescope-dat-reader"_s)).isExecutable());
        if (!gui)
            return;
        QVERIFY(QFile::exists(root.filePath(u"share/man/man1/idlescope.1.gz"_s)));
        QVERIFY(QFileInfo(root.filePath(u"bin/idlescope"_s)).isExecutable());
        QVERIFY(QFile::exists(root.filePath(u"share/applications/io.github.idlescope.desktop"_s)));
        QVERIFY(QFile::exists(root.filePath(u"share/icons/hicolor/scalable/apps/idlescope.svg"_s)));
        QVERIFY(QFile::exists(root.filePath(u"share/metainfo/io.github.idlescope.metainfo.xml"_s)));

        // The installed CLI runs and knows the governors.
        QProcess cli;
        cli.start(root.filePath(u"bin/idlescope-cli"_s), {u"governors"_s});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        QVERIFY(cli.readAllStandardOutput().contains("ladder-latest"));
    }

    void componentInstall_data()
    {
        QTest::addColumn<QString>("component");
        QTest::addColumn<QStringList>("files");
        // Exactly these (COMPONENT in app/*/CMakeLists.txt and packaging/CMakeLists.txt):
        // the program, the two helpers both programs start from libexec/idlescope, the
        // program's man page, its completion or desktop files, and Debian's two documents.
        QTest::newRow("cli") << u"cli"_s
                             << QStringList({u"bin/idlescope-cli"_s, u"libexec/idlescope/idlescope-dat-reader"_s,
                                             u"libexec/idlescope/idlescope-governor-host"_s,
                                             u"share/bash-completion/completions/idlescope-cli"_s,
                                             u"share/doc/idlescope/changelog.gz"_s, u"share/doc/idlescope/copyright"_s,
                                             u"share/man/man1/idlescope-cli.1.gz"_s});
        QTest::newRow("gui") << u"gui"_s
                             << QStringList({u"bin/idlescope"_s, u"libexec/idlescope/idlescope-dat-reader"_s,
                                             u"libexec/idlescope/idlescope-governor-host"_s,
                                             u"share/applications/io.github.idlescope.desktop"_s,
                                             u"share/doc/idlescope/changelog.gz"_s, u"share/doc/idlescope/copyright"_s,
                                             u"share/icons/hicolor/scalable/apps/idlescope.svg"_s,
                                             u"share/man/man1/idlescope.1.gz"_s,
                                             u"share/metainfo/io.github.idlescope.metainfo.xml"_s});
    }

    void componentInstall()
    {
        QFETCH(QString, component);
        QFETCH(QStringList, files);
        const QString cmake = QStandardPaths::findExecutable(u"cmake"_s);
        if (cmake.isEmpty())
            QSKIP("cmake is not on PATH");
        // The cli component needs no GUI built (its rules name the CLI's files only).
        if (component == u"gui"_s && !QFile::exists(buildDir().filePath(u"app/gui/idlescope"_s)))
            QSKIP("the GUI is not built");
        QTemporaryDir prefix;
        QVERIFY(prefix.isValid());
        const QString error = cmakeInstall(cmake, prefix.path(), component);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(filesUnder(prefix.path()), files);
        const QDir root(prefix.path());
        for (const QString &f : files)
            if (f.startsWith(u"bin/"_s) || f.startsWith(u"libexec/"_s))
                QVERIFY2(QFileInfo(root.filePath(f)).isExecutable(), qPrintable(f));
        if (component != u"cli"_s)
            return;
        // The CLI installed alone runs from there: `governors` lists the built-in variants.
        QProcess cli;
        cli.start(root.filePath(u"bin/idlescope-cli"_s), {u"governors"_s});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 0);
        QVERIFY(cli.readAllStandardOutput().contains("ladder-latest"));
    }
};

QTEST_GUILESS_MAIN(TestInstall)
#include "tst_install.moc"
