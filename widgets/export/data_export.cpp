// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/export/data_export.h"

#include "core/common/text_cells.h"
#include "core/io/atomic_file.h"
#include "core/stats/governor_totals.h"
#include "widgets/comparison/comparison_table_model.h"
#include "widgets/export/comparison_export.h"
#include "widgets/export/scenario_context.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace idlescope {

namespace {

QString key(const char *k)
{
    return QString::fromLatin1(k);
}

void appendInt(std::string &out, std::int64_t v, char sep = ',')
{
    out += std::to_string(v);
    out += sep;
}

/// A state name as one CSV field (names are short identifiers, but be safe).
std::string csvName(const std::string &name)
{
    return csvField(name);
}

QJsonArray settingsJson(const std::vector<TunableSetting> &settings)
{
    QJsonArray a;
    for (const auto &[name, value] : settings)
        a.append(QJsonObject{{key("name"), QString::fromStdString(name)}, {key("value"), qint64(value)}});
    return a;
}

QJsonArray statesJson(const ReplaySummary &s, const IdleStateTable &table)
{
    QJsonArray states;
    for (int i = 0; i < s.stateCount; ++i) {
        const StateStats &st = s.states[static_cast<std::size_t>(i)];
        states.append(QJsonObject{{key("index"), i},
                                  {key("name"), QString::fromStdString(table[i].name)},
                                  {key("usage"), qint64(st.usage)},
                                  {key("time_ns"), qint64(st.timeNs)},
                                  {key("above"), qint64(st.above)},
                                  {key("below"), qint64(st.below)}});
    }
    return states;
}

template <typename T, typename F>
QJsonArray column(const std::vector<T> &v, F &&f)
{
    QJsonArray a;
    for (const T &x : v)
        a.append(f(x));
    return a;
}

QJsonArray flagColumn(const GovernorRun &run, EntryFlag flag)
{
    QJsonArray a;
    for (std::size_t i = 0; i < run.size(); ++i)
        a.append(run.has(i, flag) ? 1 : 0);
    return a;
}

Status writeJson(const QJsonObject &root, const QString &path)
{
    const QByteArray bytes = QJsonDocument(root).toJson(QJsonDocument::Compact);
    return writeFileAtomically(path.toStdString(), bytes.toStdString());
}

} // namespace

void appendRunCsvRow(std::string &out, const GovernorRun &run, const IdleStateTable &table, const IdleStream &stream,
                     std::size_t i)
{
    const int state = run.state[i];
    const auto span = static_cast<std::size_t>(run.span[i]);
    appendInt(out, static_cast<std::int64_t>(i));
    appendInt(out, run.span[i]);
    appendInt(out, run.startNs[i]);
    appendInt(out, state);
    out += csvName(table[state].name);
    out += ',';
    appendInt(out, run.residencyNs[i]);
    appendInt(out, run.predictedNs[i]);
    appendInt(out, run.sleepLengthNs[i]);
    for (EntryFlag f : {ENTRY_STOP_TICK, ENTRY_ABOVE, ENTRY_BELOW, ENTRY_GOT_TICK, ENTRY_POLL_TIME_LIMIT,
                        ENTRY_TICK_STOPPED, ENTRY_WOKEN_BY_WAKEUP})
        appendInt(out, run.has(i, f) ? 1 : 0);
    appendInt(out, span < stream.size() && stream[span].timerWake() ? 1 : 0);
    appendInt(out, entryLatencyCostNs(run, table, i), '\n');
}

ExportContext exportContext(const SimulationSnapshot &snap, int g)
{
    ExportContext c;
    c.governor = g >= 0 && g < snap.governorCount() ? snap.name(g) : QString();
    c.workload = snap.workloadDescription;
    c.hz = snap.table.tickHz;
    c.latencyLimitNs = snap.spec.latencyLimitNs;
    if (!c.governor.isEmpty()) {
        const std::string &variant = snap.governors[static_cast<std::size_t>(g)].run->variant;
        c.lines << (c.governor.toStdString() == variant
                        ? QStringLiteral("Governor: %1").arg(c.governor)
                        : QStringLiteral("Governor: %1 (%2)").arg(c.governor, QString::fromStdString(variant)));
    }
    c.lines << resultContext(snap);
    return c;
}

Status exportRunCsv(const GovernorRun &run, const IdleStateTable &table, const IdleStream &stream, const QString &path,
                    const ExportContext &context)
{
    AtomicWriter w(path.toStdString());
    if (!w.ok())
        return w.error();
    std::string chunk;
    for (const QString &line : context.lines) // a comment line each: pandas' comment='#', R's comment.char
        chunk += "# " + QString(line).replace(QLatin1Char('\n'), QLatin1Char(' ')).toStdString() + '\n';
    chunk += RUN_CSV_HEADER;
    chunk += '\n';
    for (std::size_t i = 0; i < run.size(); ++i) {
        appendRunCsvRow(chunk, run, table, stream, i);
        if (chunk.size() > (1u << 20)) {
            w.append(chunk);
            chunk.clear();
        }
    }
    w.append(chunk);
    return w.commit();
}

