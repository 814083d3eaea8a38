// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/wake_delay_source.h"

#include <QCoreApplication>

namespace idlescope {

namespace {

QString usText(Ns ns)
{
    return QString::number(static_cast<double>(ns) / 1000.0, 'g', 10);
}

QString tr(const char *text)
{
    return QCoreApplication::translate("WakeDelaySource", text);
}

} // namespace

const MeasuredWakeDelay *measuredFor(const std::vector<MeasuredWakeDelay> &measured, const std::string &name)
{
    for (const MeasuredWakeDelay &m : measured)
        if (m.state == name)
            return &m;
    return nullptr;
}

WakeDelaySource wakeDelaySource(const IdleState &state, const IdleState *pristine, const MeasuredWakeDelay *measured)
{
    if (measured)
        return WakeDelaySource::Measured;
    if (pristine && (state.wakeDelayNs != pristine->wakeDelayNs || state.entryLatencyNs != pristine->entryLatencyNs))
        return WakeDelaySource::Edited;
    if (state.wakeDelayNs == NO_WAKE_DELAY)
        return WakeDelaySource::ExitLatency;
    // The device tree's pair: the governors' exit latency is their sum (a later edit of the
    // exit latency alone leaves the wake delay the device tree's, so the source form decides).
    const IdleState &source = pristine ? *pristine : state;
    if (source.entryLatencyNs > 0 && source.wakeDelayNs + source.entryLatencyNs == source.exitLatencyNs)
        return WakeDelaySource::DeviceTree;
    return WakeDelaySource::Table;
}

QString wakeDelaySourceWord(WakeDelaySource source)
{
    switch (source) {
    case WakeDelaySource::ExitLatency: return tr("exit");
    case WakeDelaySource::Table: return tr("table");
    case WakeDelaySource::DeviceTree: return tr("DT");
    case WakeDelaySource::Edited: return tr("edited");
    case WakeDelaySource::Measured: return tr("wult");
    }
    return {};
}

QString wakeDelaySourceText(WakeDelaySource source, const IdleState &state, const MeasuredWakeDelay *measured,
                            const QString &fileName)
{
    QString wake;
    switch (source) {
    case WakeDelaySource::ExitLatency:
        wake = tr("Wake delay: the exit latency (the table gives no wake delay of its own).");
        break;
    case WakeDelaySource::Table:
        wake = tr("Wake delay %1 \u00b5s: the table's wake_delay_ns.").arg(usText(state.wakeDelayNs));
        break;
    case WakeDelaySource::DeviceTree:
        wake = tr("Wake delay %1 \u00b5s: the device tree's exit-latency-us (the exit latency the governors "
                  "read is it + entry-latency-us).")
                   .arg(usText(state.wakeDelayNs));
        break;
    case WakeDelaySource::Edited:
        wake = tr("Wake delay %1 \u00b5s, entry cost %2 \u00b5s: edited here.")
                   .arg(usText(state.wakeDelayNs == NO_WAKE_DELAY ? state.exitLatencyNs : state.wakeDelayNs),
                        usText(state.entryLatencyNs));
        break;
    case WakeDelaySource::Measured:
        wake = tr("Wake delay %1 \u00b5s: the mean WakeLatency of %2 samples of %3 in %4.")
                   .arg(usText(measured->meanNs))
                   .arg(measured->samples)
                   .arg(QString::fromStdString(measured->state), fileName);
        break;
    }
    if (source == WakeDelaySource::Edited)
        return wake;
    const QString entry = state.entryLatencyNs == 0
                              ? tr("No entry cost.")
                              : tr("Entry cost %1 \u00b5s: a wakeup during the entry waits for the rest of it.")
                                    .arg(usText(state.entryLatencyNs));
    return wake + QLatin1Char(' ') + entry;
}

} // namespace idlescope
