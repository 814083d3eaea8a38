// SPDX-License-Identifier: GPL-3.0-or-later
// Help → Concepts: the embedded page loads, covers the terms the issue names,
// and every section the dialog can jump to exists.
#include "widgets/help/concepts_dialog.h"

#include <QScrollBar>
#include <QTest>
#include <QTextBrowser>

using namespace idlescope;

class TestConceptsDialog : public QObject {
    Q_OBJECT
private slots:
    void pageIsEmbedded();
    void coversTheTerms_data();
    void coversTheTerms();
    void dialogShowsPage();
};

void TestConceptsDialog::pageIsEmbedded()
{
    const QString html = conceptsHtml();
    QVERIFY(html.size() > 5000);
    QVERIFY(html.contains(QStringLiteral("<h1>cpuidle in a nutshell</h1>")));
    for (const char *anchor :
         {"states", "inputs", "misses", "tick", "poll", "menu", "teo", "cede", "oracle", "numbers"})
        QVERIFY2(html.contains(QStringLiteral("name=\"%1\"").arg(QLatin1String(anchor))), anchor);
}

void TestConceptsDialog::coversTheTerms_data()
{
    QTest::addColumn<QString>("term");
    for (const char *t : {"target residency", "exit latency", "above", "below", "sleep length", "next timer",
                          "intercept", "hit", "stop_tick", "poll time limit", "CEDE", "typical interval",
                          "idle_miss_ratio", "RESIDENCY_THRESHOLD_NS", "latency cost"})
        QTest::newRow(t) << QString::fromLatin1(t);
}

void TestConceptsDialog::coversTheTerms()
{
    QFETCH(QString, term);
    QVERIFY(conceptsHtml().contains(term, Qt::CaseInsensitive));
}

void TestConceptsDialog::dialogShowsPage()
{
    ConceptsDialog dialog;
    dialog.resize(720, 640);
    const QString text = dialog.browser()->toPlainText();
    QVERIFY(text.contains(QStringLiteral("cpuidle in a nutshell")));
    QVERIFY(text.contains(QStringLiteral("The POWER CEDE story")));
    dialog.show();
    dialog.showTopic(QStringLiteral("cede"));
    QVERIFY(dialog.browser()->verticalScrollBar()->value() > 0);
    const QByteArray dir = qgetenv("IDLESCOPE_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        dialog.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/concepts.png"));
}

QTEST_MAIN(TestConceptsDialog)
#include "tst_concepts_dialog.moc"
