// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file fuzz_replay.h
 * What the engine fuzz targets do with an input that parsed: replay a short
 * stream through every governor variant and put each decision into words,
 * checking the invariants a replay must keep (every entry inside the table,
 * entries = the sum of usage). A table or tunable that makes a governor
 * index past its table then shows as an ASan report or an abort.
 */
#pragma once

#include "core/governors/explain.h"
#include "core/governors/registry.h"
#include "core/replay/governor_factory.h"
#include "core/replay/reference_replay.h"
#include "tests/governor_rig.h"

#include <cstdlib>

namespace idlescope::fuzz {

/// Ten spans of varied shape: timer wakes, early wakes, a zero latency limit, a tight one.
inline const IdleStream &shortStream()
{
    static const IdleStream s = {
        {1000, 50000, 2000, -1, 0}, {3000, 900000, 700000, -1, 100},
        {0, 30000, 30000, 0, 0},    {500, 4000000, 3900000, 20000, 512},
        {100, 100, 100, -1, 0},     {2000, 12000000, 150000, -1, 0},
        {0, 1, 0, 0, 1024},         {7000, 250000, 250000, 5000, 0},
        {10, 60000, 59999, -1, 7},  {0, 8000000, 8000000, -1, 0},
    };
    return s;
}

/// The governor tests' skx-like table (tests/governor_rig.h): a polling state, C1, C1E and C6.
inline const IdleStateTable &pollingTable()
{
    static const IdleStateTable t = test::skxLike();
    return t;
}

/// Replays @p stream on @p table through @p gov; aborts when an invariant breaks.
inline void replayChecked(const IdleStateTable &table, const IdleStream &stream, Governor &gov)
{
    std::int64_t explained = 0;
    const ReplaySummary s = replayStream(table, stream, gov, [&](const EntryRecord &e, const Governor &g) {
        if (e.state < 0 || e.state >= table.count())
            std::abort();
        // Words for the first entries only: they allocate.
        if (explained++ < 4)
            (void)explainReasoning(g.reasoning(), table);
    });
    std::int64_t usage = 0;
    for (int i = 0; i < table.count(); ++i)
        usage += s.states[static_cast<size_t>(i)].usage;
    if (usage != s.entries)
        std::abort();
}

/// Every variant, fresh, on @p table.
inline void replayEveryVariant(const IdleStateTable &table, const IdleStream &stream = shortStream())
{
    for (const VariantInfo *v : allVariants()) {
        std::unique_ptr<Governor> gov = createGovernor(v->id);
        replayChecked(table, stream, *gov);
    }
}

} // namespace idlescope::fuzz
