// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"

#include "core/governors/registry.h"
#include "core/replay/governor_factory.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace idlescope::cli {

const char *const GOVERNORS_HELP = "usage: idlescope-cli governors [--tunables]\n\n"
                                   "Lists every governor variant: its id (for --governor), its family, the kernel\n"
                                   "version or patch it reproduces, and a one-line summary. With --tunables, also\n"
                                   "the parameters each variant accepts with --set NAME=VALUE, with kernel defaults\n"
                                   "and ranges.\n";

namespace {

size_t displayWidth(const char *utf8)
{
    size_t n = 0;
    for (const char *p = utf8; *p; ++p)
        n += (static_cast<unsigned char>(*p) & 0xC0) != 0x80;
    return n;
}

std::string padded(const char *utf8, size_t width)
{
    std::string s = utf8;
    for (size_t w = displayWidth(utf8); w < width; ++w)
        s += ' ';
    return s;
}

} // namespace

int runGovernors(int argc, char **argv, int first)
{
    Args args(argc, argv, first, {"tunables"});
    if (std::string e = args.check({"tunables"}, 0, "governors"); !e.empty())
        return fail(e);
    const bool withTunables = args.has("tunables");
    // Columns padded by characters, not bytes (kernel strings hold en dashes).
    size_t idWidth = 2, kernelWidth = 6;
    for (const VariantInfo *v : allVariants()) {
        idWidth = std::max(idWidth, displayWidth(v->id));
        kernelWidth = std::max(kernelWidth, displayWidth(v->kernel));
    }
    std::cout << padded("id", idWidth) << ' ' << padded("family", 9) << ' ' << padded("kernel", kernelWidth)
              << " summary\n";
    for (const VariantInfo *v : allVariants()) {
        std::cout << padded(v->id, idWidth) << ' ' << padded(v->family, 9) << ' ' << padded(v->kernel, kernelWidth)
                  << ' ' << v->summary << '\n';
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
