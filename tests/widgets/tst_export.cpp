// SPDX-License-Identifier: GPL-3.0-or-later
// Export: plots as PNG/PDF/SVG (real file signatures, decodable PNG of the
// requested size), per-entry run data as CSV/JSON, summaries as JSON/CSV.
#include "replay_fixture.h"
#include "widgets/comparison/comparison_table_model.h"
#include "widgets/export/data_export.h"
#include "widgets/export/figure_export.h"
#include "widgets/export/model_export.h"
#include "widgets/export/plot_export.h"
#include "widgets/plots/qcp.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace idlescope;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Two oracle entries on pseries-p10: an IPI at 200 us (CEDE) and a timer at 20 us (snooze).
std::shared_ptr<SimulationSnapshot> tinySnapshot()
{
    auto t = readTableJson(test::conformancePath(QStringLiteral("tables/pseries-p10.json")).toStdString());
    return test::makeSnapshot(*t, {{1000, 5000000, 200000, -1, 0}, {500, 20000, 20000, -1, 0}}, {"oracle"});
}

} // namespace

class TestExport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void formatFromSuffix();
    void pngIsARealImage();
    void pdfAndSvgHeaders();
    void unknownSuffixIsAnError();
    void widgetPng();
    void figureHasLegendAndIsWide();
    void figureVectorNamesTheGovernors();
    void runCsvRows();
    void runJsonColumns();
    void summariesJsonMatchKernel();
    void summariesCsvIsTheTable();
    void csvQuoting();

private:
    QTemporaryDir m_dir;
    QCustomPlot *m_plot = nullptr;
};

void TestExport::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_plot = new QCustomPlot;
    m_plot->resize(640, 400);
    QCPGraph *g = m_plot->addGraph();
    for (int i = 0; i < 100; ++i)
        g->addData(i, (i * 37) % 23);
    m_plot->xAxis->setLabel(QStringLiteral("time"));
    m_plot->rescaleAxes();
    m_plot->replot();
}

void TestExport::formatFromSuffix()
{
    QCOMPARE(plotFormatForPath(QStringLiteral("a/b.PNG")), std::optional<PlotFormat>(PlotFormat::Png));
    QCOMPARE(plotFormatForPath(QStringLiteral("x.pdf")), std::optional<PlotFormat>(PlotFormat::Pdf));
    QCOMPARE(plotFormatForPath(QStringLiteral("x.svg")), std::optional<PlotFormat>(PlotFormat::Svg));
    QVERIFY(!plotFormatForPath(QStringLiteral("x.jpeg")));
    QVERIFY(!plotFormatForPath(QStringLiteral("noext")));
}

void TestExport::pngIsARealImage()
{
    const QString path = m_dir.filePath(QStringLiteral("plot.png"));
    const Status st = exportPlot(*m_plot, path, 500, 300);
    QVERIFY2(st.ok(), st.ok() ? "" : st.error().toString().c_str());
    const QByteArray bytes = readAll(path);
    QVERIFY(bytes.size() > 1000);
    QVERIFY(bytes.startsWith("\x89PNG\r\n\x1a\n"));
    const QImage image(path);
    QCOMPARE(image.size(), QSize(500, 300));
    // Not blank: the graph line darkens some pixels of the white background.
    int dark = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            dark += qGray(image.pixel(x, y)) < 128;
    QVERIFY(dark > 500);

    // Scale 2: twice the pixels.
    const QString hidpi = m_dir.filePath(QStringLiteral("plot2x.png"));
    QVERIFY(exportPlot(*m_plot, hidpi, 500, 300, 2.0).ok());
    QCOMPARE(QImage(hidpi).size(), QSize(1000, 600));
}

