// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * idlescope-cli record: this machine's trace with exactly the events the
 * importer reads, enabled in tracefs and saved by `trace-cmd extract` (which
 * writes the ring buffers, event formats and symbols as a .dat), plus what the
 * replay needs beside it:
 * the machine's idle-state table from sysfs (F.table.json, a --table file) and
 * the cpuidle governor that ran (F.governor). Then the trace is imported once
 * to say how many idle entries it holds, or why it holds none.
 */
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"
#include "app/cli/record_tracefs.h"

#include "core/formats/csv_fields.h"
#include "core/io/atomic_file.h"
#include "core/io/table_json.h"
#include "core/targets/sysfs_cpuidle.h"
#include "core/trace/trace_import.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace idlescope::cli {

const char *const RECORD_HELP =
    "usage: idlescope-cli record [--duration S] [--output F.dat] [-- COMMAND [ARG]...]\n\n"
    "Records this machine's kernel trace, with the events idlescope reads\n"
    "(power:cpu_idle, cpu_idle_miss; sched_switch, sched_wakeup; hrtimer_*, timer_expire_entry,\n"
    "tick_stop; irq_handler_entry, softirq_entry; ipi_*; cpu_frequency; those this kernel lacks are left\n"
    "out), for S seconds or while COMMAND runs. Beside the trace it saves this machine's\n"
    "idle-state table from sysfs as F.table.json (give it to --table so that the replay uses\n"
    "the right table) and the running cpuidle governor in F.governor, then imports the trace\n"
    "and prints how many idle entries each CPU has. Needs root and trace-cmd (the events\n"
    "are enabled in tracefs and the buffers saved with 'trace-cmd extract'; the buffers\n"
    "are set to 16 MB per CPU meanwhile; events lost to a full buffer are counted in the\n"
    "import's warnings). Every tracefs file record writes is put back as it was when it\n"
    "ends, also on Ctrl-C, SIGTERM or SIGHUP (which end COMMAND too); one record runs at a\n"
    "time. The new trace replaces F.dat only once it is complete and readable: a full disk\n"
    "or a signal leaves the old one.\n\n"
    "  --duration S       seconds to record without a COMMAND (default 10, up to 86400)\n"
    "  --output F.dat     the trace file (default trace.dat)\n"
    "  -- COMMAND...      record while COMMAND runs instead\n\n"
    "Example:\n"
    "  sudo idlescope-cli record --duration 5 --output idle.dat\n"
    "  idlescope-cli trace-stats idle.dat --table idle.dat.table.json --governor menu-latest\n";

