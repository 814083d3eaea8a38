// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"

#include "core/governors/registry.h"

#include <cstdio>
#include <iostream>

namespace idlescope::cli {

const char *const GOVERNORS_HELP =
    "usage: idlescope-cli governors [--tunables]\n\n"
    "Lists every governor variant: its id (for --governor), its family, the kernel\n"
    "version or patch it reproduces, and a one-line summary. With --tunables, also\n"
    "the parameters each variant accepts with --set NAME=VALUE, with kernel defaults\n"
    "and ranges.\n";

int runGovernors(int argc, char **argv, int first)
{
    Args args(argc, argv, first, {"tunables"});
    if (!args.ok())
        return fail(args.error());
    if (std::string u = args.unknown({"tunables"}); !u.empty())
        return fail("unknown option " + u + " (see idlescope-cli help governors)");
    const bool withTunables = args.has("tunables");
    std::printf("%-16s %-9s %-28s %s\n", "id", "family", "kernel", "summary");
    for (const VariantInfo *v : allVariants()) {
        std::printf("%-16s %-9s %-28s %s\n", v->id, v->family, v->kernel, v->summary);
        if (!withTunables)
            continue;
        auto gov = createGovernor(v->id);
        for (const TunableInfo &t : gov->tunables())
            std::printf("    --set %s=<%s>  default %lld, range %lld..%lld: %s\n", t.name, t.unit,
                        static_cast<long long>(t.kernelDefault), static_cast<long long>(t.minValue),
                        static_cast<long long>(t.maxValue), t.description);
    }
    return 0;
}

} // namespace idlescope::cli
