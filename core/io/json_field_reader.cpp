// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/json_field_reader.h"

#include <cmath>

namespace idlescope {

void JsonFieldReader::fail(const QString &path, const QString &message)
{
    if (ok())
        m_error = Error{m_label.toStdString(), 0, path.toStdString(), message.toStdString()};
}

QJsonValue JsonFieldReader::requiredValue(const QJsonObject &o, const QString &key, const QString &path,
                                          bool (QJsonValue::*isKind)() const, const char *wrongKind)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined())
        fail(path, QStringLiteral("missing"));
    else if (!(v.*isKind)())
        fail(path, QString::fromLatin1(wrongKind));
    return v;
}

QJsonObject JsonFieldReader::object(const QJsonObject &o, const QString &key, const QString &path)
{
    return requiredValue(o, key, path, &QJsonValue::isObject, "must be a JSON object").toObject();
}

QJsonArray JsonFieldReader::array(const QJsonObject &o, const QString &key, const QString &path)
{
    return requiredValue(o, key, path, &QJsonValue::isArray, "must be a JSON array").toArray();
}

QString JsonFieldReader::string(const QJsonObject &o, const QString &key, const QString &path, bool required,
                                const QString &fallback)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined()) {
        if (required)
            fail(path, QStringLiteral("missing"));
        return fallback;
    }
    if (!v.isString()) {
        fail(path, QStringLiteral("must be a string"));
        return fallback;
    }
    return v.toString();
}

qint64 JsonFieldReader::integer(const QJsonObject &o, const QString &key, const QString &path, bool required,
                                qint64 fallback)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined()) {
        if (required)
            fail(path, QStringLiteral("missing"));
        return fallback;
    }
    const qint64 x = integerValue(v, path);
    return ok() ? x : fallback;
}

qint64 JsonFieldReader::integerValue(const QJsonValue &v, const QString &path)
{
    if (!v.isDouble()) {
        fail(path, QStringLiteral("must be a whole number"));
        return 0;
    }
    // Qt 6 keeps JSON integers as qint64; anything else went through a double.
    const QVariant var = v.toVariant();
    if (var.typeId() == QMetaType::LongLong)
        return var.toLongLong();
    const double d = v.toDouble();
    if (std::floor(d) != d || std::fabs(d) > 9007199254740992.0) {
        fail(path, QStringLiteral("must be a whole number (got %1)").arg(d));
        return 0;
    }
    return static_cast<qint64>(d);
}

QVariant JsonFieldReader::scalar(const QJsonValue &v, const QString &path)
{
    if (v.isBool() || v.isString())
        return v.toVariant();
    if (v.isDouble()) {
        const QVariant var = v.toVariant();
        return var.typeId() == QMetaType::LongLong ? var : QVariant(v.toDouble());
    }
    fail(path, QStringLiteral("must be a number, a string or true/false"));
    return {};
}

} // namespace idlescope
