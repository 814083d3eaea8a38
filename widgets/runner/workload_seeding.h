// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file workload_seeding.h
 * Which seed derivation a generator workload uses. The window generates its
 * spans as `idlescope-cli compare --iterations 1` does (seededStream() of
 * core/workloads/workload_spec.h), so that a copied command reproduces them;
 * a session saved before that (format 2 and older) is read with
 * WorkloadSourceSpec::legacySeeding set (the session writes params "seeding":
 * "legacy" for it) and keeps the former derivation
 * (legacyDirectSeedStream()), so that its spans never change behind its
 * user's back, until the user switches it.
 */
#pragma once

#include "widgets/runner/scenario_spec.h"

namespace idlescope {

/// The session's params key marking a generator workload that keeps the legacy seeding, and its value.
inline constexpr const char *SEEDING_PARAM = "seeding";
inline constexpr const char *LEGACY_SEEDING = "legacy";

/// True when @p w keeps the legacy seeding (an old session's generator workload).
inline bool usesLegacySeeding(const WorkloadSourceSpec &w)
{
    return w.kind == WorkloadKind::Generator && w.legacySeeding;
}

} // namespace idlescope
