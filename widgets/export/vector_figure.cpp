// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/export/vector_figure.h"

#include "widgets/plots/qcp.h"

#include <QBuffer>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <algorithm>
#include <utility>
#include <vector>

namespace idlescope {

namespace {

/// The axis rect that clips @p l on screen, or null when nothing clips it.
QCPAxisRect *clipOf(QCPLayerable *l)
{
    if (auto *p = qobject_cast<QCPAbstractPlottable *>(l))
        return p->keyAxis() ? p->keyAxis()->axisRect() : nullptr;
    if (auto *i = qobject_cast<QCPAbstractItem *>(l))
        return i->clipToAxisRect() ? i->clipAxisRect() : nullptr;
    return nullptr;
}

/// What holds the rest (axis rects, the layout): left in every pass. An axis rect draws
/// only its background, taken away after the first pass; a layout draws nothing.
bool isStructure(QCPLayerable *l)
{
    return qobject_cast<QCPAxisRect *>(l) || (qobject_cast<QCPLayoutGrid *>(l) && !qobject_cast<QCPLegend *>(l));
}

/// Layerables drawn one after the other with the same clip.
struct Pass {
    std::vector<QCPLayerable *> members;
    QCPAxisRect *clip = nullptr;
};

/// Every drawn layerable in drawing order (layers bottom up), grouped into passes.
std::vector<Pass> passesOf(QCustomPlot &plot, std::vector<QCPLayerable *> *drawn)
{
    std::vector<Pass> passes;
    for (int i = 0; i < plot.layerCount(); ++i) {
        QCPLayer *layer = plot.layer(i);
        bool first = true;
        for (QCPLayerable *l : layer->children()) {
            if (isStructure(l))
                continue;
            drawn->push_back(l);
            QCPAxisRect *clip = clipOf(l);
            if (first || passes.back().clip != clip)
                passes.push_back({{}, clip});
            passes.back().members.push_back(l);
            first = false;
        }
    }
    return passes;
}

/// Paints @p header, then @p plot below it, on @p device (logical pixels).
void paintFigure(QCustomPlot &plot, QPaintDevice &device, QSize size, int headerHeight, const PaintHeader &header)
{
    QCPPainter painter;
    if (!painter.begin(&device))
        return;
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.setWindow(QRect(0, 0, size.width(), size.height() + headerHeight));
    if (header && headerHeight > 0) {
        painter.save();
        header(painter);
        painter.restore();
    }
    painter.translate(0, headerHeight);
    plot.toPainter(&painter, size.width(), size.height());
    painter.end();
}

/// A PDF of one page @p whole logical pixels at @p dpi, drawn by @p paint on its device.
QByteArray pdfDocument(QSize whole, int dpi, const QString &title, const std::function<void(QPaintDevice &)> &paint)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        writer.setCreator(QStringLiteral("idlescope"));
        writer.setTitle(title);
        // One logical pixel per device pixel: fonts in points come out at the size they
        // have in the window, relative to the plot.
        writer.setResolution(dpi);
        const QSizeF points(whole.width() * 72.0 / dpi, whole.height() * 72.0 / dpi);
        writer.setPageSize(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        paint(writer);
    } // the writer finishes the document when destroyed
    return bytes;
}

/// An SVG document @p whole logical pixels at @p dpi, drawn by @p paint on its device.
QByteArray svgDocument(QSize whole, int dpi, const QString &title, const std::function<void(QPaintDevice &)> &paint)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(whole);
    svg.setViewBox(QRect(QPoint(0, 0), whole));
    svg.setResolution(dpi);
    svg.setTitle(title);
    paint(svg);
    return bytes;
}

int plotDpi(const QCustomPlot &plot)
{
    return plot.logicalDpiX() > 0 ? plot.logicalDpiX() : 96;
}

QByteArray renderPdf(QCustomPlot &plot, QSize size, const QString &title, int headerHeight, const PaintHeader &header)
{
    return pdfDocument(QSize(size.width(), size.height() + headerHeight), plotDpi(plot), title,
                       [&](QPaintDevice &d) { paintFigure(plot, d, size, headerHeight, header); });
}

/// One pass as an SVG document of the whole figure's size.
QByteArray svgPass(QCustomPlot &plot, QSize size, const QString &title, int headerHeight, const PaintHeader &header)
{
    return svgDocument(QSize(size.width(), size.height() + headerHeight), plotDpi(plot), title,
                       [&](QPaintDevice &d) { paintFigure(plot, d, size, headerHeight, header); });
}

/// What an SVG document draws: between the end of its <defs> and </svg>.
QByteArray svgBody(const QByteArray &doc)
{
    const QByteArray endDefs("</defs>");
    qsizetype from = doc.indexOf(endDefs);
    from = from < 0 ? doc.indexOf('>', doc.indexOf("<svg")) + 1 : from + endDefs.size();
    const qsizetype to = doc.lastIndexOf("</svg>");
    return from > 0 && to > from ? doc.mid(from, to - from) : QByteArray();
}

/// The plot's background brush. QCustomPlot has no getter for it: background() is the
/// background *pixmap*, a null one here, and a brush made from it is a texture brush that
/// paints nothing. Restored from that, the plot stopped clearing after an SVG export and
/// drew every later picture over the old ones (issue 33). A derived class may name the
/// protected member, and the pointer to it reads it on any QCustomPlot.
struct BackgroundBrush : QCustomPlot {
    static QBrush of(const QCustomPlot &plot) { return plot.*(&BackgroundBrush::mBackgroundBrush); }
};

