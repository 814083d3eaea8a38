// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file source_governor.h
 * A governor from a kernel source file, as the rest of idlescope sees it:
 * variant id "src:PATH" (or "src:PATH@KERNEL", the kernel version whose
 * cpuidle core and idle loop it runs with; default 7.0), or "src:NAME" once
 * NAME names the file (source_governor_names.h).
 *
 * The user's code never runs in this process. prepare() builds the file
 * (cached) and starts the governor host on the stream; the governor object
 * plays the host's decisions back as they arrive, so that every metric,
 * table and view of idlescope is computed by the same code as for a
 * built-in variant, beside the host's own replay. A governor that was not
 * prepared for the stream it is replayed on decides nothing (state 0) and
 * reports it: callers that know the stream call prepareGovernor() first,
 * and finishGovernor() after the replay (a crash or a hang of the host
 * after its first decision is known only then).
 */
#pragma once

#include "core/governors/governor.h"
#include "core/replay/reference_replay.h"
#include "core/source_governor/host_protocol.h"
#include "core/source_governor/source_run.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idlescope {

inline constexpr std::string_view SOURCE_GOVERNOR_PREFIX = "src:";

/// True for "src:..." ids.
bool isSourceGovernorId(std::string_view id);

struct SourceGovernorSpec {
    std::string path;                 ///< the governor source file
    std::string name;                 ///< shown as the variant id; default "src:PATH"
    source_governor::KernelCore core; ///< cpuidle core and idle loop version
    int timeoutSeconds = source_governor::DEFAULT_SOURCE_TIMEOUT_S;
};

/// "src:PATH[@KERNEL]" to a spec; an Error for a bad kernel version or an empty path.
/// "src:NAME" for a name of source_governor_names.h is the file it names.
Result<SourceGovernorSpec> parseSourceGovernorId(std::string_view id);

/// What is wrong with the "src:" id @p id (parseSourceGovernorId()'s Error), "" when nothing:
/// for the list that names it, rather than "unknown governor variant".
std::string sourceGovernorIdProblem(std::string_view id);

/// "src:PATH@KERNEL" for a named source governor's id ("src:NAME"), as idlescope-cli's
/// --governors takes it; @p id itself for any other id.
std::string sourceGovernorFileId(std::string_view id);

class SourceGovernor final : public Governor {
public:
    explicit SourceGovernor(SourceGovernorSpec spec);

    const VariantInfo &variant() const override { return m_info; }
    void enable(const IdleStateTable &drv, CpuidleDevice &dev) override;
    Selection select(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx) override;
    void reflect(const IdleStateTable &, CpuidleDevice &, int) override {}

    /// Builds the file and starts it on @p stream in the governor host; returns
    /// when its first decision has arrived, or with the Error of a host that
    /// ended before making one (a refusal, a crash in the initcall or enable()).
    /// @p stream and @p cancel must outlive the replay.
    Status prepare(const IdleStateTable &table, const IdleStream &stream, Ns latencyLimitNs = NO_LATENCY_REQ,
                   const std::atomic<bool> *cancel = nullptr);
    /// After a replay of the prepared stream: waits for the host to end, then
    /// the Error of a host that failed (crash, hang, cancel), or of a replay
    /// that did not use exactly the host's decisions (an unprepared governor,
    /// another stream). With @p summary null (a replay stopped early) only the
    /// host's failure and decisions it did not make count.
    Status checkPlayback(const ReplaySummary *summary);

    const SourceGovernorSpec &spec() const { return m_spec; }
    /// How long the host may make no progress before prepare()'s run is stopped as hung.
    void setTimeoutSeconds(int seconds) { m_spec.timeoutSeconds = seconds; }
    /// The compiler's warnings of the last prepare(), and the governor's printed
    /// messages once checkPlayback() has seen its host end.
    const std::string &warnings() const { return m_warnings; }
    const std::string &log() const { return m_log; }
    /// The last prepare()'s warning that the host ran in a partial sandbox (a layer the
    /// kernel or a container forbids), "" when fully confined; also in warnings().
    const std::string &sandboxNotice() const { return m_sandboxNotice; }

private:
    SourceGovernorSpec m_spec;
    VariantInfo m_info;
    /// The next decision byte: from the block in hand, else from the host (waiting for it).
    std::uint8_t nextByte()
    {
        if (m_pos == m_bytesEnd && !nextBytes())
            return source_governor::DECISION_END;
        return m_bytes[m_pos++ - m_bytesStart];
    }
    bool nextBytes();

    std::unique_ptr<source_governor::HostRun> m_host; ///< null: not prepared
    std::optional<Status> m_hostEnd;                  ///< what finishing the host gave
    std::int64_t m_entries = -1;                      ///< the host's count, once it ended
    Ns m_endNowNs = 0;
    std::size_t m_decisionBytes = 0;       ///< before the host's end record
    const std::uint8_t *m_bytes = nullptr; ///< the decision bytes [m_bytesStart, m_bytesEnd) in hand
    std::size_t m_bytesStart = 0;
    std::size_t m_bytesEnd = 0;
    std::size_t m_pos = 0; ///< next decision byte
    std::int64_t m_played = 0;
    bool m_overrun = false; ///< a select() found no decision left
    int m_badState = -1;    ///< a decision for a state the table lacks (bytes the governor wrote to fd 5)
    std::string m_warnings;
    std::string m_sandboxNotice;
    std::string m_log;
};

/// createGovernor()'s factory for "src:" ids (core/replay/governor_factory.h); nullptr for a malformed id.
std::unique_ptr<Governor> makeSourceGovernor(std::string_view id);

/// Builds (or finds in the cache) the file of a "src:" id, so that a bad
/// file is reported once before any replay; Ok for every other id. @p warnings,
/// when given, gets the compiler's warnings (those of the cached build on a cache hit),
/// then the partial-sandbox warning of the file's last run in this process, if any.
Status buildSourceGovernorOf(std::string_view id, std::string *warnings = nullptr);

/// Prepares @p gov for @p stream when it is a SourceGovernor; Ok for every other governor.
Status prepareGovernor(Governor &gov, const IdleStateTable &table, const IdleStream &stream,
                       Ns latencyLimitNs = NO_LATENCY_REQ, const std::atomic<bool> *cancel = nullptr);

/// After the replay of a prepared @p gov: SourceGovernor::checkPlayback(); Ok for every other governor.
Status finishGovernor(Governor &gov, const ReplaySummary *summary);

} // namespace idlescope
