// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file seed_spin_box.h
 * The seed of a generated workload: any seed idlescope-cli's --seed takes,
 * 0 to 2^63 - 1, held exactly. The generic spin box is a double (exact to
 * 2^53) and was set to 0..1000000: a session's seed 4294967296 ran as
 * 1000000 without a word. This one holds a qint64, steps by one, and refuses
 * what is not a seed out loud (the typed text, the range, the seed kept) in a
 * label under the field, as CheckedSpinBox does.
 */
#pragma once

#include <QAbstractSpinBox>

#include <cstdint>
#include <limits>

class QLabel;

namespace idlescope {

class SeedSpinBox : public QAbstractSpinBox {
    Q_OBJECT
public:
    static constexpr qint64 MAX_SEED = std::numeric_limits<qint64>::max();

    explicit SeedSpinBox(QWidget *parent = nullptr);

    /// The field with its message label under it (add this to a layout, not the spin box).
    QWidget *withMessage() const { return m_box; }
    qint64 value() const { return m_value; }
    /// Shows @p seed (clamped to 0..MAX_SEED: a caller's seeds are checked before).
    void setValue(qint64 seed);
    /// The refusal shown ("" when none).
    QString message() const;

    QValidator::State validate(QString &input, int &pos) const override;
    void fixup(QString &input) const override;
    void stepBy(int steps) override;

signals:
    void valueChanged(qint64 seed);

protected:
    StepEnabled stepEnabled() const override;

private:
    void commit();

    QWidget *m_box;
    QLabel *m_message;
    qint64 m_value = 0;
};

} // namespace idlescope
