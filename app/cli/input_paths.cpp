// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/input_paths.h"

#include "core/io/atomic_file.h"

#include <algorithm>
#include <filesystem>

namespace idlescope::cli {

namespace {

/// The headers beside a source file, at most this many: a build reads every one of them.
constexpr std::size_t MAX_HEADERS_BESIDE = 100000;

/// The file names inside one value: itself, csv:FILE, @FILE, and each item of a comma list
/// with its LABEL= and src: taken off and, for src:FILE.c@VERSION, the version too.
void candidatesOf(const std::string &value, std::vector<std::string> &out)
{
    out.push_back(value);
    if (value.rfind("csv:", 0) == 0)
        out.push_back(value.substr(4));
    if (value.rfind('@', 0) == 0)
        out.push_back(value.substr(1));
    std::size_t b = 0;
    while (b <= value.size()) {
        const std::size_t c = std::min(value.find(',', b), value.size());
        std::string item = value.substr(b, c - b);
        b = c + 1;
        if (const std::size_t eq = item.find("=src:"); eq != std::string::npos)
            item = item.substr(eq + 1);
        if (item.rfind("src:", 0) != 0)
            continue;
        item = item.substr(4);
        const std::size_t at = item.rfind('@');
        const std::size_t slash = item.rfind('/');
        std::string file =
            at != std::string::npos && (slash == std::string::npos || at > slash) ? item.substr(0, at) : item;
        for (const std::string &f : sourceGovernorInputs(file))
            out.push_back(f);
        out.push_back(item);
    }
}

} // namespace

std::vector<std::string> sourceGovernorInputs(const std::string &sourcePath)
{
    namespace fs = std::filesystem;
    std::vector<std::string> out{sourcePath};
    std::error_code ec;
    if (!fs::is_regular_file(sourcePath, ec))
        return out;
    fs::path dir = fs::path(sourcePath).parent_path();
    if (dir.empty())
        dir = ".";
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end && out.size() <= MAX_HEADERS_BESIDE;
         it.increment(ec))
        if (it->path().extension() == ".h")
            out.push_back(it->path().string());
    return out;
}

std::vector<std::string> inputPaths(const Args &args, std::initializer_list<std::string_view> outputOptions)
{
    std::vector<std::string> inputs;
    for (const auto &[name, value] : args.options()) {
        if (std::find(outputOptions.begin(), outputOptions.end(), name) != outputOptions.end())
            continue;
        candidatesOf(value, inputs);
        if (name == "governor-source")
            for (const std::string &f : sourceGovernorInputs(value))
                inputs.push_back(f);
        if (name == "trace") // compare reads the governor idlescope-cli record saved beside it
            inputs.push_back(value + ".governor");
    }
    for (const std::string &p : args.positional()) {
        candidatesOf(p, inputs);
        inputs.push_back(p + ".governor");
    }
    return inputs;
}

Status checkOutputs(const Args &args, const std::vector<std::string> &outputs,
                    std::initializer_list<std::string_view> outputOptions)
{
    for (const std::string &out : outputs)
        if (Status s = checkOutputPath(out); !s)
            return s;
    return checkDistinctPaths(inputPaths(args, outputOptions), outputs);
}

} // namespace idlescope::cli
