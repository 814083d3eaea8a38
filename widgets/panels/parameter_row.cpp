// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/parameter_row.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace idlescope {

namespace {
/// Ranges up to this many units get one slider position per unit.
constexpr std::int64_t MAX_UNIT_POSITIONS = 10000;
/// Wider (ns) ranges get about this many positions, a round step apart.
constexpr std::int64_t WIDE_POSITIONS = 1000;
/// The fine range reaches this many times the kernel value...
constexpr std::int64_t FINE_RANGE_FACTOR = 4;
/// ...and at least this many units above the minimum (DEMOTION_COUNT 1: 1..17).
constexpr std::int64_t FINE_RANGE_MIN_WIDTH = 16;

/// The smallest 1, 2 or 5 x 10^k not below @p v (v >= 1).
std::int64_t roundStep(std::int64_t v)
{
    std::int64_t decade = 1;
    while (true) {
        for (std::int64_t m : {1, 2, 5})
            if (m * decade >= v)
                return m * decade;
        decade *= 10;
    }
}
} // namespace

std::pair<std::int64_t, std::int64_t> fineRange(std::int64_t minValue, std::int64_t maxValue, std::int64_t defaultValue)
{
    const std::int64_t hi =
        std::max(defaultValue > 0 ? defaultValue * FINE_RANGE_FACTOR : 0, minValue + FINE_RANGE_MIN_WIDTH);
    return {minValue, std::clamp(hi, minValue, maxValue)};
}

QString ParameterRow::caption(const QString &name, const QString &unit)
{
    // The field shows ns as µs (3 decimals): say so wherever the field's unit is not the name's.
    if (unit == QLatin1String("ns"))
        return tr("%1\n(ns in the kernel, here in \u00b5s)").arg(name); // two lines: the dock stays narrow
    return name;
}

ParameterRow::ParameterRow(const QString &name, const QString &unit, std::int64_t minValue, std::int64_t maxValue,
                           std::int64_t defaultValue, QWidget *parent)
    : QWidget(parent), m_name(name), m_min(minValue), m_max(std::max(minValue, maxValue)),
      m_default(std::clamp(defaultValue, m_min, m_max)), m_value(m_default),
      m_slider(new QSlider(Qt::Horizontal, this)), m_field(new QLineEdit(this)), m_unitLabel(new QLabel(this)),
      m_message(new QLabel(this))
{
    if (unit == QLatin1String("ns")) {
        m_scale = 1000.0;
        m_decimals = 3;
        m_displayUnit = QStringLiteral("\u00b5s");
    } else if (unit == QLatin1String("us")) {
        m_displayUnit = QStringLiteral("\u00b5s");
    } else {
        m_displayUnit = unit;
    }
    std::tie(m_sliderMin, m_sliderMax) = fineRange(m_min, m_max, m_default);
    const std::int64_t width = m_sliderMax - m_sliderMin;
    m_sliderStep = width <= MAX_UNIT_POSITIONS ? 1 : roundStep((width + WIDE_POSITIONS - 1) / WIDE_POSITIONS);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(0);
    auto *layout = new QHBoxLayout;
    layout->setSpacing(6);
    m_slider->setRange(0, toSlider(m_sliderMax));
    m_slider->setMinimumWidth(60);
    m_slider->setToolTip(tr("%1 to %2 %3 (type a value beyond in the field)")
                             .arg(display(m_sliderMin), display(m_sliderMax), m_displayUnit));
    m_field->setFixedWidth(fontMetrics().horizontalAdvance(QStringLiteral("0000.0")) + 12);
    m_field->setAlignment(Qt::AlignRight);
    m_field->setToolTip(tr("%1 to %2 %3").arg(display(m_min), display(m_max), m_displayUnit));
    m_unitLabel->setText(m_displayUnit);
    m_unitLabel->setFixedWidth(fontMetrics().horizontalAdvance(QStringLiteral("samples")));
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_field);
    layout->addWidget(m_unitLabel);
    outer->addLayout(layout);
    // The reason a typed value was refused, under the field it was typed in.
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color:#b0302a;"));
    m_message->hide();
    outer->addWidget(m_message);
    syncWidgets();

    connect(m_slider, &QSlider::valueChanged, this, [this](int pos) {
        const std::int64_t v = fromSlider(pos);
        if (v == m_value)
            return;
        m_value = v;
        m_field->setText(display(v));
        emit valueChanged(v, !m_slider->isSliderDown());
    });
    connect(m_slider, &QSlider::sliderReleased, this, [this] { emit valueChanged(m_value, true); });
    connect(m_field, &QLineEdit::editingFinished, this, [this] {
        if (!m_field->isModified())
            return;
        m_field->setModified(false);
        const std::int64_t before = m_value;
        if (setText(m_field->text())) {
            emit inputRejected(QString());
            if (m_value != before)
                emit valueChanged(m_value, true);
        } else {
            emit inputRejected(m_error);
        }
    });
}

void ParameterRow::setValue(std::int64_t v)
{
    m_value = std::clamp(v, m_min, m_max);
    syncWidgets();
}

bool ParameterRow::setText(const QString &text)
{
    const QString t = text.trimmed();
    bool ok = false;
    double d = QLocale().toDouble(t, &ok);
    if (!ok)
        d = QLocale::c().toDouble(t, &ok);
    if (t.isEmpty() || !ok || !std::isfinite(d)) {
        m_error = tr("%1: '%2' is not a number").arg(m_name, t);
        syncWidgets(); // back to the last good value
        return false;
    }
    const double engine = std::round(d * m_scale);
    if (engine < static_cast<double>(m_min) || engine > static_cast<double>(m_max)) {
        m_error = tr("%1 must be between %2 and %3 %4").arg(m_name, display(m_min), display(m_max), m_displayUnit);
        syncWidgets();
        return false;
    }
    m_error.clear();
    m_value = static_cast<std::int64_t>(engine);
    syncWidgets();
    return true;
}

QString ParameterRow::shownMessage() const
{
    return m_message->isHidden() ? QString() : m_message->text();
}

void ParameterRow::showMessage(const QString &message)
{
    m_message->setText(message);
    m_message->setVisible(!message.isEmpty());
}

void ParameterRow::syncWidgets()
{
    const QSignalBlocker block(m_slider);
    m_slider->setValue(toSlider(std::clamp(m_value, m_sliderMin, m_sliderMax))); // beyond: pinned at an end
    m_field->setText(display(m_value));
    m_field->setModified(false);
}

int ParameterRow::toSlider(std::int64_t v) const
{
    return static_cast<int>((v - m_sliderMin + m_sliderStep / 2) / m_sliderStep);
}

std::int64_t ParameterRow::fromSlider(int pos) const
{
    return std::clamp(m_sliderMin + static_cast<std::int64_t>(pos) * m_sliderStep, m_sliderMin, m_sliderMax);
}

QString ParameterRow::display(std::int64_t v) const
{
    if (m_scale == 1.0)
        return QString::number(v);
    QString s = QString::number(static_cast<double>(v) / m_scale, 'f', m_decimals);
    while (s.contains(QLatin1Char('.')) && (s.endsWith(QLatin1Char('0')) || s.endsWith(QLatin1Char('.'))))
        s.chop(1);
    return s;
}

} // namespace idlescope
