// SPDX-License-Identifier: GPL-3.0-or-later
// BandGraph: a state timeline's min..max band as rectangles, the same
// pixels as QCustomPlot's (aliased) channel fill between two step-left graphs.
#include "widgets/plots/band_graph.h"

#include <QTest>

using namespace idlescope;

namespace {

QSharedPointer<QCPGraphDataContainer> series(std::initializer_list<std::pair<double, double>> pts)
{
    auto d = QSharedPointer<QCPGraphDataContainer>::create();
    for (const auto &[k, v] : pts)
        d->add(QCPGraphData(k, v));
    return d;
}

/// A lane of a 300 x 120 plot: low/high edges with a flat stretch, a
/// one-state column and a wide column, as summariseStates() gives them.
QImage renderLane(bool band, bool antialiased)
{
    QCustomPlot plot;
    plot.resize(300, 120);
    plot.xAxis->setRange(0, 100);
    plot.yAxis->setRange(-0.5, 3.5);
    QCPGraph *low = plot.addGraph();
    QCPGraph *high = band ? new BandGraph(plot.xAxis, plot.yAxis) : plot.addGraph();
    for (QCPGraph *g : {low, high}) {
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setPen(Qt::NoPen);
        g->setAntialiased(antialiased);
        g->setAntialiasedFill(antialiased);
    }
    low->setData(QVector<double>{5, 20, 40, 41, 60, 90}, QVector<double>{1, 1, 0, 0, 2, 2}, true);
    high->setData(QVector<double>{5, 20, 40, 41, 60, 90}, QVector<double>{3, 3, 0, 1, 3, 3}, true);
    high->setBrush(QColor(0x40, 0x80, 0xc0));
    high->setChannelFillGraph(low);
    return plot.toPixmap(300, 120, 1.0).toImage();
}

} // namespace

class TestBandGraph : public QObject {
    Q_OBJECT
private slots:
    void rectanglesOfAStepBand()
    {
        auto low = series({{0, 1}, {10, 1}, {20, 0}, {30, 0}, {40, 2}, {50, 2}});
        auto high = series({{0, 3}, {10, 3}, {20, 0}, {30, 1}, {40, 3}, {50, 3}});
        QVector<QRectF> rects;
        QVERIFY(stepBandRects(
            *low, *high, [](double k) { return k; }, [](double v) { return 100 - 10 * v; }, rects));
        // [0, 20) x [1, 3] merged from two equal columns; nothing for the
        // one-state column at 20; [30, 40) x [0, 1]; [40, 50) x [2, 3], where
        // the series ends at its last key.
        QCOMPARE(rects,
                 (QVector<QRectF>{QRectF(QPointF(0, 70), QPointF(20, 90)), QRectF(QPointF(30, 90), QPointF(40, 100)),
                                  QRectF(QPointF(40, 70), QPointF(50, 80))}));
    }

    void differentKeysAreNotOneBand()
    {
        auto low = series({{0, 1}, {10, 1}});
        auto high = series({{0, 3}, {11, 3}});
        QVector<QRectF> rects{QRectF(1, 1, 1, 1)};
        QVERIFY(!stepBandRects(
            *low, *high, [](double k) { return k; }, [](double v) { return v; }, rects));
        QVERIFY(rects.isEmpty());
        QVERIFY(!stepBandRects(
            *low, *series({{0, 3}}), [](double k) { return k; }, [](double v) { return v; }, rects));
    }

    void samePixelsAsTheChannelFill_data()
    {
        QTest::addColumn<bool>("antialiased");
        QTest::newRow("aliased") << false;
        QTest::newRow("antialiased (the timeline's)") << true;
    }

    void samePixelsAsTheChannelFill()
    {
        QFETCH(bool, antialiased);
        // Always drawn aliased (no seams between columns): QCustomPlot's aliased fill.
        const QImage channel = renderLane(false, false);
        const QImage band = renderLane(true, antialiased);
        // Something was drawn (the band's colour at the middle of the first column).
        QCOMPARE(band.pixelColor(band.width() / 6, band.height() / 2).blue(), 0xc0);
        QCOMPARE(band, channel);
    }
};

QTEST_MAIN(TestBandGraph)
#include "tst_band_graph.moc"
