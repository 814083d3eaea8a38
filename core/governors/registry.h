// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file registry.h
 * Every governor variant idlescope knows, by id ("menu-6.14", "teo-latest", …),
 * and a factory for each. Each family file lists its own variants; this file
 * only gathers them.
 */
#pragma once

#include "core/governors/governor.h"

#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace idlescope {

/// All variants, families in the order menu, teo, ladder, haltpoll, oracle.
const std::vector<const VariantInfo *> &allVariants();

/// The variant with this id, or nullptr.
const VariantInfo *findVariant(std::string_view id);

/// A fresh built-in governor for the id, or nullptr for any other id ("src:"
/// ids included: core/replay/governor_factory.h's createGovernor() takes those).
std::unique_ptr<Governor> createBuiltinGovernor(std::string_view id);

// Family hooks: each family file defines its pair.
std::span<const VariantInfo> menuVariants();
std::unique_ptr<Governor> makeMenuGovernor(const VariantInfo &v);
std::span<const VariantInfo> teoVariants();
std::unique_ptr<Governor> makeTeoGovernor(const VariantInfo &v);
std::span<const VariantInfo> teoLegacyVariants();
std::unique_ptr<Governor> makeTeoLegacyGovernor(const VariantInfo &v);
std::span<const VariantInfo> ladderVariants();
std::unique_ptr<Governor> makeLadderGovernor(const VariantInfo &v);
std::span<const VariantInfo> haltpollVariants();
std::unique_ptr<Governor> makeHaltpollGovernor(const VariantInfo &v);
std::span<const VariantInfo> oracleVariants();
std::unique_ptr<Governor> makeOracleGovernor(const VariantInfo &v);

} // namespace idlescope
