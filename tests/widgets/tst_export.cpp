// SPDX-License-Identifier: GPL-3.0-or-later
// Export: plots as PNG/PDF/SVG (real file signatures, decodable PNG of the
// requested size), per-entry run data as CSV/JSON, summaries as JSON/CSV.
#include "replay_fixture.h"
#include "tests/test_paths.h"
#include "tests/widgets/runner_fixture.h"
#include "widgets/comparison/comparison_table_model.h"
#include "widgets/comparison/comparison_view.h"
#include "widgets/export/data_export.h"
#include "widgets/export/figure_export.h"
#include "widgets/export/plot_export.h"
#include "widgets/export/scenario_context.h"
#include "widgets/main_window.h"
#include "widgets/plots/miss_ratio_plot.h"
#include "widgets/plots/prediction_plot.h"
#include "widgets/plots/qcp.h"
#include "widgets/plots/state_timeline_plot.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/trace/trace_disclosure.h"
#include "widgets/view_state.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
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

/// Runs @p program with @p args; its standard output, or a null array when it failed.
QByteArray run(const QString &program, const QStringList &args)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return {};
    const QByteArray out = p.readAllStandardOutput();
    return out.isNull() ? QByteArray("") : out;
}

/// A plot whose red line runs far past its axes on every side: points at x = 0, 30, 50, 100
/// (y 0, 10, -10, 0) seen through x 20..60, y -5..5.
std::unique_ptr<QCustomPlot> overflowingPlot()
{
    auto plot = std::make_unique<QCustomPlot>();
    plot->resize(640, 400);
    QCPGraph *g = plot->addGraph();
    g->setPen(QPen(QColor(255, 0, 0), 3));
    g->setData({0, 30, 50, 100}, {0, 10, -10, 0});
    plot->xAxis->setRange(20, 60);
    plot->yAxis->setRange(-5, 5);
    plot->replot();
    return plot;
}

bool isRed(QRgb c)
{
    return qRed(c) > 200 && qGreen(c) < 90 && qBlue(c) < 90;
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
    void pdfGlyphsHaveTheirSize();
    void svgClipsDataToTheAxes();
    void predictionFigureKeepsItsAxisCaption();
    void timeFigureSaysItsRangeAndKeepsItsLabels();
    void missRatioLinesAtTheEndsShow();
    void svgExportLeavesThePlotAsItWas();
    void darkScreenLightExports();
    void figureTitleIsPrintedOnce();
    void figureFileNameHasNoSymbols();
    void slideFigureIs16By9();
    void contextNamesEverythingTheRunDependsOn();
    void comparisonExportsCarryTheContext();
    void traceExportsStandAlone();
    void allFiguresGoToOneFolder();
    void runCsvRows();
    void runJsonColumns();
    void summariesJsonMatchKernel();
    void summariesCsvIsTheTable();

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
    QVERIFY(s.contains("width=\"640")); // the plot's own size when none is given
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
    QCOMPARE(QImage(bare).size(),
             QSize(static_cast<int>(std::ceil(444 * scale)), static_cast<int>(std::ceil(190 * scale))));
    // A title wider than the figure is wrapped onto more lines, not cut short
    // The caption band grows by at least a line; in the SVG every word is there.
    FigureCaption longTitle = kCaption;
    longTitle.title =
        QStringLiteral("Predicted idle duration (●) vs measured residency (○) · teo: ○ only "
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
    QCOMPARE(legend[0].color, snap->governors[0].color.isValid() ? snap->governors[0].color : QColor(Qt::gray));
}

void TestExport::pdfGlyphsHaveTheirSize()
{
    // The PDF was drawn at QPdfWriter's 1200 dpi in a window of logical pixels: every
    // 9 pt glyph came out ~150 pt tall ("/F7 150 Tf"). Read back by poppler.
    const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    const QString pdftoppm = QStandardPaths::findExecutable(QStringLiteral("pdftoppm"));
    if (pdftotext.isEmpty() || pdftoppm.isEmpty())
        QSKIP("poppler-utils (pdftotext, pdftoppm) is not installed: packaging/install-deps.sh installs it");
    const QString pdf = m_dir.filePath(QStringLiteral("glyphs.pdf"));
    QVERIFY(exportPlot(*m_plot, pdf).ok());
    // The words with their boxes in points: the x axis label "time" is one line of a
    // ~9 pt font (7..20 pt tall), inside the 640 x 400 px = 480 x 300 pt page at 96 dpi.
    const QByteArray html = run(pdftotext, {QStringLiteral("-bbox"), pdf, QStringLiteral("-")});
    QVERIFY(!html.isNull());
    const QRegularExpression page(QStringLiteral("<page width=\"([0-9.]+)\" height=\"([0-9.]+)\""));
    const QRegularExpressionMatch pm = page.match(QString::fromUtf8(html));
    QVERIFY2(pm.hasMatch(), html.constData());
    const double pageW = pm.captured(1).toDouble(), pageH = pm.captured(2).toDouble();
    QCOMPARE(qRound(pageW), qRound(640 * 72.0 / m_plot->logicalDpiX()));
    const QRegularExpression word(QStringLiteral("<word xMin=\"([0-9.]+)\" yMin=\"([0-9.]+)\" xMax=\"([0-9.]+)\" "
                                                 "yMax=\"([0-9.]+)\">time</word>"));
    const QRegularExpressionMatch wm = word.match(QString::fromUtf8(html));
    QVERIFY2(wm.hasMatch(), html.constData());
    const double height = wm.captured(4).toDouble() - wm.captured(2).toDouble();
    QVERIFY2(height > 7 && height < 20, qPrintable(QString::number(height)));
    QVERIFY(wm.captured(3).toDouble() <= pageW && wm.captured(4).toDouble() <= pageH);
    // Rendered, it is a plot on white, not a page of black glyph strokes.
    const QString png = m_dir.filePath(QStringLiteral("glyphs"));
    QVERIFY(!run(pdftoppm, {QStringLiteral("-png"), QStringLiteral("-r"), QStringLiteral("96"),
                            QStringLiteral("-singlefile"), pdf, png})
                 .isNull());
    const QImage image(png + QStringLiteral(".png"));
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(640, 400));
    int dark = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            dark += qGray(image.pixel(x, y)) < 128;
    QVERIFY2(dark > 300 && dark < image.width() * image.height() / 10, qPrintable(QString::number(dark)));
}

