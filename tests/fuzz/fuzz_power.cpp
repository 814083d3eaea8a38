// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libFuzzer target: power data, in each of its three forms (compare --power,
 * a table JSON's power fields, idlestat's energy-model file). The same input
 * is read as all three: as a table JSON with power fields (core/io/power_json.h),
 * as an energy model applied to rk3399's two clusters
 * (core/energy/idlestat_energy_model.h), and line by line as --power items on
 * intel-skx's table. Any input is power data or an Error; what is accepted
 * must be what the readers promise: every number finite and >= 0 (a state's
 * power may be missing: NaN), one entry per state of the table.
 */
#include "core/energy/idlestat_energy_model.h"
#include "core/io/power_json.h"
#include "core/io/table_json.h"
#include "core/states/power_model.h"
#include "core/targets/builtin_machines.h"
#include "core/targets/builtin_targets.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace idlescope;

namespace {

void checkModel(const PowerModel &m, const IdleStateTable &table)
{
    if (m.states.size() != static_cast<std::size_t>(table.count()))
        std::abort();
    auto bad = [](double v, bool mayBeMissing) {
        return std::isnan(v) ? !mayBeMissing : !(v >= 0 && std::isfinite(v));
    };
    for (const StatePower &s : m.states)
        if (bad(s.powerMw, true) || bad(s.entryExitUj, false))
            std::abort();
    if (bad(m.activeMw, true))
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);

    if (Result<IdleStateTable> t = parseTableJson(text, "fuzz"); t)
        if (Result<PowerModel> p = parseTablePower(text, *t, "fuzz"); p)
            checkModel(*p, *t);

    if (Result<IdlestatEnergyModel> em = parseIdlestatEnergyModel(text, "fuzz"); em) {
        static const Machine rk3399 = builtinMachine("rk3399").value();
        Machine m = rk3399;
        if (applyIdlestatEnergyModel(*em, m.clusters))
            for (const Cluster &c : m.clusters)
                checkModel(c.power, c.table);
    }

    static const IdleStateTable skx = builtinTarget("intel-skx").value();
    PowerModel model = PowerModel::empty(skx);
    std::size_t b = 0;
    while (b < text.size()) {
        const std::size_t nl = std::min(text.find('\n', b), text.size());
        (void)applyPowerOption(model, skx, std::string(text.substr(b, nl - b)));
        b = nl + 1;
    }
    checkModel(model, skx);
    return 0;
}
