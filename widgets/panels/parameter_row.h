// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file parameter_row.h
 * One integer parameter as a slider plus a numeric field and its unit.
 * Values are kept in the engine's unit (ns, samples, ...); ns values are
 * shown in µs. The field accepts decimals in the display unit; empty, NaN,
 * infinite or out-of-range text is rejected with a message and the last good
 * value comes back — the engine never sees it. Very wide ranges (PULSE,
 * 0..1 s thresholds) get a logarithmic slider.
 */
#pragma once

#include <QWidget>

#include <cstdint>

class QLabel;
class QLineEdit;
class QSlider;

namespace idlescope {

class ParameterRow : public QWidget {
    Q_OBJECT
public:
    /// @p unit: the engine's unit ("ns" is displayed as µs); min <= default <= max.
    ParameterRow(const QString &name, const QString &unit, std::int64_t minValue, std::int64_t maxValue,
                 std::int64_t defaultValue, QWidget *parent = nullptr);

    QString name() const { return m_name; }
    std::int64_t value() const { return m_value; }
    std::int64_t defaultValue() const { return m_default; }
    std::int64_t minimum() const { return m_min; }
    std::int64_t maximum() const { return m_max; }
    /// Set without emitting valueChanged (programmatic: defaults, sessions).
    void setValue(std::int64_t v);
    /// Set from display text as if typed; false (and errorMessage) when rejected.
    bool setText(const QString &text);
    QString errorMessage() const { return m_error; }

    QSlider *slider() const { return m_slider; }
    /// True when the slider maps positions logarithmically (ranges of 10^6 units or more);
    /// the field still takes any value of the full range.
    bool isLogarithmic() const;
    QLineEdit *field() const { return m_field; }

signals:
    /// The user changed the value; @p final is true on slider release / field commit.
    void valueChanged(std::int64_t value, bool final);
    /// The field text was rejected (empty message clears it).
    void inputRejected(const QString &message);

private:
    void syncWidgets();
    int toSlider(std::int64_t v) const;
    std::int64_t fromSlider(int pos) const;
    QString display(std::int64_t v) const;

    QString m_name;
    std::int64_t m_min, m_max, m_default, m_value;
    double m_scale = 1.0;   ///< engine units per display unit
    int m_decimals = 0;
    QString m_displayUnit;
    QString m_error;
    QSlider *m_slider;
    QLineEdit *m_field;
    QLabel *m_unitLabel;
};

} // namespace idlescope
