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

#include "core/io/atomic_file.h"
#include "core/io/csv_fields.h"
#include "core/io/table_json.h"
#include "core/targets/sysfs_cpuidle.h"
#include "core/trace/trace_import.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <spawn.h>
#include <sstream>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

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
    "import's warnings).\n\n"
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

/// Where tracefs is mounted, mounting it at /sys/kernel/tracing when the kernel has it
/// and nothing mounted it yet (as trace-cmd itself would); an Error naming why not.
Result<std::string> tracefsDir()
{
    std::ifstream mounts("/proc/mounts");
    std::string dev, dir, type, rest;
    while (mounts >> dev >> dir >> type && std::getline(mounts, rest))
        if (type == "tracefs")
            return dir;
    std::ifstream fs("/proc/filesystems");
    bool known = false;
    for (std::string line; std::getline(fs, line);)
        known |= line.find("tracefs") != std::string::npos;
    if (!known)
        return Error{"/proc/filesystems", 0, "tracefs",
                     "this kernel has no tracefs (CONFIG_TRACING is off): nothing can be recorded"};
    if (::mount("nodev", "/sys/kernel/tracing", "tracefs", 0, nullptr) != 0)
        return Error{"/sys/kernel/tracing", 0, "tracefs",
                     std::string("tracefs is not mounted and mounting it failed: ") + std::strerror(errno)};
    return std::string("/sys/kernel/tracing");
}

/// The tracing state record changes, put back as it was (events off, tracing_on,
/// buffer size) by restore() or at the latest when the session ends.
class TracefsSession {
public:
    explicit TracefsSession(std::string dir) : m_dir(std::move(dir))
    {
        m_tracingOn = firstLine(m_dir + "/tracing_on");
        m_bufferKb = firstLine(m_dir + "/buffer_size_kb");
    }
    ~TracefsSession() { restore(); }

    /// Writes @p value to the tracefs file @p path (relative), remembered for restore().
    Status set(const std::string &path, const std::string &value)
    {
        if (Status s = write(path, value); !s)
            return s;
        m_enabled.push_back(path);
        return Ok{};
    }
    /// Stops tracing, empties the buffers, sizes them for a few seconds of events, starts.
    Status start()
    {
        m_started = true;
        if (Status s = write("tracing_on", "0"); !s)
            return s;
        if (Status s = write("trace", ""); !s)
            return s;
        write("buffer_size_kb", "16384"); // best effort: the kernel may refuse the memory
        return write("tracing_on", "1");
    }
    void stop() { write("tracing_on", "0"); }
    void restore()
    {
        for (const std::string &path : m_enabled)
            write(path, "0");
        m_enabled.clear();
        if (m_started) {
            if (!m_bufferKb.empty())
                write("buffer_size_kb", m_bufferKb.substr(0, m_bufferKb.find(' ')));
            write("tracing_on", m_tracingOn.empty() ? "0" : m_tracingOn);
            m_started = false;
        }
    }

private:
    Status write(const std::string &path, const std::string &value)
    {
        std::ofstream f(m_dir + "/" + path);
        f << value << std::flush;
        if (!f)
            return Error{m_dir + "/" + path, 0, "",
                         std::string("cannot write '") + value + "': " + std::strerror(errno)};
        return Ok{};
    }

    std::string m_dir, m_tracingOn, m_bufferKb;
    std::vector<std::string> m_enabled;
    bool m_started = false;
};