Status exportRunJson(const GovernorRun &run, const IdleStateTable &table, const IdleStream &stream, const QString &path,
                     const ExportContext &context)
{
    QJsonObject columns;
    columns.insert(key("span"), column(run.span, [](std::int32_t v) { return QJsonValue(v); }));
    columns.insert(key("start_ns"), column(run.startNs, [](Ns v) { return QJsonValue(qint64(v)); }));
    columns.insert(key("state"), column(run.state, [](std::int8_t v) { return QJsonValue(int(v)); }));
    columns.insert(key("residency_ns"), column(run.residencyNs, [](Ns v) { return QJsonValue(qint64(v)); }));
    columns.insert(key("predicted_ns"), column(run.predictedNs, [](Ns v) { return QJsonValue(qint64(v)); }));
    columns.insert(key("sleep_length_ns"), column(run.sleepLengthNs, [](Ns v) { return QJsonValue(qint64(v)); }));
    columns.insert(key("stop_tick"), flagColumn(run, ENTRY_STOP_TICK));
    columns.insert(key("above"), flagColumn(run, ENTRY_ABOVE));
    columns.insert(key("below"), flagColumn(run, ENTRY_BELOW));
    columns.insert(key("got_tick"), flagColumn(run, ENTRY_GOT_TICK));
    columns.insert(key("poll_time_limit"), flagColumn(run, ENTRY_POLL_TIME_LIMIT));
    columns.insert(key("tick_stopped"), flagColumn(run, ENTRY_TICK_STOPPED));
    columns.insert(key("woken_by_wakeup"), flagColumn(run, ENTRY_WOKEN_BY_WAKEUP));
    QJsonArray timerWake; // as the CSV's column: the span's wakeup is its timer
    for (std::size_t i = 0; i < run.size(); ++i) {
        const auto span = static_cast<std::size_t>(run.span[i]);
        timerWake.append(span < stream.size() && stream[span].timerWake() ? 1 : 0);
    }
    columns.insert(key("timer_wake"), timerWake);

    const GovernorTotals t = governorTotals(run, table);
    QJsonObject root{{key("format_version"), 1},
                     {key("variant"), QString::fromStdString(run.variant)},
                     {key("settings"), settingsJson(run.settings)},
                     {key("table"), QString::fromStdString(table.id)},
                     {key("entries"), qint64(run.size())},
                     {key("latency_cost_ns"), qint64(t.latencyCostNs)},
                     {key("states"), statesJson(run.summary, table)},
                     {key("columns"), columns}};
    if (!context.lines.isEmpty()) {
        root.insert(key("governor"), context.governor);
        root.insert(key("workload"), context.workload);
        root.insert(key("hz"), context.hz);
        root.insert(key("latency_limit_ns"), context.latencyLimitNs);
        root.insert(key("context"), QJsonArray::fromStringList(context.lines));
    }
    return writeJson(root, path);
}

Status exportEntries(const SimulationSnapshot &snap, int g, const QString &path)
{
    if (g < 0 || g >= snap.governorCount() || !snap.stream)
        return Error{path.toStdString(), 0, "", "no run to export"};
    const GovernorRun &run = *snap.governors[static_cast<std::size_t>(g)].run;
    const ExportContext context = exportContext(snap, g);
    return path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)
               ? exportRunJson(run, snap.table, *snap.stream, path, context)
               : exportRunCsv(run, snap.table, *snap.stream, path, context);
}

QByteArray summariesJson(const SimulationSnapshot &snap)
{
    QJsonArray governors;
    for (const GovernorResult &gr : snap.governors) {
        const GovernorRun &run = *gr.run;
        const GovernorTotals t = governorTotals(run, snap.table);
        QJsonObject g{{key("variant"), QString::fromStdString(run.variant)},
                      {key("name"), QString::fromStdString(gr.displayName())},
                      {key("settings"), settingsJson(run.settings)},
                      {key("idles"), qint64(t.idles)},
                      {key("idle_misses"), qint64(t.idleMisses)},
                      {key("idle_miss_ratio"), t.idleMissRatio},
                      {key("belows"), qint64(t.belows)},
                      {key("aboves"), qint64(t.aboves)},
                      {key("latency_cost_ns"), qint64(t.latencyCostNs)},
                      {key("spans"), qint64(run.summary.spans)},
                      {key("end_now_ns"), qint64(run.summary.endNowNs)},
                      {key("states"), statesJson(run.summary, snap.table)}};
        if (gr.color.isValid())
            g.insert(key("color"), gr.color.name(QColor::HexRgb));
        governors.append(g);
    }
    const QJsonObject root{{key("format_version"), 1},
                           {key("target"), snap.targetId},
                           {key("workload"), snap.workloadDescription},
                           {key("governors"), governors}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

Status exportSummariesJson(const SimulationSnapshot &snap, const QString &path)
{
    return writeFileAtomically(path.toStdString(), summariesJson(snap).toStdString());
}

Status exportSummariesCsv(const SnapshotPtr &snap, const QString &path)
{
    ComparisonTableModel model;
    model.setSnapshot(snap);
    // The columns that apply to the snapshot, as the window shows them (an open-loop run
    // has no operations per second to write); the file stands alone: what it was computed
    // from, and why a numeric cell is empty.
    const ComparisonSelection all = wholeComparison(model);
    const QStringList context = snap ? resultContext(*snap) + noValueNotes(model, all) : QStringList();
    return writeFileAtomically(path.toStdString(),
                               comparisonCsv(comparisonTable(model, all), context).toUtf8().toStdString());
}

} // namespace idlescope
