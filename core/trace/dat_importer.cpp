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
 * must give an Error and never a crash, the libraries run only in a child
 * process, the reader program of dat_reader.h (ImportConfig::isolateDat),
 * which sends the events it reads back through a pipe; the parent
 * reconstructs the idle spans from them as they arrive (so the file is read
 * once, by the child, while the parent works on what came before). A child
 * killed by a signal becomes an Error naming the file, and what the parent
 * built from its events is dropped; a file the libraries reject comes back as
 * the child's Error. Whatever a damaged file makes libtracecmd allocate and
 * leak then dies with the child (found by fuzz_trace_dat: a 40 KB file whose header claims a
 * 2.9 GB section; libtracecmd mallocs that much, the read comes up short and
 * the block is never freed; tests/fuzz/regressions/fuzz_trace_dat/oom-*).
 */
#include "core/trace/trace_import.h"

#include "core/formats/decompressed_file.h"
#include "core/source_governor/subprocess.h"
#include "core/trace/dat_reader.h"
#include "core/trace/idle_reconstructor.h"
#include "core/trace/kallsyms_index.h"
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
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <string_view>
#include <sys/wait.h>
#include <type_traits>
#include <unistd.h>
#include <unordered_map>
#include <vector>

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

// Where the records' events go: straight into the reconstruction (DirectSink),
// or from the reading child through a pipe to the parent's (PipeSink).
class RecordSink {
public:
    virtual ~RecordSink() = default;
    /// The id of @p name; ids are dense from 0 in the order names first appear.
    virtual std::int32_t intern(std::string_view name) = 0;
    virtual void event(const TraceEvent &ev) = 0;
    virtual void lost(int cpu, std::int64_t missed) = 0;
    virtual void unknown(const std::string &name) = 0;
    /// Every PROGRESS_RECORDS records; false cancels the read.
    virtual bool progress(std::int64_t records) = 0;
};

struct DatContext {
    tep_handle *tep = nullptr;
    const KallsymsIndex *kallsyms = nullptr; ///< the file's functions; null: libtraceevent's own
    RecordSink *sink = nullptr;
    std::unordered_map<int, EventInfo> infos;
    std::unordered_map<unsigned long long, std::int32_t> functions;
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
    else if (n == "cpu_frequency")
        set(EventKind::CpuFrequency, "state", "cpu_id");
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
    if (f->size == 4 && f->type && std::strstr(f->type, "unsigned") == nullptr
        && std::strstr(f->type, "u32") == nullptr)
        return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
    return static_cast<std::int64_t>(v);
}

std::int32_t functionId(DatContext &ctx, unsigned long long addr)
{
    if (auto it = ctx.functions.find(addr); it != ctx.functions.end())
        return it->second;
    const char *fn = ctx.kallsyms ? ctx.kallsyms->find(addr) : tep_find_function(ctx.tep, addr);
    char buf[32];
    if (!fn) {
        std::snprintf(buf, sizeof buf, "0x%llx", addr);
        fn = buf;
    }
    const std::int32_t id = ctx.sink->intern(fn);
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
    if (ctx.records % PROGRESS_RECORDS == 0 && !ctx.sink->progress(ctx.records)) {
        ctx.cancelled = true;
        return 1;
    }
    if (r->missed_events)
        ctx.sink->lost(cpu, r->missed_events < 0 ? -1 : r->missed_events);
    const int type = tep_data_type(ctx.tep, r);
    auto it = ctx.infos.find(type);
    if (it == ctx.infos.end())
        it = ctx.infos.emplace(type, describe(tep_find_event(ctx.tep, type))).first;
    const EventInfo &info = it->second;
    if (!info.known) {
        ctx.sink->unknown(info.name.empty() ? std::string("id ") + std::to_string(type) : info.name);
        return 0;
    }
    TraceEvent ev;
    ev.ts = static_cast<Ns>(r->ts);
    ev.record = ctx.records;
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
    case EventKind::CpuFrequency:
        ev.arg = number(info.f[0], r);
        ev.target = number(info.f[1], r);
        break;
    case EventKind::HrtimerStart:
    case EventKind::HrtimerExpire:
        ev.ptr = static_cast<std::uint64_t>(number(info.f[0], r));
        ev.nameId = functionId(ctx, static_cast<unsigned long long>(number(info.f[1], r)));
        ev.timeNs = number(info.f[2], r);
        break;
    case EventKind::HrtimerCancel: ev.ptr = static_cast<std::uint64_t>(number(info.f[0], r)); break;
    case EventKind::TickStop:
        ev.arg = number(info.f[0], r);
        ev.flag = ev.arg != 0;
        break;
    case EventKind::IrqHandler: {
        ev.arg = number(info.f[0], r);
        int len = 0;
        const char *s = static_cast<const char *>(tep_get_field_raw(nullptr, e, "name", r, &len, 0));
        ev.nameId = ctx.sink->intern(s ? std::string_view(s, strnlen(s, static_cast<size_t>(len))) : "?");
        break;
    }
    case EventKind::Softirq: ev.arg = number(info.f[0], r); break;
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
    case EventKind::IpiEntry: break;
    }
    ctx.sink->event(ev);
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
        DecompressedFile in(path);
        if (!in.ok())
            return in.error();
        if (!in.isGzip())
            return path;
        const char *tmpdir = std::getenv("TMPDIR");
        std::string tmpl = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/idlescope-dat-XXXXXX";
        const int fd = ::mkstemp(tmpl.data());
        if (fd < 0)
            return Error{path, 0, "", "cannot create a temporary file to inflate the gzip'd .dat"};
        m_path = tmpl;
        std::string buf(1 << 20, '\0');
        std::size_t n = 0;
        bool okWrite = true;
        while (okWrite && (n = in.read(buf.data(), buf.size())) > 0)
            okWrite = ::write(fd, buf.data(), n) == static_cast<ssize_t>(n);
        ::close(fd);
        if (!in.ok())
            return in.error(); // corrupt, cut, or junk after the gzip data (with its byte offset)
        if (!okWrite)
            return Error{path, 0, "", "cannot inflate the gzip'd .dat to " + tmpl + " (disk full?)"};
        return m_path;
    }

