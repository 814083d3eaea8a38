// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * idlescope-cli diff-governors: where two governors (typically a patched
 * governor source file and the built-in variant it patches) first decide
 * differently on one stream, with the inputs and both decisions there, and
 * how many entries differ. The work is core/replay/governor_diff.h.
 */
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"
#include "app/cli/source_args.h"
#include "app/cli/stream_args.h"

#include "core/formats/csv_fields.h"
#include "core/governors/registry.h"
#include "core/replay/governor_diff.h"

#include <array>
#include <iostream>
#include <memory>
#include <sstream>

namespace idlescope::cli {

const char *const DIFF_GOVERNORS_HELP =
    "usage: idlescope-cli diff-governors --table T --governor A (--governor B | --governor-source FILE.c)\n"
    "                                    (--workload SPEC | --stream S.csv | --trace TRACE [--cpu N])\n"
    "                                    [--spans N] [--seed S] [--first N]\n"
    "                                    [--name NAME] [--kernel VERSION] [--timeout SECONDS]\n\n"
    "Replays one stream through two governors side by side (reference replay) and prints the first\n"
    "entries where they decide differently (another state, or another stop_tick), with the inputs\n"
    "the governors saw there and both decisions, and the number of entries that differ. Entries are\n"
    "compared by position (stream row, entry within the row). Up to the first difference both saw\n"
    "the same history; after it their histories differ, so later differences may follow from it.\n\n"
    "  --table T          a table JSON file, or a built-in target id\n"
    "  --governor ID      a variant id (idlescope-cli governors) or src:FILE.c; give two, or one\n"
    "                     and --governor-source\n"
    "  --governor-source FILE.c  a kernel governor source file (see 'help replay')\n"
    "  --name, --kernel, --timeout  for --governor-source, as in 'help replay'\n"
    "  --workload SPEC    a workload spec of one point (see 'help compare'), or csv:FILE\n"
    "  --stream S.csv     a stream file (the conformance format)\n"
    "  --trace TRACE      the idle spans of a recorded trace's CPU (--cpu N; default the CPU\n"
    "                     with the most spans)\n"
    "  --spans N          with --workload: spans to generate (default 10000)\n"
    "  --seed S           with --workload: seed (default 1; the same as compare's first iteration)\n"
    "  --first N          differences to print (default 10; 0: only how many differ)\n\n"
    "Exit code 0 whether or not the governors differ; 2 for bad input.\n";

namespace {

std::string inputsText(const EntryRecord &e, bool tickStopped)
{
    std::ostringstream s;
    s << "sleep length " << e.sleepLengthNs << " ns, delta_next " << e.deltaNextNs << " ns, latency limit ";
    if (e.latencyReqNs == PM_QOS_DEFAULT_LATENCY_NS)
        s << "none";
    else
        s << e.latencyReqNs << " ns";
    s << ", tick " << (tickStopped ? "stopped" : "running") << ", wakeup in " << e.remainingWakeNs << " ns";
    return s.str();
}

std::string decisionText(const IdleStateTable &table, const EntryRecord &e)
{
    return "state " + std::to_string(e.state) + " " + table[e.state].name + ", stop_tick " + (e.stopTick ? "1" : "0")
           + " (residency " + std::to_string(e.residencyNs) + " ns" + (e.above ? ", above" : "")
           + (e.below ? ", below" : "") + ")";
}

/// One difference: the inputs (once when both saw the same), then both decisions.
void writeDifference(std::ostringstream &out, const IdleStateTable &table, const std::string &nameA,
                     const std::string &nameB, const EntryDifference &x)
{
    const std::size_t width = std::max(nameA.size(), nameB.size()) + 2;
    out << "\nentry " << x.entry << " (stream row " << x.span << ", entry " << x.entryInSpan << " of the row)\n";
    if (x.inA && x.inB && inputsText(x.a, x.tickStoppedA) == inputsText(x.b, x.tickStoppedB)) {
        out << "  " << std::string("inputs:").append(width - 6, ' ') << inputsText(x.a, x.tickStoppedA) << "\n";
    } else {
        if (x.inA)
            out << "  " << (nameA + " inputs:") << " " << inputsText(x.a, x.tickStoppedA) << "\n";
        if (x.inB)
            out << "  " << (nameB + " inputs:") << " " << inputsText(x.b, x.tickStoppedB) << "\n";
    }
    out << "  " << (nameA + ":").append(width - nameA.size(), ' ')
        << (x.inA ? decisionText(table, x.a) : std::string("(no such entry: the row ended)")) << "\n";
    out << "  " << (nameB + ":").append(width - nameB.size(), ' ')
        << (x.inB ? decisionText(table, x.b) : std::string("(no such entry: the row ended)")) << "\n";
}

/// What diff-governors prints: that the two decide alike, or how many entries differ and
/// the first differences.
std::string diffReport(const IdleStateTable &table, const std::string &nameA, const std::string &nameB,
                       const GovernorDiff &d)
{
    std::ostringstream out;
    if (d.differingEntries == 0) {
        out << nameA << " and " << nameB << " decide alike on all " << d.a.entries << " entries of " << d.a.spans
            << " stream rows.\n";
        return out.str();
    }
    out << nameA << " and " << nameB << " decide differently on " << d.differingEntries << " entries in "
        << d.differingSpans << " of " << d.a.spans << " stream rows (" << nameA << ": " << d.a.entries << " entries, "
        << nameB << ": " << d.b.entries << ").\n";
    if (d.first.empty()) // --first 0
        return out.str();
    out << "The first " << d.first.size() << (d.first.size() == 1 ? " difference" : " differences")
        << " (after the first, the two histories differ):\n";
    for (const EntryDifference &x : d.first)
        writeDifference(out, table, nameA, nameB, x);
    return out.str();
}

/// Which options go together, said before anything is read.
std::string diffOptionsProblem(const Args &args)
{
    if (std::string e = args.check({"table", "governor", "governor-source", "name", "kernel", "timeout", "workload",
                                    "stream", "trace", "cpu", "spans", "seed", "first"},
                                   0, "diff-governors");
        !e.empty())
        return e;
    if (!args.has("table"))
        return "missing --table (see idlescope-cli help diff-governors)";
    if (args.all("governor").size() + (args.has("governor-source") ? 1 : 0) != 2)
        return "give two governors: --governor A --governor B, or --governor A --governor-source FILE.c";
    return args.givenTwice({"table", "governor-source", "name", "kernel", "timeout", "workload", "stream", "trace",
                            "cpu", "spans", "seed", "first"});
}

/// The two governors: both --governor, or the first and --governor-source.
Result<std::array<std::unique_ptr<Governor>, 2>> diffedGovernors(const Args &args)
{
    std::array<std::unique_ptr<Governor>, 2> govs;
    const std::vector<std::string> ids = args.all("governor");
    for (std::size_t i = 0; i < ids.size(); ++i) {
        Result<std::unique_ptr<Governor>> g = governorFromId(ids[i]);
        if (!g)
            return g.error();
        govs[i] = std::move(*g);
    }
    if (args.has("governor-source")) {
        Result<std::unique_ptr<Governor>> g = sourceGovernorFromArgs(args);
        if (!g)
            return g.error();
        govs[1] = std::move(*g);
    }
    return govs;
}

} // namespace

int runDiffGovernors(int argc, char **argv, int first)
{
    Args args(argc, argv, first);
    if (std::string e = diffOptionsProblem(args); !e.empty())
        return fail(e);
    if (Status s = checkSourceOnlyOptions(args); !s)
        return fail(s.error());
    const auto keep = csv::parseInt(args.value("first", "10"));
    if (!keep || *keep < 0 || *keep > 1000000)
        return fail(Error{"", 0, "--first", "must be 0..1000000 (0: only how many entries differ)"});
    Result<std::array<std::unique_ptr<Governor>, 2>> govs = diffedGovernors(args);
    if (!govs)
        return fail(govs.error());
    Result<IdleStateTable> table = resolveTable(args.value("table"));
    if (!table)
        return fail(table.error());
    Result<IdleStream> stream = oneStreamFromArgs(args, true, "diff-governors");
    if (!stream)
        return fail(stream.error());
    for (auto &g : *govs)
        if (Status s = prepareSourceGovernor(*g, *table, *stream); !s)
            return fail(s.error());
    const GovernorDiff d = diffGovernors(*table, *stream, *(*govs)[0], *(*govs)[1], static_cast<std::size_t>(*keep));
    for (int i = 0; i < 2; ++i)
        if (Status s = finishSourceGovernor(*(*govs)[i], i == 0 ? d.a : d.b); !s)
            return fail(s.error());
    std::cout << diffReport(*table, (*govs)[0]->variant().id, (*govs)[1]->variant().id, d);
    return 0;
}

} // namespace idlescope::cli
