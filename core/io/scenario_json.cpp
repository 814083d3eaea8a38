// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/scenario_json.h"

#include "core/experiments/comparison.h"
#include "core/governors/registry.h"
#include "core/replay/governor_run.h"
#include "core/source_governor/source_governor.h"
#include "core/source_governor/source_governor_names.h"
#include "core/workloads/workload.h"
#include "core/workloads/workload_spec.h"

#include <QDir>
#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace idlescope {

using scenario::WorkloadKind;

namespace {

QString key(const char *k)
{
    return QString::fromLatin1(k);
}

/// The params key marking a generator that keeps the legacy seeding, and its value.
constexpr const char *SEEDING_PARAM = "seeding";
constexpr const char *LEGACY_SEEDING = "legacy";

/// True when the held unit of @p p is a thousandth of the unit its name says (ns for "_us",
/// milli-% for "_pct", mHz for Hz): format 2 writes those in the named unit.
bool isScaled(const workloads::ParamInfo &p)
{
    return p.unit == workloads::ParamUnit::Us || p.unit == workloads::ParamUnit::Percent
           || p.unit == workloads::ParamUnit::Hz;
}

/// Held units per named unit of a scaled parameter.
constexpr qint64 HELD_PER_NAMED = 1000;

/// "a, b or c" of an unknown kind's choices: every generator of core/workloads.
std::string generatorNames()
{
    std::string names;
    for (const workloads::GeneratorInfo &g : workloads::allGenerators())
        names += (names.empty() ? "" : ", ") + std::string(g.name);
    return names;
}

// ---- writing ---------------------------------------------------------------

/// The parameters of @p text when it is one generator of one point (a Generator's text),
/// nothing otherwise: a text the scenario cannot replay writes no parameters.
std::optional<workloads::ParamValues> oneGenerator(const std::string &text)
{
    const Result<workloads::WorkloadSpec> spec = workloads::parseWorkloadSpec(text);
    if (!spec || spec->pointCount() != 1 || spec->root.kind != workloads::WorkloadNode::Kind::Generator)
        return std::nullopt;
    return spec->root.params;
}

/// A generator's parameters as a session writes them: every value in the unit its key names,
/// "interval_us": 100 is 100 us (format 1 wrote the held 100000 ns under that name, and a
/// hand-edited 50 became 0.050 us).
void insertGeneratorParams(QJsonObject &params, const std::string &text)
{
    const std::optional<workloads::ParamValues> values = oneGenerator(text);
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

// ---- reading ---------------------------------------------------------------

/// A scaled parameter @p p written in its named unit (format 2), in held units.
qint64 heldFromNamed(JsonFieldReader &r, const workloads::ParamInfo &p, const QJsonValue &v, const QString &path)
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
qint64 heldFromFormat1(JsonFieldReader &r, const workloads::ParamInfo &p, const QJsonValue &v, const QString &path)
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
qint64 heldFromPlain(JsonFieldReader &r, const workloads::ParamInfo &p, const QJsonValue &v, const QString &path)
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
 * at their defaults, or where format 3 and older knew no such parameter at the value that
 * keeps the file's spans: keepFormat3Spans()). Format 1 held the values as they are used (ns under "_us" names): read
 * as they are, but as format 2 would check them, or the session, saved again, could not be
 * reopened. Keys that are no parameter of it (spans, seed, seeding, a hand-added one) are
 * left to the caller.
 */
/**
 * A parameter that came after format 3, with the value that keeps the spans a format 1-3
 * session's user saw, where its default would change them: the hrtimer slack of a timer
 * sleep (50 us by default now, none before) and MTD's controller waits per I/O (4 by default
 * now, one before). @p whenParam = @p whenChoice says where it acts (elsewhere the default is
 * the old behaviour already, and a value written there would be refused as meaningless).
 */
struct ParamSinceFormat4 {
    const char *generator;
    const char *param;
    std::int64_t before;
    const char *whenParam;
    const char *whenChoice;
};
constexpr ParamSinceFormat4 PARAMS_SINCE_FORMAT_4[] = {
    {"periodic", "slack_us", 0, "kind", "timer"},
    {"sweep", "slack_us", 0, "kind", "timer"},
    {"io", "waits", 1, "device", "mtd"},
};

/// @p values with the parameters format 3 did not know at their old behaviour (above), unless
/// @p params (the file's) gives them.
void keepFormat3Spans(workloads::ParamValues &values, const QJsonObject &params)
{
    for (const ParamSinceFormat4 &later : PARAMS_SINCE_FORMAT_4) {
        if (std::string_view(values.info->name) != later.generator || params.contains(QString::fromUtf8(later.param)))
            continue;
        const workloads::ParamInfo &when =
            values.info->params[static_cast<size_t>(values.info->paramIndex(later.whenParam))];
        const std::int64_t choice = values.get(later.whenParam);
        if (choice >= 0 && static_cast<size_t>(choice) < when.choices.size()
            && std::string_view(when.choices[static_cast<size_t>(choice)]) == later.whenChoice)
            values.set(later.param, later.before);
    }
}

std::string generatorTextOf(JsonFieldReader &r, const workloads::GeneratorInfo &g, const QJsonObject &params,
                            const QString &paramsPath, qint64 version)
{
    workloads::ParamValues values = g.defaults();
    for (const workloads::ParamInfo &p : g.params) {
        const QString name = QString::fromUtf8(p.name);
        if (!params.contains(name) || !r.ok())
            continue;
        const QString path = paramsPath + name;
        const QJsonValue v = params.value(name);
        values.set(p.name, !isScaled(p)   ? heldFromPlain(r, p, v, path)
                           : version >= 2 ? heldFromNamed(r, p, v, path)
                                          : heldFromFormat1(r, p, v, path));
    }
    if (version <= 3)
        keepFormat3Spans(values, params);
    return workloads::generatorText(values);
}

/// The params of the kind of @p w (its kind read already) from @p params at @p paramsPath
/// ("workload.params."): the text, the CPU and the stamp, the legacy mark.
void readKindParams(JsonFieldReader &r, const QJsonObject &params, const QString &paramsPath, const std::string &name,
                    qint64 version, scenario::WorkloadSource &w)
{
    switch (w.kind) {
    case WorkloadKind::Generator:
        w.text = generatorTextOf(r, *workloads::findGenerator(name), params, paramsPath, version);
        // Formats 1 and 2 seeded a generator with the session's seed itself: their spans must not change.
        w.legacySeeding =
            version <= 2 || params.value(QString::fromUtf8(SEEDING_PARAM)).toString() == QLatin1String(LEGACY_SEEDING);
        break;
    case WorkloadKind::Spec:
    case WorkloadKind::ClosedLoop:
        w.text = r.string(params, key("spec"), paramsPath + key("spec"), true).toStdString();
        break;
    case WorkloadKind::Trace:
        w.cpu = static_cast<int>(r.integer(params, key("cpu"), paramsPath + key("cpu"), false, w.cpu));
        [[fallthrough]];
    case WorkloadKind::Csv:
        w.fileStamp = r.string(params, key("file_stamp"), paramsPath + key("file_stamp"), false).toStdString();
        break;
    }
}

std::vector<TunableSetting> readSettings(JsonFieldReader &r, const QJsonObject &g, const QString &path)
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

/// "src:NAME" with "source": {"path", "kernel"}: the name is given to that file again.
void readNamedSource(JsonFieldReader &r, const QJsonObject &o, const QString &path, const QString &baseDir,
                     const std::string &variant)
{
    const QString sp = path + key(".source");
    const QJsonObject src = r.object(o, key("source"), sp);
    const std::string file =
        sessionRelativePath(r.string(src, key("path"), sp + key(".path"), true).toStdString(), baseDir);
    const QString kernel = r.string(src, key("kernel"), sp + key(".kernel"), true);
    if (r.ok() && !isSourceGovernorId(variant))
        r.fail(sp, QStringLiteral("goes with a \"src:NAME\" variant"));
    if (!r.ok())
        return;
    const Result<source_governor::KernelCore> core = source_governor::parseKernelCore(kernel.toStdString());
    if (!core)
        r.fail(sp + key(".kernel"), QString::fromStdString(core.error().message));
    else if (Status st = nameSourceGovernor(variant.substr(SOURCE_GOVERNOR_PREFIX.size()), {file, *core}); !st)
        r.fail(path + key(".variant"), QString::fromStdString(st.error().message));
}

/// "src:FILE[@KERNEL]" with a relative FILE: the session's folder's (@p baseDir).
std::string sourceVariantIn(const std::string &variant, const QString &baseDir)
{
    const Result<SourceGovernorSpec> spec = parseSourceGovernorId(variant);
    if (!spec)
        return variant;
    const std::string rest = variant.substr(SOURCE_GOVERNOR_PREFIX.size());
    if (!rest.starts_with(spec->path))
        return variant;
    return std::string(SOURCE_GOVERNOR_PREFIX) + sessionRelativePath(spec->path, baseDir)
           + rest.substr(spec->path.size());
}

/// The largest seed: idlescope-cli's --seed takes 0 to 2^63 - 1.
constexpr qint64 MAX_SEED = std::numeric_limits<qint64>::max();

/**
 * "seed" of @p params (at @p path), exactly, or refused naming the field and the range: the
 * window ran -1 as 0 and 4294967296 as 1000000, and 2^64 was refused as "got 1.84467e+19".
 * @p fallback when it is not given.
 */
qint64 readSeed(JsonFieldReader &r, const QJsonObject &params, const QString &path, qint64 fallback)
{
    if (!params.contains(key("seed")))
        return fallback;
    const QJsonValue v = params.value(key("seed"));
    const auto outside = [&r, &path](const QString &got) {
        r.fail(path, QStringLiteral("%1 is outside the seeds 0 to %2 (idlescope-cli --seed)").arg(got).arg(MAX_SEED));
    };
    // A whole number past a qint64 reaches Qt as a double: said in full, with the range.
    if (v.isDouble() && v.toVariant().typeId() != QMetaType::LongLong && std::isfinite(v.toDouble())
        && std::floor(v.toDouble()) == v.toDouble() && std::fabs(v.toDouble()) >= 9223372036854775808.0) {
        outside(QString::number(v.toDouble(), 'f', 0));
        return fallback;
    }
    const qint64 seed = r.integer(params, key("seed"), path, false, fallback);
    if (r.ok() && seed < 0) {
        outside(QString::number(seed));
        return fallback;
    }
    return seed;
}

} // namespace

std::string sessionRelativePath(const std::string &file, const QString &baseDir)
{
    const QString f = QString::fromStdString(file);
    if (file.empty() || QDir::isAbsolutePath(f))
        return file;
    return QDir::cleanPath(QDir(baseDir).filePath(f)).toStdString();
}

std::string workloadKindName(const scenario::WorkloadSource &w)
{
    switch (w.kind) {
    case WorkloadKind::Generator: {
        // The text's generator: what comes before its parameters, without spaces.
        const std::string name = w.text.substr(0, w.text.find(':'));
        const std::size_t first = name.find_first_not_of(" \t\n\r\f\v");
        if (first == std::string::npos)
            return {};
        return name.substr(first, name.find_last_not_of(" \t\n\r\f\v") - first + 1);
    }
    case WorkloadKind::Spec:
    case WorkloadKind::ClosedLoop: return "spec";
    case WorkloadKind::Csv: return "csv";
    case WorkloadKind::Trace: return "trace";
    }
    return {};
}

Result<WorkloadKind> workloadKindFromName(const std::string &name, const std::string &loop, const std::string &file,
                                          const std::string &field)
{
    if (name == "spec")
        return loop == "closed" ? WorkloadKind::ClosedLoop : WorkloadKind::Spec;
    if (name == "csv")
        return WorkloadKind::Csv;
    if (name == "trace")
        return WorkloadKind::Trace;
    if (workloads::findGenerator(name))
        return WorkloadKind::Generator;
    return Error{file, 0, field,
                 "unknown workload kind '" + name + "' (one of: spec, csv, trace, or a generator: " + generatorNames()
                     + ")"};
}

QJsonObject workloadSourceJson(const scenario::WorkloadSource &w)
{
    QJsonObject o;
    o.insert(key("kind"), QString::fromStdString(workloadKindName(w)));
    o.insert(key("path"), QString::fromStdString(w.path));
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

void readWorkloadSource(JsonFieldReader &r, const QJsonObject &o, const QString &path, qint64 formatVersion,
                        const QString &baseDir, scenario::WorkloadSource &w)
{
    const QString kindPath = path + key(".kind");
    const QString kind = r.string(o, key("kind"), kindPath, true);
    w.path = sessionRelativePath(r.string(o, key("path"), path + key(".path"), false).toStdString(), baseDir);
    const QString paramsPath = path + key(".params.");
    const QJsonObject params =
        o.contains(key("params")) ? r.object(o, key("params"), path + key(".params")) : QJsonObject();
    if (!r.ok())
        return;
    // Every value must be a scalar, the keys the kind does not use too ("unknown keys are ignored").
    for (auto it = params.begin(); it != params.end() && r.ok(); ++it)
        r.scalar(it.value(), paramsPath + it.key());
    const Result<WorkloadKind> k =
        workloadKindFromName(kind.toStdString(), params.value(key("loop")).toString().toStdString(),
                             r.label().toStdString(), kindPath.toStdString());
    if (!k) {
        r.fail(kindPath, QString::fromStdString(k.error().message));
        return;
    }
    w.kind = *k;
    if (!r.ok())
        return;
    readKindParams(r, params, paramsPath, kind.toStdString(), formatVersion, w);
    w.spans = r.integer(params, key("spans"), paramsPath + key("spans"), false, w.spans);
    w.seed = readSeed(r, params, paramsPath + key("seed"), w.seed);
}

QJsonObject governorInstanceJson(const scenario::GovernorInstance &g)
{
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
    o.insert(key("settings"), settings);
    return o;
}

void readGovernorInstance(JsonFieldReader &r, const QJsonObject &o, const QString &path, const QString &baseDir,
                          scenario::GovernorInstance &g)
{
    g.variant = r.string(o, key("variant"), path + key(".variant"), true).toStdString();
    if (r.ok() && o.contains(key("source")))
        readNamedSource(r, o, path, baseDir, g.variant);
    if (r.ok() && isSourceGovernorId(g.variant) && !o.contains(key("source"))
        && !namedSourceFile(g.variant.substr(SOURCE_GOVERNOR_PREFIX.size())))
        g.variant = sourceVariantIn(g.variant, baseDir);
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
    g.settings = readSettings(r, o, path);
    if (!r.ok())
        return;
    // Each setting must be one the governor accepts, at a value it accepts.
    for (std::size_t i = 0; i < g.settings.size(); ++i) {
        auto gov = makeConfiguredGovernor(g.variant, {g.settings[i]});
        if (!gov) {
            r.fail(path + QStringLiteral(".settings[%1]").arg(i), QString::fromStdString(gov.error().message));
            break;
        }
    }
}

} // namespace idlescope
