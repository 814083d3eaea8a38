// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli_args.h"

#include "core/io/table_json.h"

#include <filesystem>

namespace idlescope::cli {

Result<IdleStateTable> resolveTable(const std::string &arg)
{
    std::error_code ec;
    if (std::filesystem::exists(arg, ec))
        return readTableJson(arg);
    return Error{arg, 0, "--table", "no such file"};
}

} // namespace idlescope::cli
