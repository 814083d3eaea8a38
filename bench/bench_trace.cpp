// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Trace import throughput (docs/traces.md, "Performance"):
 *  - BM_TextLineParser: the line parser alone on the real ping-pong trace;
 *  - BM_ImportTextMemory: the whole text import (parse + reconstruction) from memory;
 *  - BM_ImportTextFile: the same from a plain file through LineReader (streamed);
 *  - BM_ImportTextGzip: the shipped .gz file (includes inflating);
 *  - BM_ImportDat: the trace-cmd .dat of the same VM through libtracecmd.
 * bytes_per_second is text bytes (uncompressed) for the text cases, file bytes for
 * the .dat. Run: build/release/bench/bench_trace --benchmark_min_time=2
 */
#include "core/formats/line_reader.h"
#include "core/trace/name_table.h"
#include "core/trace/text_line_parser.h"
#include "core/trace/trace_import.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace idlescope;
using namespace idlescope::trace;

namespace {

std::string tracePath(const char *name)
{
    return std::string(IDLESCOPE_TEST_DATA) + "/traces/" + name;
}

// The decompressed text of the pipe ping-pong trace (27.6 MB, 199,589 lines), read once.
const std::string &pipeText()
{
    static const std::string text = [] {
        std::string t;
        LineReader r(tracePath("vm-amd-2cpu-pipe100us.ftrace.txt.gz"));
        std::string_view line;
        while (r.next(line)) {
            t.append(line);
            t.push_back('\n');
        }
        return t;
    }();
    return text;
}

bool g_fileMade = false;

// The same text as a plain file in the temporary directory (removed at exit).
const std::string &pipeFile()
{
    static const std::string path = [] {
        g_fileMade = true;
        const std::string p =
            (std::filesystem::temp_directory_path() / ("idlescope-bench-" + std::to_string(::getpid()) + ".txt"))
                .string();
        std::ofstream(p, std::ios::binary) << pipeText();
        return p;
    }();
    return path;
}

void BM_TextLineParser(benchmark::State &state)
{
    const std::string &text = pipeText();
    NameTable names;
    TextLineParser parser(names);
    TraceEvent ev;
    std::int64_t events = 0;
    for (auto _ : state) {
        size_t pos = 0;
        while (pos < text.size()) {
            const size_t nl = text.find('\n', pos);
            events += parser.parse(std::string_view(text).substr(pos, nl - pos), ev) == LineKind::Event;
            pos = nl + 1;
        }
    }
    benchmark::DoNotOptimize(events);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(text.size()));
}
BENCHMARK(BM_TextLineParser)->Unit(benchmark::kMillisecond);

void BM_ImportTextMemory(benchmark::State &state)
{
    const std::string &text = pipeText();
    for (auto _ : state) {
        Result<TraceImport> r = importTraceText(text, "bench");
        benchmark::DoNotOptimize(r.ok());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(text.size()));
}
BENCHMARK(BM_ImportTextMemory)->Unit(benchmark::kMillisecond);

const std::string &pipeGzip()
{
    static const std::string path = tracePath("vm-amd-2cpu-pipe100us.ftrace.txt.gz");
    return path;
}

/// importTrace() of the file @p path() names (a function: the plain file is made on first use),
/// counted in bytes of the pipe trace's text, whichever form the file holds it in.
void importPipeText(benchmark::State &state, const std::string &(*path)())
{
    const std::string &file = path();
    for (auto _ : state) {
        Result<TraceImport> r = importTrace(file);
        benchmark::DoNotOptimize(r.ok());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations())
                            * static_cast<std::int64_t>(pipeText().size()));
}
BENCHMARK_CAPTURE(importPipeText, file, &pipeFile)->Name("BM_ImportTextFile")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(importPipeText, gzip, &pipeGzip)->Name("BM_ImportTextGzip")->Unit(benchmark::kMillisecond);

void BM_ImportDat(benchmark::State &state)
{
    const std::string path = tracePath("vm-amd-2cpu-pipe200us.dat");
    std::int64_t records = 0;
    for (auto _ : state) {
        Result<TraceImport> r = importTrace(path);
        records = r ? r->lines : 0;
    }
    state.counters["records_per_second"] =
        benchmark::Counter(static_cast<double>(records) * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations())
                            * static_cast<std::int64_t>(std::filesystem::file_size(path)));
}
BENCHMARK(BM_ImportDat)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char **argv)
{
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    if (g_fileMade)
        std::remove(pipeFile().c_str());
    return 0;
}
