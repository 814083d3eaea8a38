// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libFuzzer target: the GUI's session reader (widgets/session/session_json.h,
 * QtCore and QColor only). Any input is a Session or an Error with a message;
 * a Session it accepts must be saved and read back as the same session (what
 * File > Save then Open does): a session the window opens but cannot reopen
 * after saving would lose the user's work.
 */
#include "widgets/session/session_json.h"

#include <cstdint>
#include <cstdlib>

using namespace idlescope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, size_t size)
{
    const QByteArray json(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    const Result<Session> s = sessionFromJson(json, QStringLiteral("fuzz.idlescope"));
    if (!s) {
        if (s.error().message.empty())
            std::abort();
        return 0;
    }
    const Result<Session> back = sessionFromJson(sessionToJson(*s), QStringLiteral("saved.idlescope"));
    if (!back || !sameSession(*s, *back))
        std::abort();
    return 0;
}
