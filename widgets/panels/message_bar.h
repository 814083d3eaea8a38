// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file message_bar.h
 * An inline, dismissable banner above the plots for errors and warnings that
 * must not vanish on their own (a status-bar message is gone after seconds and
 * easy to miss): a failed workload load names file:line:field here and stays
 * until the user closes it or a later run succeeds. No modal dialog, so
 * scripted and offscreen runs never block.
 *
 * A message can be megabytes (a compiler's output for a binary file): the bar
 * lays out only its first lines, each cut short, and says how much more there
 * is; the tooltip holds a longer, still bounded part. Laying out the whole
 * text once froze the window for minutes and grew it past the screen.
 */
#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace idlescope {

/// The first @p maxLines lines of @p text, each cut to @p maxLineChars characters
/// ("…" where cut), and "… (N more lines)" when lines were left out. It reads only
/// the part of @p text it keeps, so a huge text costs no more than a short one.
QString briefText(const QString &text, int maxLines, int maxLineChars);

class MessageBar : public QFrame {
    Q_OBJECT
public:
    enum class Kind { Error, Warning };

    explicit MessageBar(QWidget *parent = nullptr);

    /// Show @p text (plain text; several lines allowed) with the colours of @p kind.
    void showMessage(Kind kind, const QString &text);
    /// Hide the bar and forget its text.
    void clear();

    /// The whole message given ("" when hidden) and its kind (tests).
    QString text() const;
    /// What the bar lays out: briefText() of the message.
    QString shownText() const;
    Kind kind() const { return m_kind; }
    QToolButton *closeButton() const { return m_close; }

    /// No minimum height: a window at its smallest lends the bar the plots' room
    /// rather than growing past the screen for a message (the user's 1600x1099).
    QSize minimumSizeHint() const override;

signals:
    /// The user closed the bar.
    void dismissed();

private:
    QLabel *m_icon;
    QLabel *m_text;
    QToolButton *m_close;
    QString m_full;
    Kind m_kind = Kind::Error;
};

} // namespace idlescope
