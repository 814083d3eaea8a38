// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/session/opening_bar.h"

#include "widgets/session/session_opener.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

namespace idlescope {

OpeningBar::OpeningBar(SessionOpener *opener, QWidget *parent) : QWidget(parent), m_opener(opener)
{
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    m_label = new QLabel(this);
    m_label->setStyleSheet(QStringLiteral("color:#4e79a7; font-weight:bold;"));
    m_bar = new QProgressBar(this);
    m_bar->setRange(0, 0); // busy: a read tells nothing of how far it is
    m_bar->setMaximumWidth(120);
    m_bar->setTextVisible(false);
    m_cancel = new QToolButton(this);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop opening this session and keep the scenario on screen"));
    row->addWidget(m_label);
    row->addWidget(m_bar);
    row->addWidget(m_cancel);
    hide();

    m_show.setSingleShot(true);
    m_show.setInterval(SHOW_AFTER_MS);
    m_poll.setInterval(100);
    connect(&m_show, &QTimer::timeout, this, [this] {
        refresh();
        show();
        m_poll.start();
    });
    connect(&m_poll, &QTimer::timeout, this, &OpeningBar::refresh);
    connect(m_cancel, &QToolButton::clicked, m_opener, &SessionOpener::cancelReading);
    connect(m_opener, &SessionOpener::readingStarted, this, [this] {
        if (isHidden())
            m_show.start();
        else
            refresh(); // another session replaced the one shown
    });
    connect(m_opener, &SessionOpener::readingEnded, this, [this] {
        m_show.stop();
        m_poll.stop();
        hide();
    });
}

void OpeningBar::refresh()
{
    m_label->setText(
        tr("Opening %1: %2\u2026").arg(QFileInfo(m_opener->readingSession()).fileName(), m_opener->readingStep()));
    m_label->setToolTip(m_opener->readingSession());
}

} // namespace idlescope
