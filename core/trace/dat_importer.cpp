// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * trace-cmd .dat import through Debian's libtracecmd / libtraceevent.
 *
 * libtracecmd opens the file (v6 or v7, compressed sections included), merges
 * the per-CPU buffers in timestamp order and hands over raw records;
 * libtraceevent reads each record's fields by name from the event formats
 * stored in the file. We only map the fields onto TraceEvent, so the .dat path
 * and the text paths share the reconstruction and give the same spans.
 *
 * Steps: open (a gzip'd .dat is first inflated to a temporary file, since
 * libtracecmd needs a seekable file) -> per event id, once, look up the
 * fields we need -> per record, fill a TraceEvent and feed it.
 *
 * Isolation: libtraceevent 1.7 can crash on a damaged event format inside the
 * file (found by fuzz_trace_dat: a SEGV in tep_parse_event on a .dat with 7
 * bytes changed; tests/core/tst_trace_fuzz_regressions.cpp). Since bad input
 * must give an Error and never a crash, the whole read runs first in a forked
 * child (ImportConfig::isolateDat); a child killed by a signal becomes an Error
 * naming the file. The read is deterministic, so the parent's own read then
 * goes through. It costs one extra read of the file. A file the libraries
 * reject is not read a second time: the child sends its Error back through a
 * pipe. Whatever a damaged file makes libtracecmd allocate and leak then dies
 * with the child (found by fuzz_trace_dat: a 40 KB file whose header claims a
 * 2.9 GB section; libtracecmd mallocs that much, the read comes up short and
 * the block is never freed; tests/fuzz/regressions/fuzz_trace_dat/oom-*).
 */
#include "core/trace/trace_import.h"

#include "core/trace/idle_reconstructor.h"
#include "core/trace/trace_names.h"

// trace-cmd.h pulls in tracefs.h, whose inline helpers are not valid C++ (int -> enum);
// nothing of libtracefs is used here, so its include guard is set to skip it.
#define _TRACE_FS_H
#include <event-parse.h>
#include <trace-cmd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>
#include <unordered_map>
#include <zlib.h>

