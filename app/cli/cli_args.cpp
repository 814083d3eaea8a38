// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli_args.h"

#include "core/governors/tunable_setting.h"
#include "core/io/atomic_file.h"
#include "core/io/csv_fields.h"
#include "core/io/table_json.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string_view>

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

std::string Args::check(const std::vector<std::string> &known, size_t maxPositional, const std::string &command) const
{
    if (std::string u = unknown(known); !u.empty())
        return "unknown option " + u + " (see idlescope-cli help " + command + ")";
    if (!m_error.empty())
        return m_error;
    if (m_positional.size() > maxPositional)
        return "unexpected argument '" + m_positional[maxPositional] + "' (see idlescope-cli help " + command + ")";
    return {};
}

std::string Args::givenTwice(const std::vector<std::string> &once) const
{
    for (const std::string &name : once)
        if (all(name).size() > 1)
            return "--" + name + " is given more than once";
    return {};
}

int fail(const std::string &message)
{
    std::cerr << "idlescope-cli: " << message << '\n';
    return EXIT_BAD_INPUT;
}

namespace {

/// The parameters core's errors name (runComparison(), settingsPerGovernor()), and the
/// option that gives each on the command line.
struct CoreParameter {
    std::string_view name;
    std::string_view flag;
};
constexpr CoreParameter CORE_PARAMETERS[] = {
    {"governors", "--governors"}, {"set", "--set"},     {"iterations", "--iterations"},
    {"spans", "--spans"},         {"shard", "--shard"},
};

/// What the CLI adds to a core message: one about @p parameter ("" for none) that begins
/// with @p begins and ends with @p coreEnd ends with @p cliEnd instead. Core's messages say
/// what is wrong; these say which command or option helps.
struct CliHint {
    std::string_view parameter;
    std::string_view begins;
    std::string_view coreEnd;
    std::string_view cliEnd;
};
constexpr CliHint CLI_HINTS[] = {
    {"governors", "unknown governor variant", "", " (idlescope-cli governors lists them)"},
    {"governors", "listed twice;", "", " (then --set LABEL:NAME=VALUE sets its tunables)"},
    {"set", "no listed governor has this tunable", "", " (idlescope-cli governors --tunables)"},
    {"set", "governor ", " is not one of the governors", " is not in --governors"},
    {"", "out of memory while replaying", "", " (fewer --spans or --threads)"},
};

const CoreParameter *coreParameter(const std::string &name)
{
    for (const CoreParameter &p : CORE_PARAMETERS)
        if (name == p.name)
            return &p;
    return nullptr;
}

bool endsWith(std::string_view s, std::string_view end)
{
    return s.size() >= end.size() && s.substr(s.size() - end.size()) == end;
}

} // namespace

Error inCliTerms(Error error)
{
    // A line number means a file: its name is a path, whatever it is called.
    std::string_view parameter;
    if (error.line == 0) {
        if (const CoreParameter *p = coreParameter(error.file)) {
            parameter = p->name;
            error.file = std::string(p->flag);
        } else if (error.file.empty()) {
            if (const CoreParameter *f = coreParameter(error.field)) {
                parameter = f->name;
                error.field = std::string(f->flag);
            }
        }
    }
    for (const CliHint &h : CLI_HINTS)
        if (h.parameter == parameter && error.message.rfind(h.begins, 0) == 0 && endsWith(error.message, h.coreEnd)) {
            error.message.resize(error.message.size() - h.coreEnd.size());
            error.message += h.cliEnd;
            break;
        }
    return error;
}

int fail(const Error &error)
{
    return fail(error.toString());
}

int emitOutput(const Args &args, const std::string &option, const std::string &text)
{
    if (!args.has(option)) {
        std::cout << text;
        return 0;
    }
    if (Status s = writeFileAtomically(args.value(option), text); !s)
        return fail(s.error());
    return 0;
}

Status applySettings(Governor &gov, const std::vector<std::string> &settings)
{
    for (const std::string &text : settings) {
        Result<TunableSettingText> s = parseTunableSetting(text, "--set");
        if (!s)
            return s.error();
        if (!s->governor.empty() && s->governor != gov.variant().id)
            return Error{"--set", 0, s->name, "names " + s->governor + ", but the governor is " + gov.variant().id};
        std::string err;
        if (!gov.setTunable(s->name, s->value, &err))
            return Error{"--set", 0, s->name, err};
    }
    return Ok{};
}

} // namespace idlescope::cli
