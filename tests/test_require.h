// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file test_require.h
 * Loading test data without qFatal: a missing or unreadable file fails the
 * test function that needed it, with the reader's own message (file, line,
 * field), and the other test functions still run.
 */
#pragma once

#include "core/common/error.h"

#include <QString>
#include <QTest>

#include <string>

namespace idlescope::test {

/// The error text of a failed Result, or "" for a good one (QVERIFY2 evaluates
/// its message whether or not the check fails).
template <typename T>
std::string errorText(const Result<T> &r)
{
    return r.ok() ? std::string() : r.error().toString();
}

} // namespace idlescope::test

/// Declares `name` as a reference to the value of the Result `expr`, or fails
/// the current test function with the Result's error.
#define IDLESCOPE_REQUIRE_OK(name, expr)                                                                               \
    auto name##Loaded = (expr);                                                                                        \
    QVERIFY2(name##Loaded.ok(), ::idlescope::test::errorText(name##Loaded).c_str());                                   \
    auto &name = *name##Loaded

/// Fails the current test function unless the Result `expr` is an error whose text
/// (Error::toString(): file, line, field and message) contains the QString `part`.
#define IDLESCOPE_REQUIRE_ERROR(expr, part)                                                                            \
    do {                                                                                                               \
        const auto refused = (expr);                                                                                   \
        QVERIFY(!refused.ok());                                                                                        \
        const QString got = QString::fromStdString(refused.error().toString());                                        \
        QVERIFY2(got.contains(part), qPrintable(got));                                                                 \
    } while (false)
