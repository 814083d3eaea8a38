// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file record_tracefs.h
 * What `idlescope-cli record` changes in the kernel's tracing, and how it is
 * put back on every way out: the tracefs files it writes (event enables,
 * tracing_on, buffer_size_kb) are read first and restored to what they held,
 * by restore() or the destructor; a signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT)
 * is passed on to the child being waited for and noted, so that the caller
 * restores and leaves instead of dying with the events on. One record at a
 * time: the tracefs folder is locked (flock) for the session, and a second
 * record is refused while the first runs.
 *
 * IDLESCOPE_TRACEFS names a folder to use as tracefs (tests: a plain folder
 * with the files record touches); without it, the mounted tracefs.
 */
#pragma once

#include "core/common/error.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace idlescope::cli {

/// Where tracefs is: $IDLESCOPE_TRACEFS, else its mount point, mounting it at
/// /sys/kernel/tracing when the kernel has it and nothing mounted it yet.
Result<std::string> tracefsDir();

/// The tracing state record changes, each file's old content kept and written
/// back by restore() or at the latest by the destructor.
class TracefsSession {
public:
    /// Locks @p dir for this session: an Error when another record holds it.
    static Result<std::unique_ptr<TracefsSession>> open(const std::string &dir);
    ~TracefsSession();
    TracefsSession(const TracefsSession &) = delete;
    TracefsSession &operator=(const TracefsSession &) = delete;

    /// Writes @p value to the tracefs file @p path (relative), its old value kept for restore().
    Status set(const std::string &path, const std::string &value);
    /// Stops tracing, empties the buffers, sizes them for a few seconds of events, starts.
    Status start();
    void stop();
    /// Every file set() or start() wrote, back to its old content (last written first).
    void restore();

private:
    TracefsSession(std::string dir, int lockFd) : m_dir(std::move(dir)), m_lockFd(lockFd) {}
    Status write(const std::string &path, const std::string &value);
    Status remember(const std::string &path);

    std::string m_dir;
    int m_lockFd = -1;
    std::vector<std::pair<std::string, std::string>> m_saved; ///< (path, old value) in the order written
};

/// Catches SIGINT, SIGTERM, SIGHUP and SIGQUIT (and ignores SIGPIPE) while it
/// lives; a signal is passed on to the child runChild() waits for.
class RecordSignals {
public:
    RecordSignals();
    ~RecordSignals();
    RecordSignals(const RecordSignals &) = delete;
    RecordSignals &operator=(const RecordSignals &) = delete;
    /// The first signal caught, or 0.
    static int caught();
};

/// Runs @p argv (its standard output sent to our standard error) and waits for
/// it; its exit code, or -1 when it could not run or was killed. Not started
/// when a signal came already; a signal that comes meanwhile is passed on (a
/// second one as SIGKILL), so the child never outlives record.
int runChild(const std::vector<std::string> &argv);

/// "SIGTERM" for SIGTERM, and so on.
std::string signalName(int sig);

} // namespace idlescope::cli