/// Leaves only @p pass's layerables on their layers while it lives (and takes away the
/// backgrounds the first pass drew, which later passes would paint over it again).
/// The others are taken off their layers rather than hidden: a hidden axis would hide
/// its grid too (QCPLayerable::realVisibility() follows the parent).
class PassScope {
public:
    PassScope(QCustomPlot &plot, const std::vector<QCPLayerable *> &drawn, const Pass &pass, bool first)
        : m_plot(plot), m_first(first)
    {
        for (int i = 0; i < plot.layerCount(); ++i)
            m_layers.emplace_back(plot.layer(i), plot.layer(i)->children());
        for (QCPLayerable *l : drawn)
            if (std::find(pass.members.begin(), pass.members.end(), l) == pass.members.end())
                l->setLayer(static_cast<QCPLayer *>(nullptr));
        if (!first) {
            m_plotBackground = BackgroundBrush::of(plot);
            plot.setBackground(QBrush(Qt::NoBrush));
            for (QCPAxisRect *r : plot.axisRects()) {
                m_rectBackgrounds.emplace_back(r, r->backgroundBrush());
                r->setBackground(QBrush(Qt::NoBrush));
            }
        }
    }
    ~PassScope()
    {
        // Back on their layers in their drawing order.
        for (const auto &[layer, children] : m_layers)
            for (QCPLayerable *l : children) {
                l->setLayer(static_cast<QCPLayer *>(nullptr));
                l->setLayer(layer);
            }
        if (!m_first) {
            m_plot.setBackground(m_plotBackground);
            for (auto &[r, b] : m_rectBackgrounds)
                r->setBackground(b);
        }
    }
    PassScope(const PassScope &) = delete;
    PassScope &operator=(const PassScope &) = delete;

private:
    QCustomPlot &m_plot;
    bool m_first;
    std::vector<std::pair<QCPLayer *, QList<QCPLayerable *>>> m_layers;
    std::vector<std::pair<QCPAxisRect *, QBrush>> m_rectBackgrounds;
    QBrush m_plotBackground;
};

QByteArray renderSvg(QCustomPlot &plot, QSize size, const QString &title, int headerHeight, const PaintHeader &header)
{
    std::vector<QCPLayerable *> drawn;
    const std::vector<Pass> passes = passesOf(plot, &drawn);
    if (passes.empty()) // nothing but backgrounds: one pass is the document
        return svgPass(plot, size, title, headerHeight, header);
    // The first pass carries the document's head, the header and the backgrounds.
    QByteArray out;
    QByteArray defs;
    QByteArray bodies;
    int clipId = 0;
    for (std::size_t i = 0; i < passes.size(); ++i) {
        QByteArray doc;
        QRect clipRect;
        {
            const PassScope scope(plot, drawn, passes[i], i == 0);
            doc = svgPass(plot, size, title, headerHeight, i == 0 ? header : PaintHeader{});
            if (passes[i].clip) // laid out for this size by the pass just drawn
                clipRect = passes[i].clip->rect();
        }
        if (i == 0)
            out = doc.left(doc.indexOf(svgBody(doc)));
        const QByteArray body = svgBody(doc);
        if (clipRect.isValid()) {
            const QString id = QStringLiteral("idlescope-clip%1").arg(++clipId);
            defs +=
                QStringLiteral("<clipPath id=\"%1\"><rect x=\"%2\" y=\"%3\" width=\"%4\" height=\"%5\"/></clipPath>\n")
                    .arg(id)
                    .arg(clipRect.x())
                    .arg(clipRect.y() + headerHeight)
                    .arg(clipRect.width())
                    .arg(clipRect.height())
                    .toUtf8();
            bodies += "<g clip-path=\"url(#" + id.toUtf8() + ")\">" + body + "</g>\n";
        } else {
            bodies += body;
        }
    }
    if (!defs.isEmpty())
        out += "<defs>\n" + defs + "</defs>\n";
    return out + bodies + "</svg>\n";
}

} // namespace

QByteArray renderVectorDrawing(PlotFormat format, QSize size, int dpi, const QString &title, const PaintHeader &paint)
{
    const auto draw = [&](QPaintDevice &device) {
        QPainter painter;
        if (!painter.begin(&device))
            return;
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setWindow(QRect(QPoint(0, 0), size));
        paint(painter);
        painter.end();
    };
    switch (format) {
    case PlotFormat::Pdf: return pdfDocument(size, dpi, title, draw);
    case PlotFormat::Svg: return svgDocument(size, dpi, title, draw);
    case PlotFormat::Png: break;
    }
    return {};
}

QByteArray renderVectorFigure(QCustomPlot &plot, PlotFormat format, QSize size, const QString &title, int headerHeight,
                              const PaintHeader &header)
{
    switch (format) {
    case PlotFormat::Pdf: return renderPdf(plot, size, title, headerHeight, header);
    case PlotFormat::Svg: return renderSvg(plot, size, title, headerHeight, header);
    case PlotFormat::Png: break;
    }
    return {};
}

} // namespace idlescope
