// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/workloads/generator_base.h"

#include <cassert>
#include <iterator>
#include <vector>

namespace idlescope::workloads {

namespace {

// The cpuidle_wakeup sweep: 28 sleep intervals from 5 us to 1000 us, dense
// where the POWER and x86 shallow states' target residencies lie (10..200 us).
// The exact grid of the mailing-list runs is not public; this one spans the
// same range with the same number of points.
constexpr std::int64_t kSweepUs[] = {5,   10,  15,  20,  25,  30,  35,  40,  45,  50,  60,  70,  80,  90,
                                     100, 120, 150, 200, 250, 300, 350, 400, 500, 600, 700, 800, 900, 1000};
static_assert(std::size(kSweepUs) == 28);

} // namespace

std::span<const std::int64_t> defaultSweepIntervalsUs()
{
    return kSweepUs;
}

std::span<const GeneratorInfo> allGenerators()
{
    static const std::vector<GeneratorInfo> all = [] {
        std::vector<GeneratorInfo> out;
        for (const GeneratorInfo &g : basicGenerators())
            out.push_back(g);
        for (const GeneratorInfo &g : applicationGenerators())
            out.push_back(g);
        for (const GeneratorInfo &g : benchmarkGenerators())
            out.push_back(g);
        return out;
    }();
    return all;
}

const GeneratorInfo *findGenerator(std::string_view name)
{
    for (const GeneratorInfo &g : allGenerators())
        if (name == g.name)
            return &g;
    return nullptr;
}

int GeneratorInfo::paramIndex(std::string_view n) const
{
    for (size_t i = 0; i < params.size(); ++i)
        if (n == params[i].name)
            return static_cast<int>(i);
    return -1;
}

ParamValues GeneratorInfo::defaults() const
{
    assert(params.size() <= static_cast<size_t>(MAX_PARAMS));
    ParamValues p;
    p.info = this;
    for (size_t i = 0; i < params.size(); ++i)
        p.v[i] = params[i].def;
    return p;
}

std::int64_t ParamValues::get(std::string_view name) const
{
    const int i = info->paramIndex(name);
    assert(i >= 0 && "generator reads a parameter it does not declare");
    return v[static_cast<size_t>(i)];
}

void ParamValues::set(std::string_view name, std::int64_t value)
{
    const int i = info->paramIndex(name);
    assert(i >= 0);
    v[static_cast<size_t>(i)] = value;
}

} // namespace idlescope::workloads
