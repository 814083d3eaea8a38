// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/session/session.h"

#include "core/common/input_file.h"
#include "core/io/atomic_file.h"
#include "widgets/view_state.h"

namespace idlescope {

namespace {

constexpr qint64 MAX_SESSION_BYTES = 64LL << 20;

} // namespace

Status saveSession(const Session &s, const QString &path)
{
    const QByteArray json = sessionToJson(s);
    return writeFileAtomically(path.toStdString(),
                               std::string_view(json.constData(), static_cast<size_t>(json.size())));
}

Result<Session> loadSession(const QString &path)
{
    // A FIFO would block the window's start for ever and /dev/zero never ends:
    // only a regular file is read, at most MAX_SESSION_BYTES of it.
    Result<std::string> text =
        readInputFile(path.toStdString(), static_cast<std::size_t>(MAX_SESSION_BYTES), "a session");
    if (!text)
        return text.error();
    return sessionFromJson(QByteArray::fromStdString(*text), path);
}

SessionView captureView(const ViewState &v)
{
    SessionView s;
    s.rangeStartNs = v.rangeStartNs();
    s.rangeEndNs = v.rangeEndNs();
    s.cursorNs = v.cursorNs();
    s.selectedGovernor = v.selectedGovernor();
    s.selectedEntry = v.selectedEntry();
    return s;
}

void applyView(const SessionView &sv, ViewState &v)
{
    if (sv.rangeEndNs > sv.rangeStartNs)
        v.setRange(sv.rangeStartNs, sv.rangeEndNs);
    v.setCursorNs(sv.cursorNs);
    v.selectEntry(sv.selectedGovernor, sv.selectedEntry);
}

} // namespace idlescope