void TestExport::timeFigureSaysItsRangeAndKeepsItsLabels()
{
    // A teacher's findings: a PDF titled "200000 spans" showed the window's 0-3 ms zoom without
    // saying so, and the state-lane PDF cut its right-hand state labels off.
    QCOMPARE(shownRangeText(0, 3000000, 0, 2289000000), QStringLiteral("t = 0 to 3 ms of 2.289 s (zoomed)"));
    QCOMPARE(shownRangeText(0, 2289000000, 0, 2289000000), QStringLiteral("whole run, 2.289 s"));
    const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    if (pdftotext.isEmpty())
        QSKIP("poppler-utils (pdftotext) is not installed: packaging/install-deps.sh installs it");
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, 120000);
    w.refreshPlotsNow();
    StateTimelinePlot *lanes = nullptr;
    for (PlotBase *p : w.plots())
        if (auto *t = qobject_cast<StateTimelinePlot *>(p))
            lanes = t;
    QVERIFY(lanes);
    ViewState *view = w.viewState();
    const qint64 full = view->fullEndNs() - view->fullStartNs();
    QVERIFY(full > 3000000);
    QVERIFY(w.figureCaption(lanes).title.contains(QStringLiteral("whole run, ")));
    view->zoomTo(view->fullStartNs(), view->fullStartNs() + 3000000);
    w.refreshPlotsNow();
    const FigureCaption caption = w.figureCaption(lanes);
    QVERIFY2(caption.title.endsWith(shownRangeText(0, 3000000, 0, full)), qPrintable(caption.title));
    QVERIFY2(caption.context.first().startsWith(QStringLiteral("Shows t = 0 to 3 ms of ")),
             qPrintable(caption.context.first()));
    const QString dir =
        qEnvironmentVariableIsSet("IDLESCOPE_LOOK_DIR") ? qEnvironmentVariable("IDLESCOPE_LOOK_DIR") : m_dir.path();
    const QString pdf = dir + QStringLiteral("/lanes.pdf");
    QVERIFY(exportFigure(*lanes->customPlot(), pdf, caption).ok());
    QVERIFY(exportFigure(*lanes->customPlot(), dir + QStringLiteral("/lanes.svg"), caption).ok());
    // Every state label of the lanes (the right axis) lies inside the page.
    const QString html = QString::fromUtf8(run(pdftotext, {QStringLiteral("-bbox"), pdf, QStringLiteral("-")}));
    const QRegularExpressionMatch pm =
        QRegularExpression(QStringLiteral("<page width=\"([0-9.]+)\" height=\"([0-9.]+)\"")).match(html);
    QVERIFY2(pm.hasMatch(), qPrintable(html));
    const double pageW = pm.captured(1).toDouble();
    int states = 0;
    QRegularExpressionMatchIterator it =
        QRegularExpression(QStringLiteral("<word xMin=\"([0-9.]+)\" yMin=\"[0-9.]+\" xMax=\"([0-9.]+)\" "
                                          "yMax=\"[0-9.]+\">([^<]*)</word>"))
            .globalMatch(html);
    const QStringList names = {QString::fromStdString(w.snapshot()->table[0].name),
                               QString::fromStdString(w.snapshot()->table[w.snapshot()->table.count() - 1].name)};
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        if (!names.contains(m.captured(3)) || m.captured(1).toDouble() < pageW / 2)
            continue;
        ++states;
        QVERIFY2(
            m.captured(2).toDouble() <= pageW,
            qPrintable(
                QStringLiteral("%1 ends at %2 pt of a %3 pt page").arg(m.captured(3)).arg(m.captured(2)).arg(pageW)));
    }
    QVERIFY2(states >= 2 * w.snapshot()->governorCount(), qPrintable(html));
}

