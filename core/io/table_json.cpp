// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/table_json.h"

#include "core/common/input_file.h"

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
Result<Ns> integerField(const QJsonObject &o, const char *key, const std::string &label, const std::string &where,
                        const char *unit = "nanoseconds")
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

// A text key: absent is "", anything but a string is refused (1234 read as "" silently).
Result<std::string> stringField(const QJsonObject &o, const char *key, const std::string &label,
                                const std::string &where)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined())
        return std::string();
    if (!v.isString())
        return Error{label, 0, key, where + ": must be a string"};
    return v.toString().toStdString();
}

// A flag: absent is false, anything but true/false is refused ("yes" read as false silently).
Result<bool> boolField(const QJsonObject &o, const char *key, const std::string &label, const std::string &where)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined())
        return false;
    if (!v.isBool())
        return Error{label, 0, key, where + ": must be true or false"};
    return v.toBool();
}

// A duration a state may leave out (absent: @p absent), refused when of the wrong type or negative.
Result<Ns> optionalNsField(const QJsonObject &o, const char *key, const std::string &label, const std::string &where,
                           Ns absent)
{
    if (!o.contains(QLatin1String(key)))
        return absent;
    Result<Ns> v = integerField(o, key, label, where);
    if (!v)
        return v.error();
    if (*v < 0)
        return Error{label, 0, key, where + ": must not be negative"};
    return *v;
}

} // namespace

Result<IdleStateTable> parseTableJson(std::string_view json, const std::string &label)
{
    // Editors on some systems start UTF-8 files with a byte-order mark; JSON has none.
    if (json.starts_with("\xEF\xBB\xBF"))
        json.remove_prefix(3);
    QJsonParseError perr;
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray::fromRawData(json.data(), static_cast<qsizetype>(json.size())), &perr);
    if (perr.error != QJsonParseError::NoError)
        return Error{label, lineOfOffset(json, perr.offset), "",
                     "JSON syntax error: " + perr.errorString().toStdString()};
    if (!doc.isObject())
        return Error{label, 1, "", "expected a JSON object with a \"states\" array"};
    const QJsonObject root = doc.object();

    IdleStateTable t;
    for (const auto &[key, into] :
         {std::pair{"id", &t.id}, std::pair{"source", &t.source}, std::pair{"wake_delay_note", &t.wakeDelayNote}}) {
        Result<std::string> v = stringField(root, key, label, "table");
        if (!v)
            return v.error();
        *into = std::move(*v);
    }
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
        for (const auto &[key, into] : {std::pair{"name", &st.name}, std::pair{"desc", &st.desc}}) {
            Result<std::string> v = stringField(s, key, label, where);
            if (!v)
                return v.error();
            *into = std::move(*v);
        }
        Result<Ns> el = integerField(s, "exit_latency_ns", label, where);
        if (!el)
            return el.error();
        Result<Ns> tr = integerField(s, "target_residency_ns", label, where);
        if (!tr)
            return tr.error();
        st.exitLatencyNs = *el;
        st.targetResidencyNs = *tr;
        // The real wake-up (wake_delay.h); optional, for the governors never read it.
        Result<Ns> wd = optionalNsField(s, "wake_delay_ns", label, where, NO_WAKE_DELAY);
        if (!wd)
            return wd.error();
        Result<Ns> en = optionalNsField(s, "entry_latency_ns", label, where, 0);
        if (!en)
            return en.error();
        st.wakeDelayNs = *wd;
        st.entryLatencyNs = *en;
        for (const auto &[key, into] : {std::pair{"polling", &st.polling}, std::pair{"disabled", &st.disabled}}) {
            Result<bool> v = boolField(s, key, label, where);
            if (!v)
                return v.error();
            *into = *v;
        }
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
    Result<std::string> text = readInputFile(path, MAX_TABLE_FILE_BYTES, "a state table");
    if (!text)
        return text.error();
    return parseTableJson(*text, path);
}

std::string formatTableJson(const IdleStateTable &table)
{
    QJsonObject root;
    root.insert(QLatin1String("id"), QString::fromStdString(table.id));
    root.insert(QLatin1String("tick_hz"), table.tickHz);
    if (!table.source.empty())
        root.insert(QLatin1String("source"), QString::fromStdString(table.source));
    if (!table.wakeDelayNote.empty())
        root.insert(QLatin1String("wake_delay_note"), QString::fromStdString(table.wakeDelayNote));
    QJsonArray states;
    for (const IdleState &s : table.states) {
        QJsonObject o;
        o.insert(QLatin1String("name"), QString::fromStdString(s.name));
        if (!s.desc.empty())
            o.insert(QLatin1String("desc"), QString::fromStdString(s.desc));
        o.insert(QLatin1String("exit_latency_ns"), static_cast<double>(s.exitLatencyNs));
        o.insert(QLatin1String("target_residency_ns"), static_cast<double>(s.targetResidencyNs));
        if (s.wakeDelayNs != NO_WAKE_DELAY)
            o.insert(QLatin1String("wake_delay_ns"), static_cast<double>(s.wakeDelayNs));
        if (s.entryLatencyNs != 0)
            o.insert(QLatin1String("entry_latency_ns"), static_cast<double>(s.entryLatencyNs));
        o.insert(QLatin1String("polling"), s.polling);
        o.insert(QLatin1String("disabled"), s.disabled);
        states.append(o);
    }
    root.insert(QLatin1String("states"), states);
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

} // namespace idlescope
