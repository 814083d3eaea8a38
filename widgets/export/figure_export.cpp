// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/export/figure_export.h"

#include "core/governors/explain.h"
#include "core/io/atomic_file.h"
#include "widgets/export/vector_figure.h"
#include "widgets/plots/plot_base.h"
#include "widgets/plots/qcp.h"

#include <QBuffer>
#include <QDir>
#include <QFileDialog>
#include <QFontMetrics>
#include <QInputDialog>
#include <QMessageBox>

#include <algorithm>
#include <cmath>

namespace idlescope {

namespace {

constexpr int PAD = 8;   // margin around the caption (logical px)
constexpr int CHIP = 10; // colour square of a legend entry
constexpr int GAP = 14;  // between legend entries

QFont titleFont(const QFont &base)
{
    QFont f = base;
    f.setBold(true);
    return f;
}

/// The caption title's box @p width wide: wrapped at words onto as many
/// lines as it needs (a long plot title in a narrow figure was cut short).
QRect titleRect(const QFont &font, const FigureCaption &caption, int width)
{
    if (caption.title.isEmpty())
        return {};
    const QRect box(PAD, PAD, std::max(1, width - 2 * PAD), 1 << 20);
    const QRect used = QFontMetrics(titleFont(font)).boundingRect(box, Qt::AlignLeft | Qt::TextWordWrap, caption.title);
    return QRect(PAD, PAD, box.width(), used.height());
}

QFont contextFont(const QFont &base)
{
    QFont f = base;
    if (f.pixelSize() > 0) // a figure drawn in pixels (a table figure) has no point size
        f.setPixelSize(std::max(1, static_cast<int>(std::lround(f.pixelSize() * 0.85))));
    else
        f.setPointSizeF(f.pointSizeF() * 0.85);
    return f;
}

/// The context lines' box under the title, wrapped at words like the title.
QRect contextRect(const QFont &font, const FigureCaption &caption, int width, int top)
{
    if (caption.context.isEmpty())
        return {};
    const QRect box(PAD, top, std::max(1, width - 2 * PAD), 1 << 20);
    const QRect used =
        QFontMetrics(contextFont(font))
            .boundingRect(box, Qt::AlignLeft | Qt::TextWordWrap, caption.context.join(QLatin1Char('\n')));
    return QRect(PAD, top, box.width(), used.height());
}

/// Where each legend entry goes when the caption is @p width wide; returns the caption height.
int layoutCaption(const QFont &font, const FigureCaption &caption, int width, QList<QPoint> *origins)
{
    const QFontMetrics fm(font);
    int y = PAD;
    if (!caption.title.isEmpty())
        y += titleRect(font, caption, width).height() + PAD / 2;
    if (!caption.context.isEmpty())
        y += contextRect(font, caption, width, y).height() + PAD / 2;
    int x = PAD;
    const int row = std::max(fm.height(), CHIP);
    bool any = false;
    for (const LegendEntry &e : caption.legend) {
        const int w = CHIP + 4 + fm.horizontalAdvance(e.name);
        if (x > PAD && x + w > width - PAD) { // wrap to a new line
            x = PAD;
            y += row + 2;
        }
        if (origins)
            origins->append(QPoint(x, y));
        x += w + GAP;
        any = true;
    }
    if (any)
        y += row;
    return caption.title.isEmpty() && caption.context.isEmpty() && !any ? 0 : y + PAD / 2;
}

int layoutCaption(const QCustomPlot &plot, const FigureCaption &caption, int width, QList<QPoint> *origins)
{
    return layoutCaption(plot.font(), caption, width, origins);
}

void paintCaption(QPainter &p, const QCustomPlot &plot, const FigureCaption &caption, int width, int height)
{
    idlescope::paintCaption(p, plot.font(), caption, width, height);
}

QSize plotSize(const QCustomPlot &plot)
{
    const QSize s = plot.size();
    return s.isEmpty() ? QSize(800, 500) : s;
}

/// The figure's width in logical pixels: @p shape's, else the window's.
int figureWidth(const QCustomPlot &plot, const FigureShape &shape)
{
    return shape.logicalWidth > 0 ? shape.logicalWidth : plotSize(plot).width();
}

/// The plot's size in the figure: figureWidth(); the height of @p shape's aspect less the
/// caption (the window's height without an aspect).
QSize shapedPlotSize(const QCustomPlot &plot, int captionHeight, const FigureShape &shape)
{
    QSize size(figureWidth(plot, shape), plotSize(plot).height());
    if (shape.aspect > 0)
        size.setHeight(std::max(120, static_cast<int>(std::lround(size.width() / shape.aspect)) - captionHeight));
    return size;
}

QByteArray renderFigurePng(QCustomPlot &plot, const FigureCaption &caption, const FigureShape &shape)
{
    const int captionHeight = layoutCaption(plot, caption, figureWidth(plot, shape), nullptr);
    const QSize size = shapedPlotSize(plot, captionHeight, shape);
    // Scale the whole figure, not the plot's layout: the figure keeps the window's look.
    const double scale = shape.pngWidth > 0 ? static_cast<double>(shape.pngWidth) / size.width()
                                            : std::max(2.0, static_cast<double>(MIN_FIGURE_PNG_WIDTH) / size.width());
    const QPixmap body = plot.toPixmap(size.width(), size.height(), scale);
    const int width = shape.pngWidth > 0 ? shape.pngWidth : static_cast<int>(std::ceil(size.width() * scale));
    const int height = shape.pngWidth > 0 && shape.aspect > 0
                           ? static_cast<int>(std::lround(shape.pngWidth / shape.aspect))
                           : static_cast<int>(std::ceil((size.height() + captionHeight) * scale));
    QImage image(width, height, QImage::Format_RGB32);
    image.fill(Qt::white);
    {
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        p.setRenderHint(QPainter::TextAntialiasing);
        p.save();
        p.scale(scale, scale);
        paintCaption(p, plot, caption, size.width(), captionHeight);
        p.restore();
        p.drawPixmap(QPoint(0, static_cast<int>(std::lround(captionHeight * scale))), body);
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

QByteArray renderFigureVector(QCustomPlot &plot, PlotFormat format, const FigureCaption &caption,
                              const FigureShape &shape)
{
    const int captionHeight = layoutCaption(plot, caption, figureWidth(plot, shape), nullptr);
    const QSize size = shapedPlotSize(plot, captionHeight, shape);
    return renderVectorFigure(plot, format, size,
                              caption.title.isEmpty() ? QStringLiteral("idlescope plot") : caption.title, captionHeight,
                              [&](QPainter &p) { paintCaption(p, plot, caption, size.width(), captionHeight); });
}

/// The plot's own title row (a text element atop its layout, as PlotBase makes) is taken out
/// of the layout while a caption above the figure names the plot: the title was printed twice.
/// Emptied in place, its row kept its height, an empty band between the caption and the plot.
class OwnTitleHidden {
public:
    OwnTitleHidden(QCustomPlot &plot, const FigureCaption &caption) : m_plot(plot)
    {
        QCPLayoutGrid *layout = plot.plotLayout();
        if (caption.title.isEmpty() || layout->rowCount() < 2 || layout->columnCount() != 1)
            return;
        m_title = qobject_cast<QCPTextElement *>(layout->element(0, 0));
        if (!m_title)
            return;
        m_stretch = layout->rowStretchFactors().value(0, 1.0);
        layout->take(m_title);
        layout->simplify(); // the empty row goes
        m_title->setVisible(false);
    }
    ~OwnTitleHidden()
    {
        if (!m_title)
            return;
        QCPLayoutGrid *layout = m_plot.plotLayout();
        layout->insertRow(0);
        layout->addElement(0, 0, m_title);
        layout->setRowStretchFactor(0, m_stretch);
        m_title->setVisible(true);
    }
    OwnTitleHidden(const OwnTitleHidden &) = delete;
    OwnTitleHidden &operator=(const OwnTitleHidden &) = delete;

private:
    QCustomPlot &m_plot;
    QCPTextElement *m_title = nullptr;
    double m_stretch = 1.0;
};

} // namespace

int captionHeight(const QFont &font, const FigureCaption &caption, int width)
{
    return layoutCaption(font, caption, width, nullptr);
}

void paintCaption(QPainter &p, const QFont &font, const FigureCaption &caption, int width, int height)
{
    QList<QPoint> origins;
    layoutCaption(font, caption, width, &origins);
    p.fillRect(QRect(0, 0, width, height), Qt::white);
    const QFontMetrics fm(font);
    if (!caption.title.isEmpty()) {
        p.setFont(titleFont(font));
        p.setPen(QColor(0x30, 0x30, 0x30));
        p.drawText(titleRect(font, caption, width), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, caption.title);
    }
    if (!caption.context.isEmpty()) {
        const int top = PAD + (caption.title.isEmpty() ? 0 : titleRect(font, caption, width).height() + PAD / 2);
        p.setFont(contextFont(font));
        p.setPen(QColor(0x55, 0x55, 0x55));
        p.drawText(contextRect(font, caption, width, top), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                   caption.context.join(QLatin1Char('\n')));
    }
    p.setFont(font);
    const int row = std::max(fm.height(), CHIP);
    for (qsizetype i = 0; i < caption.legend.size() && i < origins.size(); ++i) {
        const LegendEntry &e = caption.legend[i];
        const QPoint o = origins[i];
        p.setPen(e.color.darker(120));
        p.setBrush(e.color);
        p.drawRect(QRect(o.x(), o.y() + (row - CHIP) / 2, CHIP, CHIP));
        p.setPen(QColor(0x30, 0x30, 0x30));
        p.drawText(QRect(o.x() + CHIP + 4, o.y(), fm.horizontalAdvance(e.name) + 2, row),
                   Qt::AlignLeft | Qt::AlignVCenter, e.name);
    }
}

QString shownRangeText(qint64 startNs, qint64 endNs, qint64 fullStartNs, qint64 fullEndNs)
{
    // A plain 0 at the run's start ("0 ns to 3 ms" named a unit the zero does not need).
    const auto text = [](qint64 ns) {
        return ns == 0 ? QStringLiteral("0") : QString::fromStdString(formatDuration(ns, UnitStyle::Micro));
    };
    const qint64 whole = fullEndNs - fullStartNs;
    if (startNs <= fullStartNs && endNs >= fullEndNs)
        return QObject::tr("whole run, %1").arg(text(whole));
    return QObject::tr("t = %1 to %2 of %3 (zoomed)")
        .arg(text(startNs - fullStartNs), text(endNs - fullStartNs), text(whole));
}

QList<LegendEntry> legendFor(const SimulationSnapshot &snapshot)
{
    QList<LegendEntry> out;
    for (const GovernorResult &g : snapshot.governors)
        out.append({QString::fromStdString(g.displayName()), g.color.isValid() ? g.color : QColor(Qt::gray)});
    return out;
}

QByteArray renderFigure(QCustomPlot &plot, PlotFormat format, const FigureCaption &caption, const FigureShape &shape)
{
    const ExportStyleScope light(plot); // a figure is light whatever the screen shows
    const OwnTitleHidden once(plot, caption);
    return format == PlotFormat::Png ? renderFigurePng(plot, caption, shape)
                                     : renderFigureVector(plot, format, caption, shape);
}

Status exportFigure(QCustomPlot &plot, const QString &path, const FigureCaption &caption, const FigureShape &shape)
{
    const std::optional<PlotFormat> format = plotFormatForPath(path);
    if (!format)
        return Error{path.toStdString(), 0, "", "unknown image format: use .png, .pdf or .svg"};
    const QByteArray bytes = renderFigure(plot, *format, caption, shape);
    if (bytes.isEmpty())
        return Error{path.toStdString(), 0, "", "nothing was rendered"};
    return writeFileAtomically(path.toStdString(),
                               std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())));
}

QString figureFileName(const QString &title, const QString &suffix)
{
    // Words of letters and digits, joined by '-': symbols, brackets and dots go.
    QStringList words;
    QString word;
    for (const QChar c : title.normalized(QString::NormalizationForm_KD)) {
        if (c.isLetterOrNumber() && c.unicode() < 128) {
            word += c.toLower();
        } else if (c.category() == QChar::Mark_NonSpacing) {
            continue; // an accent of the letter before
        } else if (!word.isEmpty()) {
            words << word;
            word.clear();
        }
    }
    if (!word.isEmpty())
        words << word;
    const QString base = words.isEmpty() ? QStringLiteral("figure") : words.join(QLatin1Char('-'));
    return base + QLatin1Char('.') + suffix;
}

Result<QStringList> exportAllFigures(const QList<FigureSource> &figures, const QString &dir, const QString &suffix,
                                     const FigureShape &shape)
{
    QStringList written;
    for (const FigureSource &f : figures) {
        if (!f.plot)
            continue;
        const QString path = QDir(dir).filePath(figureFileName(f.title, suffix));
        if (const Status st = exportFigure(*f.plot, path, f.caption, shape); !st)
            return st.error();
        written << path;
    }
    return written;
}

QString exportAllFiguresWithDialog(const QList<FigureSource> &figures, QWidget *parent, bool *failed)
{
    *failed = false;
    const QString png = QObject::tr("PNG, 1600 \u00d7 1000");
    const QString slides = QObject::tr("PNG for slides, 1920 \u00d7 1080, 16:9");
    const QString pdf = QObject::tr("PDF documents");
    const QString svg = QObject::tr("SVG drawings");
    bool ok = false;
    const QString format =
        QInputDialog::getItem(parent, QObject::tr("Export all plots"), QObject::tr("Every plot as one file of:"),
                              QStringList{png, slides, pdf, svg}, 0, false, &ok);
    if (!ok)
        return {};
    const QString dir = QFileDialog::getExistingDirectory(parent, QObject::tr("Export all plots to"));
    if (dir.isEmpty())
        return {};
    const QString suffix = format == pdf   ? QStringLiteral("pdf")
                           : format == svg ? QStringLiteral("svg")
                                           : QStringLiteral("png");
    const Result<QStringList> written =
        exportAllFigures(figures, dir, suffix, format == slides ? SLIDE_FHD : FOLDER_FIGURE);
    if (!written) {
        *failed = true;
        return QString::fromStdString(written.error().toString());
    }
    return QObject::tr("Wrote %n figure(s) to %1", nullptr, static_cast<int>(written->size())).arg(dir);
}

void exportFigureWithDialog(QCustomPlot &plot, QWidget *parent, const QString &suggestedName,
                            const FigureCaption &caption)
{
    const QString windowPng = QObject::tr("PNG image, as in the window (*.png)");
    const QString fhd = QObject::tr("PNG for slides, 1920 \u00d7 1080, 16:9 (*.png)");
    const QString uhd = QObject::tr("PNG for slides, 3840 \u00d7 2160, 16:9 (*.png)");
    const QString pdf = QObject::tr("PDF document (*.pdf)");
    const QString svg = QObject::tr("SVG drawing (*.svg)");
    QString selected;
    QString path =
        QFileDialog::getSaveFileName(parent, QObject::tr("Export plot"), suggestedName,
                                     QStringList{windowPng, fhd, uhd, pdf, svg}.join(QStringLiteral(";;")), &selected);
    if (path.isEmpty())
        return;
    if (!plotFormatForPath(path)) // no suffix typed: take the filter's
        path += selected == pdf   ? QStringLiteral(".pdf")
                : selected == svg ? QStringLiteral(".svg")
                                  : QStringLiteral(".png");
    const FigureShape shape = selected == fhd ? SLIDE_FHD : selected == uhd ? SLIDE_UHD : FigureShape{};
    if (const Status st = exportFigure(plot, path, caption, shape); !st.ok())
        QMessageBox::warning(parent, QObject::tr("Export failed"), QString::fromStdString(st.error().toString()));
}

} // namespace idlescope
