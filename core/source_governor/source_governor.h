// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file source_governor.h
 * A governor from a kernel source file, as the rest of idlescope sees it:
 * variant id "src:PATH" (or "src:PATH@KERNEL", the kernel version whose
 * cpuidle core and idle loop it runs with; default 7.0), or "src:NAME" once
 * NAME names the file (source_governor_names.h).
 *
 * The user's code never runs in this process. prepare() builds the file
 * (cached) and has the governor host replay the whole stream with it; the
 * governor object then plays those decisions back, so that every metric,
 * table and view of idlescope is computed by the same code as for a
 * built-in variant. A governor that was not prepared for the stream it is
 * replayed on decides nothing (state 0) and reports it: callers that know
 * the stream call prepareGovernor() first.
 */
#pragma once

#include "core/governors/governor.h"
#include "core/replay/reference_replay.h"
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

    /// Builds the file and runs it on @p stream in the governor host.
    Status prepare(const IdleStateTable &table, const IdleStream &stream, Ns latencyLimitNs = NO_LATENCY_REQ,
                   const std::atomic<bool> *cancel = nullptr);
    /// After a replay of the prepared stream: an Error if it did not use
    /// exactly the host's decisions (an unprepared governor, another stream).
    Status checkPlayback(const ReplaySummary &summary) const;

    const SourceGovernorSpec &spec() const { return m_spec; }
    /// The compiler's warnings and the governor's printed messages of the last prepare().
    const std::string &warnings() const { return m_warnings; }
    const std::string &log() const { return m_log; }

private:
    SourceGovernorSpec m_spec;
    VariantInfo m_info;
    std::vector<std::uint8_t> m_decisions;
    std::int64_t m_entries = -1; ///< -1: not prepared
    Ns m_endNowNs = 0;
    std::size_t m_pos = 0;
    std::int64_t m_played = 0;
    bool m_overrun = false;
    std::string m_warnings;
    std::string m_log;
};

/// createGovernor()'s factory for "src:" ids (the registry's hook); nullptr for a malformed id.
std::unique_ptr<Governor> makeSourceGovernor(std::string_view id);

/// Builds (or finds in the cache) the file of a "src:" id, so that a bad
/// file is reported once before any replay; Ok for every other id.
Status buildSourceGovernorOf(std::string_view id);

/// Prepares @p gov for @p stream when it is a SourceGovernor; Ok for every other governor.
Status prepareGovernor(Governor &gov, const IdleStateTable &table, const IdleStream &stream,
                       Ns latencyLimitNs = NO_LATENCY_REQ, const std::atomic<bool> *cancel = nullptr);

} // namespace idlescope
