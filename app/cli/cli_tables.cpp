// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * --table ARG: a JSON table file, a file of pasted `cpupower idle-info`
 * output (anything that does not start with '{'), "this-machine" (sysfs of
 * CPU 0), "sysfs:ROOT[:CPU]" (a sysfs tree elsewhere, e.g. a copy from
 * another machine), or a built-in target id. Import warnings go to stderr.
 */
#include "app/cli/cli_args.h"

#include "core/common/input_file.h"
#include "core/formats/csv_fields.h"
#include "core/io/table_json.h"

#include "core/targets/builtin_targets.h"
#include "core/targets/cpupower_import.h"
#include "core/targets/sysfs_cpuidle.h"

#include <cctype>
#include <filesystem>
#include <iostream>

namespace idlescope::cli {

namespace {

void printWarnings(const std::string &what, const std::vector<std::string> &warnings)
{
    for (const std::string &w : warnings)
        std::cerr << "idlescope-cli: " << what << ": " << inCliTerms(w) << '\n';
}

/// JSON when the first character past a UTF-8 byte-order mark and blanks is '{'.
bool looksLikeJson(std::string_view text)
{
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    for (const char c : text)
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
                // Whole-field digits only: "0abc" is not CPU 0.
                const auto n = csv::parseInt(std::string_view(root).substr(colon + 1));
                if (!n || *n < 0 || *n > 8191)
                    return Error{arg, 0, "--table",
                                 "expected sysfs:ROOT or sysfs:ROOT:CPU (CPU 0..8191), got CPU '"
                                     + quoteField(root.substr(colon + 1)) + "'"};
                cpu = static_cast<int>(*n);
                root = root.substr(0, colon);
            }
        }
        Result<SysfsCpuidle> s = readSysfsCpuidle(root, cpu);
        if (!s)
            return inCliTerms(s.error());
        printWarnings(arg, s->warnings);
        return s->table;
    }
    if (!std::filesystem::exists(arg, ec))
        return inCliTerms(builtinTarget(arg), {"table"});
    // One read, checked (a FIFO or /dev/zero is refused, the size capped); the
    // content tells which format it is.
    Result<std::string> text = readInputFile(arg, MAX_TABLE_FILE_BYTES, "a table file");
    if (!text)
        return text.error();
    // An empty file is neither format: say so instead of blaming one of them.
    if (text->empty())
        return Error{arg, 0, "--table", "empty file (expected a table JSON or 'cpupower idle-info' output)"};
    if (looksLikeJson(*text))
        return parseTableJson(*text, arg);
    Result<CpupowerIdleInfo> c = parseCpupowerIdleInfo(*text, arg);
    if (!c)
        return c.error();
    printWarnings(arg, c->warnings);
    return c->table;
}

} // namespace idlescope::cli
