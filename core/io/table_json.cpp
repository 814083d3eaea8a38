// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/table_json.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace idlescope {

namespace {

std::int64_t lineOfOffset(std::string_view text, int offset)
{
    std::int64_t line = 1;
    for (int i = 0; i < offset && i < static_cast<int>(text.size()); ++i)
        if (text[static_cast<size_t>(i)] == '\n')
            ++line;
    return line;
}

// @p unit names what the number counts ("nanoseconds", "Hz") in messages.
Result<Ns> integerField(const QJsonObject &o, const char *key, const std::string &label,
                        const std::string &where, const char *unit = "nanoseconds")
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined())
        return Error{label, 0, key, where + ": missing"};
    if (!v.isDouble())
        return Error{label, 0, key, where + ": must be a number of " + unit};
    const double d = v.toDouble();
    if (!std::isfinite(d) || d != std::floor(d))
        return Error{label, 0, key, where + ": must be a whole number of " + unit};
    // JSON numbers are doubles: above 2^53 they are no longer exact.
    if (std::fabs(d) > 9.0e15)
        return Error{label, 0, key, where + ": out of range (above 9e15 " + unit + ")"};
    return static_cast<Ns>(d);
}

} // namespace

Result<IdleStateTable> parseTableJson(std::string_view json, const std::string &label)
{
    QJsonParseError perr;
    const QJsonDocument doc = QJsonDocument::fromJson(
        QByteArray::fromRawData(json.data(), static_cast<qsizetype>(json.size())), &perr);
    if (perr.error != QJsonParseError::NoError)
        return Error{label, lineOfOffset(json, perr.offset), "",
                     "JSON syntax error: " + perr.errorString().toStdString()};
    if (!doc.isObject())
        return Error{label, 1, "", "expected a JSON object with a \"states\" array"};
    const QJsonObject root = doc.object();

    IdleStateTable t;
    t.id = root.value(QLatin1String("id")).toString().toStdString();
    t.source = root.value(QLatin1String("source")).toString().toStdString();
    if (root.contains(QLatin1String("tick_hz"))) {
        Result<Ns> hz = integerField(root, "tick_hz", label, "table", "Hz");
        if (!hz)
            return hz.error();
        if (*hz < 24 || *hz > 10000)
            return Error{label, 0, "tick_hz", "must be within 24..10000 Hz"};
        t.tickHz = static_cast<int>(*hz);
    }
    const QJsonValue statesValue = root.value(QLatin1String("states"));
    if (!statesValue.isArray())
        return Error{label, 0, "states", "missing or not an array"};
    const QJsonArray states = statesValue.toArray();
    for (qsizetype i = 0; i < states.size(); ++i) {
        const std::string where = "state " + std::to_string(i);
        if (!states.at(i).isObject())
            return Error{label, 0, "states", where + ": not an object"};
        const QJsonObject s = states.at(i).toObject();
        IdleState st;
        st.name = s.value(QLatin1String("name")).toString().toStdString();
        st.desc = s.value(QLatin1String("desc")).toString().toStdString();
        Result<Ns> el = integerField(s, "exit_latency_ns", label, where);
        if (!el)
            return el.error();
        Result<Ns> tr = integerField(s, "target_residency_ns", label, where);
        if (!tr)
            return tr.error();
        st.exitLatencyNs = *el;
        st.targetResidencyNs = *tr;
        st.polling = s.value(QLatin1String("polling")).toBool(false);
        st.disabled = s.value(QLatin1String("disabled")).toBool(false);
        t.states.push_back(std::move(st));
    }
    if (Status v = t.validate(); !v) {
        Error e = v.error();
        e.file = label;
        return e;
    }
    return t;
}

Result<IdleStateTable> readTableJson(const std::string &path)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return Error{path, 0, "", "cannot open: " + f.errorString().toStdString()};
    if (f.size() > 16 * 1024 * 1024)
        return Error{path, 0, "", "file too large for a state table (over 16 MiB)"};
    const QByteArray bytes = f.readAll();
    return parseTableJson(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())), path);
}

std::string formatTableJson(const IdleStateTable &table)
{
    QJsonObject root;
    root.insert(QLatin1String("id"), QString::fromStdString(table.id));
    root.insert(QLatin1String("tick_hz"), table.tickHz);
    if (!table.source.empty())
        root.insert(QLatin1String("source"), QString::fromStdString(table.source));
    QJsonArray states;
    for (const IdleState &s : table.states) {
        QJsonObject o;
        o.insert(QLatin1String("name"), QString::fromStdString(s.name));
        if (!s.desc.empty())
            o.insert(QLatin1String("desc"), QString::fromStdString(s.desc));
        o.insert(QLatin1String("exit_latency_ns"), static_cast<double>(s.exitLatencyNs));
        o.insert(QLatin1String("target_residency_ns"), static_cast<double>(s.targetResidencyNs));
        o.insert(QLatin1String("polling"), s.polling);
        o.insert(QLatin1String("disabled"), s.disabled);
        states.append(o);
    }
    root.insert(QLatin1String("states"), states);
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

} // namespace idlescope
