// SPDX-License-Identifier: GPL-3.0-or-later
// Placeholder until this command lands.
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"

namespace idlescope::cli {

const char *const COMPARE_HELP = "not available yet\n";

int runCompare(int, char **, int) { return fail("this command is not available yet"); }

} // namespace idlescope::cli
