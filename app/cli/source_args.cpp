// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/source_args.h"

#include "core/common/text_cells.h"
#include "core/experiments/comparison.h"
#include "core/replay/governor_factory.h"

#include <charconv>
#include <iostream>

namespace idlescope::cli {

Result<std::unique_ptr<Governor>> governorFromId(const std::string &id)
{
    if (isSourceGovernorId(id)) {
        Result<SourceGovernorSpec> spec = parseSourceGovernorId(id);
        if (!spec)
            return spec.error();
        return std::unique_ptr<Governor>(std::make_unique<SourceGovernor>(std::move(*spec)));
    }
    std::unique_ptr<Governor> gov = createGovernor(id);
    if (!gov)
        return Error{"", 0, "", "--governor: unknown variant '" + id + "' (idlescope-cli governors lists them)"};
    return gov;
}

Result<std::unique_ptr<Governor>> sourceGovernorFromArgs(const Args &args)
{
    Result<SourceGovernorSpec> spec = sourceGovernorSpecFromArgs(args);
    if (!spec)
        return spec.error();
    return std::unique_ptr<Governor>(std::make_unique<SourceGovernor>(std::move(*spec)));
}

Status checkSourceOnlyOptions(const Args &args)
{
    if (!args.has("governor-source"))
        for (const char *sourceOnly : {"name", "kernel", "timeout"})
            if (args.has(sourceOnly))
                return Error{"", 0, "", std::string("--") + sourceOnly + " goes with --governor-source"};
    return Ok{};
}

Result<SourceGovernorSpec> sourceGovernorSpecFromArgs(const Args &args)
{
    SourceGovernorSpec spec;
    spec.path = args.value("governor-source");
    if (spec.path.empty())
        return Error{"", 0, "--governor-source", "needs a file"};
    if (args.has("name")) {
        // Shown as "src:NAME", as the window shows it, and refused where compare refuses a
        // label: a name that would read as a built-in variant's row is no name.
        const std::string name = args.value("name");
        if (std::string problem = experiments::governorLabelProblem(name); !problem.empty())
            return Error{"", 0, "--name", problem};
        if (std::string problem = experiments::reservedGovernorLabelProblem(name); !problem.empty())
            return Error{"", 0, "--name", problem};
        spec.name = std::string(SOURCE_GOVERNOR_PREFIX) + name;
    }
    if (args.has("kernel")) {
        Result<source_governor::KernelCore> k = source_governor::parseKernelCore(args.value("kernel"));
        if (!k)
            return Error{"", 0, "--kernel", k.error().message};
        spec.core = *k;
    }
    Result<int> timeout = sourceTimeoutFromArgs(args);
    if (!timeout)
        return timeout.error();
    spec.timeoutSeconds = *timeout;
    return spec;
}

Result<int> sourceTimeoutFromArgs(const Args &args)
{
    if (!args.has("timeout"))
        return source_governor::DEFAULT_SOURCE_TIMEOUT_S;
    const std::string t = args.value("timeout");
    int v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size() || v < 1 || v > 86400)
        return Error{"", 0, "--timeout", "'" + t + "' is not a number of seconds from 1 to 86400"};
    return v;
}

Status prepareSourceGovernor(Governor &gov, const IdleStateTable &table, const IdleStream &stream)
{
    if (Status s = prepareGovernor(gov, table, stream); !s)
        return s;
    if (auto *src = dynamic_cast<SourceGovernor *>(&gov))
        if (!src->warnings().empty())
            std::cerr << printableText(src->warnings());
    return Ok{};
}

Status finishSourceGovernor(Governor &gov, const ReplaySummary &summary)
{
    Status s = finishGovernor(gov, &summary);
    if (auto *src = dynamic_cast<SourceGovernor *>(&gov))
        if (!src->log().empty())
            std::cerr << printableText(src->log());
    return s;
}

} // namespace idlescope::cli