void TestExport::missRatioLinesAtTheEndsShow()
{
    // A teacher's finding: in the whole-run miss-ratio plot a 98.7 % line lay on the frame's top
    // and 0 % lines on the x axis. The value axis has a margin: 0 % and 100 % are a few pixels
    // inside the frame.
    ViewState view;
    MissRatioPlot plot(&view);
    plot.resize(600, 240);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.refreshNow();
    QCPAxis *y = plot.customPlot()->yAxis;
    const QRect frame = plot.customPlot()->axisRect()->rect();
    QVERIFY(y->coordToPixel(0) <= frame.bottom() - 3);
    QVERIFY(y->coordToPixel(100) >= frame.top() + 3);
}

void TestExport::predictionFigureKeepsItsAxisCaption()
{
    // A fresh user's finding: the prediction plot exported from the window (File > Export, PDF
    // or SVG) cut its x axis caption, or left an empty band under it.
    const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    if (pdftotext.isEmpty())
        QSKIP("poppler-utils (pdftotext) is not installed: packaging/install-deps.sh installs it");
    MainWindow w;
    w.resize(1024, 768); // a projector's screen: the plot is narrower than its caption
    w.show();
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, 120000);
    w.refreshPlotsNow();
    PlotBase *prediction = nullptr;
    for (PlotBase *p : w.plots())
        if (qobject_cast<PredictionPlot *>(p))
            prediction = p;
    QVERIFY(prediction);
    const QString caption = prediction->customPlot()->xAxis->label();
    QVERIFY(!caption.isEmpty());
    const QString dir =
        qEnvironmentVariableIsSet("IDLESCOPE_LOOK_DIR") ? qEnvironmentVariable("IDLESCOPE_LOOK_DIR") : m_dir.path();
    const QString pdf = dir + QStringLiteral("/prediction.pdf");
    QVERIFY(exportFigure(*prediction->customPlot(), pdf, w.figureCaption(prediction)).ok());
    QVERIFY(
        exportFigure(*prediction->customPlot(), dir + QStringLiteral("/prediction.svg"), w.figureCaption(prediction))
            .ok());
    // The caption's last word, with its box in points, and the page's height.
    const QString html = QString::fromUtf8(run(pdftotext, {QStringLiteral("-bbox"), pdf, QStringLiteral("-")}));
    const QRegularExpressionMatch pm =
        QRegularExpression(QStringLiteral("<page width=\"([0-9.]+)\" height=\"([0-9.]+)\"")).match(html);
    QVERIFY2(pm.hasMatch(), qPrintable(html));
    const double pageH = pm.captured(2).toDouble();
    double captionBottom = -1;
    double lowest = 0;       // the lowest word of the page
    double legendBottom = 0; // the caption's legend (its last line): "oracle"
    double tickTop = 1e9;    // the highest y tick label, "10 ms"
    QRegularExpressionMatchIterator it =
        QRegularExpression(QStringLiteral("<word xMin=\"[0-9.]+\" yMin=\"([0-9.]+)\" xMax=\"[0-9.]+\" "
                                          "yMax=\"([0-9.]+)\">([^<]*)</word>"))
            .globalMatch(html);
    const QString lastWord = caption.split(QLatin1Char(' ')).last().toHtmlEscaped();
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        lowest = std::max(lowest, m.captured(2).toDouble());
        if (m.captured(3) == lastWord)
            captionBottom = std::max(captionBottom, m.captured(2).toDouble());
        if (m.captured(3) == QLatin1String("oracle"))
            legendBottom = std::max(legendBottom, m.captured(2).toDouble());
        if (m.captured(3) == QLatin1String("ms"))
            tickTop = std::min(tickTop, m.captured(1).toDouble());
    }
    // The plot right under the caption: the plot's own title, hidden, left its row (a 26 pt
    // empty band between the legend and the top tick label at 1024 x 768).
    QVERIFY2(legendBottom > 0 && tickTop > legendBottom && tickTop - legendBottom < 16,
             qPrintable(QStringLiteral("legend bottom %1 pt, top tick %2 pt").arg(legendBottom).arg(tickTop)));
    QVERIFY2(captionBottom > 0, qPrintable(lastWord + QStringLiteral("\n") + html));
    QCOMPARE(captionBottom, lowest); // nothing below the axis caption
    // Inside the page, and no empty band under it: at most 16 pt (two lines of margin).
    QVERIFY2(captionBottom <= pageH && pageH - captionBottom < 16,
             qPrintable(QStringLiteral("caption bottom %1 pt of a %2 pt page").arg(captionBottom).arg(pageH)));
}

