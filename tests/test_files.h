// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file test_files.h
 * The tests' own input and output files: writing an input (its folder made
 * first; a write that fails fails the test) and reading a result back.
 */
#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTest>

namespace idlescope::test {

/// The bytes of @p path, or @p missing when it cannot be read (a test comparing with an empty
/// file gives "<missing>" so that no file does not pass for an empty one).
inline QByteArray readAll(const QString &path, const QByteArray &missing = {})
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : missing;
}

/// Writes @p bytes to @p path (replacing it), making its folder first; a short write fails the test.
inline void writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly), qPrintable(path));
    QVERIFY2(f.write(bytes) == bytes.size() && f.flush(), qPrintable(path));
}

} // namespace idlescope::test
