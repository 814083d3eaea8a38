// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/message_center.h"

#include "widgets/panels/message_bar.h"

#include <QStatusBar>

namespace idlescope {

namespace {
constexpr int STATUS_MESSAGE_MS = 10000;
constexpr int STATUS_LINE_CHARS = 300;
} // namespace

MessageCenter::MessageCenter(MessageBar *bar, QStatusBar *status, QObject *parent)
    : QObject(parent), m_bar(bar), m_status(status)
{
}

void MessageCenter::runStarted(quint64 generation)
{
    m_lastStarted = generation;
}

void MessageCenter::show(bool error, const QString &text)
{
    if (m_status) { // its first line, cut short: the status bar paints one line whatever it is given
        const qsizetype newline = text.indexOf(QLatin1Char('\n'));
        m_status->showMessage(briefText(newline < 0 ? text : text.left(newline), 1, STATUS_LINE_CHARS),
                              STATUS_MESSAGE_MS);
    }
    m_bar->showMessage(error ? MessageBar::Kind::Error : MessageBar::Kind::Warning, text);
    m_messageGeneration = m_lastStarted;
}

void MessageCenter::showError(const QString &text)
{
    show(true, text);
}

void MessageCenter::showWarning(const QString &text, const WorkloadSourceSpec &about)
{
    show(false, text);
    m_warningSource = about;
}

void MessageCenter::showNote(const QString &text)
{
    m_bar->showMessage(MessageBar::Kind::Warning, text);
}

void MessageCenter::runFailed(const QString &message, const QString &reworded)
{
    const bool heard = reworded.isEmpty() && !m_bar->isHidden() && m_bar->text().endsWith(message);
    if (!heard)
        show(true, reworded.isEmpty() ? message : reworded);
}

void MessageCenter::snapshotShown(const QStringList &errors, quint64 generation, const WorkloadSourceSpec &workload,
                                  bool keepFailure)
{
    if (!errors.isEmpty()) {
        m_bar->showMessage(MessageBar::Kind::Warning, errors.join(QLatin1Char('\n')));
        return;
    }
    const bool aboutThisWorkload = m_bar->kind() == MessageBar::Kind::Warning && m_warningSource
                                   && workload.kind == m_warningSource->kind && workload.path == m_warningSource->path;
    if (!keepFailure && generation > m_messageGeneration && !aboutThisWorkload)
        m_bar->clear();
}

} // namespace idlescope
