// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/table_header_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace idlescope {

Result<TableJsonHeader> parseTableHeaderJson(std::string_view json, const std::string &label)
{
    QJsonParseError perr;
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray::fromRawData(json.data(), static_cast<qsizetype>(json.size())), &perr);
    if (perr.error != QJsonParseError::NoError || !doc.isObject())
        return Error{label, 0, "", "not a JSON object"};
    const QJsonObject o = doc.object();
    const auto text = [&](const char *key) { return o.value(QLatin1String(key)).toString().toStdString(); };
    TableJsonHeader h;
    h.label = text("label");
    h.driver = text("driver");
    h.kind = text("kind");
    h.source = text("source");
    h.cpus = text("cpus");
    h.stateCount = static_cast<int>(o.value(QLatin1String("states")).toArray().size());
    h.tickHz = o.value(QLatin1String("tick_hz")).toInt(h.tickHz);
    return h;
}

} // namespace idlescope
