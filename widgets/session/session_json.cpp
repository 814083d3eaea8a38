// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/session/session_json.h"

#include "core/common/text_cells.h"
#include "core/io/json_field_reader.h"
#include "core/io/scenario_json.h"
#include "core/io/table_json.h"
#include "widgets/runner/spec_workload.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace idlescope {

namespace {

QString key(const char *k)
{
    return QString::fromLatin1(k);
}

/// Governors a session may hold: every built-in variant (27) with room for labelled
/// instances and source files. Each is a run, a plot series and a legend entry: a
/// stranger's file with a thousand of them kept the window busy for minutes.
constexpr qsizetype MAX_SESSION_GOVERNORS = 64;

// ---- writing ---------------------------------------------------------------

QJsonObject targetJson(const TargetSpec &t)
{
    // The table goes through core/io's own format so the saved table reads
    // back exactly as a table file would.
    const QByteArray tableText = QByteArray::fromStdString(formatTableJson(t.table));
    QJsonObject o;
    o.insert(key("kind"), targetKindName(t.kind));
    o.insert(key("id"), t.id);
    o.insert(key("path"), t.path);
    o.insert(key("table"), QJsonDocument::fromJson(tableText).object());
    return o;
}

/// The workload: core's workload source (core/io/scenario_json.h) with the window's description.
QJsonObject workloadJson(const WorkloadSourceSpec &w)
{
    QJsonObject o = workloadSourceJson(w);
    o.insert(key("description"), w.description);
    return o;
}

/// The governors: core's instances (core/io/scenario_json.h), each with the window's colour.
QJsonArray governorsJson(const std::vector<GovernorSpec> &governors)
{
    QJsonArray a;
    for (const GovernorSpec &g : governors) {
        QJsonObject o = governorInstanceJson(g);
        o.insert(key("color"), g.color.name(QColor::HexRgb));
        a.append(o);
    }
    return a;
}

QJsonObject viewJson(const SessionView &v)
{
    QJsonObject o;
    o.insert(key("range_start_ns"), v.rangeStartNs);
    o.insert(key("range_end_ns"), v.rangeEndNs);
    o.insert(key("cursor_ns"), v.cursorNs);
    o.insert(key("selected_governor"), v.selectedGovernor);
    o.insert(key("selected_entry"), v.selectedEntry);
    return o;
}

// ---- reading ---------------------------------------------------------------

qint64 lineOfOffset(const QByteArray &text, int offset)
{
    return 1 + text.left(offset).count('\n');
}

TargetSpec readTarget(JsonFieldReader &r, const QJsonObject &root, const QString &label, const QString &baseDir)
{
    TargetSpec t;
    const QJsonObject o = r.object(root, key("target"), key("target"));
    const QString kind = r.string(o, key("kind"), key("target.kind"), true);
    if (r.ok()) {
        const Result<TargetKind> k = targetKindFromName(kind, label, key("target.kind"));
        if (k)
            t.kind = *k;
        else
            r.fail(key("target.kind"), QString::fromStdString(k.error().message));
    }
    t.id = r.string(o, key("id"), key("target.id"), false);
    t.path = QString::fromStdString(
        sessionRelativePath(r.string(o, key("path"), key("target.path"), false).toStdString(), baseDir));
    const QJsonObject table = r.object(o, key("table"), key("target.table"));
    if (!r.ok())
        return t;
    const QByteArray text = QJsonDocument(table).toJson(QJsonDocument::Compact);
    Result<IdleStateTable> parsed = parseTableJson(text.toStdString(), label.toStdString());
    if (!parsed) {
        const QString field = QString::fromStdString(parsed.error().field);
        r.fail(field.isEmpty() ? key("target.table") : key("target.table.") + field,
               QString::fromStdString(parsed.error().message));
        return t;
    }
    t.table = std::move(*parsed);
    return t;
}

/**
 * The workload: core's workload source (core/io/scenario_json.h), read over the window's
 * defaults (DEFAULT_WORKLOAD_SPANS when a file gives no spans), then what only the window
 * has and checks: its description, a spec text its field would refuse, spans it cannot make.
 */
WorkloadSourceSpec readWorkload(JsonFieldReader &r, const QJsonObject &root, qint64 version, const QString &baseDir)
{
    WorkloadSourceSpec w;
    const QJsonObject o = r.object(root, key("workload"), key("workload"));
    if (!r.ok())
        return w;
    readWorkloadSource(r, o, key("workload"), version, baseDir, w);
    w.description = r.string(o, key("description"), key("workload.description"), false);
    // Shown in the legend and the exports: no escape, newline or right-to-left override in it
    // (the one check of core/common/text_cells.h, as for a governor's label).
    if (r.ok() && holdsControlCharacter(w.description.toStdString()))
        r.fail(key("workload.description"), QStringLiteral("may not hold a control character or a bidirectional "
                                                           "control (U+202E and the like reorder the text shown "
                                                           "after it)"));
    // A spec's text is checked as the window's field checks it, so that a hand-edited
    // session names the column at fault when it is opened, not when it is simulated.
    if (r.ok() && (w.kind == WorkloadKind::Spec || w.kind == WorkloadKind::ClosedLoop)) {
        const QString refusal = specWorkloadRefusal(QString::fromStdString(w.text), w.kind == WorkloadKind::ClosedLoop);
        if (!refusal.isEmpty())
            r.fail(key("workload.params.spec"), refusal);
    }
    // Outside what the window generates, the spans field cut the count to its limit without a
    // word (50,000,001 became 10,000,000): refused here, naming the field.
    if (r.ok() && (w.kind == WorkloadKind::Generator || w.kind == WorkloadKind::Spec)
        && (w.spans < 1 || w.spans > maxWorkloadSpans(w.kind)))
        r.fail(key("workload.params.spans"), QStringLiteral("%1 spans: the window generates 1 to %2 for this workload")
                                                 .arg(w.spans)
                                                 .arg(maxWorkloadSpans(w.kind)));
    return w;
}

/// A governor column: core's instance (core/io/scenario_json.h) with the window's colour.
GovernorSpec readGovernor(JsonFieldReader &r, const QJsonValue &v, const QString &path, const QString &baseDir)
{
    GovernorSpec g;
    if (!v.isObject()) {
        r.fail(path, QStringLiteral("must be a JSON object"));
        return g;
    }
    const QJsonObject o = v.toObject();
    readGovernorInstance(r, o, path, baseDir, g);
    const QString color = r.string(o, key("color"), path + key(".color"), false);
    g.color = QColor(color);
    if (r.ok() && !color.isEmpty() && !g.color.isValid())
        r.fail(path + key(".color"), QStringLiteral("'%1' is not a colour (use #rrggbb)").arg(color));
    return g;
}

SessionView readView(JsonFieldReader &r, const QJsonObject &root)
{
    SessionView v;
    if (!root.contains(key("view")))
        return v;
    const QJsonObject o = r.object(root, key("view"), key("view"));
    v.rangeStartNs = r.integer(o, key("range_start_ns"), key("view.range_start_ns"), false, 0);
    v.rangeEndNs = r.integer(o, key("range_end_ns"), key("view.range_end_ns"), false, 0);
    v.cursorNs = r.integer(o, key("cursor_ns"), key("view.cursor_ns"), false, -1);
    v.selectedGovernor =
        static_cast<int>(r.integer(o, key("selected_governor"), key("view.selected_governor"), false, -1));
    v.selectedEntry = r.integer(o, key("selected_entry"), key("view.selected_entry"), false, -1);
    if (r.ok() && v.rangeEndNs < v.rangeStartNs)
        r.fail(key("view.range_end_ns"), QStringLiteral("is before range_start_ns"));
    return v;
}

/// The version gate comes first: a newer file may differ in every other field.
/// The file's version, or 0 when it cannot be read.
qint64 checkVersion(JsonFieldReader &r, const QJsonObject &root)
{
    if (!root.contains(key("format_version"))) {
        r.fail(key("format_version"), QStringLiteral("missing: not an idlescope session file"));
        return 0;
    }
    const qint64 version = r.integer(root, key("format_version"), key("format_version"), true);
    if (!r.ok())
        return 0;
    if (version > SESSION_FORMAT_VERSION) {
        r.fail(key("format_version"),
               QStringLiteral("the file was written by a newer idlescope (format %1); this version "
                              "reads format %2 and older")
                   .arg(version)
                   .arg(SESSION_FORMAT_VERSION));
        return 0;
    }
    if (version < 1) {
        r.fail(key("format_version"), QStringLiteral("%1 is not a valid format version").arg(version));
        return 0;
    }
    return version;
}

} // namespace

