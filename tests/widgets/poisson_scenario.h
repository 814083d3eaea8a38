// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario of the Copy-as-command and Sweep tests: random wakeups (the seed
// matters), a changed tick rate, a latency limit and a changed tunable, so that
// every part of a compare command is exercised.
#pragma once

#include "core/workloads/workload.h"
#include "core/workloads/workload_spec.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/spec_workload.h"

namespace idlescope::test {

/// intel-skx at HZ 1000 (the table's is 250), Poisson wakeups (mean 150 us) of @p spans spans
/// from @p seed, a 100 us latency limit (C6's 133 us exit latency is then out of reach),
/// menu-6.14 with INTERVALS=4, teo-6.14 and the oracle.
inline ScenarioSpec poissonScenario(qint64 spans, qint64 seed)
{
    ScenarioSpec s;
    s.target.kind = TargetKind::Builtin;
    s.target.id = QStringLiteral("intel-skx");
    s.target.table = *builtinTable(s.target.id);
    s.target.table.tickHz = 1000;
    const workloads::GeneratorInfo *poisson = workloads::findGenerator("poisson");
    workloads::ParamValues values = poisson->defaults();
    values.set("mean_us", 150000); // held ns
    s.workload = generatorWorkload(*poisson, spans, seed);
    s.workload.text = workloads::generatorText(values);
    s.workload.description = describeWorkload(s.workload);
    s.latencyLimitNs = 100000;
    int n = 0;
    for (const char *id : {"menu-6.14", "teo-6.14", "oracle"}) {
        GovernorSpec g;
        g.variant = id;
        g.color = governorColor(n++, id);
        if (g.variant == "menu-6.14")
            g.settings = {{"INTERVALS", 4}};
        s.governors.push_back(g);
    }
    return s;
}

} // namespace idlescope::test
