// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/seed_spin_box.h"

#include "widgets/panels/checked_spin_box.h"

#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>

#include <algorithm>

namespace idlescope {

SeedSpinBox::SeedSpinBox(QWidget *parent)
    : QAbstractSpinBox(nullptr), m_box(new QWidget(parent)), m_message(new QLabel(m_box))
{
    layOutWithMessage(m_box, this, m_message);
    setKeyboardTracking(false);
    lineEdit()->setText(QStringLiteral("0"));
    connect(this, &QAbstractSpinBox::editingFinished, this, &SeedSpinBox::commit);
}

QString SeedSpinBox::message() const
{
    return m_message->isHidden() ? QString() : m_message->text();
}

void SeedSpinBox::setValue(qint64 seed)
{
    seed = std::clamp<qint64>(seed, 0, MAX_SEED);
    lineEdit()->setText(QString::number(seed));
    if (seed == m_value)
        return;
    m_value = seed;
    emit valueChanged(seed);
}

QValidator::State SeedSpinBox::validate(QString &input, int &) const
{
    // Digits (and a sign, refused with its reason on commit rather than swallowed).
    static const QRegularExpression number(QStringLiteral("^\\s*[-+]?[0-9]*\\s*$"));
    if (!number.match(input).hasMatch())
        return QValidator::Invalid;
    bool ok = false;
    const qint64 v = input.trimmed().toLongLong(&ok);
    return ok && v >= 0 && input.trimmed() == QString::number(v) ? QValidator::Acceptable : QValidator::Intermediate;
}

void SeedSpinBox::fixup(QString &) const {}

void SeedSpinBox::commit()
{
    const QString typed = lineEdit()->text().trimmed();
    bool ok = false;
    const qint64 v = typed.toLongLong(&ok); // false beyond 2^63 - 1: never wrapped or clamped
    if (!ok || v < 0) {
        m_message->setText(tr("seed takes 0 to %1: '%2' refused, kept %3").arg(MAX_SEED).arg(typed).arg(m_value));
        m_message->show();
        lineEdit()->setText(QString::number(m_value));
        return;
    }
    m_message->hide();
    setValue(v);
}

void SeedSpinBox::stepBy(int steps)
{
    // Saturating: a step never wraps a seed near either end.
    const qint64 v = m_value;
    const qint64 next = steps > 0 ? (v > MAX_SEED - steps ? MAX_SEED : v + steps) : std::max<qint64>(0, v + steps);
    m_message->hide();
    setValue(next);
}

QAbstractSpinBox::StepEnabled SeedSpinBox::stepEnabled() const
{
    StepEnabled e = StepNone;
    if (m_value > 0)
        e |= StepDownEnabled;
    if (m_value < MAX_SEED)
        e |= StepUpEnabled;
    return e;
}

} // namespace idlescope
