// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file oracle_governor.h
 * The oracle: not a kernel governor. It knows how long the entry ahead will
 * last (SelectContext::oracleIdleNs) and picks the deepest enabled state whose
 * target residency fits that time and whose exit latency fits the latency
 * limit. Its misses are the floor any real governor can reach on a stream.
 */
#pragma once

#include "core/governors/governor.h"

namespace idlescope {

class OracleGovernor final : public Governor {
public:
    explicit OracleGovernor(const VariantInfo &v) : m_variant(v) {}
    const VariantInfo &variant() const override { return m_variant; }
    void enable(const IdleStateTable &drv, CpuidleDevice &dev) override;
    Selection select(const IdleStateTable &drv, CpuidleDevice &dev, const SelectContext &ctx) override;
    void reflect(const IdleStateTable &drv, CpuidleDevice &dev, int index) override;

private:
    const VariantInfo &m_variant;
};

} // namespace idlescope
