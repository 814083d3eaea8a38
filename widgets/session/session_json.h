// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file session_json.h
 * The text of a saved idlescope session (`.idlescope`, JSON), written and
 * parsed: the whole ScenarioSpec (target with the user's table edits,
 * workload recipe, governors with their tunable settings and colours, latency
 * limit) plus the view (visible range, cursor, selected entry). The file
 * carries "format_version": 4 (4: generators gained parameters whose defaults would change an
 * older file's spans, so a format 3 file reads them at their old behaviour).
 *
 * Shape (QJsonObject writes keys in alphabetical order; unknown keys are ignored):
 *   {"format_version": 4, "generator": "idlescope 0.1.0",
 *    "target":   {"kind", "id", "path", "table": {the table JSON of core/io/table_json.h}},
 *    "workload": {"kind", "path", "description", "params": {name: number | string | bool}},
 *    "governors": [{"variant", "color": "#rrggbb", "settings": [{"name", "value"}]}],
 *    "latency_limit_ns": -1,
 *    "wake_delays": "/data/skx-c6-wult.csv",   (only when set: compare's --wake-delays)
 *    "view": {"range_start_ns", "range_end_ns", "cursor_ns", "selected_governor", "selected_entry"},
 *    "session_path": "/home/u/ab.idlescope"}
 *
 * "session_path" is written only in a recovery copy (recovery_store.h): the
 * session file the unsaved work belongs to, so that a restored copy comes back
 * under its name and Save writes there (a copy of an untitled window has none).
 *
 * The scenario's parts are core's: the workload's "kind", "path" and "params" and
 * each governor's "variant", "label", "source" and "settings" are written and
 * read by core/io/scenario_json.h (its comment says every kind's params, the
 * units of a generator's and the seeding of format 1 and 2 files), the table
 * by core/io/table_json.h. This file adds the window's own: the target's kind
 * ("builtin", "file" or "machine", targetKindName() of
 * widgets/runner/scenario_spec.h), id and path, the workload's "description",
 * each governor's "color", the latency limit in the window's range, the view
 * and the recovery copy's "session_path"; and it checks what the window cannot
 * show (a spec its field refuses, more spans than it generates, two governors
 * of one name, more than 64 governors). Every key says its unit: "_ns" keys
 * hold nanoseconds.
 *
 * Paths: a relative path in the file (the workload's "path", the target's "path",
 * "wake_delays", a "src:" governor's file) is the session file's folder's, never the
 * folder the window was started in (sessionRelativePath() of core/io/scenario_json.h,
 * one rule for all of them). The window holds absolute paths and writes them as it holds
 * them, so a saved session reads the same wherever it is opened from.
 *
 * Errors (idlescope::Error) name the file, the line of a JSON syntax error,
 * and the field by path, e.g. "governors[1].settings[0].value" or
 * "format_version" for a file written by a newer idlescope.
 *
 * QtCore (and QColor) only, no widgets: tests/fuzz/fuzz_session_json links it alone.
 * Files and the window's view state are widgets/session/session.h.
 */
#pragma once

#include "core/common/error.h"
#include "widgets/runner/scenario_spec.h"

#include <QByteArray>
#include <QString>

namespace idlescope {

/// The format this build writes and the newest it reads.
inline constexpr int SESSION_FORMAT_VERSION = 4;
/// File name suffix, without the dot.
inline constexpr const char *SESSION_SUFFIX = "idlescope";

/// What the user was looking at (ns relative to the run start, as ViewState).
struct SessionView {
    qint64 rangeStartNs = 0; ///< visible range; start == end == 0 means "the whole run"
    qint64 rangeEndNs = 0;
    qint64 cursorNs = -1;      ///< playback cursor, -1 for none
    int selectedGovernor = -1; ///< index into ScenarioSpec::governors, -1 for none
    qint64 selectedEntry = -1; ///< entry index in that governor's run, -1 for none

    bool operator==(const SessionView &) const = default;
};

struct Session {
    ScenarioSpec scenario;
    SessionView view;
    /// The session file this work belongs to, in a recovery copy ("" elsewhere: a session
    /// file is where it is). Not part of sameSession().
    QString sessionPath;
};

/// True when every saved field of @p x equals that of @p y (tables compared state by state).
bool sameScenario(const ScenarioSpec &x, const ScenarioSpec &y);
/// True when every saved field of @p a equals that of @p b (tables compared state by state).
bool sameSession(const Session &a, const Session &b);

/// The JSON text of @p s (indented, stable key order).
QByteArray sessionToJson(const Session &s);

/**
 * Parses session JSON; @p label names the text in errors. Checks the format
 * version, every field's type, the table (core/io/table_json.h rules), each
 * variant against the registry and each tunable setting against its governor.
 */
Result<Session> sessionFromJson(const QByteArray &json, const QString &label);

} // namespace idlescope