bool sameScenario(const ScenarioSpec &x, const ScenarioSpec &y)
{
    if (x.target.kind != y.target.kind || x.target.id != y.target.id || x.target.path != y.target.path
        || x.target.table != y.target.table)
        return false;
    if (!sameWorkload(x.workload, y.workload) || x.workload.description != y.workload.description)
        return false;
    if (x.governors.size() != y.governors.size() || x.latencyLimitNs != y.latencyLimitNs
        || x.wakeDelaysPath != y.wakeDelaysPath)
        return false;
    for (std::size_t i = 0; i < x.governors.size(); ++i) {
        const GovernorSpec &g = x.governors[i];
        const GovernorSpec &h = y.governors[i];
        if (g.variant != h.variant || g.label != h.label || g.settings != h.settings || g.color.rgb() != h.color.rgb())
            return false;
    }
    return true;
}

bool sameSession(const Session &a, const Session &b)
{
    return sameScenario(a.scenario, b.scenario) && a.view == b.view;
}

QByteArray sessionToJson(const Session &s)
{
    QJsonObject root;
    root.insert(key("format_version"), SESSION_FORMAT_VERSION);
    const QString version = QCoreApplication::applicationVersion();
    root.insert(key("generator"), version.isEmpty() ? key("idlescope") : QStringLiteral("idlescope ") + version);
    root.insert(key("target"), targetJson(s.scenario.target));
    root.insert(key("workload"), workloadJson(s.scenario.workload));
    root.insert(key("governors"), governorsJson(s.scenario.governors));
    root.insert(key("latency_limit_ns"), static_cast<qint64>(s.scenario.latencyLimitNs));
    if (!s.scenario.wakeDelaysPath.isEmpty()) // absent: the table's own (every older session)
        root.insert(key("wake_delays"), s.scenario.wakeDelaysPath);
    root.insert(key("view"), viewJson(s.view));
    if (!s.sessionPath.isEmpty())
        root.insert(key("session_path"), s.sessionPath);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

Result<Session> sessionFromJson(const QByteArray &json, const QString &label)
{
    QJsonParseError perr;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &perr);
    if (perr.error != QJsonParseError::NoError)
        return Error{label.toStdString(), lineOfOffset(json, perr.offset), "",
                     "not valid JSON: " + perr.errorString().toStdString()};
    if (!doc.isObject())
        return Error{label.toStdString(), 1, "", "expected a JSON object (an idlescope session)"};
    const QJsonObject root = doc.object();

    JsonFieldReader r(label);
    const qint64 version = checkVersion(r, root);
    if (version == 0)
        return r.error();
    // Every relative path of the file is its folder's (sessionRelativePath() of core/io/scenario_json.h).
    const QString baseDir = QFileInfo(label).absolutePath();
    Session s;
    s.scenario.target = readTarget(r, root, label, baseDir);
    if (r.ok())
        s.scenario.workload = readWorkload(r, root, version, baseDir);
    const QJsonArray governors = r.array(root, key("governors"), key("governors"));
    if (r.ok() && governors.size() > MAX_SESSION_GOVERNORS)
        r.fail(key("governors"), QStringLiteral("%1 governors; a session holds at most %2")
                                     .arg(governors.size())
                                     .arg(MAX_SESSION_GOVERNORS));
    for (qsizetype i = 0; i < governors.size() && r.ok(); ++i) {
        GovernorSpec g = readGovernor(r, governors[i], QStringLiteral("governors[%1]").arg(i), baseDir);
        // Every view tells governors apart by name: a second instance needs a label of its own.
        for (const GovernorSpec &h : s.scenario.governors)
            if (r.ok() && h.name() == g.name())
                r.fail(QStringLiteral("governors[%1]").arg(i),
                       (g.label.empty() ? QStringLiteral("'%1' is listed twice: give the second instance a \"label\"")
                                        : QStringLiteral("the label '%1' is another governor's name: give it "
                                                         "a \"label\" of its own"))
                           .arg(QString::fromStdString(g.name())));
        s.scenario.governors.push_back(std::move(g));
    }
    s.scenario.latencyLimitNs = r.integer(root, key("latency_limit_ns"), key("latency_limit_ns"), false, -1);
    if (r.ok() && (s.scenario.latencyLimitNs < -1 || s.scenario.latencyLimitNs > LATENCY_LIMIT_MAX_NS))
        r.fail(key("latency_limit_ns"), QStringLiteral("must be -1 (none) or a latency from 0 to %1 ns (got %2)")
                                            .arg(LATENCY_LIMIT_MAX_NS)
                                            .arg(s.scenario.latencyLimitNs));
    s.scenario.wakeDelaysPath = QString::fromStdString(
        sessionRelativePath(r.string(root, key("wake_delays"), key("wake_delays"), false).toStdString(), baseDir));
    s.view = readView(r, root);
    s.sessionPath = r.string(root, key("session_path"), key("session_path"), false);
    if (r.ok() && s.view.selectedGovernor >= static_cast<int>(s.scenario.governors.size()))
        r.fail(key("view.selected_governor"), QStringLiteral("there is no governor %1").arg(s.view.selectedGovernor));
    if (!r.ok())
        return r.error();
    return s;
}

} // namespace idlescope
