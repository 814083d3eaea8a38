// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/time_ticker.h"

#include <algorithm>
#include <cmath>

namespace idlescope {

namespace {

struct Unit {
    double ns;
    const char *name;
};
constexpr Unit kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1.0, "ns"}};

const Unit &unitFor(double magnitude)
{
    for (const Unit &u : kUnits)
        if (magnitude >= u.ns)
            return u;
    return kUnits[3];
}

} // namespace

QString formatNs(double ns, double stepNs)
{
    if (ns == 0.0)
        return QStringLiteral("0");
    const double mag = std::max(std::fabs(ns), stepNs);
    const Unit &u = unitFor(mag);
    const double v = ns / u.ns;
    int decimals;
    if (stepNs > 0) { // enough digits to write the step exactly (2.5 s steps need one)
        decimals = 0;
        const double step = stepNs / u.ns;
        while (decimals < 9) {
            const double scaled = step * std::pow(10.0, decimals);
            if (std::fabs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled))
                break;
            ++decimals;
        }
    } else // three significant digits
        decimals = std::fabs(v) >= 100 ? 0 : (std::fabs(v) >= 10 ? 1 : 2);
    QString s = QString::number(v, 'f', decimals);
    if (s.contains(QLatin1Char('.'))) {
        while (s.endsWith(QLatin1Char('0')))
            s.chop(1);
        if (s.endsWith(QLatin1Char('.')))
            s.chop(1);
    }
    const QString unit = u.ns == 1e3 ? QStringLiteral("\u00b5s") : QString::fromLatin1(u.name);
    return s + QLatin1Char(' ') + unit;
}

double NsTicker::getTickStep(const QCPRange &range)
{
    const double raw = range.size() / static_cast<double>(tickCount() + 1e-10);
    m_step = cleanMantissa(raw);
    return m_step;
}

QString NsTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    if (std::fabs(tick) < m_step * 1e-6)
        tick = 0;
    return formatNs(tick, m_step);
}

QString LogNsTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    const auto decade = static_cast<long>(std::lround(std::log10(std::max(tick, 1e-300))));
    if (m_labelEvery > 1 && decade % m_labelEvery != 0)
        return {};
    return formatNs(tick);
}

} // namespace idlescope
