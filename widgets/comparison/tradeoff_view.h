// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file tradeoff_view.h
 * The trade-off in one look: three small bar panels side by side, idle
 * misses, throughput (wakeups/s) and idle energy, one bar per governor in
 * its colour, each labelled with the comparison table's own cell. It reads
 * ComparisonTableModel (whose numbers core computed, run_throughput.h) and
 * computes nothing; without power data the energy panel says "no power
 * data" instead of drawing zeros. For a closed-loop workload the throughput
 * panel shows its operations per second, and a fourth panel the latency added
 * per operation (p99, the mean in its label). Rebuilt whenever the model is reset.
 */
#pragma once

#include "widgets/plots/plot_base.h"

namespace idlescope {

class ComparisonTableModel;

class TradeoffView : public PlotBase {
    Q_OBJECT
public:
    enum Panel { Misses, Throughput, Energy, AddedLatency, PanelCount };

    explicit TradeoffView(ComparisonTableModel *model, QWidget *parent = nullptr);
    ~TradeoffView() override;

    /// Whether the model's runs are a closed loop's (ops/s and the added-latency panel shown).
    bool showsClosedLoop() const { return m_closedLoop; }
    /// The title over panel @p panel, on one line.
    QString panelTitle(Panel panel) const;
    /// The title element over panel @p panel, as drawn (wrapped to the panel's width; tests).
    QCPTextElement *panelTitleElement(Panel panel) const { return m_titles[panel]; }

    /// Bars drawn in the misses panel (one per row of the table), and the height of the
    /// bar of table row @p row in @p panel (NaN when none is drawn: a recorded run, no power data).
    int barCount() const;
    double barValue(Panel panel, int row) const;
    /// What the energy panel says instead of bars ("no power data"), else "".
    QString energyNote() const;

protected:
    void rebuild() override;
    QString tooltipAt(const QPointF &pos) const override;

private:
    /// The comparison table's value behind panel @p panel's bar of @p row (NaN: none).
    double tableValue(int panel, int row) const;
    /// The comparison table's column behind panel @p panel.
    int panelColumn(int panel) const;
    /// Put the added-latency panel in the row of panels, or take it out.
    void showLatencyPanel(bool show);
    /// Turns panel @p p's value labels upright when they are wider than a bar's slot (@p n
    /// bars, @p top the tallest) and makes the room above the bars they need.
    void fitValueLabels(int p, int n, double top);
    /// Slants panel @p p's governor names when they are wider than a bar's slot, and wraps
    /// its title to the panel's width.
    void fitNamesAndTitle(int p, int n);
    /// Panel @p p's bar of table row @p g, @p v high on axes @p x and @p y, with the table's cell above it.
    void addBar(int p, int g, double v, QCPAxis *x, QCPAxis *y);
    /// The energy panel's note in place of bars when none of the @p n rows has power data
    /// (@p anyEnergy false): the table's word for it, its reason and where power data is set.
    void showEnergyNote(int n, bool anyEnergy);

    ComparisonTableModel *m_model;
    QCPAxisRect *m_rects[PanelCount] = {};
    QCPTextElement *m_titles[PanelCount] = {};
    QCPLayoutGrid *m_row = nullptr;
    bool m_closedLoop = false;
    bool m_loopEnergy = false; ///< the energy panel shows a closed loop's energy_J (LoopEnergyColumn)
    bool m_latencyShown = true;
    QList<QCPBars *> m_bars[PanelCount];
    QList<QCPItemText *> m_valueLabels[PanelCount]; ///< the table's cell above each bar
    QCPItemText *m_energyNote = nullptr;
};

} // namespace idlescope
