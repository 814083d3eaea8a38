// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file cli_test.h
 * What the CLI tests begin with, once: idlescope-cli run as a child and its refusals
 * (tests/cli_process.h), the test's own files written and read back (tests/test_files.h)
 * and the real traces (tests/test_paths.h), by the short names the tests use.
 */
#pragma once

#include "tests/cli_process.h"
#include "tests/test_files.h"
#include "tests/test_paths.h"

#include <QByteArray>
#include <QString>

using namespace Qt::StringLiterals;

using idlescope::test::CliResult;
using idlescope::test::refusedSaying;
using idlescope::test::runCli;
using idlescope::test::writeFile;

/// The bytes of @p path, or "<missing>" when it cannot be read: a file the command did not
/// write never passes for an empty one, nor for another missing file.
inline QByteArray readAll(const QString &path)
{
    return idlescope::test::readAll(path, "<missing>");
}

/// The real trace @p name (tests/data/traces).
inline QString trace(const char *name)
{
    return idlescope::test::tracePath(QString::fromUtf8(name));
}

/// A stream of two spans (the second one's timer 900 us away, woken at 700 us) that the
/// hostile-input tests give where a command needs any valid stream.
inline const QByteArray kTwoSpanStream = "gap_ns,timer_ns,wake_ns,latency_req_ns,util\n1000,50000,2000,-1,0\n"
                                         "3000,900000,700000,-1,0\n";