private:
    std::string m_path;
};

// Reads the file's records through libtracecmd into @p sink. The records' count
// and the CPUs the header declares come back; an Error when the file cannot be opened.
struct RecordsRead {
    int declaredCpus = 0;
    std::int64_t records = 0;
};

/// Whether readRecords frees what libtracecmd built. The reading child skips it: it ends at
/// once and the kernel takes its memory back whole, where tracecmd_close() would free the
/// file's event formats and the rest one by one.
enum class Teardown : bool { Free, LeaveToExit };

/// Opens @p file with libtracecmd; with @p index, the file's kallsyms go there instead of
/// into libtraceevent (kallsyms_index.h).
tracecmd_input *openDat(const std::string &file, KallsymsIndex *index)
{
    if (!index)
        return tracecmd_open(file.c_str(), TRACECMD_FL_LOAD_NO_PLUGINS);
    const KallsymsCapture capture(*index);
    return tracecmd_open(file.c_str(), TRACECMD_FL_LOAD_NO_PLUGINS);
}

Result<RecordsRead> readRecords(const std::string &path, const std::string &file, RecordSink &sink,
                                const ImportConfig &config, Teardown teardown = Teardown::Free)
{
    tracecmd_set_loglevel(TEP_LOG_NONE);
    tep_set_loglevel(TEP_LOG_NONE);
    KallsymsIndex kallsyms;
    KallsymsIndex *ownKallsyms = config.libraryKallsyms ? nullptr : &kallsyms;
    tracecmd_input *handle = openDat(file, ownKallsyms);
    if (!handle)
        return Error{path, 0, "", "libtracecmd cannot open this trace-cmd .dat file (damaged or unsupported version)"};
    DatContext ctx;
    ctx.tep = tracecmd_get_tep(handle);
    ctx.kallsyms = ownKallsyms;
    ctx.sink = &sink;
    RecordsRead read{tep_get_cpus(ctx.tep), 0};
    tracecmd_iterate_events(handle, nullptr, 0, onRecord, &ctx);
    if (teardown == Teardown::Free)
        tracecmd_close(handle);
    if (ctx.cancelled)
        return Error::cancelled("import cancelled", path);
    read.records = ctx.records;
    return read;
}

// The events feed the reconstruction of the import at once.
class DirectSink final : public RecordSink {
public:
    DirectSink(const std::string &path, const ImportConfig &config, const ProgressFn &progress)
        : m_warn(m_out, config.keptWarningsPerKind), m_progress(progress)
    {
        m_out.file = path;
        m_out.format = TraceFormat::TraceCmdDat;
        m_rec.emplace(m_out, m_warn, m_names);
    }

    std::int32_t intern(std::string_view name) override { return m_names.intern(name); }
    void event(const TraceEvent &ev) override
    {
        ++m_kindCounts[static_cast<int>(ev.kind)];
        m_rec->feed(ev);
    }
    void lost(int cpu, std::int64_t missed) override { m_rec->lost(cpu, missed, 0); }
    void unknown(const std::string &name) override { ++m_out.unknownEvents[name]; }
    bool progress(std::int64_t records) override { return !m_progress || m_progress(records, -1); }

