// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libFuzzer target: --set NAME=VALUE (one setting a line) on every governor
 * variant, as replay applies them. Settings that are accepted must leave a
 * governor that replays without leaving its table (fuzz_replay.h): a tunable
 * whose range lets a governor index past its arrays shows here.
 */
#include "app/cli/cli_args.h"

#include "core/replay/governor_factory.h"
#include "tests/fuzz/fuzz_replay.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

using namespace idlescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, size_t size)
{
    std::string_view text(reinterpret_cast<const char *>(data), size);
    std::vector<std::string> settings;
    while (!text.empty() && settings.size() < 16) {
        const size_t nl = text.find('\n');
        settings.emplace_back(text.substr(0, nl));
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    }
    for (const VariantInfo *v : allVariants()) {
        std::unique_ptr<Governor> gov = createGovernor(v->id);
        if (cli::applySettings(*gov, settings).ok())
            fuzz::replayChecked(fuzz::pollingTable(), fuzz::shortStream(), *gov);
    }
    return 0;
}
