// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file cli_process.h
 * Runs idlescope-cli as a child process for the CLI tests: exit code,
 * standard output and standard error.
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

inline CliResult runCli(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(IDLESCOPE_CLI), args);
    p.waitForFinished(300000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

} // namespace idlescope::test
