// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file sweep_view.h
 * The Sweep tab: choose one parameter of the scenario (a parameter of its
 * generator workload, or a tunable of one of its governors), a range and a
 * number of steps (linear or logarithmic), and Sweep: the job
 * (sweep_job.h) runs on a pool thread with a progress bar and a Cancel,
 * and the figure (sweep_plot.h) shows above %, below % and the miss ratio per
 * governor. Clicking a point emits pointActivated (the window opens it as the
 * current scenario); Export writes the figure as the other plots are written.
 */
#pragma once

#include "widgets/sweep/sweep_job.h"

#include <QFutureWatcher>
#include <QTimer>
#include <QWidget>

#include <atomic>
#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace idlescope {

struct FigureCaption;
class SweepPlot;

/// The sweep figure's least height: three panels of about 110 px and the title (it scrolls below).
inline constexpr int SWEEP_PLOT_MIN_HEIGHT = 360;

class SweepView : public QWidget {
    Q_OBJECT
public:
    explicit SweepView(QWidget *parent = nullptr);
    ~SweepView() override;

    /// The scenario a sweep starts from; refills the parameter choices (keeping the one chosen).
    void setScenario(const ScenarioSpec &scenario);

    /// Puts @p axis and the range (in the axis unit: µs, %, Hz, or the tunable's) in the controls.
    void setControls(const SweepAxisChoice &axis, double from, double to, int points, bool logarithmic);
    /// The request the controls describe for the scenario set last.
    SweepRequest requestFromControls() const;

    /// Starts @p request (a running sweep is cancelled first).
    void start(const SweepRequest &request, bool logarithmic);
    bool isRunning() const { return m_running; }
    /// Work units done / in all of the running (or last) sweep.
    int unitsDone() const { return m_done ? m_done->load() : 0; }
    int unitsTotal() const { return m_total; }

    SweepPlot *plot() const { return m_plot; }
    /// The last finished sweep (cancelled or failed ones included, with their state).
    const SweepResult &result() const { return m_result; }
    /// The exported figure's caption: title, governors, the scenario swept and the swept values.
    FigureCaption caption() const;
    /// The status line under the controls ("swept 8 points", "cancelled", an error).
    QString statusText() const;

public slots:
    void startFromControls();
    void cancel();
    /// Asks for a file name and writes the figure (PNG, PDF, SVG) with its caption.
    void exportWithDialog();

signals:
    /// A sweep ended (finished, cancelled or failed): result() has it.
    void finished();
    /// The user clicked point @p point of the sweep @p request.
    void pointActivated(const SweepRequest &request, int point);

private:
    void fillAxisChoices();
    void axisChanged();
    void jobFinished();
    void updateProgress();

    ScenarioSpec m_scenario;
    QComboBox *m_axis = nullptr;
    QDoubleSpinBox *m_from = nullptr;
    QDoubleSpinBox *m_to = nullptr;
    QSpinBox *m_points = nullptr;
    QCheckBox *m_log = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_export = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    SweepPlot *m_plot = nullptr;

    QFutureWatcher<SweepResult> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    std::shared_ptr<std::atomic<int>> m_done;
    int m_total = 0;
    bool m_runningLog = false;
    bool m_running = false; ///< from start() to the job's end (the watcher hears of it later)
    QTimer m_progressTimer;
    SweepResult m_result;
};

} // namespace idlescope