void TestExport::svgClipsDataToTheAxes()
{
    // Qt's SVG generator ignores clipping: the line ran over the labels and past the edge.
    const QString rsvg = QStandardPaths::findExecutable(QStringLiteral("rsvg-convert"));
    if (rsvg.isEmpty())
        QSKIP("rsvg-convert (librsvg2-bin) is not installed: packaging/install-deps.sh installs it");
    auto plot = overflowingPlot();
    for (const bool figure : {false, true}) {
        const QString svg = m_dir.filePath(figure ? QStringLiteral("clipfig.svg") : QStringLiteral("clip.svg"));
        const FigureCaption caption{QStringLiteral("Overflow"), {}};
        QVERIFY(figure ? exportFigure(*plot, svg, caption).ok() : exportPlot(*plot, svg).ok());
        const QString png = svg + QStringLiteral(".png");
        QVERIFY(!run(rsvg, {QStringLiteral("-b"), QStringLiteral("white"), QStringLiteral("-o"), png, svg}).isNull());
        const QImage image(png);
        QVERIFY(!image.isNull());
        // One SVG unit per pixel: the plot's 640 px width (the caption adds rows on top).
        QCOMPARE(image.width(), 640);
        const int top = image.height() - 400;
        QVERIFY(figure ? top > 0 : top == 0);
        const QRect axes = plot->axisRect()->rect().translated(0, top).adjusted(-2, -2, 2, 2);
        int inside = 0, outside = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                if (isRed(image.pixel(x, y)))
                    ++(axes.contains(x, y) ? inside : outside);
        QVERIFY2(inside > 200, qPrintable(QString::number(inside)));
        QVERIFY2(outside == 0, qPrintable(QStringLiteral("%1 red pixels outside the axes").arg(outside)));
        // The axes themselves are still drawn (tick labels are black text outside the rect).
        int darkOutside = 0;
        for (int y = top; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                darkOutside += !axes.contains(x, y) && qGray(image.pixel(x, y)) < 100;
        QVERIFY(darkOutside > 50);
    }
}

void TestExport::svgExportLeavesThePlotAsItWas()
{
    // Issue 33: after an SVG export the plot stopped clearing its background (the pass that
    // takes the backgrounds away put back a texture brush of a null pixmap), so every later
    // picture was drawn over the old one. The plot's and the axis rect's backgrounds are
    // distinct colours here, so a lost brush of either changes the grab.
    auto plot = overflowingPlot();
    plot->setBackground(QBrush(QColor(0xfa, 0xf0, 0xe6)));
    plot->axisRect()->setBackground(QBrush(QColor(0xe6, 0xf0, 0xfa)));
    plot->replot();
    const QImage before = plot->grab().toImage();
    // The background colours are on the grab: a corner (plot) and the axis rect's middle.
    QCOMPARE(before.pixelColor(1, 1), QColor(0xfa, 0xf0, 0xe6));
    const QPoint mid = plot->axisRect()->rect().center();
    QCOMPARE(before.pixelColor(mid.x(), mid.y() - 40), QColor(0xe6, 0xf0, 0xfa));
    QVERIFY(!renderFigure(*plot, PlotFormat::Svg, FigureCaption{QStringLiteral("Overflow"), {}}).isEmpty());
    QVERIFY(!renderPlot(*plot, PlotFormat::Svg).isEmpty());
    plot->replot();
    QCOMPARE(plot->grab().toImage(), before);
    // New data after the export: the grab is that of a plot that never exported.
    auto fresh = overflowingPlot();
    fresh->setBackground(QBrush(QColor(0xfa, 0xf0, 0xe6)));
    fresh->axisRect()->setBackground(QBrush(QColor(0xe6, 0xf0, 0xfa)));
    for (QCustomPlot *p : {plot.get(), fresh.get()}) {
        p->graph(0)->setData({0, 100}, {-3, 3});
        p->replot();
    }
    QCOMPARE(plot->grab().toImage(), fresh->grab().toImage());
}

void TestExport::darkScreenLightExports()
{
    // Issue 33 item 10: the plots were white whatever the desktop; they follow its palette
    // now, and every export keeps the fixed light style.
    ViewState view;
    MissRatioPlot plot(&view);
    plot.resize(500, 300);
    QPalette dark = plot.palette();
    dark.setColor(QPalette::Base, QColor(0x20, 0x22, 0x25));
    dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Window, QColor(0x2a, 0x2c, 0x30));
    plot.setPalette(dark); // delivers QEvent::PaletteChange, as a desktop colour scheme change does
    QVERIFY(plot.plotPalette().isDark());
    QCOMPARE(plot.plotPalette().background, QColor(0x20, 0x22, 0x25));
    plot.refreshNow();
    const QImage screen = plot.customPlot()->grab().toImage();
    QCOMPARE(screen.pixelColor(2, 2), QColor(0x20, 0x22, 0x25));
    // Between the 50 % grid line and the 60 % sub-grid line (the axis has a margin now, and the
    // frame's centre lies on the 50 % line).
    const QPoint mid(plot.customPlot()->axisRect()->rect().center().x(),
                     static_cast<int>(plot.customPlot()->yAxis->coordToPixel(55)));
    QCOMPARE(screen.pixelColor(mid), QColor(0x20, 0x22, 0x25));
    // The axis labels are light on it: some pixel of the left margin is brighter than the grid.
    int light = 0;
    for (int y = 0; y < screen.height(); ++y)
        for (int x = 0; x < plot.customPlot()->axisRect()->left(); ++x)
            light += screen.pixelColor(x, y).lightness() > 150;
    QVERIFY(light > 20);
    // An export: white background, dark text, whatever the screen.
    const QImage png = QImage::fromData(renderFigure(*plot.customPlot(), PlotFormat::Png, FigureCaption{}));
    QVERIFY(!png.isNull());
    QCOMPARE(png.pixelColor(4, 4), QColor(Qt::white));
    QCOMPARE(png.pixelColor(png.width() / 2, png.height() / 2), QColor(Qt::white));
    const QByteArray svg = renderFigure(*plot.customPlot(), PlotFormat::Svg, FigureCaption{});
    QVERIFY(svg.contains("fill=\"#ffffff\""));
    QVERIFY(!svg.contains("#202225"));
    // And the screen is dark again after it.
    plot.refreshNow();
    QCOMPARE(plot.customPlot()->grab().toImage(), screen);
    // Back to a light palette: the light style exactly.
    plot.setPalette(QPalette(QColor(0xef, 0xef, 0xef)));
    QCOMPARE(plot.plotPalette(), PlotPalette::light());
}

