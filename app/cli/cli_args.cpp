// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli_args.h"

#include "core/common/text_cells.h"
#include "core/formats/csv_fields.h"
#include "core/governors/tunable_setting.h"
#include "core/io/atomic_file.h"
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
    // A message may quote a governor's text or a file name: no terminal control gets through.
    std::cerr << "idlescope-cli: " << printableText(message) << '\n';
    return EXIT_BAD_INPUT;
}

namespace {

/// The parameters core's errors name (runComparison(), settingsPerGovernor(), the
/// power items, workload specs, built-in tables and machines, closed loops), and the
/// option that gives each on the command line.
struct CoreParameter {
    std::string_view name;
    std::string_view flag;
};
constexpr CoreParameter CORE_PARAMETERS[] = {
    {"governors", "--governors"},
    {"set", "--set"},
    {"iterations", "--iterations"},
    {"spans", "--spans"},
    {"duration", "--duration"},
    {"shard", "--shard"},
    {"power", "--power"},
    {"workload", "--workload"},
    {"background", "--background"},
    {"workload-cpus", "--workload-cpus"},
    {"machine", "--machine"},
    {"table", "--table"},
    {"closed-loop", "--closed-loop"},
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
    {"governors", "listed twice; name the second instance", "", " (then --set LABEL:NAME=VALUE sets its tunables)"},
    {"set", "no listed governor has this tunable", "", " (idlescope-cli governors --tunables)"},
    {"set", "governor ", " is not one of the governors", " is not in --governors"},
    {"", "out of memory while replaying", "", " (fewer --spans or --threads)"},
    {"", "a governor built from source replays one CPU's stream at a time", "",
     " (give --cpu N, or leave out --machine)"},
    {"", "", "Pick a built-in table instead.",
     "Pick a built-in table instead (idlescope-cli compare --table ID; ids in help compare)."},
    // Warnings of the sysfs and cpupower importers.
    {"", "the tick rate (CONFIG_HZ) is not in ", "assuming 250 Hz", "assuming 250 Hz; set it with --hz"},
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

/// @p message about @p parameter ("" for none) with the CLI's hint, if it has one.
std::string withCliHint(std::string message, std::string_view parameter)
{
    for (const CliHint &h : CLI_HINTS)
        if (h.parameter == parameter && message.rfind(h.begins, 0) == 0 && endsWith(message, h.coreEnd)) {
            message.resize(message.size() - h.coreEnd.size());
            message += h.cliEnd;
            break;
        }
    return message;
}

} // namespace

Error inCliTerms(Error error, std::initializer_list<std::string_view> valueAsFile)
{
    // A line number means a file: its name is a path, whatever it is called.
    std::string_view parameter;
    if (error.line == 0) {
        // The field first when the file cannot be a parameter's name or the caller says it
        // is the refused value (a table id "power" is not the power option).
        const CoreParameter *f = coreParameter(error.field);
        if (f
            && (error.file.empty()
                || std::find(valueAsFile.begin(), valueAsFile.end(), f->name) != valueAsFile.end())) {
            parameter = f->name;
            error.field = std::string(f->flag);
        } else if (const CoreParameter *p = coreParameter(error.file)) {
            parameter = p->name;
            error.file = std::string(p->flag);
        }
    }
    error.message = withCliHint(std::move(error.message), parameter);
    return error;
}

std::string inCliTerms(std::string warning)
{
    return withCliHint(std::move(warning), {});
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
