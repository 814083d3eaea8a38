// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file shim_governor.h
 * A governor built from a kernel source file, seen as a Governor: each
 * call fills the shim's helper values from the SelectContext, copies the
 * device fields that the replay loop owns into the C struct cpuidle_device,
 * calls the file's callback, and copies back what the governor may change.
 * Each decision is appended to the host's output as it is made.
 */
#pragma once

#include "core/governors/governor.h"
#include "core/replay/reference_replay.h"
#include "core/source_governor/host_protocol.h"

extern "C" {
#include "core/source_governor/shim/include/idlescope/cpuidle_abi.h"
}

#include <cstdint>
#include <string>
#include <vector>

namespace idlescope::source_governor {

/// Where decisions go: a buffer written to stdout when full. 16 KiB (some 16,000
/// entries): idlescope plays the decisions back as they arrive, so a small buffer lets
/// it start sooner and leaves it less to play after the host's last write.
class DecisionSink {
public:
    void put(std::uint8_t b)
    {
        m_buf[m_used++] = b;
        if (m_used > sizeof(m_buf) - 16)
            flush();
    }
    void put64(std::int64_t v);
    void flush();
    bool failed() const { return m_failed; }

private:
    unsigned char m_buf[1 << 14];
    std::size_t m_used = 0;
    bool m_failed = false;
};

class ShimGovernor final : public Governor {
public:
    ShimGovernor(const VariantInfo &info, struct idlescope_shim_state &shim, struct cpuidle_driver &drv,
                 struct cpuidle_device &dev, struct cpuidle_governor &gov, bool skipSelectOneState,
                 HostProgress &progress, DecisionSink &sink);

    const VariantInfo &variant() const override { return m_info; }
    void enable(const IdleStateTable &drv, CpuidleDevice &dev) override;
    Selection select(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx) override;
    void reflect(const IdleStateTable &drv, CpuidleDevice &dev, int index) override;

    /// The replay whose counters the governor may read (states_usage).
    void setReplay(const ReferenceReplay *replay) { m_replay = replay; }
    /// Non-empty when a callback did something the kernel would not accept.
    const std::string &failure() const { return m_failure; }
    std::int64_t entries() const { return m_entry; }

private:
    void toC(const CpuidleDevice &dev);
    void fromC(CpuidleDevice &dev);
    /// Records a select() result outside the table as the failure; state 0 in its place.
    [[gnu::noinline, gnu::cold]] int badState(int idx);

    const VariantInfo &m_info;
    struct idlescope_shim_state &m_shim;
    struct cpuidle_driver &m_drv;
    struct cpuidle_device &m_dev;
    struct cpuidle_governor &m_gov;
    bool m_skipSelectOneState;
    HostProgress &m_progress;
    DecisionSink &m_sink;
    const ReferenceReplay *m_replay = nullptr;
    std::int64_t m_entry = 0;
    /// dev->poll_limit_ns as idlescope's own replay of the decisions will have it before the next select.
    std::uint64_t m_loopPollLimit = 0;
    Ns m_selectNowNs = 0; ///< local_clock() during the last select()
    /// The table's state count, as the driver has it before the file runs.
    int m_stateCount;
    /// select()'s *stop_tick: a member, not a local, so that passing its address does not
    /// make every select() set up and check a stack guard.
    idlescope_bool m_stopTick = true;
    std::string m_failure;
};

} // namespace idlescope::source_governor
