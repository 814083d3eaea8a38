// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/export/figure_export.h"

#include "core/io/atomic_file.h"
#include "widgets/plots/qcp.h"

#include <QBuffer>
#include <QFileDialog>
#include <QFontMetrics>
#include <QMessageBox>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

namespace idlescope {

namespace {

constexpr int PAD = 8;      // margin around the caption (logical px)
constexpr int CHIP = 10;    // colour square of a legend entry
constexpr int GAP = 14;     // between legend entries

QFont titleFont(const QCustomPlot &plot)
{
    QFont f = plot.font();
    f.setBold(true);
    return f;
}

/// The caption title's box @p width wide: wrapped at words onto as many
/// lines as it needs (a long plot title in a narrow figure was cut short).
QRect titleRect(const QCustomPlot &plot, const FigureCaption &caption, int width)
{
    if (caption.title.isEmpty())
        return {};
    const QRect box(PAD, PAD, std::max(1, width - 2 * PAD), 1 << 20);
    const QRect used = QFontMetrics(titleFont(plot)).boundingRect(box, Qt::AlignLeft | Qt::TextWordWrap, caption.title);
    return QRect(PAD, PAD, box.width(), used.height());
}

/// Where each legend entry goes when the caption is @p width wide; returns the caption height.
int layoutCaption(const QCustomPlot &plot, const FigureCaption &caption, int width, QList<QPoint> *origins)
{
    const QFontMetrics fm(plot.font());
    int y = PAD;
    if (!caption.title.isEmpty())
        y += titleRect(plot, caption, width).height() + PAD / 2;
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
    return caption.title.isEmpty() && !any ? 0 : y + PAD / 2;
}

/// Draws the caption on @p p in logical coordinates, @p width wide.
void paintCaption(QPainter &p, const QCustomPlot &plot, const FigureCaption &caption, int width, int height)
{
    QList<QPoint> origins;
    layoutCaption(plot, caption, width, &origins);
    p.fillRect(QRect(0, 0, width, height), Qt::white);
    const QFontMetrics fm(plot.font());
    if (!caption.title.isEmpty()) {
        p.setFont(titleFont(plot));
        p.setPen(QColor(0x30, 0x30, 0x30));
        p.drawText(titleRect(plot, caption, width), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, caption.title);
    }
    p.setFont(plot.font());
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

QSize plotSize(const QCustomPlot &plot)
{
    const QSize s = plot.size();
    return s.isEmpty() ? QSize(800, 500) : s;
}

QByteArray renderFigurePng(QCustomPlot &plot, const FigureCaption &caption)
{
    const QSize size = plotSize(plot);
    const int captionHeight = layoutCaption(plot, caption, size.width(), nullptr);
    // Scale the whole figure, not the plot's layout: the figure keeps the window's look.
    const double scale = std::max(2.0, static_cast<double>(MIN_FIGURE_PNG_WIDTH) / size.width());
    const QPixmap body = plot.toPixmap(size.width(), size.height(), scale);
    QImage image(static_cast<int>(std::ceil(size.width() * scale)),
                 static_cast<int>(std::ceil((size.height() + captionHeight) * scale)), QImage::Format_RGB32);
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

/// Vector output: the caption with QPainter, the plot through a QCPPainter below it.
void paintFigureVector(QCustomPlot &plot, QPaintDevice &device, const FigureCaption &caption, QSize size,
                       int captionHeight)
{
    QCPPainter painter;
    if (!painter.begin(&device))
        return;
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.setWindow(QRect(0, 0, size.width(), size.height() + captionHeight));
    paintCaption(painter, plot, caption, size.width(), captionHeight);
    painter.translate(0, captionHeight);
    plot.toPainter(&painter, size.width(), size.height());
    painter.end();
}

QByteArray renderFigureVector(QCustomPlot &plot, PlotFormat format, const FigureCaption &caption)
{
    const QSize size = plotSize(plot);
    const int captionHeight = layoutCaption(plot, caption, size.width(), nullptr);
    const QSize whole(size.width(), size.height() + captionHeight);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (format == PlotFormat::Pdf) {
        QPdfWriter writer(&buffer);
        writer.setCreator(QStringLiteral("idlescope"));
        writer.setTitle(caption.title);
        writer.setPageSize(QPageSize(QSizeF(whole), QPageSize::Point, QString(), QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        paintFigureVector(plot, writer, caption, size, captionHeight);
    } else {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(whole);
        svg.setViewBox(QRect(QPoint(0, 0), whole));
        svg.setTitle(caption.title.isEmpty() ? QStringLiteral("idlescope plot") : caption.title);
        paintFigureVector(plot, svg, caption, size, captionHeight);
    }
    return bytes;
}

} // namespace

QList<LegendEntry> legendFor(const SimulationSnapshot &snapshot)
{
    QList<LegendEntry> out;
    for (std::size_t i = 0; i < snapshot.runs.size(); ++i)
        out.append({QString::fromStdString(snapshot.runs[i].variant),
                    i < snapshot.colors.size() ? snapshot.colors[i] : QColor(Qt::gray)});
    return out;
}

QByteArray renderFigure(QCustomPlot &plot, PlotFormat format, const FigureCaption &caption)
{
    return format == PlotFormat::Png ? renderFigurePng(plot, caption) : renderFigureVector(plot, format, caption);
}

Status exportFigure(QCustomPlot &plot, const QString &path, const FigureCaption &caption)
{
    const std::optional<PlotFormat> format = plotFormatForPath(path);
    if (!format)
        return Error{path.toStdString(), 0, "", "unknown image format: use .png, .pdf or .svg"};
    const QByteArray bytes = renderFigure(plot, *format, caption);
    if (bytes.isEmpty())
        return Error{path.toStdString(), 0, "", "nothing was rendered"};
    return writeFileAtomically(path.toStdString(),
                               std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())));
}

void exportFigureWithDialog(QCustomPlot &plot, QWidget *parent, const QString &suggestedName,
                            const FigureCaption &caption)
{
    QString selected;
    QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export plot"), suggestedName,
                                                plotFileFilter(), &selected);
    if (path.isEmpty())
        return;
    if (!plotFormatForPath(path)) // no suffix typed: take the filter's
        path += selected.contains(QLatin1String("*.pdf"))   ? QStringLiteral(".pdf")
                : selected.contains(QLatin1String("*.svg")) ? QStringLiteral(".svg")
                                                            : QStringLiteral(".png");
    if (const Status st = exportFigure(plot, path, caption); !st.ok())
        QMessageBox::warning(parent, QObject::tr("Export failed"), QString::fromStdString(st.error().toString()));
}

} // namespace idlescope