    /// The import once every record has been fed.
    Result<TraceImport> finish(const RecordsRead &read)
    {
        m_rec->finish();
        m_rec.reset();
        m_out.declaredCpus = read.declaredCpus;
        m_out.lines += read.records;
        for (int k = 0; k < EVENT_KIND_COUNT; ++k)
            if (m_kindCounts[k]) {
                m_out.eventCounts[eventKindName(static_cast<EventKind>(k))] += m_kindCounts[k];
                m_out.events += m_kindCounts[k];
            }
        m_out.names = m_names.take();
        if (m_kindCounts[static_cast<int>(EventKind::CpuIdle)] == 0)
            return Error{m_out.file, 0, "cpu_idle",
                         "no power:cpu_idle events in " + std::to_string(read.records)
                             + " records: record with -e power:cpu_idle (see docs/traces.md)"};
        if (m_progress)
            m_progress(read.records, read.records);
        return std::move(m_out);
    }

private:
    TraceImport m_out;
    WarningSink m_warn;
    NameTable m_names;
    std::optional<IdleReconstructor> m_rec;
    const ProgressFn &m_progress;
    std::int64_t m_kindCounts[EVENT_KIND_COUNT] = {};
};

/*
 * The reader's messages to the parent, a tag byte then the fields in this
 * build's own layout (the reader is built from the same sources, with the
 * same compiler, as the program that starts it):
 *   'N' u32 length, bytes     a name, interned in order (the parent's ids are the child's)
 *   'E' TraceEvent            an event
 *   'L' i32 cpu, i64 missed   events lost on a CPU
 *   'U' u32 length, bytes     a record of an event idlescope does not read
 *   'P' i64 records           progress (the parent may cancel by killing the child)
 *   'D' i32 cpus, i64 records the read is complete
 *   'X' i64 line, u32 length, field, u32 length, message   the read failed with an Error
 */
class PipeSink final : public RecordSink {
public:
    explicit PipeSink(int fd) : m_fd(fd) { m_buf.reserve(BUFFER + sizeof(TraceEvent) + 64); }

    std::int32_t intern(std::string_view name) override
    {
        const size_t before = m_names.size();
        const std::int32_t id = m_names.intern(name);
        if (m_names.size() != before) {
            put('N');
            putString(name);
        }
        return id;
    }
    void event(const TraceEvent &ev) override
    {
        put('E');
        put(ev);
    }
    void lost(int cpu, std::int64_t missed) override
    {
        put('L');
        put(std::int32_t{cpu});
        put(missed);
    }
    void unknown(const std::string &name) override
    {
        put('U');
        putString(name);
    }
    bool progress(std::int64_t records) override
    {
        put('P');
        put(records);
        flush();
        return true;
    }
    void done(const RecordsRead &read)
    {
        put('D');
        put(std::int32_t{read.declaredCpus});
        put(read.records);
        flush();
    }
    void error(const Error &e)
    {
        put('X');
        put(e.line);
        putString(e.field);
        putString(e.message);
        flush();
    }

private:
    static constexpr size_t BUFFER = 1 << 16;

    template <typename T>
    void put(const T &v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        const auto *p = reinterpret_cast<const char *>(&v);
        m_buf.append(p, sizeof v);
        if (m_buf.size() >= BUFFER)
            flush();
    }
    void putString(std::string_view s)
    {
        put(static_cast<std::uint32_t>(s.size()));
        m_buf.append(s);
    }
    void flush()
    {
        for (size_t done = 0; done < m_buf.size();) {
            const ssize_t n = ::write(m_fd, m_buf.data() + done, m_buf.size() - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                ::_exit(4); // the parent is gone
            done += static_cast<size_t>(n);
        }
        m_buf.clear();
    }

    int m_fd;
    std::string m_buf;
    NameTable m_names;
};

// The parent's side of the pipe: buffered reads of whole fields.
class PipeReader {
public:
    explicit PipeReader(int fd) : m_fd(fd), m_buf(1 << 20) {}

    template <typename T>
    bool get(T &v)
    {
        if (!need(sizeof v))
            return false;
        std::memcpy(&v, m_buf.data() + m_pos, sizeof v);
        m_pos += sizeof v;
        return true;
    }
    bool getString(std::string &s)
    {
        std::uint32_t n = 0;
        if (!get(n) || n > (1u << 20) || !need(n))
            return false;
        s.assign(m_buf.data() + m_pos, n);
        m_pos += n;
        return true;
    }

private:
    bool need(size_t n)
    {
        while (m_end - m_pos < n) {
            if (m_pos > 0) {
                std::memmove(m_buf.data(), m_buf.data() + m_pos, m_end - m_pos);
                m_end -= m_pos;
                m_pos = 0;
            }
            const ssize_t got = ::read(m_fd, m_buf.data() + m_end, m_buf.size() - m_end);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                return false;
            m_end += static_cast<size_t>(got);
        }
        return true;
    }

