// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/parameter_row.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace idlescope {

namespace {
/// Slider resolution for wide ranges (positions, not values).
constexpr std::int64_t MAX_SLIDER_STEPS = 10000;
/// Ranges this wide or wider get a logarithmic slider: on a linear one, PULSE's
/// 1..1048576 or a 0..1 s threshold put every useful value in the first pixels.
constexpr std::int64_t LOG_SLIDER_RANGE = 1000000;
} // namespace

ParameterRow::ParameterRow(const QString &name, const QString &unit, std::int64_t minValue, std::int64_t maxValue,
                           std::int64_t defaultValue, QWidget *parent)
    : QWidget(parent), m_name(name), m_min(minValue), m_max(std::max(minValue, maxValue)),
      m_default(std::clamp(defaultValue, m_min, m_max)), m_value(m_default), m_slider(new QSlider(Qt::Horizontal, this)),
      m_field(new QLineEdit(this)), m_unitLabel(new QLabel(this))
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
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    m_slider->setRange(0, static_cast<int>(std::min(m_max - m_min, MAX_SLIDER_STEPS)));
    m_slider->setMinimumWidth(60);
    m_field->setFixedWidth(fontMetrics().horizontalAdvance(QStringLiteral("0000.0")) + 12);
    m_field->setAlignment(Qt::AlignRight);
    m_unitLabel->setText(m_displayUnit);
    m_unitLabel->setFixedWidth(fontMetrics().horizontalAdvance(QStringLiteral("samples")));
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_field);
    layout->addWidget(m_unitLabel);
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

void ParameterRow::syncWidgets()
{
    const QSignalBlocker block(m_slider);
    m_slider->setValue(toSlider(m_value));
    m_field->setText(display(m_value));
    m_field->setModified(false);
}

bool ParameterRow::isLogarithmic() const
{
    return m_max - m_min >= LOG_SLIDER_RANGE;
}

int ParameterRow::toSlider(std::int64_t v) const
{
    const std::int64_t range = m_max - m_min;
    if (isLogarithmic()) // position ~ log(1 + v - min): equal ratios, equal distances
        return static_cast<int>(std::llround(std::log1p(static_cast<double>(v - m_min))
                                             / std::log1p(static_cast<double>(range)) * MAX_SLIDER_STEPS));
    if (range <= MAX_SLIDER_STEPS)
        return static_cast<int>(v - m_min);
    return static_cast<int>(std::llround(static_cast<double>(v - m_min) * MAX_SLIDER_STEPS / static_cast<double>(range)));
}

std::int64_t ParameterRow::fromSlider(int pos) const
{
    const std::int64_t range = m_max - m_min;
    if (isLogarithmic()) {
        const double offset = std::expm1(static_cast<double>(pos) / MAX_SLIDER_STEPS * std::log1p(static_cast<double>(range)));
        return std::clamp<std::int64_t>(m_min + std::llround(offset), m_min, m_max);
    }
    if (range <= MAX_SLIDER_STEPS)
        return m_min + pos;
    return m_min + std::llround(static_cast<double>(pos) * static_cast<double>(range) / MAX_SLIDER_STEPS);
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
