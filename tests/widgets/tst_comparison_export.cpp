// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison table's exports go through core's table writer (table_writer.h): a CSV of
// the window's table is, cell by cell, what `idlescope-cli compare ... --format csv` prints
// for the same scenario; a label holding '|' or ',' stays in its column in markdown, CSV and
// JSON; and the table as a PDF or SVG figure holds every label and its numbers as text.
#include "../cli_process.h"
#include "../test_paths.h"
#include "replay_fixture.h"
#include "runner_fixture.h"
#include "widgets/comparison/comparison_table_model.h"
#include "widgets/comparison/comparison_view.h"
#include "widgets/export/compare_command.h"
#include "widgets/runner/builtin_scenario.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace idlescope;

class TestComparisonExport : public QObject {
    Q_OBJECT
private slots:
    void csvIsTheCliCsvCellByCell();
    void labelsStayInTheirColumns();
    void svgFigureHoldsLabelsAndCells();
    void pdfFigureIsOnePage();

private:
    QTemporaryDir m_dir;
};

namespace {

QString readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

/// The fields of one CSV line, RFC 4180: a quoted field may hold ',' and doubled quotes.
QStringList csvFields(const QString &line)
{
    QStringList out{QString()};
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted && c == u'"' && i + 1 < line.size() && line[i + 1] == u'"')
            out.back() += line[++i];
        else if (c == u'"')
            quoted = !quoted;
        else if (c == u',' && !quoted)
            out << QString();
        else
            out.back() += c;
    }
    return out;
}

/// The cells of one markdown row: split at '|' not escaped as "\|", each trimmed.
QStringList markdownCells(const QString &line)
{
    QStringList out{QString()};
    for (qsizetype i = 0; i < line.size(); ++i) {
        if (line[i] == u'\\' && i + 1 < line.size() && line[i + 1] == u'|') {
            out.back() += u'|';
            ++i;
        } else if (line[i] == u'|') {
            out << QString();
        } else {
            out.back() += line[i];
        }
    }
    for (QString &c : out)
        c = c.trimmed();
    return out.mid(1, out.size() - 2); // the empty text before the first '|' and after the last
}

/// The table lines of an export (its "# " context lines left out).
QStringList tableLines(const QString &csv)
{
    QStringList lines = csv.split(u'\n', Qt::SkipEmptyParts);
    lines.removeIf([](const QString &l) { return l.startsWith(u'#'); });
    return lines;
}

/// Five spans by hand on pseries-p10 (kit table, no power data), the oracle's row: 5 entries,
/// usage snooze 1 (the 20 us IPI) and CEDE 4; latency cost 3 IPIs into CEDE x 12 us = 36 us;
/// wakeups_per_s 4 / 31.073 ms = 128.729 (tst_comparison_model csvAndMarkdown).
std::shared_ptr<SimulationSnapshot> handSnapshot()
{
    auto t = readTableJson(test::conformancePath(QStringLiteral("tables/pseries-p10.json")).toStdString());
    const IdleStream stream = {
        {1000, 500000, 500000, -1, 0},     // timer wakeup at 500 us: CEDE, no cost
        {1000, 5000000, 200000, -1, 0},    // IPI at 200 us: CEDE, pays 12 us
        {1000, 5000000, 20000, -1, 0},     // IPI at 20 us: snooze (polls), pays 0
        {1000, 5000000, 300000, -1, 0},    // IPI at 300 us: CEDE, pays 12 us
        {1000, 50000000, 30000000, -1, 0}, // IPI at 30 ms, tick stopped: CEDE, pays 12 us
    };
    return test::makeSnapshot(*t, stream, {"oracle", "oracle"});
}

/// The scenario of the CLI comparison: a powered table (so idle_energy_J has numbers), a
/// seeded generator, menu-6.14 and teo-6.14 under the label "a|b" (a label may hold '|'
/// but not ',': governorLabelProblem()).
ScenarioSpec cliScenario()
{
    ScenarioSpec spec = defaultScenario();
    spec.target = test::fileTarget(test::powerTablePath());
    spec.workload = WorkloadSourceSpec{};
    spec.workload.text = "poisson:mean_us=300+periodic:interval_us=700";
    spec.workload.spans = 4000;
    spec.workload.seed = 3;
    spec.governors = {GovernorSpec{"menu-6.14", {}, QColor(0x1f, 0x77, 0xb4)},
                      GovernorSpec{"teo-6.14", {}, QColor(0xd6, 0x27, 0x28), {}, "a|b"}};
    return spec;
}

} // namespace

