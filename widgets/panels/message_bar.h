// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file message_bar.h
 * An inline, dismissable banner above the plots for errors and warnings that
 * must not vanish on their own (a status-bar message is gone after seconds and
 * easy to miss): a failed workload load names file:line:field here and stays
 * until the user closes it or a later run succeeds. No modal dialog, so
 * scripted and offscreen runs never block.
 */
#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace idlescope {

class MessageBar : public QFrame {
    Q_OBJECT
public:
    enum class Kind { Error, Warning };

    explicit MessageBar(QWidget *parent = nullptr);

    /// Show @p text (plain text; several lines allowed) with the colours of @p kind.
    void showMessage(Kind kind, const QString &text);
    /// Hide the bar and forget its text.
    void clear();

    /// What is shown ("" when hidden) and its kind (tests).
    QString text() const;
    Kind kind() const { return m_kind; }
    QToolButton *closeButton() const { return m_close; }

signals:
    /// The user closed the bar.
    void dismissed();

private:
    QLabel *m_icon;
    QLabel *m_text;
    QToolButton *m_close;
    Kind m_kind = Kind::Error;
};

} // namespace idlescope