/// Runs @p argv, its standard output sent to our standard error; its exit code, or -1.
int run(const std::vector<std::string> &argv)
{
    std::vector<char *> args;
    for (const std::string &a : argv)
        args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
    pid_t pid = 0;
    const int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        return -1;
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool onPath(const std::string &program)
{
    std::istringstream path(std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin");
    for (std::string dir; std::getline(path, dir, ':');)
        if (!dir.empty() && ::access((dir + "/" + program).c_str(), X_OK) == 0)
            return true;
    return false;
}

} // namespace

int runRecord(int argc, char **argv, int first)
{
    // Everything after "--" is the command to record, not ours to parse.
    int end = argc;
    for (int i = first; i < argc; ++i)
        if (std::strcmp(argv[i], "--") == 0) {
            end = i;
            break;
        }
    std::vector<std::string> command(argv + std::min(end + 1, argc), argv + argc);
    Args args(end, argv, first);
    if (std::string e = args.check({"duration", "output"}, 0, "record"); !e.empty())
        return fail(e);
    if (end < argc && command.empty())
        return fail("nothing after '--': give the COMMAND to record (see idlescope-cli help record)");
    if (args.has("duration") && !command.empty())
        return fail("give either --duration or a COMMAND after '--', not both");
    std::int64_t seconds = 10;
    if (args.has("duration")) {
        const auto n = csv::parseInt(args.value("duration"));
        if (!n || *n < 1 || *n > 86400)
            return fail(
                Error{"", 0, "--duration", "'" + args.value("duration") + "' is not whole seconds in 1..86400"});
        seconds = *n;
    }
    const std::string output = args.value("output", "trace.dat");
    for (const std::string &path : {output, output + ".table.json", output + ".governor"})
        if (Status s = checkOutputPath(path); !s)
            return fail(s.error());

    if (::geteuid() != 0)
        return fail("record needs root: the kernel's tracing (tracefs) is for root only; run it with sudo");
    if (!onPath("trace-cmd"))
        return fail("record needs trace-cmd (apt-get install trace-cmd)");
    Result<std::string> tracefs = tracefsDir();
    if (!tracefs)
        return fail(tracefs.error());

    // Events are enabled in tracefs directly and the buffers saved with
    // `trace-cmd extract`: `trace-cmd record` also switches the function tracer
    // (/proc/sys/kernel/ftrace_enabled), which containers and locked-down
    // kernels refuse although events alone are allowed.
    TracefsSession session(*tracefs);
    std::vector<std::string> enabled, left;
    for (const char *ev : kEvents) {
        std::string path = ev;
        path = "events/" + path.replace(path.find(':'), 1, "/") + "/enable";
        if (std::filesystem::exists(*tracefs + "/" + path)) {
            if (Status s = session.set(path, "1"); !s)
                return fail(s.error());
            enabled.push_back(ev);
        } else {
            if (std::strcmp(ev, "power:cpu_idle") == 0)
                return fail(
                    Error{*tracefs + "/" + path, 0, "power:cpu_idle", "this kernel has no cpu_idle tracepoint"});
            left.push_back(ev);
        }
    }
    if (!left.empty()) {
        std::cerr << "record: not in this kernel, left out:";
        for (const std::string &ev : left)
            std::cerr << ' ' << ev;
        std::cerr << '\n';
    }
    if (command.empty())
        command = {"sleep", std::to_string(seconds)};
    std::cerr << "record: " << enabled.size() << " events while '" << command.front()
              << (command.size() > 1 ? " ...'" : "'") << " runs\n";
    if (Status s = session.start(); !s)
        return fail(s.error());
    const int commandRc = run(command);
    session.stop();
    if (commandRc < 0)
        std::cerr << "record: '" << command.front() << "' could not be run or was killed\n";
    const int rc = run({"trace-cmd", "extract", "-o", output});
    session.restore();
    if (rc != 0)
        return fail(Error{output, 0, "", "trace-cmd extract failed (exit code " + std::to_string(rc) + ")"});

    // The replay needs the table and governor this trace was recorded under.
    const std::string governorFile = std::string(SYSFS_CPU_ROOT) + "/cpuidle/current_governor";
    std::string governor = firstLine(governorFile);
    if (governor.empty())
        governor = firstLine(governorFile + "_ro");
    if (!governor.empty()) {
        if (Status s = writeFileAtomically(output + ".governor", governor + "\n"); !s)
            return fail(s.error());
        std::cerr << "record: governor " << governor << " -> " << output << ".governor\n";
    }
    if (Result<SysfsCpuidle> sysfs = readSysfsCpuidle(); sysfs) {
        if (Status s = writeFileAtomically(output + ".table.json", formatTableJson(sysfs->table)); !s)
            return fail(s.error());
        std::cerr << "record: " << sysfs->table.count() << " idle states of driver " << sysfs->driver << " -> "
                  << output << ".table.json\n";
    } else {
        std::cerr << "record: no table saved: " << inCliTerms(sysfs.error()).toString() << '\n';
    }

    // What the trace holds, as the importer sees it.
    Result<trace::TraceImport> imported = trace::importTrace(output);
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

} // namespace idlescope::cli
