// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file test_paths.h
 * Where tests find their data. Everything a test reads is in the repository
 * (tests/data), so a fresh clone passes with nothing beside it: the
 * conformance kit (tests/data/conformance), the real traces
 * (tests/data/traces) and the published state tables
 * (tests/data/state-tables.json) are copies of ../shared's. tst_shared_copies
 * checks that they still equal ../shared when that folder is there, so a
 * newer kit is noticed instead of silently ignored. The environment wins over
 * the paths CMake compiled in (a build may be run from another place).
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

/// tests/data: committed fixtures.
inline QString testDataDir()
{
    return envOr("IDLESCOPE_TEST_DATA", IDLESCOPE_TEST_DATA);
}
/// The source tree (resources/ etc.).
inline QString sourceDir()
{
    return envOr("IDLESCOPE_SOURCE_DIR", IDLESCOPE_SOURCE_DIR);
}

/// The conformance kit: tables/, streams/, expected/ and its README.
inline QString kitDir()
{
    return testDataDir() + QStringLiteral("/conformance");
}
/// Real traces with their SOURCES.md.
inline QString tracesDir()
{
    return testDataDir() + QStringLiteral("/traces");
}
/// One real trace by file name.
inline QString tracePath(const QString &name)
{
    return tracesDir() + u'/' + name;
}
/// pseries-p10 with power data (tests/data/power): snooze 3000 mW, CEDE 500 mW + 5 uJ an
/// entry, active 4000 mW.
inline QString powerTablePath()
{
    return testDataDir() + QStringLiteral("/power/pseries-p10-power.json");
}
/// The published state tables (shared/docs/state-tables.json).
inline QString stateTablesJson()
{
    return testDataDir() + QStringLiteral("/state-tables.json");
}

/// ../shared as laid beside the repository, if it is: only the check that
/// the in-tree copies are current reads it.
inline QString sharedDir()
{
    return envOr("IDLESCOPE_SHARED_DIR", IDLESCOPE_SHARED_DIR);
}

} // namespace idlescope::test
