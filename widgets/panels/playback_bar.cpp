// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/playback_bar.h"

#include "core/stats/decimate.h"
#include "widgets/plots/time_ticker.h"
#include "widgets/view_state.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

namespace idlescope {

namespace {
constexpr int SCRUB_STEPS = 10000;
constexpr int FRAME_MS = 16;
} // namespace

PlaybackBar::PlaybackBar(ViewState *view, QWidget *parent)
    : QWidget(parent), m_view(view), m_speed(new QComboBox(this)), m_scrub(new QSlider(Qt::Horizontal, this)),
      m_time(new QLabel(this))
{
    auto *h = new QHBoxLayout(this);
    h->setContentsMargins(6, 2, 6, 2);
    auto button = [this, h](QStyle::StandardPixmap icon, const QString &tip, auto slot) {
        auto *b = new QToolButton(this);
        b->setIcon(style()->standardIcon(icon));
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, slot);
        h->addWidget(b);
        return b;
    };
    m_start = button(QStyle::SP_MediaSkipBackward, tr("To start (Home)"), &PlaybackBar::toStart);
    m_back = button(QStyle::SP_MediaSeekBackward, tr("Previous entry (,)"), &PlaybackBar::stepBackward);
    m_play = button(QStyle::SP_MediaPlay, tr("Play / pause (Space)"), &PlaybackBar::togglePlay);
    m_forward = button(QStyle::SP_MediaSeekForward, tr("Next entry (.)"), &PlaybackBar::stepForward);
    m_end = button(QStyle::SP_MediaSkipForward, tr("Whole run (End)"), &PlaybackBar::toEnd);

    // Speed: simulated time per wall second.
    for (double s : {1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0})
        m_speed->addItem(tr("%1 \u00d7").arg(s), s * 1e9);
    m_speed->setCurrentIndex(3); // real time
    m_speed->setToolTip(tr("Playback speed: simulated time per second"));
    h->addWidget(new QLabel(tr("Speed"), this));
    h->addWidget(m_speed);
    m_scrub->setRange(0, SCRUB_STEPS);
    m_scrub->setToolTip(tr("Playback cursor"));
    h->addWidget(m_scrub, 1);
    m_time->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("000.000 ms / 000.000 ms")));
    m_time->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    h->addWidget(m_time);

    m_timer.setInterval(FRAME_MS);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &PlaybackBar::tick);
    connect(m_scrub, &QSlider::sliderMoved, this, [this](int pos) {
        const double span = static_cast<double>(m_view->fullEndNs() - m_view->fullStartNs());
        moveCursor(m_view->fullStartNs() + static_cast<qint64>(span * pos / SCRUB_STEPS));
    });
    connect(view, &ViewState::cursorChanged, this, [this] { updateLabel(); });
    updateLabel();
}

void PlaybackBar::setSnapshot(SnapshotPtr snapshot)
{
    m_snap = std::move(snapshot);
    updateLabel();
}

QString PlaybackBar::timeText() const
{
    return m_time->text();
}

double PlaybackBar::speed() const
{
    return m_speed->currentData().toDouble();
}

void PlaybackBar::play()
{
    if (!m_snap || m_timer.isActive())
        return;
    if (m_view->cursorNs() < 0 || m_view->cursorNs() >= m_view->fullEndNs())
        moveCursor(m_view->fullStartNs());
    m_clock.start();
    m_timer.start();
    m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
    emit playingChanged(true);
}

void PlaybackBar::pause()
{
    if (!m_timer.isActive())
        return;
    m_timer.stop();
    m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    emit playingChanged(false);
}

void PlaybackBar::togglePlay()
{
    isPlaying() ? pause() : play();
}

void PlaybackBar::tick()
{
    advance(m_clock.nsecsElapsed());
    m_clock.start();
}

void PlaybackBar::advance(qint64 wallNs)
{
    const qint64 from = std::max<qint64>(m_view->cursorNs(), m_view->fullStartNs());
    const auto step = static_cast<qint64>(static_cast<double>(wallNs) * speed() / 1e9);
    const qint64 to = from + std::max<qint64>(step, 1);
    if (to >= m_view->fullEndNs()) {
        moveCursor(m_view->fullEndNs());
        pause();
        return;
    }
    moveCursor(to);
}

void PlaybackBar::stepForward()
{
    if (!m_snap || m_snap->governorCount() == 0)
        return;
    pause();
    const std::vector<Ns> &keys = m_snap->governors[0].run->startNs;
    const std::int64_t i = lastIndexAtOrBefore(keys, m_view->cursorNs());
    const auto next = static_cast<std::size_t>(i + 1);
    if (next < keys.size())
        moveCursor(keys[next]);
}

void PlaybackBar::stepBackward()
{
    if (!m_snap || m_snap->governorCount() == 0)
        return;
    pause();
    const std::vector<Ns> &keys = m_snap->governors[0].run->startNs;
    const qint64 cursor = m_view->cursorNs() < 0 ? m_view->fullEndNs() : m_view->cursorNs();
    const std::int64_t i = lastIndexAtOrBefore(keys, cursor - 1);
    if (i >= 0)
        moveCursor(keys[static_cast<std::size_t>(i)]);
}

void PlaybackBar::toStart()
{
    pause();
    moveCursor(m_view->fullStartNs());
}

void PlaybackBar::toEnd()
{
    pause();
    m_view->setCursorNs(-1);
}

void PlaybackBar::moveCursor(qint64 ns)
{
    m_view->setCursorNs(ns);
    // Follow: keep the cursor in view, scrolling by whole zoom widths' tenths.
    const qint64 width = m_view->rangeEndNs() - m_view->rangeStartNs();
    if (ns > m_view->rangeEndNs() || ns < m_view->rangeStartNs())
        m_view->setRange(ns - width * 9 / 10, ns + width / 10);
}

void PlaybackBar::updateLabel()
{
    const qint64 full = m_view->fullEndNs() - m_view->fullStartNs();
    const qint64 c = m_view->cursorNs();
    {
        const QSignalBlocker block(m_scrub);
        m_scrub->setValue(c < 0 ? SCRUB_STEPS
                                : static_cast<int>(static_cast<double>(c) * SCRUB_STEPS / std::max<qint64>(full, 1)));
    }
    // A closed loop keeps totals only: its "run" is a 1 ns placeholder range, and
    // "whole run, 1 ns" read as a duration.
    if (m_snap && m_snap->isClosedLoop()) {
        m_time->setText(tr("closed loop: totals only, no timeline"));
        return;
    }
    const QString total = formatNs(static_cast<double>(full));
    m_time->setText(c < 0 ? tr("whole run, %1").arg(total)
                          : tr("%1 / %2").arg(formatNs(static_cast<double>(c)), total));
}

} // namespace idlescope
