// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file space_key_guard.h
 * Space is play/pause in the window, but Space also presses the focused
 * button, ticks the focused check box, types a space in a text field and
 * toggles the current item of a list. A window shortcut would take the key
 * from all of them. This filter claims Space for the focused widget when it
 * is one of those (by accepting QEvent::ShortcutOverride, which is how a
 * widget tells Qt it wants a key before shortcuts see it), so play/pause
 * fires only when the plots, the playback bar's slider or nothing in
 * particular has the focus.
 *
 * Home and End (playback to the start and to the end) are claimed the same
 * way by a focused slider, field, spin box or list, which move to their own
 * ends with them: the playback shortcuts took them from a tunable's slider.
 */
#pragma once

#include <QObject>

class QWidget;

namespace idlescope {

class SpaceKeyGuard : public QObject {
    Q_OBJECT
public:
    /// Guards the widgets inside @p window; install on qApp (focus events go to the focus widget).
    explicit SpaceKeyGuard(QWidget *window);

    /// True when a bare Space on @p focus should reach the widget, not the play/pause shortcut.
    static bool widgetWantsSpace(const QWidget *focus);
    /// True when a bare Home or End on @p focus should reach the widget, not playback.
    static bool widgetWantsHomeEnd(const QWidget *focus);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QWidget *m_window;
};

} // namespace idlescope
