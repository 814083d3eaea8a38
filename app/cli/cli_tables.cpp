// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * --table ARG: a JSON table file, a file of pasted `cpupower idle-info`
 * output (anything that does not start with '{'), "this-machine" (sysfs of
 * CPU 0), "sysfs:ROOT[:CPU]" (a sysfs tree elsewhere, e.g. a copy from
 * another machine), or a built-in target id. Import warnings go to stderr.
 */
#include "app/cli/cli_args.h"

#include "core/io/table_json.h"

#include "core/targets/builtin_targets.h"
#include "core/targets/cpupower_import.h"
#include "core/targets/sysfs_cpuidle.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace idlescope::cli {

namespace {

void printWarnings(const std::string &what, const std::vector<std::string> &warnings)
{
    for (const std::string &w : warnings)
        std::cerr << "idlescope-cli: " << what << ": " << w << '\n';
}

bool startsWithBrace(const std::string &path)
{
    std::ifstream in(path);
    char c = 0;
    while (in.get(c))
        if (!std::isspace(static_cast<unsigned char>(c)))
            return c == '{';
    return false;
}

} // namespace

Result<IdleStateTable> resolveTable(const std::string &arg)
{
    std::error_code ec;
    if (arg == "this-machine" || arg.rfind("sysfs:", 0) == 0) {
        std::string root = SYSFS_CPU_ROOT;
        int cpu = 0;
        if (arg != "this-machine") {
            root = arg.substr(6);
            if (const size_t colon = root.rfind(':'); colon != std::string::npos) {
                try {
                    cpu = std::stoi(root.substr(colon + 1));
                } catch (...) {
                    return Error{arg, 0, "--table", "expected sysfs:ROOT or sysfs:ROOT:CPU"};
                }
                root = root.substr(0, colon);
            }
        }
        Result<SysfsCpuidle> s = readSysfsCpuidle(root, cpu);
        if (!s)
            return s.error();
        printWarnings(arg, s->warnings);
        return s->table;
    }
    // An empty file is neither format: say so instead of blaming one of them.
    if (std::filesystem::is_regular_file(arg, ec) && std::filesystem::file_size(arg, ec) == 0 && !ec)
        return Error{arg, 0, "--table", "empty file (expected a table JSON or 'cpupower idle-info' output)"};
    if (std::filesystem::is_regular_file(arg, ec) && !startsWithBrace(arg)) {
        Result<CpupowerIdleInfo> c = readCpupowerIdleInfo(arg);
        if (!c)
            return c.error();
        printWarnings(arg, c->warnings);
        return c->table;
    }
    if (std::filesystem::exists(arg, ec))
        return readTableJson(arg);
    return builtinTarget(arg);
}

} // namespace idlescope::cli
