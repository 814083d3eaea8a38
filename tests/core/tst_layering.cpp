// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * The written layering rules, checked on the source tree: the engine
 * (core/ but core/io) includes no Qt header, and nothing in core/ includes
 * widgets/ or app/; widgets/ includes nothing of app/; core/trace and
 * core/workloads make streams and include no governor registry (the runs that
 * replay them through governors are core/experiments). CMake already refuses
 * an idlescope_core that links Qt; this catches a header that would make it
 * need to.
 */
#include "tests/test_paths.h"

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

namespace {

/// "file:line: include" for every #include under @p folder (relative to the
/// source tree) that matches @p forbidden, except in the folders of @p allowed.
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
            exempt = exempt || rel.startsWith(a + u'/');
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

} // namespace

class TestLayering : public QObject {
    Q_OBJECT

private slots:
    void engineHasNoQt()
    {
        const QStringList bad = offending(QStringLiteral("core"), QRegularExpression(QStringLiteral("^<Q|^<qt|^\"Q")),
                                          {QStringLiteral("core/io")});
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
        const QRegularExpression registry(QStringLiteral("^\"core/governors/registry\\.h\"$"));
        for (const QString &folder : {QStringLiteral("core/trace"), QStringLiteral("core/workloads")}) {
            const QStringList bad = offending(folder, registry);
            QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QStringLiteral("; "))));
        }
    }

    void theCheckSeesIncludes()
    {
        // The scan finds what it is meant to: core/io does include Qt, and the experiments
        // (core/experiments/comparison.cpp, governor_settings.cpp) the governor registry.
        QVERIFY(!offending(QStringLiteral("core/io"), QRegularExpression(QStringLiteral("^<Q"))).isEmpty());
        QVERIFY(!offending(QStringLiteral("core/experiments"),
                           QRegularExpression(QStringLiteral("^\"core/governors/registry\\.h\"$")))
                     .isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLayering)
#include "tst_layering.moc"
