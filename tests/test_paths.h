// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file test_paths.h
 * Where tests find their data: the environment wins (CI may lay shared/
 * elsewhere), then the paths CMake compiled in.
 */
#pragma once

#include <QString>
#include <QtGlobal>

namespace idlescope::test {

inline QString envOr(const char *name, const char *fallback)
{
    const QByteArray v = qgetenv(name);
    return v.isEmpty() ? QString::fromUtf8(fallback) : QString::fromLocal8Bit(v);
}

/// ../shared: conformance/, data/, docs/.
inline QString sharedDir() { return envOr("IDLESCOPE_SHARED_DIR", IDLESCOPE_SHARED_DIR); }
/// tests/data: committed fixtures.
inline QString testDataDir() { return envOr("IDLESCOPE_TEST_DATA", IDLESCOPE_TEST_DATA); }
/// The source tree (resources/ etc.).
inline QString sourceDir() { return envOr("IDLESCOPE_SOURCE_DIR", IDLESCOPE_SOURCE_DIR); }

} // namespace idlescope::test