void TestExport::figureTitleIsPrintedOnce()
{
    // The plot's own title row and the caption above it both said it.
    QCustomPlot plot;
    plot.resize(500, 300);
    plot.plotLayout()->insertRow(0);
    plot.plotLayout()->addElement(0, 0, new QCPTextElement(&plot, QStringLiteral("Miss ratio")));
    plot.addGraph()->setData({0, 1}, {0, 1});
    plot.rescaleAxes();
    plot.replot();
    const FigureCaption caption{QStringLiteral("Miss ratio \u2014 pseries-p10"), {}};
    const QByteArray svg = renderFigure(plot, PlotFormat::Svg, caption);
    const QByteArray body = svg.mid(svg.indexOf("</title>"));
    QCOMPARE(body.count(">Miss ratio"), 1);
    // Left as it was for the window.
    QCOMPARE(qobject_cast<QCPTextElement *>(plot.plotLayout()->element(0, 0))->text(), QStringLiteral("Miss ratio"));
    // Without a caption the plot's own title is the only one, and it stays.
    const QByteArray bare = renderFigure(plot, PlotFormat::Svg, FigureCaption{});
    QCOMPARE(bare.mid(bare.indexOf("</title>")).count(">Miss ratio"), 1);
}

namespace {
/// POWER10 LPAR with CEDE's exit latency edited to 15 us, HZ 250, a 50 us latency limit,
/// periodic IPI every 100 us with seed 7 (1000 spans), menu-6.19 at a 200 us threshold.
ScenarioSpec editedScenario()
{
    ScenarioSpec s = defaultScenario();
    s.target.table.setExitLatencyNs(1, 15000);
    s.target.table.setTickHz(250);
    s.latencyLimitNs = 50000;
    s.workload = periodicIpiWorkload(1000);
    s.workload.seed = 7;
    s.workload.description = describeWorkload(s.workload);
    for (GovernorSpec &g : s.governors)
        if (g.variant == "menu-6.19")
            g.settings = {{"RESIDENCY_THRESHOLD_NS", 200000}};
    return s;
}
} // namespace

void TestExport::contextNamesEverythingTheRunDependsOn()
{
    const ScenarioSpec s = editedScenario();
    const QStringList lines = scenarioContext(s);
    QCOMPARE(lines.size(), 5);
    // The built-in table read again is the reference for "edited" (CEDE: 12 us, HZ 100).
    QCOMPARE(lines[0],
             QStringLiteral("Table: pseries-power10-lpar, edited: CEDE exit latency 15 \u00b5s (table 12 \u00b5s)"));
    QCOMPARE(lines[1], QStringLiteral("HZ: 250 (table 100)"));
    QCOMPARE(lines[2], QStringLiteral("Latency limit: 50 \u00b5s"));
    QCOMPARE(lines[3], QStringLiteral("Workload: %1 (seed 7)").arg(describeWorkload(s.workload)));
    QCOMPARE(lines[4], QStringLiteral("menu-6.19: RESIDENCY_THRESHOLD_NS=200000"));
    // The default scenario: nothing edited, no limit, no tunable changed.
    const QStringList plain = scenarioContext(defaultScenario());
    QCOMPARE(plain[0], QStringLiteral("Table: pseries-power10-lpar, as published"));
    QCOMPARE(plain[1], QStringLiteral("HZ: 100"));
    QCOMPARE(plain.size(), 4);
    // A figure's caption carries the lines under its title.
    FigureCaption caption = kCaption;
    caption.context = lines;
    auto plot = smallPlot();
    const QByteArray svg = renderFigure(*plot, PlotFormat::Svg, caption);
    QVERIFY(svg.contains("HZ: 250 (table 100)"));
    QVERIFY(svg.contains("menu-6.19: RESIDENCY_THRESHOLD_NS=200000"));
}

