// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file session.h
 * Session files (`.idlescope`; their JSON is widgets/session/session_json.h):
 * saved atomically, read with a size cap and only from regular files, and the
 * view part taken from and restored into the window's ViewState.
 */
#pragma once

#include "widgets/session/session_json.h"

namespace idlescope {

class ViewState;

/// Writes @p s to @p path atomically (write-then-rename: the old file survives any error).
Status saveSession(const Session &s, const QString &path);

/// Reads a session file (at most 64 MiB).
Result<Session> loadSession(const QString &path);

/// The view part of @p v, for saving.
SessionView captureView(const ViewState &v);

/// Restores range, cursor and selection into @p v; call after the snapshot
/// has set the full range (the range is clamped to it).
void applyView(const SessionView &sv, ViewState &v);

} // namespace idlescope
