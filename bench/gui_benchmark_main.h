// SPDX-License-Identifier: GPL-3.0-or-later
// main() of the benchmarks that drive widgets: Google Benchmark's, inside a QApplication.
#pragma once

#include <benchmark/benchmark.h>

#include <QApplication>

#define IDLESCOPE_GUI_BENCHMARK_MAIN()                                                                                 \
    int main(int argc, char **argv)                                                                                    \
    {                                                                                                                  \
        QApplication app(argc, argv);                                                                                  \
        benchmark::Initialize(&argc, argv);                                                                            \
        benchmark::RunSpecifiedBenchmarks();                                                                           \
        benchmark::Shutdown();                                                                                         \
        return 0;                                                                                                      \
    }
