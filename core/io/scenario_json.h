// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file scenario_json.h
 * A scenario's parts (core/scenario/scenario.h) as the JSON of a saved
 * session: the workload source as the session's "workload" object
 * {"kind", "path", "params"}, and a governor instance as one of its
 * "governors" {"variant", "label", "source", "settings"}. The session
 * (widgets/session/session_json.h) writes and reads these objects and adds
 * to them what only the window has: the workload's "description" and the
 * governor's "color". The table, with the user's edits and its tick rate, is
 * table_json.h's; the latency limit is one key of the session.
 *
 * Here, not in core/scenario: core/scenario is plain C++ and links no Qt, and
 * a session is Qt JSON; core/io is the part of core that uses QtCore, where
 * the table a session holds is written and read already. The functions take
 * the session's own objects and its field reader (json_field_reader.h), so
 * that a bad field is named by its path in the file
 * ("workload.params.spans", "governors[1].settings[0].value").
 *
 * Kinds: a workload is "csv" (params "file_stamp"), "trace" ("cpu",
 * "file_stamp"), "spec" ("spec": the text, "spans", "seed", and "loop":
 * "closed" for a closed loop) or a generator's name, its params every
 * parameter of the generator with "spans" and "seed": the scenario holds a
 * generator as the text of `idlescope-cli compare --workload`, written here
 * as those params and read back into that text.
 *
 * Every key says its unit, and its value is in that unit: a generator
 * parameter is written in the unit of its name ("interval_us": 100 is
 * 100 us, "busy_pct": 12.5 is 12.5 %, "hz": 250 is 250 Hz; up to 3
 * decimals). Format 1 wrote those parameters in the units the generator
 * holds (ns under an "_us" name): a format 1 object is read as it is.
 *
 * Seeding: up to format 2 a generator was seeded with the session's seed
 * itself, since format 3 as `idlescope-cli compare` does (runSeed). A
 * generator of a format 1 or 2 file is read with WorkloadSource::legacySeeding,
 * so that its spans stay the ones its user saw; the mark is written back
 * (params "seeding": "legacy") until the scenario switches to the common
 * seeding. A "seed" is what idlescope-cli --seed takes, 0 to 2^63 - 1, read
 * exactly; any other is refused with that range.
 */
#pragma once

#include "core/common/error.h"
#include "core/io/json_field_reader.h"
#include "core/scenario/scenario.h"

#include <QJsonObject>
#include <QString>

#include <string>

namespace idlescope {

/**
 * The name a session gives the kind of @p w: "csv", "trace", "spec" (a closed loop too: it
 * is told by "loop": "closed"), or a Generator's generator ("periodic"), read from its text.
 */
std::string workloadKindName(const scenario::WorkloadSource &w);

/**
 * The kind a session names @p name, with its "loop" @p loop ("closed" makes a "spec" a
 * closed loop): every generator of core/workloads is WorkloadKind::Generator. An unknown name
 * is an Error naming @p file and @p field ("workload.kind").
 */
Result<scenario::WorkloadKind> workloadKindFromName(const std::string &name, const std::string &loop,
                                                    const std::string &file, const std::string &field);

/// @p w as a session's "workload" object: "kind", "path" and the "params" of its kind.
QJsonObject workloadSourceJson(const scenario::WorkloadSource &w);

/**
 * A file @p file as a session names it, read from the session's folder @p baseDir: a
 * relative path is that folder's (a colleague's tarball unpacked anywhere), never the folder
 * the window or the command was started in; an absolute or empty one is as it is. The one
 * rule for every path a session holds: the workload's (a stream, a trace), the target's
 * table file, "wake_delays" and a "src:" governor's file. A session is written with the
 * paths the window holds, which are absolute: a saved file reads the same from anywhere.
 */
std::string sessionRelativePath(const std::string &file, const QString &baseDir);

/**
 * Reads the workload object @p o (at @p path, "workload") of a session of format
 * @p formatVersion into @p w; its relative "path" is @p baseDir's (sessionRelativePath()).
 * A key not given keeps the value @p w holds: the front end's
 * default (the window's spans are not the command line's). Every params value must be a
 * scalar, the keys the kind does not use too; a generator's parameters must be in range.
 */
void readWorkloadSource(JsonFieldReader &r, const QJsonObject &o, const QString &path, qint64 formatVersion,
                        const QString &baseDir, scenario::WorkloadSource &w);

/// @p g as one of a session's "governors": "variant", "label" (a second instance only),
/// "source" (a named source governor's file and kernel) and "settings".
QJsonObject governorInstanceJson(const scenario::GovernorInstance &g);

/**
 * Reads the governor object @p o (at @p path, "governors[1]") into @p g: the variant (one
 * of the registry, "recorded" or a source governor; a relative source file is @p baseDir's,
 * the session's folder), its label and its settings, each one the governor accepts.
 */
void readGovernorInstance(JsonFieldReader &r, const QJsonObject &o, const QString &path, const QString &baseDir,
                          scenario::GovernorInstance &g);

} // namespace idlescope
