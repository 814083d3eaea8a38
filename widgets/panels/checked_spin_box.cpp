// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/checked_spin_box.h"

#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace idlescope {

void layOutWithMessage(QWidget *box, QAbstractSpinBox *field, QLabel *message)
{
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(1);
    layout->addWidget(field);
    message->setWordWrap(true);
    message->setStyleSheet(QStringLiteral("color:#b0302a;"));
    message->hide();
    layout->addWidget(message);
}

CheckedSpinBox::CheckedSpinBox(const QString &what, QWidget *parent)
    : QDoubleSpinBox(nullptr), m_what(what), m_box(new QWidget(parent)), m_message(new QLabel(m_box))
{
    layOutWithMessage(m_box, this, m_message);
    setKeyboardTracking(false);
    // Committed (Enter or focus out): fixup() ran first when the text was refused.
    connect(this, &QAbstractSpinBox::editingFinished, this, [this] {
        if (!m_refusedThisEdit)
            m_message->hide();
        m_refusedThisEdit = false;
    });
}

QString CheckedSpinBox::message() const
{
    return m_message->isHidden() ? QString() : m_message->text();
}

QValidator::State CheckedSpinBox::validate(QString &input, int &pos) const
{
    const QValidator::State s = QDoubleSpinBox::validate(input, pos);
    if (s != QValidator::Invalid)
        return s;
    // A sign or digits the range cannot take: let them be typed, and refuse them
    // on commit with the reason (fixup()), rather than dropping the keystroke.
    static const QRegularExpression number(QStringLiteral("^[-+]?[0-9.,\\s]*$"));
    QString bare = input;
    if (!prefix().isEmpty() && bare.startsWith(prefix()))
        bare.remove(0, prefix().size());
    if (!suffix().isEmpty() && bare.endsWith(suffix()))
        bare.chop(suffix().size());
    return number.match(bare.trimmed()).hasMatch() ? QValidator::Intermediate : s;
}

void CheckedSpinBox::fixup(QString &input) const
{
    // Called on commit with text that is not acceptable; what the base cannot
    // mend (a sign, a value out of range) is refused and the spin box keeps its value.
    const QString typed = input;
    QDoubleSpinBox::fixup(input);
    QString mended = input;
    int pos = 0;
    if (QDoubleSpinBox::validate(mended, pos) != QValidator::Acceptable)
        const_cast<CheckedSpinBox *>(this)->refuse(typed);
}

void CheckedSpinBox::refuse(const QString &typed)
{
    QString t = typed;
    if (!suffix().isEmpty() && t.endsWith(suffix()))
        t.chop(suffix().size());
    t = t.trimmed();
    const QString unit = suffix().trimmed();
    const QString range = unit.isEmpty()
                              ? tr("%1 to %2").arg(textFromValue(minimum()), textFromValue(maximum()))
                              : tr("%1 to %2 %3").arg(textFromValue(minimum()), textFromValue(maximum()), unit);
    m_message->setText(t.isEmpty()
                           ? tr("%1 needs a value (%2); kept %3").arg(m_what, range, textFromValue(value()))
                           : tr("%1 takes %2: '%3' refused, kept %4").arg(m_what, range, t, textFromValue(value())));
    m_message->show();
    m_refusedThisEdit = true;
}

} // namespace idlescope