void TestComparisonExport::csvIsTheCliCsvCellByCell()
{
    const ScenarioSpec spec = cliScenario();
    const SnapshotPtr snap = test::simulateOnce(spec);
    QVERIFY(snap && snap->errors.isEmpty());
    ComparisonView view;
    view.setSnapshot(snap);

    // The command the window copies for this table, with the throughput and energy columns.
    QStringList args = compareCommand(spec, test::powerTablePath()).args;
    args << QStringLiteral("--throughput") << QStringLiteral("--format") << QStringLiteral("csv");
    const test::CliResult cli = test::runCli(args);
    QVERIFY2(cli.exitCode == 0, qPrintable(args.join(u' ') + u'\n' + cli.err));
    // compare's rows: point, governor, iteration, then its columns; the window's table is
    // iteration 1 of one.
    QMap<QString, test::CsvRow> cliRows;
    for (const test::CsvRow &row : test::csvRowsBy(cli.out, 3))
        if (row.value(QStringLiteral("iteration")) == QLatin1String("1"))
            cliRows.insert(row.value(QStringLiteral("governor")), row);
    QCOMPARE(cliRows.size(), 2);

    const QString path = m_dir.filePath(QStringLiteral("cmp.csv"));
    QCOMPARE(view.exportTo(path), QString());
    const QStringList lines = tableLines(readAll(path));
    QCOMPARE(lines.size(), 3);
    const QStringList header = csvFields(lines[0]);
    // Every column of the window's table is one of compare's: snooze and CEDE's usage too.
    QCOMPARE(header.size(), 13);
    int compared = 0;
    for (int r = 1; r < lines.size(); ++r) {
        const QStringList cells = csvFields(lines[r]);
        QCOMPARE(cells.size(), header.size());
        const test::CsvRow want = cliRows.value(cells[0]);
        QVERIFY2(!want.isEmpty(), qPrintable(cells[0]));
        for (qsizetype c = 0; c < header.size(); ++c) {
            QVERIFY2(want.contains(header[c]), qPrintable(header[c]));
            QVERIFY2(cells[c] == want.value(header[c]),
                     qPrintable(QStringLiteral("%1 %2: window '%3', compare '%4'")
                                    .arg(cells[0], header[c], cells[c], want.value(header[c]))));
            ++compared;
        }
        // A real table, not zeros against zeros: idle_misses = above + below, and the ratio
        // idle_misses / entries with compare's 4 decimals.
        const auto at = [&](const char *name) { return cells[header.indexOf(QLatin1String(name))]; };
        QCOMPARE(at("idle_misses").toLongLong(), at("above").toLongLong() + at("below").toLongLong());
        QVERIFY(at("idle_misses").toLongLong() > 0);
        QCOMPARE(at("idle_miss_ratio"),
                 QString::number(at("idle_misses").toDouble() / at("entries").toDouble(), 'f', 4));
        QVERIFY(at("idle_energy_J").toDouble() > 0);
    }
    QCOMPARE(compared, 2 * 13);
    QCOMPARE(csvFields(lines[2]).value(0), QStringLiteral("a|b"));

    // Markdown: the '|' of the label escaped, its row as many cells as the header.
    const QStringList md =
        view.markdown().split(u'\n', Qt::SkipEmptyParts).filter(QRegularExpression(QStringLiteral("^\\|")));
    QCOMPARE(md.size(), 4); // header, alignment, two rows
    QCOMPARE(markdownCells(md[3]).size(), 13);
    QCOMPARE(markdownCells(md[3]).value(0), QStringLiteral("a|b"));
    QVERIFY(md[3].startsWith(QStringLiteral("| a\\|b |")));
    QCOMPARE(markdownCells(md[3]).value(1), cliRows[QStringLiteral("a|b")].value(QStringLiteral("entries")));
}

