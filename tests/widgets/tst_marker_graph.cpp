// SPDX-License-Identifier: GPL-3.0-or-later
// MarkerGraph: markers once per device pixel, centred on their point, at the
// resolution of the device (screen or a 2x export).
#include "widgets/export/figure_export.h"
#include "widgets/plots/marker_graph.h"

#include <QFile>
#include <QPainter>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>

using namespace idlescope;

namespace {

const QColor RED(0xd0, 0x20, 0x20);

MarkerGraph::PaintMarker dot(const QColor &c)
{
    return [c](QPainter &p, double size) {
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawEllipse(QRectF(0.25, 0.25, size - 0.5, size - 0.5));
    };
}

MarkerGraph::PaintMarker ring(const QColor &c)
{
    return [c](QPainter &p, double size) {
        QColor r = c;
        r.setAlphaF(0.6f);
        p.setPen(QPen(r, 1.0));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(QRectF(0.5, 0.5, size - 1.0, size - 1.0));
    };
}

/// A 200 x 200 plot with no margins and axes 0..200, so that a key of x is near pixel x.
struct Canvas {
    QCustomPlot plot;
    Canvas()
    {
        plot.resize(200, 200);
        plot.axisRect()->setAutoMargins(QCP::msNone);
        plot.axisRect()->setMargins(QMargins(0, 0, 0, 0));
        plot.xAxis->setRange(0, 200);
        plot.yAxis->setRange(0, 200);
        plot.xAxis->setVisible(false);
        plot.yAxis->setVisible(false);
        plot.xAxis->grid()->setVisible(false);
        plot.yAxis->grid()->setVisible(false);
        plot.setBackground(Qt::white);
        plot.axisRect()->setBackground(Qt::white);
    }
    QImage render(double scale) { return plot.toPixmap(200, 200, scale).toImage(); }
    QPointF pixelOf(double key, double value) const
    {
        return {plot.xAxis->coordToPixel(key), plot.yAxis->coordToPixel(value)};
    }
};

bool isRed(QRgb c)
{
    return qRed(c) > 150 && qGreen(c) < 110 && qBlue(c) < 110;
}

bool isWhite(QRgb c)
{
    return qRed(c) == 255 && qGreen(c) == 255 && qBlue(c) == 255;
}

} // namespace

class TestMarkerGraph : public QObject {
    Q_OBJECT
private slots:
    void pointsInOnePixelDrawOneMarker()
    {
        // Pixel (i, j) spans [i, i + 1) x [j, j + 1). Column 10: three centres
        // in pixel (10, 20); one in (10, 30) stays. Column 11 starts afresh,
        // even at a row used by column 10.
        const QVector<QPointF> centres{{10.2, 20.4}, {10.7, 20.9}, {10.0, 30.0}, {10.5, 20.0}, {11.0, 20.0}};
        const QVector<QPoint> got = distinctMarkerPixels(centres, 5);
        QCOMPARE(got, (QVector<QPoint>{{8, 18}, {8, 28}, {9, 18}}));
    }

    void anOutlierSurvivesADenseColumn()
    {
        // 1000 points of one pixel column within half a pixel of y = 50, and
        // one entry far above them in the middle: two markers, in order.
        QVector<QPointF> centres;
        for (int i = 0; i < 1000; ++i) {
            centres.append(QPointF(100.1, 50.0 + (i % 5) * 0.09));
            if (i == 500)
                centres.append(QPointF(100.1, 200.0));
        }
        const QVector<QPoint> got = distinctMarkerPixels(centres, 7);
        QCOMPARE(got, (QVector<QPoint>{{97, 47}, {97, 197}}));
    }

    void unsortedInputIsNotLost()
    {
        // Back to a column already left: drawn again (only fewer duplicates are dropped).
        const QVector<QPointF> centres{{10, 20}, {11, 20}, {10, 20}};
        QCOMPARE(distinctMarkerPixels(centres, 3).size(), 3);
    }

