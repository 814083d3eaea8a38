// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file json_field_reader.h
 * Typed reads from a QJsonObject that remember the first problem as an
 * idlescope::Error naming the field by its path in the file
 * ("governors[2].settings[0].value"). Later reads after a failure return
 * defaults, so a parser can read everything and check ok() once per section.
 * The reader of a saved session (widgets/session/session_json.h) and of the
 * scenario parts it holds (scenario_json.h).
 */
#pragma once

#include "core/common/error.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QVariant>

#include <utility>

namespace idlescope {

class JsonFieldReader {
public:
    explicit JsonFieldReader(QString label) : m_label(std::move(label)) {}

    bool ok() const { return m_error.message.empty(); }
    /// The file (or text) read, as errors name it.
    const QString &label() const { return m_label; }
    const Error &error() const { return m_error; }
    /// Records an error for @p path unless one is already recorded.
    void fail(const QString &path, const QString &message);

    /// Required sub-object.
    QJsonObject object(const QJsonObject &o, const QString &key, const QString &path);
    /// Required array.
    QJsonArray array(const QJsonObject &o, const QString &key, const QString &path);
    /// String; a missing key gives @p fallback unless @p required.
    QString string(const QJsonObject &o, const QString &key, const QString &path, bool required,
                   const QString &fallback = {});
    /// Whole number (qint64 exactly); a missing key gives @p fallback unless @p required.
    qint64 integer(const QJsonObject &o, const QString &key, const QString &path, bool required, qint64 fallback = 0);
    /// A whole number held in @p v; @p path names it.
    qint64 integerValue(const QJsonValue &v, const QString &path);
    /// A scalar (number, string or bool) as a QVariant (qint64 for whole numbers).
    QVariant scalar(const QJsonValue &v, const QString &path);

private:
    /// The value of the required key @p key, failing with "missing" or @p wrongKind unless
    /// (value.*isKind)() holds; object() and array().
    QJsonValue requiredValue(const QJsonObject &o, const QString &key, const QString &path,
                             bool (QJsonValue::*isKind)() const, const char *wrongKind);

    QString m_label;
    Error m_error;
};

} // namespace idlescope
