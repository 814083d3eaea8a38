// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli_args.h"

#include "core/io/csv_fields.h"
#include "core/io/table_json.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace idlescope::cli {

Args::Args(int argc, char **argv, int first, std::vector<std::string> flags)
{
    for (int i = first; i < argc; ++i) {
        std::string a = argv[i];
        if (a.rfind("--", 0) != 0 || a.size() == 2) {
            m_positional.push_back(a);
            continue;
        }
        std::string name = a.substr(2);
        std::string value;
        if (const size_t eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
        } else if (std::find(flags.begin(), flags.end(), name) == flags.end()) {
            if (i + 1 >= argc) {
                m_opts.emplace_back(name, std::string());
                m_error = "option --" + name + " needs a value";
                return;
            }
            value = argv[++i];
        }
        m_opts.emplace_back(name, value);
    }
}

bool Args::has(const std::string &name) const
{
    return std::any_of(m_opts.begin(), m_opts.end(), [&](const auto &o) { return o.first == name; });
}

std::string Args::value(const std::string &name, const std::string &fallback) const
{
    for (auto it = m_opts.rbegin(); it != m_opts.rend(); ++it)
        if (it->first == name)
            return it->second;
    return fallback;
}

std::vector<std::string> Args::all(const std::string &name) const
{
    std::vector<std::string> out;
    for (const auto &o : m_opts)
        if (o.first == name)
            out.push_back(o.second);
    return out;
}

std::string Args::unknown(const std::vector<std::string> &known) const
{
    for (const auto &o : m_opts)
        if (std::find(known.begin(), known.end(), o.first) == known.end())
            return "--" + o.first;
    return {};
}

std::string Args::check(const std::vector<std::string> &known, size_t maxPositional,
                        const std::string &command) const
{
    if (std::string u = unknown(known); !u.empty())
        return "unknown option " + u + " (see idlescope-cli help " + command + ")";
    if (!m_error.empty())
        return m_error;
    if (m_positional.size() > maxPositional)
        return "unexpected argument '" + m_positional[maxPositional] + "' (see idlescope-cli help "
               + command + ")";
    return {};
}

int fail(const std::string &message)
{
    std::cerr << "idlescope-cli: " << message << '\n';
    return EXIT_BAD_INPUT;
}

int fail(const Error &error)
{
    return fail(error.toString());
}

Status applySettings(Governor &gov, const std::vector<std::string> &settings)
{
    for (const std::string &s : settings) {
        const size_t eq = s.find('=');
        if (eq == std::string::npos)
            return Error{"--set", 0, s, "expected NAME=VALUE"};
        const std::string name = s.substr(0, eq);
        const auto value = csv::parseInt(std::string_view(s).substr(eq + 1));
        if (!value)
            return Error{"--set", 0, name, "value '" + quoteField(s.substr(eq + 1)) + "' is not an integer"};
        std::string err;
        if (!gov.setTunable(name, *value, &err))
            return Error{"--set", 0, name, err};
    }
    return Ok{};
}

} // namespace idlescope::cli
