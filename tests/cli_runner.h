// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file cli_runner.h
 * Running idlescope-cli from a test: exit code, stdout and stderr.
 */
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

namespace idlescope::test {

struct CliResult {
    int exitCode = -1;
    QString out;
    QString err;
};

/// Runs the CLI built with the tests (IDLESCOPE_CLI) and waits up to 2 minutes.
inline CliResult runCli(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(IDLESCOPE_CLI), args);
    p.waitForFinished(120000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

} // namespace idlescope::test