void TestExport::comparisonExportsCarryTheContext()
{
    const ScenarioSpec spec = editedScenario();
    const SnapshotPtr snap = test::simulateOnce(spec);
    QVERIFY(snap);
    ComparisonView view;
    view.setSnapshot(snap);
    const QStringList lines = scenarioContext(spec);
    QVERIFY(view.csv().startsWith(QStringLiteral("# ") + lines[0] + QLatin1Char('\n')));
    QVERIFY(view.csv().contains(QStringLiteral("# HZ: 250 (table 100)\n")));
    QVERIFY(view.markdown().startsWith(QStringLiteral("- ") + lines[0] + QLatin1Char('\n')));
    QVERIFY(view.markdown().contains(QStringLiteral("- menu-6.19: RESIDENCY_THRESHOLD_NS=200000\n")));
    // Then why a numeric column has empty cells (this table has no power data), then the table.
    QVERIFY(view.markdown().contains(QStringLiteral("- idle_energy_J empty (")));
    QVERIFY(view.markdown().contains(QStringLiteral("no power data for table pseries-power10-lpar")));
    // What a row counts (a teacher's finding: the table did not say "whole run"), then
    // compare's column names.
    QVERIFY(view.markdown().contains(QStringLiteral("- Rows: whole-run totals of each governor's run\n")));
    QVERIFY(view.markdown().contains(QStringLiteral("\n\n| governor | entries |")));
    const QJsonObject json = QJsonDocument::fromJson(view.json().toUtf8()).object();
    // The scenario's lines, what a row counts, then the note on the empty energy column.
    QCOMPARE(json.value(QStringLiteral("context")).toArray().size(), lines.size() + 2);
    QCOMPARE(json.value(QStringLiteral("context")).toArray().at(2).toString(),
             QStringLiteral("Latency limit: 50 \u00b5s"));
    QCOMPARE(json.value(QStringLiteral("rows")).toArray().size(), snap->governorCount());
    // The file written is the same text.
    const QString path = m_dir.filePath(QStringLiteral("cmp.md"));
    QCOMPARE(view.exportTo(path), QString());
    QCOMPARE(QString::fromUtf8(readAll(path)), view.markdown());
}