namespace {

// The tracepoints the importer understands (core/trace/trace_event.h), as system:event.
const char *const kEvents[] = {
    "power:cpu_idle",
    "power:cpu_idle_miss",
    "sched:sched_switch",
    "sched:sched_wakeup",
    "sched:sched_wakeup_new",
    "timer:hrtimer_start",
    "timer:hrtimer_expire_entry",
    "timer:hrtimer_cancel",
    "timer:timer_expire_entry",
    "timer:tick_stop",
    "irq:irq_handler_entry",
    "irq:softirq_entry",
    "ipi:ipi_send_cpu",
    "ipi:ipi_send_cpumask",
    "ipi:ipi_raise",
    "ipi:ipi_entry",
    "irq_vectors:reschedule_entry",
    "irq_vectors:call_function_entry",
    "irq_vectors:call_function_single_entry",
    "power:cpu_frequency",
};

std::string firstLine(const std::string &path)
{
    std::ifstream f(path);
    std::string line;
    std::getline(f, line);
    return line;
}

/// A new hidden folder beside @p output for the trace being made (same file system: a rename puts it in place).
Result<std::string> makeStagingFolder(const std::string &output)
{
    const std::filesystem::path out(output);
    const std::filesystem::path parent = out.parent_path().empty() ? std::filesystem::path(".") : out.parent_path();
    std::string tmpl = (parent / ("." + out.filename().string() + ".record-XXXXXX")).string();
    if (::mkdtemp(tmpl.data()) == nullptr)
        return Error{output, 0, "",
                     std::string("cannot make a folder beside it for the new trace: ") + std::strerror(errno)};
    return tmpl;
}

/// Removes the staging folder and whatever is left in it (a failed extract's pieces) on every way out.
struct StagingFolder {
    std::string path;
    ~StagingFolder()
    {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

bool onPath(const std::string &program)
{
    std::istringstream path(std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin");
    for (std::string dir; std::getline(path, dir, ':');)
        if (!dir.empty() && ::access((dir + "/" + program).c_str(), X_OK) == 0)
            return true;
    return false;
}

/// What to record: the command to run (sleep S without one) and the trace file.
struct RecordRequest {
    std::vector<std::string> command;
    std::string output;
};

/// The arguments: everything after "--" is the command to record, not ours to parse.
Result<RecordRequest> readRecordRequest(int argc, char **argv, int first)
{
    int end = argc;
    for (int i = first; i < argc; ++i)
        if (std::strcmp(argv[i], "--") == 0) {
            end = i;
            break;
        }
    RecordRequest request{std::vector<std::string>(argv + std::min(end + 1, argc), argv + argc), {}};
    Args args(end, argv, first);
    if (std::string e = args.check({"duration", "output"}, 0, "record"); !e.empty())
        return Error{"", 0, "", e};
    if (end < argc && request.command.empty())
        return Error{"", 0, "", "nothing after '--': give the COMMAND to record (see idlescope-cli help record)"};
    if (args.has("duration") && !request.command.empty())
        return Error{"", 0, "", "give either --duration or a COMMAND after '--', not both"};
    std::int64_t seconds = 10;
    if (args.has("duration")) {
        const auto n = csv::parseInt(args.value("duration"));
        if (!n || *n < 1 || *n > 86400)
            return Error{"", 0, "--duration", "'" + args.value("duration") + "' is not whole seconds in 1..86400"};
        seconds = *n;
    }
    request.output = args.value("output", "trace.dat");
    for (const std::string &path : {request.output, request.output + ".table.json", request.output + ".governor"})
        if (Status s = checkOutputPath(path); !s)
            return s.error();
    if (request.command.empty())
        request.command = {"sleep", std::to_string(seconds)};
    return request;
}

/// Whether this process may trace: tracefs is root's alone (IDLESCOPE_TRACEFS, a stand-in
/// folder for tests, lifts that), and the buffers are saved by trace-cmd.
Status tracingAllowed()
{
    const char *standIn = std::getenv("IDLESCOPE_TRACEFS");
    if (::geteuid() != 0 && !(standIn && *standIn))
        return Error{"", 0, "", "record needs root: the kernel's tracing (tracefs) is for root only; run it with sudo"};
    if (!onPath("trace-cmd"))
        return Error{"", 0, "", "record needs trace-cmd (apt-get install trace-cmd)"};
    return Ok{};
}

/// Enables each of kEvents this kernel has, and says which it lacks; how many were enabled.
/// Without power:cpu_idle there is nothing to record.
Result<std::size_t> enableEvents(TracefsSession &session, const std::string &tracefs)
{
    std::size_t enabled = 0;
    std::vector<std::string> left;
    for (const char *ev : kEvents) {
        std::string path = ev;
        path = "events/" + path.replace(path.find(':'), 1, "/") + "/enable";
        if (std::filesystem::exists(tracefs + "/" + path)) {
            if (Status s = session.set(path, "1"); !s)
                return s.error();
            ++enabled;
        } else {
            if (std::strcmp(ev, "power:cpu_idle") == 0)
                return Error{tracefs + "/" + path, 0, "power:cpu_idle", "this kernel has no cpu_idle tracepoint"};
            left.push_back(ev);
        }
    }
    if (!left.empty()) {
        std::cerr << "record: not in this kernel, left out:";
        for (const std::string &ev : left)
            std::cerr << ' ' << ev;
        std::cerr << '\n';
    }
    return enabled;
}

/// What a failed record did to @p output, for its message.
std::string oldTraceFate(const std::string &output)
{
    return std::filesystem::exists(output) ? "the old trace is untouched" : "no trace written";
}

/// The trace @p fresh in place as @p output, after the table and governor this trace was
/// recorded under (the replay needs them), each saved beside it as it is read from sysfs.
Status putTraceInPlace(const std::string &fresh, const std::string &output)
{
    const std::string governorFile = std::string(SYSFS_CPU_ROOT) + "/cpuidle/current_governor";
    std::string governor = firstLine(governorFile);
    if (governor.empty())
        governor = firstLine(governorFile + "_ro");
    const std::string governorText = governor + "\n";
    std::string tableText;
    std::vector<std::pair<std::string, std::string_view>> besides;
    if (!governor.empty())
        besides.emplace_back(output + ".governor", governorText);
    const Result<SysfsCpuidle> sysfs = readSysfsCpuidle();
    if (sysfs) {
        tableText = formatTableJson(sysfs->table);
        besides.emplace_back(output + ".table.json", tableText);
    }
    if (Status s = writeFilesAtomically(besides); !s)
        return s;
    if (std::rename(fresh.c_str(), output.c_str()) != 0)
        return Error{output, 0, "", std::string("cannot put the new trace in place: ") + std::strerror(errno)};
    if (!governor.empty())
        std::cerr << "record: governor " << governor << " -> " << output << ".governor\n";
    if (sysfs)
        std::cerr << "record: " << sysfs->table.count() << " idle states of driver " << sysfs->driver << " -> "
                  << output << ".table.json\n";
    else
        std::cerr << "record: no table saved: " << inCliTerms(sysfs.error()).toString() << '\n';
    return Ok{};
}

/// What the trace holds, as the importer sees it: its idle entries per CPU, or why it
/// has none (a VM without a cpuidle driver idles where the tracepoint is not reached).
int reportRecorded(const std::string &output, const Result<trace::TraceImport> &imported)
{
    if (!imported && imported.error().field == "cpu_idle") {
        const std::string driver = firstLine(std::string(SYSFS_CPU_ROOT) + "/cpuidle/current_driver");
        return fail(Error{output, 0, "cpu_idle",
                          "recorded, but no CPU entered an idle state through the traced idle path while "
                          "power:cpu_idle was enabled (cpuidle driver: "
                              + (driver.empty() ? std::string("none") : driver)
                              + "; a VM without a cpuidle driver may idle where the tracepoint is not reached): "
                              + imported.error().message.substr(0, imported.error().message.find(": record with"))});
    }
    if (!imported)
        return fail(imported.error());
    const auto idle = imported->eventCounts.find("cpu_idle");
    std::cout << output << ": " << imported->events << " events understood, "
              << (idle == imported->eventCounts.end() ? 0 : idle->second) << " cpu_idle\n";
    for (const trace::CpuTrace &c : imported->cpus)
        std::cout << "  cpu" << c.cpu << ": " << c.entries.size() << " idle entries\n";
    return 0;
}

} // namespace

int runRecord(int argc, char **argv, int first)
{
    const Result<RecordRequest> request = readRecordRequest(argc, argv, first);
    if (!request)
        return fail(request.error());
    const std::string &output = request->output;
    const std::vector<std::string> &command = request->command;
    if (Status s = tracingAllowed(); !s)
        return fail(s.error());
    Result<std::string> tracefs = tracefsDir();
    if (!tracefs)
        return fail(tracefs.error());

    // From here every way out puts tracefs back: the session's destructor on a return,
    // and a signal is caught, passed on to the child and ends the run the same way.
    const RecordSignals signals;
    Result<std::unique_ptr<TracefsSession>> opened = TracefsSession::open(*tracefs);
    if (!opened)
        return fail(opened.error());
    TracefsSession &session = **opened;
    // The new trace is made in a folder of its own beside the output (trace-cmd writes
    // F.cpuN pieces next to F while it works) and renamed over the old one only once it
    // is whole and readable: a full disk or a signal leaves the old trace and no scraps.
    Result<std::string> staging = makeStagingFolder(output);
    if (!staging)
        return fail(staging.error());
    const StagingFolder cleanup{*staging};
    const std::string fresh = *staging + "/trace.dat";
    auto interrupted = [&]() -> std::optional<int> {
        const int sig = RecordSignals::caught();
        if (sig == 0)
            return std::nullopt;
        session.restore();
        std::cerr << "record: stopped by " << signalName(sig) << ": tracing put back as it was, no trace written ("
                  << output << (std::filesystem::exists(output) ? " untouched" : " not made") << ")\n";
        return 128 + sig;
    };

    const Result<std::size_t> enabled = enableEvents(session, *tracefs);
    if (!enabled)
        return fail(enabled.error());
    std::cerr << "record: " << *enabled << " events while '" << command.front() << (command.size() > 1 ? " ...'" : "'")
              << " runs\n";
    if (Status s = session.start(); !s)
        return fail(s.error());
    const int commandRc = runChild(command);
    session.stop();
    if (std::optional<int> rc = interrupted())
        return *rc;
    if (commandRc < 0)
        std::cerr << "record: '" << command.front() << "' could not be run or was killed\n";
    const int rc = runChild({"trace-cmd", "extract", "-o", fresh});
    session.restore();
    if (std::optional<int> code = interrupted())
        return *code;
    if (rc != 0)
        return fail(Error{output, 0, "",
                          "trace-cmd extract failed (exit code " + std::to_string(rc) + "); " + oldTraceFate(output)});
    // A trace cut short (a full disk under a trace-cmd that says nothing) does not replace one.
    const Result<trace::TraceImport> imported = trace::importTrace(fresh);
    if (!imported && imported.error().field != "cpu_idle")
        return fail(Error{output, 0, "",
                          "the new trace cannot be read (" + imported.error().message + "); " + oldTraceFate(output)});
    if (std::optional<int> code = interrupted())
        return *code;
    if (Status s = putTraceInPlace(fresh, output); !s)
        return fail(s.error());
    return reportRecorded(output, imported);
}

} // namespace idlescope::cli
