// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * The written layering rules, checked on the source tree: the engine
 * (core/ but the QtCore part of core/io, idlescope_io) includes no Qt header,
 * and nothing in core/ includes widgets/ or app/; widgets/ includes nothing of
 * app/. The plain formats (idlescope_formats) and the trace importers, which
 * link no Qt, include no header of idlescope_io either. CMake already refuses
 * an idlescope_core, idlescope_formats or idlescope_trace that links Qt; this
 * catches a header that would make them need to. Each library has its folder
 * (core/formats/, core/io/); the files come from the build (tests/CMakeLists.txt:
 * the two libraries' sources).
 * core/trace and core/workloads make streams and include neither the governor
 * registry nor the factory of core/replay (the runs that replay them through
 * governors are core/experiments and core/scenario).
 */
#include "tests/test_paths.h"

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

namespace {

/// "file:line: include" for every #include under @p folder (relative to the
/// source tree) that matches @p forbidden, except in files whose path starts
/// with one of @p allowed (a folder "core/io/" or a file's stem "core/io/x.").
QStringList offending(const QString &folder, const QRegularExpression &forbidden, const QStringList &allowed = {})
{
    const QString root = idlescope::test::sourceDir();
    QStringList out;
    QDirIterator it(root + u'/' + folder, {QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files,
                    QDirIterator::Subdirectories);
    const QRegularExpression include(QStringLiteral("^\\s*#\\s*include\\s*([<\"][^>\"]+[>\"])"));
    while (it.hasNext()) {
        const QString path = it.next();
        const QString rel = path.mid(root.size() + 1);
        bool exempt = false;
        for (const QString &a : allowed)
            exempt = exempt || rel.startsWith(a);
        if (exempt)
            continue;
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return {rel + QStringLiteral(": unreadable")};
        int line = 0;
        while (!f.atEnd()) {
            ++line;
            const QString text = QString::fromUtf8(f.readLine());
            const QRegularExpressionMatch m = include.match(text);
            if (m.hasMatch() && forbidden.match(m.captured(1)).hasMatch())
                out << QStringLiteral("%1:%2: %3").arg(rel).arg(line).arg(m.captured(1));
        }
    }
    return out;
}

/// "core/io/x." for each "io/x.cpp" (or "core/formats/x." for "formats/x.cpp") of a library's sources (CMake's list, comma-separated):
/// the prefix of its .cpp and its header.
QStringList stems(const char *sources)
{
    QStringList out;
    for (const QString &s : QString::fromUtf8(sources).split(u',', Qt::SkipEmptyParts))
        out << QStringLiteral("core/") + s.chopped(3); // "io/x.cpp" -> "core/io/x."
    return out;
}

const QStringList kQtIo = stems(IDLESCOPE_QT_IO_SOURCES);
const QStringList kFormats = stems(IDLESCOPE_FORMATS_SOURCES);
const QRegularExpression kQtInclude(QStringLiteral("^<Q|^<qt|^\"Q"));

} // namespace

class TestLayering : public QObject {
    Q_OBJECT

private slots:
    void engineHasNoQt()
    {
        // Everything of core/ but idlescope_io's files: the engine, the plain formats,
        // the trace importers and the targets.
        const QStringList bad = offending(QStringLiteral("core"), kQtInclude, kQtIo);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QStringLiteral("; "))));
    }

    void plainFormatsAndTraceUseNoQtIo()
    {
        // "core/io/table_json.h" from a formats file or an importer would need
        // idlescope_io (and QtCore) at link time.
        QString headers;
        for (const QString &stem : kQtIo)
            headers += (headers.isEmpty() ? QString() : QStringLiteral("|"))
                       + QRegularExpression::escape(stem + QStringLiteral("h"));
        const QRegularExpression qtIoHeader(QStringLiteral("^\"(") + headers + QStringLiteral(")\""));
        QStringList bad = offending(QStringLiteral("core/trace"), qtIoHeader);
        bad << offending(QStringLiteral("core/formats"), qtIoHeader); // the plain formats' files
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QStringLiteral("; "))));
    }

    void coreKnowsNoGuiOrApp()
    {
        const QStringList bad =
            offending(QStringLiteral("core"), QRegularExpression(QStringLiteral("^\"(widgets|app)/")));
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QStringLiteral("; "))));
    }

    void widgetsKnowNoApp()
    {
        const QStringList bad = offending(QStringLiteral("widgets"), QRegularExpression(QStringLiteral("^\"app/")));
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QStringLiteral("; "))));
    }

    void streamMakersKnowNoGovernorRegistry()
    {
        const QRegularExpression registry(
            QStringLiteral("^\"core/(governors/registry|replay/governor_factory)\\.h\"$"));
        for (const QString &folder : {QStringLiteral("core/trace"), QStringLiteral("core/workloads")}) {
            const QStringList bad = offending(folder, registry);
            QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QStringLiteral("; "))));
        }
    }

    void theCheckSeesIncludes()
    {
        // The scan finds what it is meant to: idlescope_io's files do include Qt
        // (table_json.cpp: <QJsonDocument>), and comparison_shard.cpp includes
        // another of them (core/io/table_json.h).
        QVERIFY(!offending(QStringLiteral("core/io"), QRegularExpression(QStringLiteral("^<Q"))).isEmpty());
        QVERIFY(kQtIo.contains(QStringLiteral("core/io/table_json.")));
        QVERIFY(!offending(QStringLiteral("core/io"), QRegularExpression(QStringLiteral("^\"core/io/table_json\\.h\"")))
                     .isEmpty());
        // The build's two lists are the ones meant: stream CSV is plain, and no file is in both.
        QVERIFY(kFormats.contains(QStringLiteral("core/formats/stream_csv.")));
        for (const QString &stem : kFormats)
            QVERIFY2(!kQtIo.contains(stem), qPrintable(stem));
        // ... and core/experiments (comparison.cpp) the governor registry.
        QVERIFY(!offending(QStringLiteral("core/experiments"),
                           QRegularExpression(QStringLiteral("^\"core/governors/registry\\.h\"$")))
                     .isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLayering)
#include "tst_layering.moc"
