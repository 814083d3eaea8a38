// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/recorded_governor.h"

#include "core/common/input_file.h"

#include <filesystem>
#include <sstream>
#include <system_error>

namespace idlescope::trace {

namespace {

constexpr std::size_t MAX_GOVERNOR_FILE_BYTES = 1 << 20;
constexpr const char *FIELD = "current_governor";

std::string trimmed(const std::string &s)
{
    const size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos)
        return {};
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

/// The kernel's governor names: at most CPUIDLE_NAME_LEN - 1 characters.
bool isGovernorName(const std::string &s)
{
    if (s.empty() || s.size() > 15)
        return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return false;
    return true;
}

Result<std::string> checked(const std::string &path, std::int64_t line, const std::string &value)
{
    if (!isGovernorName(value))
        return Error{path, line, FIELD,
                     "'" + quoteField(value, 40) + "' is not a governor name (1 to 15 of a-z, 0-9, _ and -)"};
    return value;
}

} // namespace

Result<std::string> readSavedGovernor(const std::string &path)
{
    Result<std::string> text = readInputFile(path, MAX_GOVERNOR_FILE_BYTES, "a saved current_governor");
    if (!text)
        return text.error();
    std::istringstream in(*text);
    std::string raw;
    std::int64_t lineNo = 0;
    while (std::getline(in, raw)) {
        ++lineNo;
        const std::string line = trimmed(raw);
        // The sysfs file itself: one word on the first line.
        if (lineNo == 1 && line.find_first_of(": \t") == std::string::npos && !line.empty())
            return checked(path, lineNo, line);
        const size_t colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        const std::string key = trimmed(line.substr(0, colon));
        // ".../cpuidle/current_governor" or "current_governor"; not current_governor_ro.
        if (key.size() >= 16 && key.compare(key.size() - 16, 16, FIELD) == 0)
            return checked(path, lineNo, trimmed(line.substr(colon + 1)));
    }
    return Error{path, lineNo > 0 ? 1 : 0, FIELD,
                 "no governor: expected the governor's name alone on the first line (TRACE.governor) "
                 "or a line 'current_governor: NAME'"};
}

Result<std::string> governorBesideTrace(const std::string &tracePath)
{
    // cmd_record.cpp writes it next to the trace under the trace's own name.
    const std::string sidecar = tracePath + ".governor";
    std::error_code ec;
    if (!std::filesystem::exists(sidecar, ec))
        return std::string();
    return readSavedGovernor(sidecar);
}

} // namespace idlescope::trace
