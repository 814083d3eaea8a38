// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file reasoning_chart.h
 * The inspector's small chart of one decision (QCustomPlot):
 *  - menu: the recent-interval window as bars (oldest left; samples dropped
 *    as outliers grey, samples never considered light grey), with the typical
 *    interval, menu's plan (predicted_ns before the state loop), the
 *    residency threshold and each state's target residency as lines (µs);
 *  - teo: per-bin hits and intercepts (teo-5.13: hits, misses, early hits);
 *  - other governors: each state's target residency as a bar (the chosen
 *    state in the governor's colour, the oracle's outlined) against the idle
 *    time the entry really had, its sleep length and the prediction.
 */
#pragma once

#include "widgets/inspector/entry_detail.h"

#include <QColor>
#include <QList>
#include <QRectF>
#include <QWidget>

#include <vector>

class QCustomPlot;
class QCPItemText;

namespace idlescope {

class ReasoningChart : public QWidget {
    Q_OBJECT
public:
    enum class Kind { None, MenuWindow, TeoBins, StateRuler };

    explicit ReasoningChart(QWidget *parent = nullptr);

    /// Draws the chart for @p d on @p table in the governor colour @p color.
    void showDetail(const EntryDetail &d, const IdleStateTable &table, const QColor &color);
    /// The chart without bars, titled @p title: "Select an entry" (the default) only when none
    /// is selected; an entry with nothing to chart (the kernel's, one that could not be
    /// explained, one still being replayed) says so instead.
    void clear(const QString &title = QString());
    /// The chart's title as drawn (tests).
    QString title() const;

    Kind kind() const { return m_kind; }
    QCustomPlot *customPlot() const { return m_plot; }
    /// Bars drawn (samples for menu, bins x series for teo, states otherwise).
    int barCount() const { return m_barCount; }
    /// The level labels' rectangles in pixels, as last drawn (tests: they never overlap).
    QList<QRectF> levelLabelRects() const;

private:
    void reset(const QString &title);
    void drawMenu(const MenuReasoning &r, const IdleStateTable &table, const QColor &color);
    void drawTeo(const TeoReasoning &r, const IdleStateTable &table, const QColor &color);
    void drawRuler(const EntryDetail &d, const IdleStateTable &table, const QColor &color);
    /// A labelled horizontal line at @p y across the axis rect.
    void addLevel(double y, const QString &label, const QPen &pen, bool labelLeft = false);
    /// Moves level labels apart that would overlap (close lines: skx's residency threshold
    /// 15 us and C1E's 20 us, Juno's 2 ms and 2.5 ms); run after each layout.
    void placeLevelLabels();
    struct Level {
        QCPItemText *text;
        double y;
        bool left;
    };

    QCustomPlot *m_plot = nullptr;
    std::vector<Level> m_levels;
    Kind m_kind = Kind::None;
    int m_barCount = 0;
    bool m_cleared = false; ///< clear() drew the empty chart and nothing was drawn since
    QString m_clearedTitle; ///< its title
};

} // namespace idlescope
