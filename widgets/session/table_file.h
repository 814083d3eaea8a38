// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file table_file.h
 * The one way the window reads a table JSON file, and a count of the reads
 * made on the GUI thread. A table file may sit on a network folder that
 * stopped answering, or be huge: the window reads it on the file threads
 * (file_threads.h) when it is opened, alone or as a session's or a recovery
 * copy's target, and keeps the table it read, so that showing the target
 * again (an undo, a redo, the panels put back after a failed run) reads
 * nothing. Tests check that the count stays put while they do all of that.
 */
#pragma once

#include "core/common/error.h"
#include "core/states/idle_state_table.h"

#include <QString>

namespace idlescope {

/// Reads table file @p path (readTableJson(): a regular file of at most 16 MiB), and counts the
/// read when it runs on the GUI thread.
Result<IdleStateTable> readTableFile(const QString &path);

/// Table files read on the GUI thread since start (tests: it never grows while a session opens
/// or an edit is undone).
int tableFileReadsOnGuiThread();

} // namespace idlescope
