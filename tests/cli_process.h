// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file cli_process.h
 * Runs idlescope-cli (the one built with the tests, IDLESCOPE_CLI) as a
 * child process for the CLI tests: exit code, standard output and standard
 * error. A run that did not finish normally (a crash, or still running after
 * 5 minutes) has exit code -1 and says so in `err`, so that it can never pass
 * for a success or for a clean refusal.
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
    const bool finished = p.waitForFinished(300000);
    CliResult r{p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
    if (!finished || p.exitStatus() != QProcess::NormalExit) {
        p.kill();
        r.exitCode = -1;
        r.err += QStringLiteral("\n[idlescope-cli did not finish normally: %1]").arg(p.errorString());
    }
    return r;
}

} // namespace idlescope::test
