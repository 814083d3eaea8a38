// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * idlescope-cli: the headless side of idlescope, for batch comparisons,
 * scripts and tests. Each subcommand lives in its own cmd_*.cpp file.
 */
#include "app/cli/commands.h"

#include <cstring>
#include <iostream>
#include <new>
#include <string>

using namespace idlescope::cli;

namespace {

const Command kCommands[] = {
    {"replay", "replay a stream through one governor (reference replay)", REPLAY_HELP, runReplay},
    {"governors", "list governor variants and the kernel version each reproduces", GOVERNORS_HELP, runGovernors},
    {"compare", "compare governors on a target and workload (kernel-thread tables)", COMPARE_HELP, runCompare},
    {"diff-governors", "where two governors (one may be a source file) first decide differently", DIFF_GOVERNORS_HELP,
     runDiffGovernors},
    {"merge", "put the shard files of compare --shard K/N back together", MERGE_HELP, runMerge},
    {"import", "turn a kernel trace into per-CPU idle-span streams", IMPORT_HELP, runImport},
    {"trace-stats", "recorded idle statistics of a kernel trace", TRACE_STATS_HELP, runTraceStats},
    {"record", "record this machine's trace with the events idlescope reads (root)", RECORD_HELP, runRecord},
};

void printUsage(std::ostream &out)
{
    out << "usage: idlescope-cli <command> [options]\n"
           "       idlescope-cli help <command>\n"
           "       idlescope-cli --version\n\n"
           "idlescope reproduces the Linux kernel's cpuidle governors decision for decision.\n"
           "All times are integer nanoseconds.\n\ncommands:\n";
    for (const Command &c : kCommands)
        out << "  " << c.name << std::string(16 - std::strlen(c.name), ' ') << c.synopsis << '\n';
    out << "\noptions:\n"
           "  -h, --help    this text; 'idlescope-cli help <command>' for a command's options\n"
           "  -V, --version print the version and exit\n"
           "\nExit codes: 0 success, 1 internal failure, 2 bad input or usage.\n";
}

const Command *findCommand(const char *name)
{
    for (const Command &c : kCommands)
        if (std::strcmp(c.name, name) == 0)
            return &c;
    return nullptr;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        printUsage(std::cerr);
        return 2;
    }
    const std::string first = argv[1];
    if (first == "--help" || first == "-h" || first == "help") {
        if (argc >= 3) {
            if (const Command *c = findCommand(argv[2])) {
                std::cout << c->help;
                return 0;
            }
            std::cerr << "idlescope-cli: no command '" << argv[2] << "'\n";
            printUsage(std::cerr);
            return 2;
        }
        printUsage(std::cout);
        return 0;
    }
    if (first == "--version" || first == "-V") {
        std::cout << "idlescope-cli " IDLESCOPE_VERSION "\n";
        return 0;
    }
    const Command *c = findCommand(argv[1]);
    if (!c) {
        std::cerr << "idlescope-cli: unknown command '" << first << "'\n";
        printUsage(std::cerr);
        return 2;
    }
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--") == 0) // what follows is record's COMMAND
            break;
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
            std::cout << c->help;
            return 0;
        }
    }
    // Bad input may ask for more memory than there is (an endless line, a
    // huge grid): say so and exit 2 rather than abort in std::terminate.
    try {
        return c->run(argc, argv, 2);
    } catch (const std::bad_alloc &) {
        std::cerr << "idlescope-cli: out of memory while running '" << c->name
                  << "' (smaller inputs or fewer --threads / --spans)\n";
        return 2;
    }
}
