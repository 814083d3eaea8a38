// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/builtin_scenario.h"

#include "core/governors/registry.h"
#include "core/io/stream_csv.h"

#include <QFileInfo>

#include <algorithm>
#include <iterator>

namespace idlescope {

IdleStateTable power10LparTable()
{
    IdleStateTable t;
    t.id = "pseries-p10";
    t.source = "drivers/cpuidle/cpuidle-pseries.c dedicated_states on a POWER10 LPAR; CEDE from the "
               "firmware extended-CEDE latency (12 us, residency 10x); CONFIG_HZ=100";
    t.tickHz = 100;
    t.states.push_back(IdleState{"snooze", "snooze", 0, 0, true, false});
    t.states.push_back(IdleState{"CEDE", "CEDE", 12000, 120000, false, false});
    return t;
}

QStringList builtinTargetIds()
{
    return {QStringLiteral("pseries-p10")};
}

Result<IdleStateTable> builtinTable(const QString &id)
{
    if (id == QLatin1String("pseries-p10"))
        return power10LparTable();
    return Error{"", 0, "target", "no built-in table '" + id.toStdString() + "'"};
}

namespace {

/// splitmix64: a tiny, seedable, well-mixed generator (deterministic jitter).
std::uint64_t splitmix64(std::uint64_t &x)
{
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

Error paramError(const char *field, const std::string &msg)
{
    return Error{"", 0, field, msg};
}

} // namespace

Result<IdleStream> periodicStream(const PeriodicParams &p)
{
    if (p.spans < 1 || p.spans > 50000000)
        return paramError("spans", "must be 1..50000000");
    if (p.periodNs < 1)
        return paramError("period_ns", "must be > 0");
    if (p.busyNs < 0 || p.busyNs >= p.periodNs)
        return paramError("busy_ns", "must be >= 0 and shorter than the period");
    if (p.jitterPermille < 0 || p.jitterPermille > 500)
        return paramError("jitter_permille", "must be 0..500");
    const Ns idle = p.periodNs - p.busyNs;
    if (p.kind == PeriodicParams::Kind::Ipi && p.farTimerNs <= idle)
        return paramError("far_timer_ns", "must be longer than the idle part of the period");

    IdleStream s;
    s.resize(static_cast<std::size_t>(p.spans));
    std::uint64_t rng = p.seed;
    const Ns jitterMax = idle * p.jitterPermille / 1000;
    for (IdleSpan &span : s) {
        Ns wake = idle;
        if (jitterMax > 0) {
            const auto r = static_cast<Ns>(splitmix64(rng) % static_cast<std::uint64_t>(2 * jitterMax + 1));
            wake = idle - jitterMax + r;
        }
        span.gapNs = p.busyNs;
        span.wakeNs = wake;
        span.timerNs = p.kind == PeriodicParams::Kind::Timer ? wake : p.farTimerNs;
        span.latencyReqNs = NO_LATENCY_REQ;
        span.util = 0;
    }
    return s;
}

QVariantMap periodicToParams(const PeriodicParams &p)
{
    return {
        {QStringLiteral("kind"), p.kind == PeriodicParams::Kind::Ipi ? QStringLiteral("ipi") : QStringLiteral("timer")},
        {QStringLiteral("period_ns"), QVariant::fromValue<qint64>(p.periodNs)},
        {QStringLiteral("busy_ns"), QVariant::fromValue<qint64>(p.busyNs)},
        {QStringLiteral("far_timer_ns"), QVariant::fromValue<qint64>(p.farTimerNs)},
        {QStringLiteral("jitter_permille"), p.jitterPermille},
        {QStringLiteral("spans"), QVariant::fromValue<qint64>(p.spans)},
        {QStringLiteral("seed"), QVariant::fromValue<qulonglong>(p.seed)},
    };
}

Result<PeriodicParams> periodicFromParams(const QVariantMap &m)
{
    PeriodicParams p;
    auto readInt = [&](const char *key, auto &dst) -> bool {
        const auto it = m.constFind(QLatin1String(key));
        if (it == m.constEnd())
            return true; // keep the default
        bool ok = false;
        const qlonglong v = it->toLongLong(&ok);
        if (!ok)
            return false;
        dst = static_cast<std::decay_t<decltype(dst)>>(v);
        return true;
    };
    const QString kind = m.value(QStringLiteral("kind"), QStringLiteral("ipi")).toString();
    if (kind == QLatin1String("ipi"))
        p.kind = PeriodicParams::Kind::Ipi;
    else if (kind == QLatin1String("timer"))
        p.kind = PeriodicParams::Kind::Timer;
    else
        return paramError("kind", "must be 'ipi' or 'timer', not '" + kind.toStdString() + "'");
    for (const auto &[key, dst] : {std::pair<const char *, Ns *>{"period_ns", &p.periodNs},
                                   {"busy_ns", &p.busyNs}, {"far_timer_ns", &p.farTimerNs},
                                   {"spans", &p.spans}})
        if (!readInt(key, *dst))
            return paramError(key, "not an integer");
    if (!readInt("jitter_permille", p.jitterPermille))
        return paramError("jitter_permille", "not an integer");
    if (!readInt("seed", p.seed))
        return paramError("seed", "not an integer");
    return p;
}

QString describePeriodic(const PeriodicParams &p)
{
    const QString what = p.kind == PeriodicParams::Kind::Ipi ? QStringLiteral("IPI") : QStringLiteral("timer");
    QString s = QStringLiteral("%1 wakeups every %2 us").arg(what).arg(static_cast<double>(p.periodNs) / 1000.0);
    if (p.jitterPermille > 0)
        s += QStringLiteral(" (\u00b1%1 %)").arg(p.jitterPermille / 10.0);
    return s + QStringLiteral(", %1 spans").arg(p.spans);
}

Result<IdleStream> buildStream(const WorkloadSpec &w)
{
    if (w.kind == QLatin1String("periodic")) {
        auto p = periodicFromParams(w.params);
        if (!p)
            return p.error();
        return periodicStream(*p);
    }
    if (w.kind == QLatin1String("csv")) {
        if (!QFileInfo::exists(w.path))
            return Error{w.path.toStdString(), 0, "", "no such file"};
        return readStreamCsv(w.path.toStdString());
    }
    return Error{"", 0, "workload", "unknown workload kind '" + w.kind.toStdString() + "'"};
}

QColor governorColor(int n, const std::string &variant)
{
    if (variant == "oracle")
        return QColor(0x55, 0x55, 0x55);
    // Tableau 10 without its grey: distinct hues that survive print and colour blindness well.
    static const QColor palette[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b),
                                     QColor(0x59, 0xa1, 0x4f), QColor(0xe1, 0x57, 0x59),
                                     QColor(0xb0, 0x7a, 0xa1), QColor(0x76, 0xb7, 0xb2),
                                     QColor(0xed, 0xc9, 0x48), QColor(0x9c, 0x75, 0x5f),
                                     QColor(0xff, 0x9d, 0xa7)};
    constexpr int size = static_cast<int>(std::size(palette));
    return palette[((n % size) + size) % size];
}

ScenarioSpec defaultScenario()
{
    ScenarioSpec s;
    s.target.kind = QStringLiteral("builtin");
    s.target.id = QStringLiteral("pseries-p10");
    s.target.table = power10LparTable();

    PeriodicParams p;
    s.workload.kind = QStringLiteral("periodic");
    s.workload.params = periodicToParams(p);
    s.workload.description = describePeriodic(p);

    std::vector<std::string> ids;
    for (const char *id : {"menu-6.14", "menu-resthresh", "teo-6.14"})
        if (findVariant(id))
            ids.emplace_back(id);
    // While a family is not registered yet, show what is rather than nothing.
    for (const VariantInfo *v : allVariants())
        if (ids.size() < 3 && std::string_view(v->family) != "oracle"
            && std::find(ids.begin(), ids.end(), v->id) == ids.end())
            ids.emplace_back(v->id);
    if (findVariant("oracle"))
        ids.emplace_back("oracle");
    int n = 0;
    for (const std::string &id : ids) {
        GovernorSpec g;
        g.variant = id;
        g.color = governorColor(id == "oracle" ? 0 : n++, id);
        s.governors.push_back(g);
    }
    return s;
}

} // namespace idlescope
