// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/memory_budget.h"

#include <QFile>

namespace idlescope {

std::int64_t availableMemoryBytes()
{
    QFile f(QStringLiteral("/proc/meminfo"));
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return -1;
    // "MemAvailable:   12345678 kB". A /proc file has no size: read it whole, not up to atEnd().
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (!line.startsWith("MemAvailable:"))
            continue;
        const QList<QByteArray> words = line.mid(13).simplified().split(' ');
        bool ok = false;
        const qint64 kb = words.value(0).toLongLong(&ok);
        return ok && kb >= 0 ? kb * 1024 : -1;
    }
    return -1;
}

QString runsMemoryRefusal(std::int64_t spans, std::int64_t runs, std::int64_t availableBytes)
{
    if (availableBytes < 0 || spans <= 0 || runs <= 0)
        return {};
    // At least one entry per span; doubles, so that no product overflows.
    const double need = static_cast<double>(spans) * static_cast<double>(runs) * WINDOW_BYTES_PER_ENTRY;
    const double budget = 0.8 * static_cast<double>(availableBytes);
    if (need <= budget)
        return {};
    const double gib = 1024.0 * 1024.0 * 1024.0;
    return QStringLiteral("not simulated: %1 runs of %2 spans need about %3 GiB, and this machine has %4 GiB of "
                          "memory available; fewer spans or governors would fit")
        .arg(runs)
        .arg(spans)
        .arg(need / gib, 0, 'f', 1)
        .arg(static_cast<double>(availableBytes) / gib, 0, 'f', 1);
}

} // namespace idlescope
