// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file playback_bar.h
 * Plays the run: a cursor that advances through run time at a chosen speed
 * (simulated time per wall-clock second), with play/pause, step to the
 * previous/next entry, jump to start/end and a scrub slider. It only moves
 * ViewState's cursor; every view follows from there. When the cursor leaves
 * the visible range, the range scrolls with it (zoom width kept).
 */
#pragma once

#include "widgets/runner/simulation_snapshot.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace idlescope {

class ViewState;

class PlaybackBar : public QWidget {
    Q_OBJECT
public:
    PlaybackBar(ViewState *view, QWidget *parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    bool isPlaying() const { return m_timer.isActive(); }
    /// Simulated ns per wall-clock second.
    double speed() const;
    /// The time label's text ("whole run, 2.29 s", "1.2 ms / 2.29 s").
    QString timeText() const;

public slots:
    void play();
    void pause();
    void togglePlay();
    /// Cursor to the next / previous entry start of the first governor.
    void stepForward();
    void stepBackward();
    void toStart();
    /// Cursor off: every view shows the whole run.
    void toEnd();
    /// One playback frame of @p wallNs (the timer's tick; public for measurements).
    void advance(qint64 wallNs);

signals:
    void playingChanged(bool playing);

private:
    void tick();
    void moveCursor(qint64 ns);
    void updateLabel();

    ViewState *m_view;
    SnapshotPtr m_snap;
    QTimer m_timer;
    QElapsedTimer m_clock;
    QToolButton *m_start, *m_back, *m_play, *m_forward, *m_end;
    QComboBox *m_speed;
    QSlider *m_scrub;
    QLabel *m_time;
};

} // namespace idlescope