namespace idlescope::trace {

namespace {

constexpr std::int64_t PROGRESS_RECORDS = 1 << 16;

// What we know about one event id of the file.
struct EventInfo {
    bool known = false;
    EventKind kind = EventKind::CpuIdle;
    int variant = 0; // IpiSend: 0 cpu=, 1 cpumask, 2 target_cpus
    tep_format_field *f[3] = {nullptr, nullptr, nullptr};
    std::string name;
};

struct DatContext {
    tep_handle *tep = nullptr;
    TraceImport *out = nullptr;
    WarningSink *warn = nullptr;
    IdleReconstructor *rec = nullptr;
    NameTable names;
    const ProgressFn *progress = nullptr;
    std::unordered_map<int, EventInfo> infos;
    std::unordered_map<unsigned long long, std::int32_t> functions;
    std::int64_t kindCounts[EVENT_KIND_COUNT] = {};
    std::int64_t records = 0;
    bool cancelled = false;
};

EventInfo describe(tep_event *e)
{
    EventInfo info;
    if (!e)
        return info;
    info.name = e->name ? e->name : "?";
    const std::string n = info.name;
    auto field = [&](const char *name) { return tep_find_field(e, name); };
    auto set = [&](EventKind k, const char *a, const char *b = nullptr, const char *c = nullptr) {
        info.kind = k;
        info.f[0] = a ? field(a) : nullptr;
        info.f[1] = b ? field(b) : nullptr;
        info.f[2] = c ? field(c) : nullptr;
        info.known = (!a || info.f[0]) && (!b || info.f[1]) && (!c || info.f[2]);
    };
    if (n == "cpu_idle")
        set(EventKind::CpuIdle, "state", "cpu_id");
    else if (n == "cpu_idle_miss")
        set(EventKind::CpuIdleMiss, "state", "cpu_id", "below");
    else if (n == "hrtimer_start")
        set(EventKind::HrtimerStart, "hrtimer", "function", "expires");
    else if (n == "hrtimer_expire_entry")
        set(EventKind::HrtimerExpire, "hrtimer", "function", "now");
    else if (n == "hrtimer_cancel")
        set(EventKind::HrtimerCancel, "hrtimer");
    else if (n == "timer_expire_entry")
        set(EventKind::TimerExpire, nullptr);
    else if (n == "tick_stop")
        set(EventKind::TickStop, "success");
    else if (n == "irq_handler_entry")
        set(EventKind::IrqHandler, "irq", "name");
    else if (n == "softirq_entry")
        set(EventKind::Softirq, "vec");
    else if (n == "ipi_send_cpu")
        set(EventKind::IpiSend, "cpu");
    else if (n == "ipi_send_cpumask") {
        set(EventKind::IpiSend, "cpumask");
        info.variant = 1;
    } else if (n == "ipi_raise") {
        set(EventKind::IpiSend, "target_cpus");
        info.variant = 2;
    } else if (n == "ipi_entry" || n == "reschedule_entry" || n == "call_function_entry"
               || n == "call_function_single_entry")
        set(EventKind::IpiEntry, nullptr);
    else if (n == "sched_wakeup" || n == "sched_wakeup_new")
        set(EventKind::SchedWakeup, "pid", "target_cpu");
    else if (n == "sched_switch")
        set(EventKind::SchedSwitch, "prev_pid", "next_pid");
    return info;
}

std::int64_t number(tep_format_field *f, tep_record *r)
{
    unsigned long long v = 0;
    if (!f || tep_read_number_field(f, r->data, &v) != 0)
        return 0;
    // Sign-extend the small signed fields (pids) as their C type says.
    if (f->size == 4 && f->type && std::strstr(f->type, "unsigned") == nullptr && std::strstr(f->type, "u32") == nullptr)
        return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
    return static_cast<std::int64_t>(v);
}

std::int32_t functionId(DatContext &ctx, unsigned long long addr)
{
    if (auto it = ctx.functions.find(addr); it != ctx.functions.end())
        return it->second;
    const char *fn = tep_find_function(ctx.tep, addr);
    char buf[32];
    if (!fn) {
        std::snprintf(buf, sizeof buf, "0x%llx", addr);
        fn = buf;
    }
    const std::int32_t id = ctx.names.intern(fn);
    ctx.functions.emplace(addr, id);
    return id;
}

void readMask(tep_event *e, tep_record *r, const char *name, CpuMask &mask)
{
    int len = 0;
    const auto *bytes = static_cast<const unsigned char *>(tep_get_field_raw(nullptr, e, name, r, &len, 0));
    if (!bytes)
        return;
    // A little-endian array of longs: bit j of byte i is CPU 8i + j.
    for (int i = 0; i < len && i * 8 < CpuMask::MAX_CPUS; ++i)
        for (int j = 0; j < 8; ++j)
            if ((bytes[i] >> j) & 1)
                mask.set(i * 8 + j);
}

int onRecord(tracecmd_input *, tep_record *r, int cpu, void *data)
{
    auto &ctx = *static_cast<DatContext *>(data);
    if (ctx.cancelled)
        return 1;
    ++ctx.records;
    ++ctx.out->lines;
    if (ctx.progress && *ctx.progress && ctx.records % PROGRESS_RECORDS == 0 && !(*ctx.progress)(ctx.records, -1)) {
        ctx.cancelled = true;
        return 1;
    }
    if (r->missed_events)
        ctx.rec->lost(cpu, r->missed_events < 0 ? -1 : r->missed_events, 0);
    const int type = tep_data_type(ctx.tep, r);
    auto it = ctx.infos.find(type);
    if (it == ctx.infos.end())
        it = ctx.infos.emplace(type, describe(tep_find_event(ctx.tep, type))).first;
    const EventInfo &info = it->second;
    if (!info.known) {
        ++ctx.out->unknownEvents[info.name.empty() ? std::string("id ") + std::to_string(type) : info.name];
        return 0;
    }
    TraceEvent ev;
    ev.ts = static_cast<Ns>(r->ts);
    ev.cpu = cpu;
    ev.kind = info.kind;
    tep_event *e = tep_find_event(ctx.tep, type);
    switch (info.kind) {
    case EventKind::CpuIdle:
    case EventKind::CpuIdleMiss:
        ev.arg = number(info.f[0], r);
        if (ev.arg == PWR_EVENT_EXIT || ev.arg == -1)
            ev.arg = -1;
        ev.target = number(info.f[1], r);
        ev.flag = info.f[2] && number(info.f[2], r) != 0;
        break;
    case EventKind::HrtimerStart:
    case EventKind::HrtimerExpire:
        ev.ptr = static_cast<std::uint64_t>(number(info.f[0], r));
        ev.nameId = functionId(ctx, static_cast<unsigned long long>(number(info.f[1], r)));
        ev.timeNs = number(info.f[2], r);
        break;
    case EventKind::HrtimerCancel:
        ev.ptr = static_cast<std::uint64_t>(number(info.f[0], r));
        break;
    case EventKind::TickStop:
        ev.arg = number(info.f[0], r);
        ev.flag = ev.arg != 0;
        break;
    case EventKind::IrqHandler: {
        ev.arg = number(info.f[0], r);
        int len = 0;
        const char *s = static_cast<const char *>(tep_get_field_raw(nullptr, e, "name", r, &len, 0));
        ev.nameId = ctx.names.intern(s ? std::string_view(s, strnlen(s, static_cast<size_t>(len))) : "?");
        break;
    }
    case EventKind::Softirq:
        ev.arg = number(info.f[0], r);
        break;
    case EventKind::IpiSend:
        if (info.variant == 0)
            ev.mask.set(static_cast<int>(number(info.f[0], r)));
        else
            readMask(e, r, info.variant == 1 ? "cpumask" : "target_cpus", ev.mask);
        break;
    case EventKind::SchedWakeup:
    case EventKind::SchedSwitch:
        ev.arg = number(info.f[0], r);
        ev.target = number(info.f[1], r);
        break;
    case EventKind::TimerExpire:
    case EventKind::IpiEntry:
        break;
    }
    ++ctx.kindCounts[static_cast<int>(ev.kind)];
    ctx.rec->feed(ev);
    return 0;
}

// libtracecmd needs a seekable file: a gzip'd .dat is inflated to a temporary one.
class Inflated {
public:
    ~Inflated()
    {
        if (!m_path.empty())
            ::unlink(m_path.c_str());
    }
    Result<std::string> open(const std::string &path)
    {
        FILE *f = std::fopen(path.c_str(), "rb");
        unsigned char magic[2] = {0, 0};
        const bool gz = f && std::fread(magic, 1, 2, f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
        if (f)
            std::fclose(f);
        if (!gz)
            return path;
        const char *tmpdir = std::getenv("TMPDIR");
        std::string tmpl = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/idlescope-dat-XXXXXX";
        const int fd = ::mkstemp(tmpl.data());
        if (fd < 0)
            return Error{path, 0, "", "cannot create a temporary file to inflate the gzip'd .dat"};
        m_path = tmpl;
        gzFile gzf = gzopen(path.c_str(), "rb");
        std::string buf(1 << 20, '\0');
        int n = 0;
        bool okWrite = gzf != nullptr;
        while (okWrite && (n = gzread(gzf, buf.data(), static_cast<unsigned>(buf.size()))) > 0)
            okWrite = ::write(fd, buf.data(), static_cast<size_t>(n)) == n;
        if (gzf)
            gzclose(gzf);
        ::close(fd);
        if (!okWrite || n < 0)
            return Error{path, 0, "", "cannot inflate the gzip'd .dat (corrupt data or disk full)"};
        return m_path;
    }

private:
    std::string m_path;
};

Result<TraceImport> readDat(const std::string &path, const std::string &file, const ImportConfig &config,
                            const ProgressFn &progress);

// The child's Error on the pipe: line, field and message, each ended by a NUL.
void writeError(int fd, const Error &e)
{
    const std::string msg = std::to_string(e.line) + '\0' + e.field + '\0' + e.message + '\0';
    for (size_t done = 0; done < msg.size();) {
        const ssize_t n = ::write(fd, msg.data() + done, msg.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        done += static_cast<size_t>(n);
    }
}

Error readError(int fd, const std::string &path)
{
    std::string msg;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        msg.append(buf, static_cast<size_t>(n));
    }
    const size_t a = msg.find('\0');
    const size_t b = a == std::string::npos ? a : msg.find('\0', a + 1);
    const size_t c = b == std::string::npos ? b : msg.find('\0', b + 1);
    if (c == std::string::npos)
        return Error{path, 0, "", "reading this .dat file failed (no message from the reading process)"};
    return Error{path, std::atoll(msg.substr(0, a).c_str()), msg.substr(a + 1, b - a - 1), msg.substr(b + 1, c - b - 1)};
}

// Runs the read in a child process; an Error when the libraries crash on the file or
// when the read fails (the child's Error: the parent then does not read the file again).
Status probeInChild(const std::string &path, const std::string &file, const ImportConfig &config)
{
    std::fflush(nullptr);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        return Ok{}; // no isolation available: read directly
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        return Ok{};
    }
    if (pid == 0) {
        // A crash here is the expected outcome for a damaged file: the host's crash
        // handlers (Qt Test's, a GUI's) must not run in the child.
        for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
            std::signal(sig, SIG_DFL);
        ::close(fds[0]);
        const Result<TraceImport> r = readDat(path, file, config, {});
        if (!r)
            writeError(fds[1], r.error());
        ::_exit(r ? 0 : 3);
    }
    ::close(fds[1]);
    const Error childError = readError(fds[0], path); // until EOF: the child has exited or is exiting
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    // The child ends with 0 (read) or 3 (an Error, which the parent's read reports too);
    // a signal or any other exit code (a sanitizer's abort) is a crash of the libraries.
    if (WIFSIGNALED(status))
        return Error{path, 0, "",
                     "libtracecmd/libtraceevent crashed reading this .dat file (signal "
                         + std::to_string(WTERMSIG(status)) + "): the file is damaged"};
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 3)
        return Error{path, 0, "",
                     "libtracecmd/libtraceevent crashed reading this .dat file (exit code "
                         + std::to_string(WEXITSTATUS(status)) + "): the file is damaged"};
    if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
        return childError;
    return Ok{};
}

} // namespace

