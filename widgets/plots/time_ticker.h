// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file time_ticker.h
 * Axis ticks for keys in nanoseconds: nice 1-2-5 steps in ns, labels in the
 * unit that suits the visible range ("250 us", "1.5 ms", "2 s").
 */
#pragma once

#include "widgets/plots/qcp.h"

namespace idlescope {

/// "120 µs", "1.5 ms", "10.0001 s": @p ns in the largest unit that keeps it >= 1, with enough
/// decimals to resolve @p stepNs (a tick step), or three significant digits when stepNs is 0.
QString formatNs(double ns, double stepNs = 0.0);

class NsTicker : public QCPAxisTicker {
public:
    NsTicker() { setTickCount(6); }

protected:
    double getTickStep(const QCPRange &range) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;

private:
    double m_step = 1.0;
};

/// Log-axis ticks at decades (and 2, 5 between them when the range is short), labelled as durations.
class LogNsTicker : public QCPAxisTickerLog {
public:
    LogNsTicker()
    {
        setLogBase(10);
        setSubTickCount(8);
    }
    /// Name every @p n-th decade only (10^0, 10^n, ...), the others keep their tick: a narrow
    /// plot ran six decade labels together ("100 ns1 µs 10 µs100 µs1 ms").
    void setLabelEvery(int n) { m_labelEvery = n < 1 ? 1 : n; }
    int labelEvery() const { return m_labelEvery; }

protected:
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;

private:
    int m_labelEvery = 1;
};

} // namespace idlescope
