// SPDX-License-Identifier: GPL-3.0-or-later
// A generator workload's parameters, read from and written into its text
// (WorkloadSourceSpec::text) as the panel's form does (widgets/runner/spec_workload.h).
#pragma once

#include "core/workloads/workload.h"
#include "core/workloads/workload_spec.h"
#include "widgets/runner/spec_workload.h"

namespace idlescope::test {

/// The held value (ns for _us) of the parameter @p name of the Generator workload @p w; -1 when
/// its text is not one generator with that parameter.
inline qint64 workloadParam(const WorkloadSourceSpec &w, const char *name)
{
    const Result<workloads::ParamValues> values = generatorValues(w.text);
    return values && values->info->paramIndex(name) >= 0 ? values->get(name) : -1;
}

/// @p w with the parameter @p name of its generator at @p held (its text written again).
inline WorkloadSourceSpec withWorkloadParam(WorkloadSourceSpec w, const char *name, qint64 held)
{
    Result<workloads::ParamValues> values = generatorValues(w.text);
    if (values && values->info->paramIndex(name) >= 0) {
        values->set(name, held);
        w.text = workloads::generatorText(*values);
    }
    return w;
}

} // namespace idlescope::test