void TestExport::pdfAndSvgHeaders()
{
    const QString pdf = m_dir.filePath(QStringLiteral("plot.pdf"));
    const QString svg = m_dir.filePath(QStringLiteral("plot.svg"));
    QVERIFY(exportPlot(*m_plot, pdf).ok());
    QVERIFY(exportPlot(*m_plot, svg).ok());
    const QByteArray p = readAll(pdf);
    QVERIFY(p.startsWith("%PDF-"));
    QVERIFY(p.trimmed().endsWith("%%EOF"));
    const QByteArray s = readAll(svg);
    QVERIFY(s.startsWith("<?xml"));
    QVERIFY(s.contains("<svg"));
    QVERIFY(s.contains("width=\"640"));  // the plot's own size when none is given
    QVERIFY(s.contains("<path") || s.contains("<polyline"));
    QVERIFY(s.trimmed().endsWith("</svg>"));
}

void TestExport::unknownSuffixIsAnError()
{
    const QString path = m_dir.filePath(QStringLiteral("plot.bmpx"));
    const Status st = exportPlot(*m_plot, path);
    QVERIFY(!st.ok());
    QCOMPARE(QString::fromStdString(st.error().file), path);
    QVERIFY(!QFile::exists(path));
}

void TestExport::widgetPng()
{
    const QString path = m_dir.filePath(QStringLiteral("widget.png"));
    QVERIFY(exportWidgetPng(*m_plot, path).ok());
    QCOMPARE(QImage(path).size(), QSize(640, 400));
}

namespace {
/// The plot at the size the window gives it by default (444 x 190).
std::unique_ptr<QCustomPlot> smallPlot()
{
    auto plot = std::make_unique<QCustomPlot>();
    plot->resize(444, 190);
    QCPGraph *g = plot->addGraph();
    g->setPen(QPen(QColor(0x4e, 0x79, 0xa7)));
    for (int i = 0; i < 50; ++i)
        g->addData(i, i % 7);
    plot->rescaleAxes();
    plot->replot();
    return plot;
}

bool hasColor(const QImage &img, QRect area, QRgb rgb)
{
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x)
            if (img.pixel(x, y) == rgb)
                return true;
    return false;
}

const FigureCaption kCaption{QStringLiteral("Selected state over time \u2014 pseries-p10"),
                             {{QStringLiteral("menu-6.14"), QColor(255, 0, 0)},
                              {QStringLiteral("teo-6.14"), QColor(0, 200, 0)}}};
} // namespace

void TestExport::figureHasLegendAndIsWide()
{
    auto plot = smallPlot();
    const QString path = m_dir.filePath(QStringLiteral("figure.png"));
    QVERIFY(exportFigure(*plot, path, kCaption).ok());
    const QImage img(path);
    QVERIFY(!img.isNull());
    // 444 px in the window -> at least 1200 px in the file, aspect kept, plus a caption band on top.
    QVERIFY2(img.width() >= MIN_FIGURE_PNG_WIDTH, qPrintable(QString::number(img.width())));
    const double scale = img.width() / 444.0;
    QVERIFY(img.height() > static_cast<int>(190 * scale) + 10);
    const int band = img.height() - static_cast<int>(190 * scale);
    const QRect caption(0, 0, img.width(), band - 1);
    // Each governor's colour chip is drawn in the caption band; the plot's body is below it.
    QVERIFY(hasColor(img, caption, qRgb(255, 0, 0)));
    QVERIFY(hasColor(img, caption, qRgb(0, 200, 0)));
    QVERIFY(!hasColor(img, QRect(0, band, img.width(), img.height() - band), qRgb(255, 0, 0)));
    // No caption at all: just the plot, still scaled up.
    const QString bare = m_dir.filePath(QStringLiteral("bare.png"));
    QVERIFY(exportFigure(*plot, bare, FigureCaption{}).ok());
    QCOMPARE(QImage(bare).size(), QSize(static_cast<int>(std::ceil(444 * scale)), static_cast<int>(std::ceil(190 * scale))));
    // A title wider than the figure is wrapped onto more lines, not cut short
    // (audit): the caption band grows by at least a line; in the SVG every word is there.
    FigureCaption longTitle = kCaption;
    longTitle.title = QStringLiteral("Predicted idle duration (●) vs measured residency (○) · teo: ○ only "
                                     "(teo predicts no duration) — pseries-p10, IPI wakeups every 100 us, 200000 spans");
    const QString wrapped = m_dir.filePath(QStringLiteral("long.png"));
    QVERIFY(exportFigure(*plot, wrapped, longTitle).ok());
    const int lineHeight = QFontMetrics(plot->font()).height();
    QVERIFY2(QImage(wrapped).height() >= img.height() + static_cast<int>(lineHeight * scale),
             qPrintable(QStringLiteral("%1 vs %2").arg(QImage(wrapped).height()).arg(img.height())));
    const QString wrappedSvg = m_dir.filePath(QStringLiteral("long.svg"));
    QVERIFY(exportFigure(*plot, wrappedSvg, longTitle).ok());
    const QString svgText = QString::fromUtf8(readAll(wrappedSvg));
    QVERIFY(svgText.contains(QStringLiteral("200000")) && svgText.contains(QStringLiteral("Predicted")));
    const QByteArray shots = qgetenv("IDLESCOPE_SCREENSHOT_DIR");
    if (!shots.isEmpty())
        QImage(wrapped).save(QString::fromLocal8Bit(shots) + QStringLiteral("/figure-long-title.png"));
}

