// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/space_key_guard.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextEdit>

namespace idlescope {

SpaceKeyGuard::SpaceKeyGuard(QWidget *window) : QObject(window), m_window(window) {}

bool SpaceKeyGuard::widgetWantsSpace(const QWidget *focus)
{
    if (!focus)
        return false;
    // The editors inside a spin box or a combo box have those as parents.
    for (const QWidget *w = focus; w; w = w->parentWidget()) {
        if (qobject_cast<const QAbstractButton *>(w) || qobject_cast<const QLineEdit *>(w)
            || qobject_cast<const QAbstractSpinBox *>(w) || qobject_cast<const QComboBox *>(w)
            || qobject_cast<const QAbstractItemView *>(w) || qobject_cast<const QTextEdit *>(w)
            || qobject_cast<const QPlainTextEdit *>(w))
            return true;
        if (w == focus->window())
            break;
    }
    return false;
}

bool SpaceKeyGuard::widgetWantsHomeEnd(const QWidget *focus)
{
    if (!focus)
        return false;
    // A slider moves to its ends, a field's cursor to the text's, a list to its first or last
    // row. A button or a check box has no use for them.
    for (const QWidget *w = focus; w; w = w->parentWidget()) {
        if (qobject_cast<const QAbstractSlider *>(w) || qobject_cast<const QLineEdit *>(w)
            || qobject_cast<const QAbstractSpinBox *>(w) || qobject_cast<const QAbstractItemView *>(w)
            || qobject_cast<const QTextEdit *>(w) || qobject_cast<const QPlainTextEdit *>(w))
            return true;
        if (w == focus->window())
            break;
    }
    return false;
}

bool SpaceKeyGuard::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::ShortcutOverride) {
        auto *key = static_cast<QKeyEvent *>(event);
        auto *w = qobject_cast<QWidget *>(watched);
        const bool bare = (key->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier;
        const bool wanted = key->key() == Qt::Key_Space                               ? widgetWantsSpace(w)
                            : key->key() == Qt::Key_Home || key->key() == Qt::Key_End ? widgetWantsHomeEnd(w)
                                                                                      : false;
        if (bare && w && w->window() == m_window && wanted) {
            event->accept(); // the key goes to the widget as a KeyPress; the shortcut does not fire
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace idlescope
