// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file parameter_row.h
 * One integer parameter as a slider plus a numeric field and its unit.
 * Values are kept in the engine's unit (ns, samples, ...); ns values are
 * shown in µs. The slider covers a fine range around the kernel value
 * (fineRange(): from the minimum to four times the default), where a pixel
 * is a small step; the field takes any value of the full range. Empty, NaN,
 * infinite or out-of-range text is refused with the reason shown under the
 * field, and the last good value comes back — the engine never sees it.
 */
#pragma once

#include <QWidget>

#include <cstdint>
#include <utility>

class QLabel;
class QLineEdit;
class QSlider;

namespace idlescope {

/// The slider range of a parameter of [@p minValue, @p maxValue] whose kernel value is
/// @p defaultValue: [minValue, max(4 x default, minValue + 16)] within the full range.
/// A 30 px drag of a 150 px slider then moves a value by a fifth of the range's width
/// (INTERVALS 8: 1..32; STDDEV_MAX_US 20: 0..80 us; RESIDENCY_THRESHOLD_NS 15 us: 0..60 us).
std::pair<std::int64_t, std::int64_t> fineRange(std::int64_t minValue, std::int64_t maxValue,
                                                std::int64_t defaultValue);

class ParameterRow : public QWidget {
    Q_OBJECT
public:
    /// @p unit: the engine's unit ("ns" is displayed as µs); min <= default <= max.
    ParameterRow(const QString &name, const QString &unit, std::int64_t minValue, std::int64_t maxValue,
                 std::int64_t defaultValue, QWidget *parent = nullptr);

    QString name() const { return m_name; }
    /// The caption above the row of tunable @p name in @p unit: the name, and where the field
    /// shows another unit than the kernel's, both, on two lines ("RESIDENCY_THRESHOLD_NS\n(ns in the kernel,
    /// here in µs)"): a ..._NS name over a µs field read as nanoseconds.
    static QString caption(const QString &name, const QString &unit);
    std::int64_t value() const { return m_value; }
    std::int64_t defaultValue() const { return m_default; }
    /// The range the field takes.
    std::int64_t minimum() const { return m_min; }
    std::int64_t maximum() const { return m_max; }
    /// The range the slider covers (engine units); values beyond it are typed.
    std::int64_t sliderMinimum() const { return m_sliderMin; }
    std::int64_t sliderMaximum() const { return m_sliderMax; }
    /// Engine units per slider position (1, or a round step for wide ns ranges).
    std::int64_t sliderStep() const { return m_sliderStep; }
    /// Set without emitting valueChanged (programmatic: defaults, sessions).
    void setValue(std::int64_t v);
    /// Set from display text as if typed; false (and errorMessage) when rejected.
    bool setText(const QString &text);
    QString errorMessage() const { return m_error; }
    /// The message shown under the field ("" when hidden).
    QString shownMessage() const;
    /// Show @p message under the field (empty hides it).
    void showMessage(const QString &message);

    QSlider *slider() const { return m_slider; }
    QLineEdit *field() const { return m_field; }
    QLabel *unitLabel() const { return m_unitLabel; }

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
    std::int64_t m_sliderMin = 0, m_sliderMax = 0, m_sliderStep = 1;
    double m_scale = 1.0; ///< engine units per display unit
    int m_decimals = 0;
    QString m_displayUnit;
    QString m_error;
    QSlider *m_slider;
    QLineEdit *m_field;
    QLabel *m_unitLabel;
    QLabel *m_message;
};

} // namespace idlescope