void TestExport::traceExportsStandAlone()
{
    // Issue 33 item 7: the entries CSV had no context (not even the governor), the entries
    // JSON no workload or HZ; the comparison CSV left out the trace's caveats and wrote
    // "—" and "no power data" in numeric columns. On Juno's CPU 4 (lisa-juno-sched_load-6cpu.dat,
    // table arm-juno-r0: CPU 4 is priced with the juno-r0 board's big cluster, as the CPUs dock
    // prices it; the recorded run has no run time to price).
    ScenarioSpec spec;
    spec.target.kind = TargetKind::Builtin;
    spec.target.id = QStringLiteral("arm-juno-r0");
    spec.target.table = builtinTable(spec.target.id).value();
    spec.workload.kind = WorkloadKind::Trace;
    spec.workload.path = test::tracePath(QStringLiteral("lisa-juno-sched_load-6cpu.dat")).toStdString();
    spec.workload.cpu = 4;
    spec.governors = {{"recorded", {}, QColor(Qt::black)}, {"menu-6.14", {}, QColor(Qt::red)}};
    const SnapshotPtr snap = test::simulateOnce(spec);
    QVERIFY(snap && snap->trace);
    const QStringList caveats = traceDisclosure(*snap->trace, snap->table);
    QVERIFY(!caveats.isEmpty());

    const QString csvPath = m_dir.filePath(QStringLiteral("menu-entries.csv"));
    QVERIFY(exportEntries(*snap, 1, csvPath).ok());
    const QStringList lines = QString::fromUtf8(readAll(csvPath)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.value(0), QStringLiteral("# Governor: menu-6.14"));
    QCOMPARE(lines.value(1), QStringLiteral("# Table: arm-juno-r0, as published"));
    QCOMPARE(lines.value(2), QStringLiteral("# HZ: %1").arg(snap->table.tickHz));
    QVERIFY(lines.contains(QStringLiteral("# Trace: ") + caveats.first()));
    const qsizetype header = lines.indexOf(QString::fromLatin1(RUN_CSV_HEADER));
    QVERIFY(header > 3);
    for (qsizetype i = 0; i < header; ++i)
        QVERIFY2(lines[i].startsWith(QStringLiteral("# ")), qPrintable(lines[i]));
    // Every entry of menu-6.14's run below the header.
    QCOMPARE(lines.size() - header - 1, qsizetype(snap->governors[1].run->size()));

    const QString jsonPath = m_dir.filePath(QStringLiteral("menu-entries.json"));
    QVERIFY(exportEntries(*snap, 1, jsonPath).ok());
    const QJsonObject o = QJsonDocument::fromJson(readAll(jsonPath)).object();
    QCOMPARE(o.value(QStringLiteral("governor")).toString(), QStringLiteral("menu-6.14"));
    QCOMPARE(o.value(QStringLiteral("variant")).toString(), QStringLiteral("menu-6.14"));
    QCOMPARE(o.value(QStringLiteral("workload")).toString(), snap->workloadDescription);
    QCOMPARE(o.value(QStringLiteral("hz")).toInt(), snap->table.tickHz);
    QCOMPARE(o.value(QStringLiteral("latency_limit_ns")).toInteger(), qint64(-1));
    QVERIFY(o.value(QStringLiteral("context")).toArray().contains(QStringLiteral("Trace: ") + caveats.first()));

    ComparisonView view;
    view.setSnapshot(snap);
    const QString csv = view.csv();
    for (const QString &c : caveats)
        QVERIFY2(csv.contains(QStringLiteral("# Trace: ") + c + QLatin1Char('\n')), qPrintable(csv));
    // Empty numeric cells, each reason said once in the head.
    QVERIFY2(csv.contains(QStringLiteral("# wakeups_per_s empty (recorded): the kernel's recorded choices")),
             qPrintable(csv));
    QVERIFY(!csv.contains(QStringLiteral("# idle_energy_J empty")));
    QVERIFY(!csv.contains(QStringLiteral("no power data")) && !csv.contains(QStringLiteral("\u2014")));
    const QStringList rows =
        csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts).filter(QRegularExpression(QStringLiteral("^[^#]")));
    const QStringList head = rows.value(0).split(QLatin1Char(','));
    const qsizetype energy = head.indexOf(QStringLiteral("idle_energy_J"));
    const qsizetype perSecond = head.indexOf(QStringLiteral("wakeups_per_s"));
    QVERIFY(energy > 0 && perSecond > 0);
    // Both rows priced (the recorded run's time in its states too), the recorded one without
    // a throughput: it has no run time of its own.
    QCOMPARE(rows.size(), 3);
    QVERIFY(rows[1].startsWith(QStringLiteral("recorded")));
    QCOMPARE(rows[1].split(QLatin1Char(',')).value(perSecond), QString());
    for (int r : {1, 2}) {
        bool number = false;
        QVERIFY2(rows[r].split(QLatin1Char(',')).value(energy).toDouble(&number) > 0 && number, qPrintable(rows[r]));
    }
    // JSON: null for the missing throughput, numbers for the energies.
    const QJsonArray jrows =
        QJsonDocument::fromJson(view.json().toUtf8()).object().value(QStringLiteral("rows")).toArray();
    QVERIFY(jrows.at(0).toObject().value(QStringLiteral("wakeups_per_s")).isNull());
    QVERIFY(jrows.at(0).toObject().value(QStringLiteral("idle_energy_J")).isDouble());
    QVERIFY(jrows.at(1).toObject().value(QStringLiteral("idle_energy_J")).isDouble());
}

void TestExport::slideFigureIs16By9()
{
    // A 444 x 190 plot in the window (aspect 2.3) exported for a slide: 1920 x 1080 exactly,
    // the caption included; the colour chips are still in the caption band (its top fifth).
    auto plot = smallPlot();
    const QString path = m_dir.filePath(QStringLiteral("slide.png"));
    QVERIFY(exportFigure(*plot, path, kCaption, SLIDE_FHD).ok());
    const QImage img(path);
    QCOMPARE(img.size(), QSize(1920, 1080));
    QVERIFY(hasColor(img, QRect(0, 0, 1920, 216), qRgb(255, 0, 0)));    // the caption, ~60 px x 1.875
    QVERIFY(!hasColor(img, QRect(0, 540, 1920, 540), qRgb(255, 0, 0))); // the plot body below it
    QCOMPARE(QImage::fromData(renderFigure(*plot, PlotFormat::Png, kCaption, SLIDE_UHD)).size(), QSize(3840, 2160));
    // The vector forms take the same shape: laid out 1024 logical px wide whatever the pane's
    // width, 1024 * 9 / 16 = 576 tall (a 444 px pane gave 444 x 250, half of it the caption).
    const QByteArray svg = renderFigure(*plot, PlotFormat::Svg, kCaption, SLIDE_FHD);
    QVERIFY2(svg.contains("viewBox=\"0 0 1024 576\""), svg.left(600).constData());
    // The window's plot is left at its size.
    QCOMPARE(plot->size(), QSize(444, 190));
}

