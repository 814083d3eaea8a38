// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/export/table_figure.h"

#include "widgets/export/vector_figure.h"

#include <QFontMetrics>
#include <QGuiApplication>
#include <QPainter>

#include <algorithm>
#include <vector>

namespace idlescope {

namespace {

constexpr int MARGIN = 8;      // around the table, as the caption's PAD
constexpr int CELL_PAD = 8;    // either side of a cell's text
constexpr int SWATCH = 10;     // a row's colour square, the size of a figure legend's chip
constexpr int MIN_WIDTH = 480; // a table of two columns still leaves its title room on one line
constexpr int DPI = 96;        // logical pixels per inch: the figure's pixels are the document's

/// The figure's text in pixels, not points: its layout is measured and drawn in the same units
/// on the screen, the PDF and the SVG whatever the screen's DPI.
QFont bodyFont()
{
    QFont f = QGuiApplication::font();
    f.setPixelSize(13);
    return f;
}

QFont headerFont()
{
    QFont f = bodyFont();
    f.setBold(true);
    return f;
}

bool hasSwatch(const QList<QColor> &colours, std::size_t row)
{
    return row < static_cast<std::size_t>(colours.size()) && colours[static_cast<qsizetype>(row)].isValid();
}

struct Layout {
    std::vector<int> columnWidths;
    int rowHeight = 0;
    int tableWidth = 0;
    int width = 0;
    int captionHeight = 0;
    int height = 0;
};

Layout layOut(const table::Table &t, const QList<QColor> &colours, const FigureCaption &caption)
{
    const QFontMetrics body(bodyFont());
    const QFontMetrics head(headerFont());
    Layout l;
    l.rowHeight = body.height() + 8;
    const bool anySwatch = std::any_of(colours.begin(), colours.end(), [](const QColor &c) { return c.isValid(); });
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        int w = head.horizontalAdvance(QString::fromStdString(t.columns[c].name));
        for (const std::vector<table::Cell> &row : t.rows)
            if (c < row.size())
                w = std::max(w, body.horizontalAdvance(QString::fromStdString(row[c].text)));
        if (c == 0 && anySwatch)
            w += SWATCH + 6;
        l.columnWidths.push_back(w + 2 * CELL_PAD);
        l.tableWidth += l.columnWidths.back();
    }
    l.width = std::max(MIN_WIDTH, l.tableWidth + 2 * MARGIN);
    l.captionHeight = captionHeight(bodyFont(), caption, l.width);
    l.height = l.captionHeight + MARGIN + l.rowHeight * static_cast<int>(t.rows.size() + 1) + MARGIN;
    return l;
}

/// One row's cells from @p top: each in its column's box, numbers right-aligned.
void paintRow(QPainter &p, const table::Table &t, const Layout &l, int top, const std::vector<table::Cell> *cells,
              const QColor &swatch)
{
    int x = MARGIN;
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        QRect box(x + CELL_PAD, top, l.columnWidths[c] - 2 * CELL_PAD, l.rowHeight);
        x += l.columnWidths[c];
        const bool right = t.columns[c].align == table::Align::Right;
        if (!cells) { // the header row: the column names, aligned as their numbers
            p.drawText(box, (right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter,
                       QString::fromStdString(t.columns[c].name));
            continue;
        }
        if (c >= cells->size())
            continue;
        const table::Cell &cell = (*cells)[c];
        if (c == 0 && swatch.isValid()) {
            p.setPen(swatch.darker(120));
            p.setBrush(swatch);
            p.drawRect(QRect(box.left(), top + (l.rowHeight - SWATCH) / 2, SWATCH, SWATCH));
            box.setLeft(box.left() + SWATCH + 6);
        }
        // A cell without a value says why in grey, not as if it were a number.
        const bool quiet = cell.kind == table::Cell::Kind::NoValue || cell.kind == table::Cell::Kind::Missing;
        p.setPen(quiet ? QColor(0x80, 0x80, 0x80) : QColor(0x30, 0x30, 0x30));
        p.drawText(box, (right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter, QString::fromStdString(cell.text));
    }
}

void paintTable(QPainter &p, const table::Table &t, const QList<QColor> &colours, const Layout &l)
{
    int top = l.captionHeight + MARGIN;
    const QRect headRect(MARGIN, top, l.tableWidth, l.rowHeight);
    p.fillRect(headRect, QColor(0xee, 0xee, 0xee));
    p.setFont(headerFont());
    p.setPen(QColor(0x30, 0x30, 0x30));
    paintRow(p, t, l, top, nullptr, {});
    top += l.rowHeight;
    p.setFont(bodyFont());
    for (std::size_t r = 0; r < t.rows.size(); ++r, top += l.rowHeight) {
        if (r % 2 == 1) // the window's alternating rows: a long row stays one line to the eye
            p.fillRect(QRect(MARGIN, top, l.tableWidth, l.rowHeight), QColor(0xf6, 0xf6, 0xf6));
        paintRow(p, t, l, top, &t.rows[r], hasSwatch(colours, r) ? colours[static_cast<qsizetype>(r)] : QColor());
    }
    // Rules under the header and under the last row, as a slide's table has them.
    p.setPen(QPen(QColor(0x90, 0x90, 0x90), 1));
    p.drawLine(MARGIN, headRect.bottom() + 1, MARGIN + l.tableWidth, headRect.bottom() + 1);
    p.drawLine(MARGIN, top, MARGIN + l.tableWidth, top);
}

} // namespace

QByteArray renderTableFigure(const table::Table &t, const QList<QColor> &rowColours, PlotFormat format,
                             const FigureCaption &caption)
{
    const Layout l = layOut(t, rowColours, caption);
    const QString title = caption.title.isEmpty() ? QStringLiteral("idlescope table") : caption.title;
    return renderVectorDrawing(format, QSize(l.width, l.height), DPI, title, [&](QPainter &p) {
        p.fillRect(QRect(0, 0, l.width, l.height), Qt::white);
        paintCaption(p, bodyFont(), caption, l.width, l.captionHeight);
        paintTable(p, t, rowColours, l);
    });
}

} // namespace idlescope
