// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file opening_bar.h
 * The status bar's row while a session is read on the worker (session_opener.h):
 * what is being opened and what the read is doing, a busy bar (a session file
 * says nothing about how far a read is), and Cancel, which stops waiting for it
 * and keeps the scenario on screen. A read done in a blink shows nothing: the
 * row appears after SHOW_AFTER_MS, as the trace page's import row does for a
 * large trace.
 */
#pragma once

#include <QTimer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace idlescope {

class SessionOpener;

class OpeningBar : public QWidget {
    Q_OBJECT
public:
    static constexpr int SHOW_AFTER_MS = 150;
    explicit OpeningBar(SessionOpener *opener, QWidget *parent = nullptr);

    /// Widgets, for tests.
    QLabel *label() const { return m_label; }
    QProgressBar *progressBar() const { return m_bar; }
    QToolButton *cancelButton() const { return m_cancel; }

private:
    void refresh();

    SessionOpener *m_opener;
    QLabel *m_label;
    QProgressBar *m_bar;
    QToolButton *m_cancel;
    QTimer m_show; ///< shows the row once a read has lasted SHOW_AFTER_MS
    QTimer m_poll; ///< follows the read's step while shown
};

} // namespace idlescope
