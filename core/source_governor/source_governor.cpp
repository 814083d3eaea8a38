// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/source_governor/source_governor.h"

#include "core/source_governor/host_protocol.h"
#include "core/source_governor/source_build.h"
#include "core/source_governor/source_governor_names.h"

#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>

namespace idlescope {

using namespace source_governor;

namespace {

/// The last run's partial-sandbox warning of each source file, for the front ends that
/// show a file's messages apart from its runs (the window's message bar, after its build
/// warnings): a fallback must reach every one of them.
struct SandboxNotices {
    std::mutex mutex;
    std::map<std::string, std::string> byPath;
};

SandboxNotices &sandboxNotices()
{
    static SandboxNotices n;
    return n;
}

void rememberSandboxNotice(const std::string &path, const std::string &notice)
{
    std::lock_guard lock(sandboxNotices().mutex);
    if (notice.empty())
        sandboxNotices().byPath.erase(path);
    else
        sandboxNotices().byPath[path] = notice;
}

std::string lastSandboxNotice(const std::string &path)
{
    std::lock_guard lock(sandboxNotices().mutex);
    const auto it = sandboxNotices().byPath.find(path);
    return it == sandboxNotices().byPath.end() ? std::string() : it->second;
}

} // namespace

bool isSourceGovernorId(std::string_view id)
{
    return id.substr(0, SOURCE_GOVERNOR_PREFIX.size()) == SOURCE_GOVERNOR_PREFIX;
}

Result<SourceGovernorSpec> parseSourceGovernorId(std::string_view id)
{
    if (!isSourceGovernorId(id))
        return Error{"", 0, "governor", "'" + std::string(id) + "' is not a src:PATH governor"};
    SourceGovernorSpec spec;
    std::string rest(id.substr(SOURCE_GOVERNOR_PREFIX.size()));
    if (std::optional<NamedSourceFile> named = namedSourceFile(rest)) { // "src:NAME"
        spec.path = std::move(named->path);
        spec.core = named->core;
        spec.name = std::string(id);
        return spec;
    }
    if (const std::size_t at = rest.rfind('@'); at != std::string::npos) {
        Result<KernelCore> k = parseKernelCore(rest.substr(at + 1));
        // "src:x@6.19.c": an '@' in the file's own name, when no version follows it.
        std::error_code ec;
        const bool wholeIsAFile = !k && std::filesystem::exists(rest, ec);
        if (!k && !wholeIsAFile)
            return Error{"", 0, std::string(id),
                         k.error().message + " after the last '@' (a file whose name holds '@' is src:FILE@VERSION)"};
        if (k) {
            spec.core = *k;
            rest.erase(at);
        }
    }
    if (rest.empty())
        return Error{"", 0, "governor", "'" + std::string(id) + "': no file after src:"};
    spec.path = rest;
    spec.name = std::string(id);
    return spec;
}

std::string sourceGovernorFileId(std::string_view id)
{
    if (!isSourceGovernorId(id))
        return std::string(id);
    const std::optional<NamedSourceFile> named = namedSourceFile(id.substr(SOURCE_GOVERNOR_PREFIX.size()));
    return named ? std::string(SOURCE_GOVERNOR_PREFIX) + named->path + "@" + named->core.name() : std::string(id);
}

SourceGovernor::SourceGovernor(SourceGovernorSpec spec) : m_spec(std::move(spec))
{
    if (m_spec.name.empty())
        m_spec.name = std::string(SOURCE_GOVERNOR_PREFIX) + m_spec.path;
    // The poll rule and idle loop the host used: the loop here must match it.
    m_info = VariantInfo{m_spec.name.c_str(),
                         "source",
                         "",
                         {m_spec.core.major, m_spec.core.minor},
                         "a governor built from source",
                         m_spec.core.pollTimeV5_5() ? PollTimeRule::V5_5 : PollTimeRule::V5_11,
                         m_spec.core.v7()};
}

Status SourceGovernor::prepare(const IdleStateTable &table, const IdleStream &stream, Ns latencyLimitNs,
                               const std::atomic<bool> *cancel)
{
    m_host.reset(); // stops a host still running for an earlier stream
    m_hostEnd.reset();
    m_entries = -1;
    m_log.clear();
    m_sandboxNotice.clear();
    Result<BuiltGovernor> built = buildSourceGovernor(m_spec.path);
    if (!built)
        return built.error();
    m_warnings = built->warnings;
    auto host = HostRun::start(built->sharedObject, m_spec.name, m_spec.core, table, stream, latencyLimitNs,
                               m_spec.timeoutSeconds, cancel);
    if (!host)
        return host.error();
    m_host = std::move(*host);
    // A host that ends before its first decision (a refusal, a crash while loading or in
    // enable()) is reported here, as before any replay.
    if (m_host->bytesFrom(0).empty()) {
        Status end = checkPlayback(nullptr); // the host's Error: it sent not even its end record
        m_host.reset();
        return end;
    }
    m_sandboxNotice = m_host->sandboxNotice();
    rememberSandboxNotice(m_spec.path, m_sandboxNotice);
    m_warnings += m_sandboxNotice;
    return Ok{};
}

void SourceGovernor::enable(const IdleStateTable &, CpuidleDevice &)
{
    m_bytes = nullptr;
    m_bytesStart = m_bytesEnd = m_pos = 0;
    m_played = 0;
    m_overrun = false;
    m_badState = -1;
}

bool SourceGovernor::nextBytes()
{
    const std::span<const std::uint8_t> more = m_host ? m_host->bytesFrom(m_pos) : std::span<const std::uint8_t>();
    if (more.empty())
        return false;
    m_bytes = more.data();
    m_bytesStart = m_pos;
    m_bytesEnd = m_pos + more.size();
    return true;
}

Selection SourceGovernor::select(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &)
{
    if (m_overrun || (m_pos == m_bytesEnd && !nextBytes()) || m_bytes[m_pos - m_bytesStart] == DECISION_END) {
        // No decision left (the host's end record, or a host that ended early): the replay
        // runs on with state 0, and checkPlayback() says why.
        m_overrun = true;
        return Selection{0, true, -1};
    }
    const std::uint8_t b = nextByte();
    if (b & DECISION_POLL_LIMIT) {
        std::uint8_t limit[sizeof(std::int64_t)];
        for (std::uint8_t &byte : limit)
            byte = nextByte();
        std::memcpy(&dev.pollLimitNs, limit, sizeof limit);
    }
    ++m_played;
    const int state = b & DECISION_STATE_MASK;
    // The channel is a pipe the governor's process can write to: a state past the table
    // is the governor's bytes, never to be indexed with; the replay goes on with state 0
    // and checkPlayback() says what came.
    if (state >= drv.count()) {
        if (m_badState < 0)
            m_badState = state;
        m_overrun = true;
        return Selection{0, true, -1};
    }
    return Selection{state, (b & DECISION_STOP_TICK) != 0, -1};
}

Status SourceGovernor::checkPlayback(const ReplaySummary *summary)
{
    if (!m_host)
        return Error{"", 0, "", m_spec.name + " was replayed without being built and run on the stream first"};
    if (!m_hostEnd) {
        Result<HostEnd> end = m_host->finish();
        if (end) {
            m_entries = end->entries;
            m_endNowNs = end->endNowNs;
            m_log = std::move(end->log);
            m_decisionBytes = end->decisionBytes;
            m_hostEnd = Ok{};
        } else {
            m_hostEnd = end.error();
        }
    }
    if (!*m_hostEnd)
        return *m_hostEnd;
    if (m_badState >= 0)
        return Error{"", 0, "",
                     m_spec.name + ": the decision channel held a choice of state " + std::to_string(m_badState)
                         + ", which the table does not have: the governor wrote to file descriptor 5, the channel "
                           "its decisions come back on; the run is refused"};
    const bool mismatch = summary ? (m_overrun || m_played != m_entries || summary->entries != m_entries
                                     || summary->endNowNs != m_endNowNs || m_pos != m_decisionBytes)
                                  : m_played > m_entries;
    if (mismatch)
        return Error{"", 0, "",
                     m_spec.name + ": the replay of the governor host's decisions went another way ("
                         + std::to_string(summary ? summary->entries : m_played) + " entries here, "
                         + std::to_string(m_entries)
                         + " in the host): a governor that writes to file descriptor 5 (the decision channel) does "
                           "this; otherwise it is an idlescope bug"};
    return Ok{};
}

std::string sourceGovernorIdProblem(std::string_view id)
{
    Result<SourceGovernorSpec> spec = parseSourceGovernorId(id);
    return spec ? std::string() : spec.error().message;
}

std::unique_ptr<Governor> makeSourceGovernor(std::string_view id)
{
    Result<SourceGovernorSpec> spec = parseSourceGovernorId(id);
    if (!spec)
        return nullptr;
    return std::make_unique<SourceGovernor>(std::move(*spec));
}

Status buildSourceGovernorOf(std::string_view id, std::string *warnings)
{
    if (!isSourceGovernorId(id))
        return Ok{};
    Result<SourceGovernorSpec> spec = parseSourceGovernorId(id);
    if (!spec)
        return spec.error();
    Result<BuiltGovernor> b = buildSourceGovernor(spec->path);
    if (!b)
        return b.error();
    if (warnings)
        *warnings = std::move(b->warnings) + lastSandboxNotice(spec->path);
    return Ok{};
}

Status prepareGovernor(Governor &gov, const IdleStateTable &table, const IdleStream &stream, Ns latencyLimitNs,
                       const std::atomic<bool> *cancel)
{
    if (auto *s = dynamic_cast<SourceGovernor *>(&gov))
        return s->prepare(table, stream, latencyLimitNs, cancel);
    return Ok{};
}

Status finishGovernor(Governor &gov, const ReplaySummary *summary)
{
    if (auto *s = dynamic_cast<SourceGovernor *>(&gov))
        return s->checkPlayback(summary);
    return Ok{};
}

} // namespace idlescope
