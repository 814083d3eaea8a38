// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file error.h
 * The engine's one error policy: a value-or-error Result that names the file,
 * line and field of bad input. The core never prints and never throws on bad
 * input; callers (CLI, GUI) turn an Error into a message.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace idlescope {

/// What kind of failure an Error is, for callers that act on it rather than show it
/// (a window says nothing when its own Cancel stopped the work).
enum class ErrorCode {
    BadInput,    ///< the input was rejected: file, line and field say where
    Cancelled,   ///< the caller's cancel flag stopped the work; no result
    Unsupported, ///< valid input this build or host cannot handle
    Internal,    ///< a broken invariant or resource failure, not the user's input
};

/// Where and why input was rejected. line is 1-based; 0 means "not line-based".
struct Error {
    std::string file; ///< path or a label such as "<stdin>"; may be empty
    std::int64_t line = 0;
    std::string field;   ///< column, key or parameter name; may be empty
    std::string message; ///< what is wrong, in plain words
    ErrorCode code = ErrorCode::BadInput;

    /// The work was stopped by the caller's cancel flag; @p message is what a log would say.
    static Error cancelled(std::string message = "cancelled", std::string file = {})
    {
        return Error{std::move(file), 0, {}, std::move(message), ErrorCode::Cancelled};
    }
    bool isCancelled() const { return code == ErrorCode::Cancelled; }

    /// "file:line: field 'x': message", leaving out the parts that are empty.
    std::string toString() const;
};

/// A bad value as an error message shows it: at most @p max bytes, then
/// "... (N bytes)", so that a 200 MB field does not become 200 MB of stderr.
std::string quoteField(std::string_view value, std::size_t max = 80);

/// A T or an Error (std::expected is C++23).
template <typename T>
class Result {
public:
    Result(T value) : m_v(std::move(value)) {}
    Result(Error error) : m_v(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_v); }
    explicit operator bool() const { return ok(); }
    T &value() { return std::get<T>(m_v); }
    const T &value() const { return std::get<T>(m_v); }
    T &operator*() { return value(); }
    const T &operator*() const { return value(); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    const Error &error() const { return std::get<Error>(m_v); }

private:
    std::variant<T, Error> m_v;
};

/// Result for operations that return nothing.
struct Ok {};
using Status = Result<Ok>;

} // namespace idlescope