void TestExport::figureVectorNamesTheGovernors()
{
    auto plot = smallPlot();
    const QString svg = m_dir.filePath(QStringLiteral("figure.svg"));
    QVERIFY(exportFigure(*plot, svg, kCaption).ok());
    const QByteArray s = readAll(svg);
    QVERIFY(s.contains("menu-6.14") && s.contains("teo-6.14"));
    QVERIFY(s.contains("#ff0000") && s.contains("#00c800"));
    const QString pdf = m_dir.filePath(QStringLiteral("figure.pdf"));
    QVERIFY(exportFigure(*plot, pdf, kCaption).ok());
    QVERIFY(readAll(pdf).startsWith("%PDF-"));
    QVERIFY(!exportFigure(*plot, m_dir.filePath(QStringLiteral("figure.bmpx")), kCaption).ok());
    // The snapshot's governors, in display order with their colours.
    const auto snap = tinySnapshot();
    const QList<LegendEntry> legend = legendFor(*snap);
    QCOMPARE(legend.size(), 1);
    QCOMPARE(legend[0].name, QStringLiteral("oracle"));
    QCOMPARE(legend[0].color, snap->colors.empty() ? QColor(Qt::gray) : snap->colors[0]);
}

void TestExport::runCsvRows()
{
    auto snap = tinySnapshot();
    QCOMPARE(snap->runs.size(), std::size_t(1));
    const QString path = m_dir.filePath(QStringLiteral("run.csv"));
    QVERIFY(exportRunCsv(snap->runs[0], snap->table, *snap->stream, path).ok());
    const QStringList lines = QString::fromUtf8(readAll(path)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[0], QString::fromLatin1(RUN_CSV_HEADER));
    // Entry 0: starts after the 1 us gap, CEDE for 200 us + 12 us exit
    // latency, woken by an IPI (not its timer): pays 12 us.
    QCOMPARE(lines[1], QStringLiteral("0,0,1000,1,CEDE,212000,200000,5000000,1,0,0,0,0,1,1,0,12000"));
    // Entry 1: 0.5 us gap later, snooze until its timer at 20 us (no tick, no poll limit: 120 us).
    QCOMPARE(lines[2], QStringLiteral("1,1,213500,0,snooze,20000,20000,20000,0,0,0,0,0,0,1,1,0"));
}

