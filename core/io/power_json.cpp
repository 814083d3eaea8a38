// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/power_json.h"

#include "core/common/input_file.h"
#include "core/io/table_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <iterator>
#include <map>

namespace idlescope {

namespace {

/// Line (1-based) of the @p nth (0-based) occurrence of "key" in @p text, 0 when not found.
std::int64_t lineOfKey(std::string_view text, const std::string &key, int nth)
{
    const std::string quoted = "\"" + key + "\"";
    size_t pos = 0;
    for (int k = 0;; ++k) {
        pos = text.find(quoted, pos);
        if (pos == std::string_view::npos)
            return 0;
        if (k == nth)
            break;
        pos += quoted.size();
    }
    std::int64_t line = 1;
    for (size_t i = 0; i < pos; ++i)
        line += text[i] == '\n' ? 1 : 0;
    return line;
}

/// Keys that carry a power or an energy but no unit.
constexpr const char *UNITLESS_STATE_KEYS[] = {"power", "energy", "entry_exit_energy", "power_w", "power_uw"};
constexpr const char *UNITLESS_ROOT_KEYS[] = {"active_power", "active_power_w", "power"};

class Reader {
public:
    Reader(std::string_view text, std::string label) : m_text(text), m_label(std::move(label)) {}

    /// @p value of key @p key (its @p nth occurrence in the text) into @p out.
    Status number(const QJsonValue &value, const std::string &key, const std::string &where, double *out)
    {
        const std::int64_t line = lineOfKey(m_text, key, m_seen[key]++);
        if (!value.isDouble())
            return Error{m_label, line, key, where + ": must be a number (the unit is in the key)"};
        if (Status s = checkPowerValue(value.toDouble(), m_label, line, key); !s) {
            Error e = s.error();
            e.message = where + ": " + e.message;
            return e;
        }
        *out = value.toDouble();
        return Ok{};
    }

    Status refuseUnitless(const QJsonObject &o, const char *const *keys, size_t n, const std::string &where,
                          const char *hint)
    {
        for (size_t i = 0; i < n; ++i)
            if (o.contains(QLatin1String(keys[i])))
                return Error{m_label, lineOfKey(m_text, keys[i], 0), keys[i],
                             where + ": no unit in the key; write " + hint};
        return Ok{};
    }

private:
    std::string_view m_text;
    std::string m_label;
    std::map<std::string, int> m_seen;
};

} // namespace

Result<PowerModel> parseTablePower(std::string_view json, const IdleStateTable &table, const std::string &label)
{
    QJsonParseError perr;
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray::fromRawData(json.data(), static_cast<qsizetype>(json.size())), &perr);
    PowerModel m = PowerModel::empty(table);
    // A table read from another format (pasted cpupower output) has no power fields.
    if (perr.error != QJsonParseError::NoError || !doc.isObject())
        return m;
    const QJsonObject root = doc.object();
    Reader r(json, label);
    if (Status s = r.refuseUnitless(root, UNITLESS_ROOT_KEYS, std::size(UNITLESS_ROOT_KEYS), "table",
                                    "active_power_mw (milliwatts)");
        !s)
        return s.error();
    if (root.contains(QLatin1String("active_power_mw")))
        if (Status s = r.number(root.value(QLatin1String("active_power_mw")), "active_power_mw", "table", &m.activeMw);
            !s)
            return s.error();
    m.source = root.value(QLatin1String("power_source")).toString().toStdString();
    const QJsonArray states = root.value(QLatin1String("states")).toArray();
    for (qsizetype i = 0; i < states.size() && i < table.count(); ++i) {
        const QJsonObject s = states.at(i).toObject();
        const std::string where = "state " + std::to_string(i) + " (" + table[static_cast<int>(i)].name + ")";
        if (Status st = r.refuseUnitless(s, UNITLESS_STATE_KEYS, std::size(UNITLESS_STATE_KEYS), where,
                                         "power_mw (milliwatts) or entry_exit_energy_uj (microjoules)");
            !st)
            return st.error();
        StatePower &p = m.states[static_cast<size_t>(i)];
        if (s.contains(QLatin1String("power_mw")))
            if (Status st = r.number(s.value(QLatin1String("power_mw")), "power_mw", where, &p.powerMw); !st)
                return st.error();
        if (s.contains(QLatin1String("entry_exit_energy_uj")))
            if (Status st = r.number(s.value(QLatin1String("entry_exit_energy_uj")), "entry_exit_energy_uj", where,
                                     &p.entryExitUj);
                !st)
                return st.error();
    }
    return m;
}

Result<PowerModel> readTablePower(const std::string &path, const IdleStateTable &table)
{
    // A regular file only, opened without blocking: a session's table path that names a FIFO
    // held a pooled thread in open() for good, and the window with it when it quit.
    Result<std::string> text = readInputFile(path, MAX_TABLE_FILE_BYTES, "a state table");
    if (!text)
        return text.error();
    return parseTablePower(*text, table, path);
}

} // namespace idlescope