void TestExport::figureFileNameHasNoSymbols()
{
    // The plot titles of the window (seen in a user trial: "Predicted idle duration (●) vs … · teo…" was the name).
    QCOMPARE(figureFileName(
                 QStringLiteral("Predicted idle duration (\u25cf) vs measured residency (\u25cb) \u00b7 teo: "
                                "\u25cb only")),
             QStringLiteral("predicted-idle-duration-vs-measured-residency-teo-only.png"));
    QCOMPARE(figureFileName(QStringLiteral("Idle durations [ns]"), QStringLiteral("svg")),
             QStringLiteral("idle-durations-ns.svg"));
    QCOMPARE(figureFileName(QStringLiteral("\u25cf\u25cb\u00b7"), QStringLiteral("pdf")), QStringLiteral("figure.pdf"));
}

void TestExport::allFiguresGoToOneFolder()
{
    auto a = smallPlot();
    auto b = overflowingPlot();
    QTemporaryDir dir;
    const Result<QStringList> written = exportAllFigures({{a.get(), QStringLiteral("Miss ratio (%)"), kCaption},
                                                          {b.get(), QStringLiteral("Time share \u00b7 states"), {}}},
                                                         dir.path());
    QVERIFY2(written.ok(), written.ok() ? "" : written.error().toString().c_str());
    QCOMPARE(*written, QStringList({dir.filePath(QStringLiteral("miss-ratio.png")),
                                    dir.filePath(QStringLiteral("time-share-states.png"))}));
    // Every figure of a folder has one size, whatever its pane's shape (a narrow, tall pane
    // made a 1200 x 2864 strip): FOLDER_FIGURE, 1600 x 1000.
    QCOMPARE(QImage(dir.filePath(QStringLiteral("miss-ratio.png"))).size(), QSize(1600, 1000));
    QCOMPARE(QImage(dir.filePath(QStringLiteral("time-share-states.png"))).size(), QSize(1600, 1000));
    // SVG when asked: 960 x 600 logical pixels.
    QVERIFY(exportAllFigures({{b.get(), QStringLiteral("Strip"), {}}}, dir.path(), QStringLiteral("svg")).ok());
    QVERIFY(readAll(dir.filePath(QStringLiteral("strip.svg"))).contains("viewBox=\"0 0 960 600\""));
    // A folder that does not exist: the error names the file.
    const Result<QStringList> bad =
        exportAllFigures({{a.get(), QStringLiteral("x"), {}}}, dir.filePath(QStringLiteral("no/such")));
    QVERIFY(!bad.ok());
    QVERIFY(QString::fromStdString(bad.error().file).endsWith(QStringLiteral("no/such/x.png")));
}

void TestExport::runCsvRows()
{
    auto snap = tinySnapshot();
    QCOMPARE(snap->governors.size(), std::size_t(1));
    const QString path = m_dir.filePath(QStringLiteral("run.csv"));
    QVERIFY(exportRunCsv(*snap->governors[0].run, snap->table, *snap->stream, path).ok());
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
    QVERIFY(exportRunJson(*snap->governors[0].run, snap->table, *snap->stream, path).ok());
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
    QCOMPARE(menu.value(QStringLiteral("color")).toString(), snap->governors[0].color.name());
}

void TestExport::summariesCsvIsTheTable()
{
    auto snap = tinySnapshot();
    const QString path = m_dir.filePath(QStringLiteral("summaries.csv"));
    QVERIFY(exportSummariesCsv(snap, path).ok());
    // The window's columns: a replayed stream has no closed loop, so no ops_per_s or added
    // latency (the window hides those columns too; before, the file had three "—" columns).
    const QString file = QString::fromUtf8(readAll(path));
    // The file opens with what it was computed from and why a numeric cell is empty ("# "
    // lines), then the table.
    QVERIFY2(file.startsWith(QStringLiteral("# Table: ")), qPrintable(file.left(200)));
    QVERIFY2(file.contains(QStringLiteral("\n# idle_energy_J empty (oracle): no power data for table ")),
             qPrintable(file));
    const QString csv = file.mid(file.indexOf(QStringLiteral("\ngovernor,")) + 1);
    QCOMPARE(csv.left(csv.indexOf(QLatin1Char('\n'))),
             QStringLiteral(
                 "governor,entries,idle_misses,idle_miss_ratio,below,above,above_pct,below_pct,latency_cost_us,"
                 "wakeups_per_s,idle_energy_J,usage_snooze,usage_CEDE"));
    // wakeups_per_s: the one IPI-ended entry in the run's own 233.5 us (gaps 1 + 0.5 us, idle
    // 200 + 20 us, CEDE's 12 us exit), as `idlescope-cli compare --throughput` on these two
    // spans prints it (4282.655); the kit's table has no power data: the energy cell is empty
    // (it said "no power data" in a numeric column), the reason in the head.
    // Cells as compare prints them: 12000 ns = 12.000 us, 4282.655 with 3 decimals.
    QVERIFY2(csv.endsWith(QStringLiteral("\noracle,2,0,0.0000,0,0,0.00,0.00,12.000,4282.655,,1,1\n")), qPrintable(csv));
}

QTEST_MAIN(TestExport)
#include "tst_export.moc"