void TestExport::runJsonColumns()
{
    auto snap = tinySnapshot();
    const QString path = m_dir.filePath(QStringLiteral("run.json"));
    QVERIFY(exportRunJson(snap->runs[0], snap->table, *snap->stream, path).ok());
    const QJsonObject o = QJsonDocument::fromJson(readAll(path)).object();
    QCOMPARE(o.value(QStringLiteral("format_version")).toInt(), 1);
    QCOMPARE(o.value(QStringLiteral("variant")).toString(), QStringLiteral("oracle"));
    QCOMPARE(o.value(QStringLiteral("entries")).toInt(), 2);
    QCOMPARE(o.value(QStringLiteral("latency_cost_ns")).toInteger(), qint64(12000));
    const QJsonObject cols = o.value(QStringLiteral("columns")).toObject();
    QCOMPARE(cols.value(QStringLiteral("state")).toArray(), (QJsonArray{1, 0}));
    QCOMPARE(cols.value(QStringLiteral("residency_ns")).toArray(), (QJsonArray{212000, 20000}));
    QCOMPARE(cols.value(QStringLiteral("start_ns")).toArray(), (QJsonArray{1000, 213500}));
    QCOMPARE(cols.value(QStringLiteral("woken_by_wakeup")).toArray(), (QJsonArray{1, 1}));
    QCOMPARE(cols.value(QStringLiteral("timer_wake")).toArray(), (QJsonArray{0, 1}));
    const QJsonArray states = o.value(QStringLiteral("states")).toArray();
    QCOMPARE(states[1].toObject().value(QStringLiteral("usage")).toInt(), 1);
    QCOMPARE(states[1].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("CEDE"));
}

void TestExport::summariesJsonMatchKernel()
{
    auto snap = test::conformanceSnapshot("pipe-wakeups", "pseries-p10", {"menu-6.14", "oracle"});
    QVERIFY(snap && snap->errors.isEmpty());
    const QString path = m_dir.filePath(QStringLiteral("summaries.json"));
    QVERIFY(exportSummariesJson(*snap, path).ok());
    const QJsonObject root = QJsonDocument::fromJson(readAll(path)).object();
    QCOMPARE(root.value(QStringLiteral("format_version")).toInt(), 1);
    QCOMPARE(root.value(QStringLiteral("target")).toString(), QStringLiteral("pseries-p10"));
    const QJsonArray govs = root.value(QStringLiteral("governors")).toArray();
    QCOMPARE(govs.size(), 2);
    const QJsonObject menu = govs[0].toObject();
    QCOMPARE(menu.value(QStringLiteral("variant")).toString(), QStringLiteral("menu-6.14"));
    // The kernel's totals from expected/menu-6.14/pipe-wakeups__pseries-p10.summary.json.
    QCOMPARE(menu.value(QStringLiteral("idles")).toInteger(), qint64(4211));
    QCOMPARE(menu.value(QStringLiteral("aboves")).toInteger(), qint64(1473));
    QCOMPARE(menu.value(QStringLiteral("belows")).toInteger(), qint64(17));
    QCOMPARE(menu.value(QStringLiteral("end_now_ns")).toInteger(), qint64(3297536947));
    const QJsonArray states = menu.value(QStringLiteral("states")).toArray();
    QCOMPARE(states[0].toObject().value(QStringLiteral("time_ns")).toInteger(), qint64(9914459));
    QCOMPARE(states[1].toObject().value(QStringLiteral("time_ns")).toInteger(), qint64(2269609896));
    QCOMPARE(menu.value(QStringLiteral("color")).toString(), snap->colors[0].name());
}

void TestExport::summariesCsvIsTheTable()
{
    auto snap = tinySnapshot();
    const QString path = m_dir.filePath(QStringLiteral("summaries.csv"));
    QVERIFY(exportSummariesCsv(snap, path).ok());
    ComparisonTableModel model;
    model.setSnapshot(snap);
    QCOMPARE(QString::fromUtf8(readAll(path)), modelToCsv(model));
    QVERIFY(QString::fromUtf8(readAll(path)).endsWith(QStringLiteral("\noracle,2,0,0,0,0,0,0,12000,1,1\n")));
}

void TestExport::csvQuoting()
{
    QCOMPARE(csvField(QStringLiteral("plain")), QStringLiteral("plain"));
    QCOMPARE(csvField(QStringLiteral("a,b")), QStringLiteral("\"a,b\""));
    QCOMPARE(csvField(QStringLiteral("say \"hi\"")), QStringLiteral("\"say \"\"hi\"\"\""));
}

QTEST_MAIN(TestExport)
#include "tst_export.moc"
