// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/session/session_json.h"
#include "widgets/runner/workload_seeding.h"

#include "core/experiments/comparison.h"
#include "core/governors/registry.h"
#include "core/io/table_json.h"
#include "core/source_governor/source_governor.h"
#include "core/source_governor/source_governor_names.h"
#include "core/workloads/workload.h"
#include "core/workloads/workload_spec.h"
#include "widgets/runner/spec_workload.h"
#include "widgets/session/session_json_reader.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace idlescope {

namespace {

QString key(const char *k)
{
    return QString::fromLatin1(k);
}

/// True when the held unit of @p p is a thousandth of the unit its name says (ns for "_us",
/// milli-% for "_pct", mHz for Hz): format 2 writes those in the named unit.
bool isScaled(const workloads::ParamInfo &p)
{
    return p.unit == workloads::ParamUnit::Us || p.unit == workloads::ParamUnit::Percent
           || p.unit == workloads::ParamUnit::Hz;
}

/// Held units per named unit of a scaled parameter.
constexpr qint64 HELD_PER_NAMED = 1000;

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

/// A generator's parameters as a session writes them: every value in the unit its key names,
/// "interval_us": 100 is 100 us (format 1 wrote the held 100000 ns under that name, and a
/// hand-edited 50 became 0.050 us).
void insertGeneratorParams(QJsonObject &params, const std::string &text)
{
    const Result<workloads::ParamValues> values = generatorValues(text);
    if (!values)
        return;
    for (const workloads::ParamInfo &p : values->info->params) {
        const qint64 held = values->get(p.name);
        if (!isScaled(p))
            params.insert(QString::fromUtf8(p.name), held);
        else if (held % HELD_PER_NAMED == 0)
            params.insert(QString::fromUtf8(p.name), held / HELD_PER_NAMED);
        else
            params.insert(QString::fromUtf8(p.name), static_cast<double>(held) / HELD_PER_NAMED);
    }
}

QJsonObject workloadJson(const WorkloadSourceSpec &w)
{
    QJsonObject o;
    o.insert(key("kind"), workloadKindName(w));
    o.insert(key("path"), QString::fromStdString(w.path));
    o.insert(key("description"), w.description);
    // The keys of format 3's "params", as the window held them before it held the text.
    QJsonObject params;
    switch (w.kind) {
    case WorkloadKind::Generator:
        insertGeneratorParams(params, w.text);
        if (w.legacySeeding)
            params.insert(QString::fromUtf8(SEEDING_PARAM), QString::fromUtf8(LEGACY_SEEDING));
        break;
    case WorkloadKind::ClosedLoop: params.insert(key("loop"), key("closed")); [[fallthrough]];
    case WorkloadKind::Spec: params.insert(key("spec"), QString::fromStdString(w.text)); break;
    case WorkloadKind::Trace: params.insert(key("cpu"), w.cpu); [[fallthrough]];
    case WorkloadKind::Csv: params.insert(key("file_stamp"), QString::fromStdString(w.fileStamp)); break;
    }
    if (w.kind == WorkloadKind::Generator || w.kind == WorkloadKind::Spec || w.kind == WorkloadKind::ClosedLoop) {
        params.insert(key("spans"), static_cast<qint64>(w.spans));
        params.insert(key("seed"), static_cast<qint64>(w.seed));
    }
    o.insert(key("params"), params);
    return o;
}

QJsonArray governorsJson(const std::vector<GovernorSpec> &governors)
{
    QJsonArray a;
    for (const GovernorSpec &g : governors) {
        QJsonArray settings;
        for (const auto &[name, value] : g.settings)
            settings.append(
                QJsonObject{{key("name"), QString::fromStdString(name)}, {key("value"), static_cast<qint64>(value)}});
        QJsonObject o;
        o.insert(key("variant"), QString::fromStdString(g.variant));
        if (!g.label.empty()) // a second instance of its variant; a file without labels reads as before
            o.insert(key("label"), QString::fromStdString(g.label));
        // A named source governor ("src:NAME"): the file and kernel version its name stands for.
        if (isSourceGovernorId(g.variant))
            if (const auto named = namedSourceFile(g.variant.substr(SOURCE_GOVERNOR_PREFIX.size())))
                o.insert(key("source"), QJsonObject{{key("path"), QString::fromStdString(named->path)},
                                                    {key("kernel"), QString::fromStdString(named->core.name())}});
        o.insert(key("color"), g.color.name(QColor::HexRgb));
        o.insert(key("settings"), settings);
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

TargetSpec readTarget(SessionJsonReader &r, const QJsonObject &root, const QString &label)
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
    t.path = r.string(o, key("path"), key("target.path"), false);
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

/// A scaled parameter @p p written in its named unit (format 2), in held units.
qint64 heldFromNamed(SessionJsonReader &r, const workloads::ParamInfo &p, const QJsonValue &v, const QString &path)
{
    if (!v.isDouble()) {
        r.fail(path, QStringLiteral("must be a number"));
        return 0;
    }
    const double named = v.toDouble();
    const double heldExact = named * HELD_PER_NAMED;
    const auto inRange = [&p](double held) {
        return held >= static_cast<double>(p.min) && held <= static_cast<double>(p.max);
    };
    if (!std::isfinite(named) || !inRange(heldExact)) {
        r.fail(path, QStringLiteral("%1 is outside %2..%3")
                         .arg(named)
                         .arg(static_cast<double>(p.min) / HELD_PER_NAMED)
                         .arg(static_cast<double>(p.max) / HELD_PER_NAMED));
        return 0;
    }
    const qint64 held = std::llround(heldExact);
    if (std::abs(heldExact - static_cast<double>(held)) > 1e-6 * std::max(1.0, std::abs(heldExact))) {
        r.fail(path, QStringLiteral("%1 has more than 3 decimals").arg(named, 0, 'g', 17));
        return 0;
    }
    return held;
}

/// A scaled parameter @p p as format 1 wrote it: a whole number in held units.
qint64 heldFromFormat1(SessionJsonReader &r, const workloads::ParamInfo &p, const QJsonValue &v, const QString &path)
{
    const qint64 held = r.integerValue(v, path);
    if (r.ok() && (held < p.min || held > p.max))
        r.fail(path, QStringLiteral("%1 is outside %2..%3 (format 1: in thousandths of the unit of its name)")
                         .arg(held)
                         .arg(p.min)
                         .arg(p.max));
    return r.ok() ? held : 0;
}

/// A count or a choice of a generator (a choice by its index, or by its word), in range.
qint64 heldFromPlain(SessionJsonReader &r, const workloads::ParamInfo &p, const QJsonValue &v, const QString &path)
{
    if (p.unit == workloads::ParamUnit::Choice && v.isString()) {
        for (std::size_t i = 0; i < p.choices.size(); ++i)
            if (v.toString() == QLatin1String(p.choices[i]))
                return static_cast<qint64>(i);
        r.fail(path, QStringLiteral("'%1' is not one of its choices").arg(v.toString()));
        return 0;
    }
    const qint64 held = r.integerValue(v, path);
    if (r.ok() && (held < p.min || held > p.max))
        r.fail(path, QStringLiteral("%1 is outside %2..%3").arg(held).arg(p.min).arg(p.max));
    return r.ok() ? held : 0;
}

/**
 * A generator's "params" as the text of that generator (every parameter, the ones not given
 * at their defaults). Format 1 held the values as they are used (ns under "_us" names): read
 * as they are, but as format 2 would check them, or the session, saved again, could not be
 * reopened. Keys that are no parameter of it (spans, seed, seeding, a hand-added one) are
 * left to the caller.
 */
std::string generatorTextOf(SessionJsonReader &r, const workloads::GeneratorInfo &g, const QJsonObject &params,
                            qint64 version)
{
    workloads::ParamValues values = g.defaults();
    for (const workloads::ParamInfo &p : g.params) {
        const QString name = QString::fromUtf8(p.name);
        if (!params.contains(name) || !r.ok())
            continue;
        const QString path = key("workload.params.") + name;
        const QJsonValue v = params.value(name);
        values.set(p.name, !isScaled(p)   ? heldFromPlain(r, p, v, path)
                           : version >= 2 ? heldFromNamed(r, p, v, path)
                                          : heldFromFormat1(r, p, v, path));
    }
    return workloads::generatorText(values);
}

WorkloadSourceSpec readWorkload(SessionJsonReader &r, const QJsonObject &root, qint64 version, const QString &label)
{
    WorkloadSourceSpec w;
    const QJsonObject o = r.object(root, key("workload"), key("workload"));
    const QString kind = r.string(o, key("kind"), key("workload.kind"), true);
    w.path = r.string(o, key("path"), key("workload.path"), false).toStdString();
    w.description = r.string(o, key("description"), key("workload.description"), false);
    const QJsonObject params =
        o.contains(key("params")) ? r.object(o, key("params"), key("workload.params")) : QJsonObject();
    if (!r.ok())
        return w;
    // Every value must be a scalar, the keys the kind does not use too ("unknown keys are ignored").
    for (auto it = params.begin(); it != params.end() && r.ok(); ++it)
        r.scalar(it.value(), key("workload.params.") + it.key());
    const Result<WorkloadKind> k =
        workloadKindFromName(kind, params.value(key("loop")).toString(), label, key("workload.kind"));
    if (!k) {
        r.fail(key("workload.kind"), QString::fromStdString(k.error().message));
        return w;
    }
    w.kind = *k;
    if (!r.ok())
        return w;
    switch (w.kind) {
    case WorkloadKind::Generator:
        w.text = generatorTextOf(r, *workloads::findGenerator(kind.toStdString()), params, version);
        // Formats 1 and 2 seeded a generator with the session's seed itself: their spans must not change.
        w.legacySeeding =
            version <= 2 || params.value(QString::fromUtf8(SEEDING_PARAM)).toString() == QLatin1String(LEGACY_SEEDING);
        break;
    case WorkloadKind::Spec:
    case WorkloadKind::ClosedLoop:
        w.text = r.string(params, key("spec"), key("workload.params.spec"), true).toStdString();
        // A spec's text is checked as the window's field checks it, so that a hand-edited
        // session names the column at fault when it is opened, not when it is simulated.
        if (r.ok()) {
            const QString refusal =
                specWorkloadRefusal(QString::fromStdString(w.text), w.kind == WorkloadKind::ClosedLoop);
            if (!refusal.isEmpty())
                r.fail(key("workload.params.spec"), refusal);
        }
        break;
    case WorkloadKind::Trace:
        w.cpu = static_cast<int>(r.integer(params, key("cpu"), key("workload.params.cpu"), false, w.cpu));
        [[fallthrough]];
    case WorkloadKind::Csv:
        w.fileStamp = r.string(params, key("file_stamp"), key("workload.params.file_stamp"), false).toStdString();
        break;
    }
    w.spans = r.integer(params, key("spans"), key("workload.params.spans"), false, w.spans);
    // Outside what the window generates, the spans field cut the count to its limit without a
    // word (50,000,001 became 10,000,000): refused here, naming the field.
    if (r.ok() && (w.kind == WorkloadKind::Generator || w.kind == WorkloadKind::Spec)
        && (w.spans < 1 || w.spans > maxWorkloadSpans(w.kind)))
        r.fail(key("workload.params.spans"), QStringLiteral("%1 spans: the window generates 1 to %2 for this workload")
                                                 .arg(w.spans)
                                                 .arg(maxWorkloadSpans(w.kind)));
    w.seed = r.integer(params, key("seed"), key("workload.params.seed"), false, w.seed);
    return w;
}

std::vector<TunableSetting> readSettings(SessionJsonReader &r, const QJsonObject &g, const QString &path)
{
    std::vector<TunableSetting> settings;
    if (!g.contains(key("settings")))
        return settings;
    const QJsonArray a = r.array(g, key("settings"), path + key(".settings"));
    for (qsizetype i = 0; i < a.size() && r.ok(); ++i) {
        const QString sp = path + QStringLiteral(".settings[%1]").arg(i);
        if (!a[i].isObject()) {
            r.fail(sp, QStringLiteral("must be an object {\"name\", \"value\"}"));
            break;
        }
        const QJsonObject s = a[i].toObject();
        const QString name = r.string(s, key("name"), sp + key(".name"), true);
        const qint64 value = r.integer(s, key("value"), sp + key(".value"), true);
        settings.emplace_back(name.toStdString(), value);
    }
    return settings;
}

/// @p file as the session names it: a relative path is the session's folder's (@p baseDir),
/// as for a colleague's tarball unpacked anywhere, never the folder the window started in.
std::string sessionRelativePath(const std::string &file, const QString &baseDir)
{
    const QString f = QString::fromStdString(file);
    if (file.empty() || QDir::isAbsolutePath(f))
        return file;
    return QDir::cleanPath(QDir(baseDir).filePath(f)).toStdString();
}

GovernorSpec readGovernor(SessionJsonReader &r, const QJsonValue &v, const QString &path, const QString &baseDir)
{
    GovernorSpec g;
    if (!v.isObject()) {
        r.fail(path, QStringLiteral("must be a JSON object"));
        return g;
    }
    const QJsonObject o = v.toObject();
    g.variant = r.string(o, key("variant"), path + key(".variant"), true).toStdString();
    // "src:NAME" with "source": {"path", "kernel"}: the name is given to that file again.
    if (r.ok() && o.contains(key("source"))) {
        const QString sp = path + key(".source");
        const QJsonObject src = r.object(o, key("source"), sp);
        const std::string file =
            sessionRelativePath(r.string(src, key("path"), sp + key(".path"), true).toStdString(), baseDir);
        const QString kernel = r.string(src, key("kernel"), sp + key(".kernel"), true);
        if (r.ok() && !isSourceGovernorId(g.variant))
            r.fail(sp, QStringLiteral("goes with a \"src:NAME\" variant"));
        if (r.ok()) {
            const Result<source_governor::KernelCore> core = source_governor::parseKernelCore(kernel.toStdString());
            if (!core)
                r.fail(sp + key(".kernel"), QString::fromStdString(core.error().message));
            else if (Status st = nameSourceGovernor(g.variant.substr(SOURCE_GOVERNOR_PREFIX.size()), {file, *core});
                     !st)
                r.fail(path + key(".variant"), QString::fromStdString(st.error().message));
        }
    }
    // "src:FILE[@KERNEL]" with a relative FILE: the session's folder's.
    if (r.ok() && isSourceGovernorId(g.variant) && !o.contains(key("source"))
        && !namedSourceFile(g.variant.substr(SOURCE_GOVERNOR_PREFIX.size())))
        if (const Result<SourceGovernorSpec> spec = parseSourceGovernorId(g.variant); spec) {
            const std::string rest = g.variant.substr(SOURCE_GOVERNOR_PREFIX.size());
            if (rest.starts_with(spec->path))
                g.variant = std::string(SOURCE_GOVERNOR_PREFIX) + sessionRelativePath(spec->path, baseDir)
                            + rest.substr(spec->path.size());
        }
    // "recorded" is the kernel's own choices of a trace workload (core/trace/recorded_entries.h).
    // "src:FILE.c[@KERNEL]" is a governor built from source (core/source_governor), saved by its path.
    if (r.ok() && !findVariant(g.variant) && g.variant != "recorded" && !isSourceGovernorId(g.variant))
        r.fail(path + key(".variant"),
               QStringLiteral("unknown governor variant '%1'").arg(QString::fromStdString(g.variant)));
    g.label = r.string(o, key("label"), path + key(".label"), false).toStdString();
    if (r.ok() && o.contains(key("label"))) {
        if (const std::string problem = experiments::governorLabelProblem(g.label); !problem.empty())
            r.fail(path + key(".label"), QString::fromStdString(problem));
        else if (findVariant(g.label))
            r.fail(path + key(".label"), QStringLiteral("'%1' is a variant's id").arg(QString::fromStdString(g.label)));
    }
    const QString color = r.string(o, key("color"), path + key(".color"), false);
    g.color = QColor(color);
    if (r.ok() && !color.isEmpty() && !g.color.isValid())
        r.fail(path + key(".color"), QStringLiteral("'%1' is not a colour (use #rrggbb)").arg(color));
    g.settings = readSettings(r, o, path);
    if (!r.ok())
        return g;
    // Each setting must be one the governor accepts, at a value it accepts.
    for (std::size_t i = 0; i < g.settings.size(); ++i) {
        auto gov = makeConfiguredGovernor(g.variant, {g.settings[i]});
        if (!gov) {
            r.fail(path + QStringLiteral(".settings[%1]").arg(i), QString::fromStdString(gov.error().message));
            break;
        }
    }
    return g;
}

SessionView readView(SessionJsonReader &r, const QJsonObject &root)
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
qint64 checkVersion(SessionJsonReader &r, const QJsonObject &root)
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
    if (x.governors.size() != y.governors.size() || x.latencyLimitNs != y.latencyLimitNs)
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

    SessionJsonReader r(label);
    const qint64 version = checkVersion(r, root);
    if (version == 0)
        return r.error();
    Session s;
    s.scenario.target = readTarget(r, root, label);
    if (r.ok())
        s.scenario.workload = readWorkload(r, root, version, label);
    const QJsonArray governors = r.array(root, key("governors"), key("governors"));
    if (r.ok() && governors.size() > MAX_SESSION_GOVERNORS)
        r.fail(key("governors"), QStringLiteral("%1 governors; a session holds at most %2")
                                     .arg(governors.size())
                                     .arg(MAX_SESSION_GOVERNORS));
    for (qsizetype i = 0; i < governors.size() && r.ok(); ++i) {
        GovernorSpec g =
            readGovernor(r, governors[i], QStringLiteral("governors[%1]").arg(i), QFileInfo(label).absolutePath());
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
    s.view = readView(r, root);
    s.sessionPath = r.string(root, key("session_path"), key("session_path"), false);
    if (r.ok() && s.view.selectedGovernor >= static_cast<int>(s.scenario.governors.size()))
        r.fail(key("view.selected_governor"), QStringLiteral("there is no governor %1").arg(s.view.selectedGovernor));
    if (!r.ok())
        return r.error();
    return s;
}

} // namespace idlescope
