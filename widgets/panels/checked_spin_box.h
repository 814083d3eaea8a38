// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file checked_spin_box.h
 * A QDoubleSpinBox that refuses out-of-range input out loud. A plain spin box
 * swallows a "-" keystroke when its minimum is not negative (typing -5 gave 5)
 * and silently restores the previous value when a typed one is out of range
 * (0 where the minimum is 1). This one lets such text be typed, refuses it on
 * commit (the previous value stays) and says why in a label under the field;
 * the message goes once a value is accepted.
 */
#pragma once

#include <QDoubleSpinBox>

class QAbstractSpinBox;
class QLabel;

namespace idlescope {

/// @p field in @p box with @p message under it (red, word-wrapped, hidden until a refusal is
/// said): the one look of every checked field (CheckedSpinBox, SeedSpinBox), whose box is what
/// a form lays out.
void layOutWithMessage(QWidget *box, QAbstractSpinBox *field, QLabel *message);

class CheckedSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    /// @p what names the value in the message ("spans", "interval").
    explicit CheckedSpinBox(const QString &what, QWidget *parent = nullptr);

    /// The field with its message label under it (add this to a layout, not the spin box).
    QWidget *withMessage() const { return m_box; }
    /// What the value is called in messages.
    QString what() const { return m_what; }
    /// The refusal shown ("" when none).
    QString message() const;

    QValidator::State validate(QString &input, int &pos) const override;
    void fixup(QString &input) const override;

private:
    void refuse(const QString &typed);

    QString m_what;
    QWidget *m_box;
    QLabel *m_message;
    bool m_refusedThisEdit = false;
};

} // namespace idlescope