    int m_fd;
    std::vector<char> m_buf;
    size_t m_pos = 0, m_end = 0;
};

// What the parent took from the pipe.
struct ChildOutcome {
    std::optional<RecordsRead> done;
    std::optional<Error> error;
    bool cancelled = false;
};

ChildOutcome receive(int fd, pid_t child, const std::string &path, DirectSink &sink)
{
    ChildOutcome out;
    PipeReader in(fd);
    std::string text;
    char tag = 0;
    while (!out.done && !out.error && in.get(tag)) {
        bool ok = true;
        switch (tag) {
        case 'N':
            if ((ok = in.getString(text)))
                sink.intern(text);
            break;
        case 'E': {
            TraceEvent ev;
            if ((ok = in.get(ev)))
                sink.event(ev);
            break;
        }
        case 'L': {
            std::int32_t cpu = 0;
            std::int64_t missed = 0;
            if ((ok = in.get(cpu) && in.get(missed)))
                sink.lost(cpu, missed);
            break;
        }
        case 'U':
            if ((ok = in.getString(text)))
                sink.unknown(text);
            break;
        case 'P': {
            std::int64_t records = 0;
            ok = in.get(records);
            if (ok && !sink.progress(records)) {
                ::kill(child, SIGKILL);
                out.cancelled = true;
                return out;
            }
            break;
        }
        case 'D': {
            RecordsRead read;
            ok = in.get(read.declaredCpus) && in.get(read.records);
            if (ok)
                out.done = read;
            break;
        }
        case 'X': {
            Error e{path, 0, "", ""};
            ok = in.get(e.line) && in.getString(e.field) && in.getString(e.message);
            if (ok)
                out.error = e;
            break;
        }
        default: ok = false;
        }
        if (!ok)
            break; // cut short: the child's exit status says why
    }
    return out;
}

// Reads the file in the reader program (dat_reader.h), which sends the events back:
// libtracecmd and libtraceevent run only there, so a crash of theirs on a damaged
// file (or what they leak) ends with that process, and this one reconstructs as the
// events arrive.
Result<TraceImport> readInReader(const std::string &path, const std::string &file, const ImportConfig &config,
                                 const ProgressFn &progress)
{
    using source_governor::ChildStderr;
    const std::string reader = datReaderPath();
    std::vector<std::string> argv{reader};
    if (config.libraryKallsyms)
        argv.emplace_back("--library-kallsyms");
    argv.emplace_back("--");
    argv.push_back(file);
    Result<source_governor::Spawned> child = source_governor::spawnProcess(argv, -1, {}, ChildStderr::Inherited);
    if (!child)
        return Error{path, 0, "",
                     child.error().message
                         + " (the .dat reader, which idlescope installs in "
                           "libexec/idlescope/; IDLESCOPE_DAT_READER names another)"};
    DirectSink sink(path, config, progress);
    const ChildOutcome outcome = receive(child->out.get(), child->pid, path, sink);
    child->out.reset();
    int status = 0;
    while (::waitpid(child->pid, &status, 0) < 0 && errno == EINTR) {}
    if (outcome.cancelled)
        return Error::cancelled("import cancelled", path);
    // The reader ends with 0 (read) or DAT_READER_REFUSED (an Error, sent on the pipe);
    // a signal or any other exit code (a sanitizer's report) is a crash of the libraries.
    if (WIFSIGNALED(status))
        return Error{path, 0, "",
                     "libtracecmd/libtraceevent crashed reading this .dat file (signal "
                         + std::to_string(WTERMSIG(status)) + "): the file is damaged"};
    if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != DAT_READER_REFUSED))
        return Error{path, 0, "",
                     "libtracecmd/libtraceevent crashed reading this .dat file (exit code "
                         + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + "): the file is damaged"};
    if (outcome.error)
        return *outcome.error;
    if (!outcome.done)
        return Error{path, 0, "", "reading this .dat file failed (the reading process ended without a result)"};
    return sink.finish(*outcome.done);
}

} // namespace

Result<TraceImport> importTraceDat(const std::string &path, const ImportConfig &config, const ProgressFn &progress)
{
    Inflated inflated;
    Result<std::string> file = inflated.open(path);
    if (!file)
        return file.error();
    if (config.isolateDat)
        return readInReader(path, *file, config, progress);
    DirectSink sink(path, config, progress);
    const Result<RecordsRead> read = readRecords(path, *file, sink, config);
    if (!read)
        return read.error();
    return sink.finish(*read);
}

int serveDatFile(const std::string &file, bool libraryKallsyms, int fd)
{
    PipeSink sink(fd);
    ImportConfig config;
    config.libraryKallsyms = libraryKallsyms;
    // The path is the parent's to name: Errors travel without it.
    const Result<RecordsRead> read = readRecords("", file, sink, config, Teardown::LeaveToExit);
    if (!read) {
        sink.error(read.error());
        return DAT_READER_REFUSED;
    }
    sink.done(*read);
    return 0;
}

} // namespace idlescope::trace