    void offTheCanvasPointsAreSkipped()
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        const QVector<QPointF> centres{{nan, 1}, {1, inf}, {2, 3}};
        QCOMPARE(distinctMarkerPixels(centres, 5), (QVector<QPoint>{{0, 1}}));
    }

    void markerIsCentredOnItsPoint()
    {
        Canvas c;
        auto *g = new MarkerGraph(c.plot.xAxis, c.plot.yAxis, 5.0, dot(RED));
        g->addData(100, 100);
        const QImage img = c.render(1.0);
        const QPointF p = c.pixelOf(100, 100);
        const int x = static_cast<int>(std::lround(p.x()));
        const int y = static_cast<int>(std::lround(p.y()));
        // A 5 px dot covers x-2..x+2: its centre and both sides are red, 3 px away is white.
        QVERIFY(isRed(img.pixel(x, y)));
        QVERIFY(isRed(img.pixel(x + 1, y)));
        QVERIFY(isRed(img.pixel(x - 1, y)));
        QVERIFY(isRed(img.pixel(x, y + 1)));
        QVERIFY(isWhite(img.pixel(x + 3, y)));
        QVERIFY(isWhite(img.pixel(x - 3, y)));
        QVERIFY(isWhite(img.pixel(x - 3, y - 3))); // QCustomPlot's ssPixmap put a 2x marker's centre here
        QVERIFY(isWhite(img.pixel(x, y - 3)));
    }

    void exportAtTwiceTheSizeHasTwiceTheMarker()
    {
        Canvas c;
        auto *g = new MarkerGraph(c.plot.xAxis, c.plot.yAxis, 5.0, dot(RED));
        g->addData(100, 100);
        const QImage img = c.render(2.0);
        QCOMPARE(img.width(), 400);
        const QPointF p = c.pixelOf(100, 100) * 2.0;
        const int x = static_cast<int>(std::lround(p.x()));
        const int y = static_cast<int>(std::lround(p.y()));
        // 11 device pixels wide (5 px at 2x, made odd to stay centred).
        QVERIFY(isRed(img.pixel(x, y)));
        QVERIFY(isRed(img.pixel(x + 3, y)));
        QVERIFY(isRed(img.pixel(x - 3, y)));
        QVERIFY(isWhite(img.pixel(x + 7, y)));
        QVERIFY(isWhite(img.pixel(x - 7, y)));
    }

    void repeatedPointsLookLikeOne()
    {
        // Translucent rings: the decimated first/min/max/last of a flat
        // column, all on one pixel, draw as one ring (not a darker one).
        Canvas once, four;
        auto *g1 = new MarkerGraph(once.plot.xAxis, once.plot.yAxis, 7.0, ring(RED));
        g1->addData(100, 100);
        auto *g4 = new MarkerGraph(four.plot.xAxis, four.plot.yAxis, 7.0, ring(RED));
        for (double v : {100.0, 100.02, 99.98, 100.01})
            g4->addData(100 + (v - 100) / 10, v);
        const QImage a = once.render(1.0);
        QCOMPARE(four.render(1.0), a);
        // And it is a ring: coloured 3 px from the centre, not at it.
        const QPointF p = once.pixelOf(100, 100);
        const int x = static_cast<int>(std::lround(p.x()));
        const int y = static_cast<int>(std::lround(p.y()));
        QVERIFY(isWhite(a.pixel(x, y)));
        QVERIFY(!isWhite(a.pixel(x + 3, y)));
    }

    void vectorFiguresDrawShapesNotImages()
    {
        // PDF and SVG have no device pixels: a marker image there was a
        // 7 x 7 px bitmap scaled with the document; shapes instead.
        Canvas c;
        auto *g = new MarkerGraph(c.plot.xAxis, c.plot.yAxis, 5.0, dot(RED));
        for (double k : {50.0, 100.0, 150.0})
            g->addData(k, k);
        c.plot.replot();
        QTemporaryDir dir;
        const auto read = [](const QString &path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        const QString svg = dir.filePath(QStringLiteral("m.svg"));
        QVERIFY(exportFigure(c.plot, svg, {QStringLiteral("markers"), {}}).ok());
        const QByteArray s = read(svg);
        QVERIFY(!s.isEmpty());
        QVERIFY(!s.contains("<image"));
        QCOMPARE(s.count("fill=\"#d02020\""), 3); // one dot per point (RED)
        const QString pdf = dir.filePath(QStringLiteral("m.pdf"));
        QVERIFY(exportFigure(c.plot, pdf, {QStringLiteral("markers"), {}}).ok());
        const QByteArray p = read(pdf);
        QVERIFY(p.startsWith("%PDF-"));
        QVERIFY(!p.contains("/Subtype /Image"));
    }
};

QTEST_MAIN(TestMarkerGraph)
#include "tst_marker_graph.moc"