void TestComparisonExport::labelsStayInTheirColumns()
{
    // The window's rows can hold a name compare refuses (a ',' in a hand-made snapshot's
    // name): the writer keeps it in its column all the same.
    auto snap = handSnapshot();
    snap->governors[1].name = "x,y|z";
    ComparisonView view;
    view.setSnapshot(snap);
    // The hand row: 5 entries, no miss, latency 36 us (3 x 12), 4 / 31.073 ms = 128.729 /s,
    // no power data (an empty CSV cell), usage snooze 1 and CEDE 4.
    const QString row = QStringLiteral("5,0,0.0000,0,0,0.00,0.00,36.000,128.729,,1,4");
    const QStringList csv = tableLines(view.csv());
    QCOMPARE(csv.size(), 3);
    QCOMPARE(csv[1], QStringLiteral("oracle,") + row);
    QCOMPARE(csv[2], QStringLiteral("\"x,y|z\",") + row); // quoted: the ',' stays in the field
    QCOMPARE(csvFields(csv[2]).size(), 13);
    QCOMPARE(csvFields(csv[2]).value(0), QStringLiteral("x,y|z"));

    const QStringList md = view.markdown().split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(md.value(3), QStringLiteral("| x,y\\|z | 5 | 0 | 0.0000 | 0 | 0 | 0.00 | 0.00 | 36.000 | 128.729 | "
                                         "no power data | 1 | 4 |"));
    QCOMPARE(markdownCells(md.value(3)).size(), 13);

    const QJsonArray rows = QJsonDocument::fromJson(view.json().toUtf8()).array();
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows[1].toObject().value(QStringLiteral("governor")).toString(), QStringLiteral("x,y|z"));
    QCOMPARE(rows[1].toObject().value(QStringLiteral("wakeups_per_s")).toDouble(), 128.729);
    QVERIFY(rows[1].toObject().value(QStringLiteral("idle_energy_J")).isNull()); // no value: null
}

void TestComparisonExport::svgFigureHoldsLabelsAndCells()
{
    auto snap = handSnapshot();
    snap->governors[1].name = "x,y|z";
    ComparisonView view;
    view.setSnapshot(snap);
    const QString path = m_dir.filePath(QStringLiteral("cmp.svg"));
    QCOMPARE(view.exportTo(path), QString());
    const QString svg = readAll(path);
    QVERIFY(svg.startsWith(QStringLiteral("<?xml")) && svg.contains(QStringLiteral("</svg>")));
    // The title says the time the totals count: the run's own 31.073 ms (tst_comparison_model).
    QVERIFY2(svg.contains(QStringLiteral("Comparison \u2014 pseries-p10 \u2014 whole run, 31.07 ms")),
             qPrintable(svg.left(3000)));
    // Every label and column name, and the hand-computed cells, as text.
    for (const QString &text : {QStringLiteral(">oracle<"), QStringLiteral(">x,y|z<"), QStringLiteral(">128.729<"),
                                QStringLiteral(">36.000<"), QStringLiteral(">wakeups_per_s<"),
                                QStringLiteral(">usage_CEDE<"), QStringLiteral(">governor<")})
        QVERIFY2(svg.contains(text), qPrintable(text));
    // Each row's swatch in its governor's colour (makeSnapshot's palette).
    QVERIFY(svg.contains(snap->governors[0].color.name(), Qt::CaseInsensitive));
    QVERIFY(svg.contains(snap->governors[1].color.name(), Qt::CaseInsensitive));
    const QString shots = qEnvironmentVariable("IDLESCOPE_SCREENSHOT_DIR");
    if (!shots.isEmpty())
        QFile::copy(path, shots + QStringLiteral("/comparison-table.svg"));
}

void TestComparisonExport::pdfFigureIsOnePage()
{
    ComparisonView view;
    view.setSnapshot(test::simulateOnce(cliScenario()));
    const QString path = m_dir.filePath(QStringLiteral("cmp.pdf"));
    QCOMPARE(view.exportTo(path), QString());
    QVERIFY(readAll(path).startsWith(QStringLiteral("%PDF-")));
    const QString pdfinfo = QStandardPaths::findExecutable(QStringLiteral("pdfinfo"));
    if (pdfinfo.isEmpty())
        QSKIP("pdfinfo (poppler-utils) is not installed");
    QProcess p;
    p.start(pdfinfo, {path});
    QVERIFY(p.waitForFinished(30000));
    const QString info = QString::fromUtf8(p.readAllStandardOutput());
    QCOMPARE(p.exitCode(), 0);
    QVERIFY2(info.contains(QRegularExpression(QStringLiteral("Pages:\\s+1\n"))), qPrintable(info));
    QVERIFY2(info.contains(QStringLiteral("Title:")) && info.contains(QStringLiteral("Comparison")), qPrintable(info));
    const QString shots = qEnvironmentVariable("IDLESCOPE_SCREENSHOT_DIR");
    if (!shots.isEmpty())
        QFile::copy(path, shots + QStringLiteral("/comparison-table.pdf"));
}

QTEST_MAIN(TestComparisonExport)
#include "tst_comparison_export.moc"