Result<TraceImport> importTraceDat(const std::string &path, const ImportConfig &config, const ProgressFn &progress)
{
    Inflated inflated;
    Result<std::string> file = inflated.open(path);
    if (!file)
        return file.error();
    if (config.isolateDat)
        if (Status s = probeInChild(path, *file, config); !s)
            return s.error();
    return readDat(path, *file, config, progress);
}

namespace {

Result<TraceImport> readDat(const std::string &path, const std::string &fileName, const ImportConfig &config,
                            const ProgressFn &progress)
{
    const std::string *file = &fileName;
    tracecmd_set_loglevel(TEP_LOG_NONE);
    tep_set_loglevel(TEP_LOG_NONE);
    tracecmd_input *handle = tracecmd_open(file->c_str(), TRACECMD_FL_LOAD_NO_PLUGINS);
    if (!handle)
        return Error{path, 0, "", "libtracecmd cannot open this trace-cmd .dat file (damaged or unsupported version)"};

    TraceImport out;
    out.file = path;
    out.format = TraceFormat::TraceCmdDat;
    WarningSink warn(out, config.keptWarningsPerKind);
    DatContext ctx;
    ctx.tep = tracecmd_get_tep(handle);
    out.declaredCpus = tep_get_cpus(ctx.tep);
    ctx.out = &out;
    ctx.warn = &warn;
    ctx.progress = &progress;
    {
        IdleReconstructor rec(out, warn, ctx.names);
        ctx.rec = &rec;
        tracecmd_iterate_events(handle, nullptr, 0, onRecord, &ctx);
        if (!ctx.cancelled)
            rec.finish();
    }
    tracecmd_close(handle);
    if (ctx.cancelled)
        return Error{path, 0, "", "import cancelled"};
    for (int k = 0; k < EVENT_KIND_COUNT; ++k)
        if (ctx.kindCounts[k]) {
            out.eventCounts[eventKindName(static_cast<EventKind>(k))] += ctx.kindCounts[k];
            out.events += ctx.kindCounts[k];
        }
    out.names = ctx.names.take();
    if (ctx.kindCounts[static_cast<int>(EventKind::CpuIdle)] == 0)
        return Error{path, 0, "cpu_idle",
                     "no power:cpu_idle events in " + std::to_string(ctx.records)
                         + " records: record with -e power:cpu_idle (see docs/traces.md)"};
    if (progress)
        progress(ctx.records, ctx.records);
    return out;
}

} // namespace

} // namespace idlescope::trace
