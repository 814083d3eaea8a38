// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/message_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

#include <algorithm>
#include <climits>

namespace idlescope {

namespace {
constexpr int SHOWN_LINES = 6;
constexpr int SHOWN_LINE_CHARS = 240;
constexpr int TOOLTIP_LINES = 40;
constexpr int TOOLTIP_LINE_CHARS = 200;
} // namespace

QString briefText(const QString &text, int maxLines, int maxLineChars)
{
    QString out;
    qsizetype pos = 0;
    int lines = 0;
    while (pos <= text.size() && lines < maxLines) {
        qsizetype end = text.indexOf(QLatin1Char('\n'), pos);
        if (end < 0)
            end = text.size();
        if (lines > 0)
            out += QLatin1Char('\n');
        const QStringView line = QStringView(text).mid(pos, end - pos);
        out += line.size() > maxLineChars ? line.left(maxLineChars).toString() + QChar(0x2026) : line.toString();
        ++lines;
        pos = end + 1;
        if (end == text.size())
            return out;
    }
    if (pos < text.size()) {
        // Counting the rest is one pass over the text, without laying any of it out.
        const QStringView rest = QStringView(text).mid(pos);
        const qsizetype more = rest.count(QLatin1Char('\n')) + (rest.endsWith(QLatin1Char('\n')) ? 0 : 1);
        out += QLatin1Char('\n')
               + (more == 1 ? QObject::tr("\u2026 (1 more line)") : QObject::tr("\u2026 (%1 more lines)").arg(more));
    }
    return out;
}

MessageBar::MessageBar(QWidget *parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("messageBar"));
    setFrameShape(QFrame::StyledPanel);
    auto *h = new QHBoxLayout(this);
    h->setContentsMargins(8, 4, 4, 4);
    m_icon = new QLabel(this);
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText); // file names and messages are never markup
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A word longer than the window (a path, a line of binary) is clipped rather
    // than making the label, and with it the window, as wide as that word.
    m_text->setMinimumWidth(1);
    m_text->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_close = new QToolButton(this);
    m_close->setAutoRaise(true);
    m_close->setText(QStringLiteral("\u2715"));
    m_close->setToolTip(tr("Dismiss"));
    h->addWidget(m_icon, 0, Qt::AlignTop);
    h->addWidget(m_text, 1);
    h->addWidget(m_close, 0, Qt::AlignTop);
    connect(m_close, &QToolButton::clicked, this, [this] {
        clear();
        emit dismissed();
    });
    hide();
}

void MessageBar::showMessage(Kind kind, const QString &text)
{
    m_kind = kind;
    const bool error = kind == Kind::Error;
    // A pale fill with a strong border: readable next to the plots, unmistakable.
    setStyleSheet(error ? QStringLiteral("#messageBar { background:#fbeaea; border:1px solid #c0392b; }")
                        : QStringLiteral("#messageBar { background:#fdf5e2; border:1px solid #d4a017; }"));
    const QStyle::StandardPixmap icon = error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning;
    m_icon->setPixmap(style()->standardIcon(icon).pixmap(16, 16));
    m_full = text;
    const QString shown = briefText(text, SHOWN_LINES, SHOWN_LINE_CHARS);
    m_text->setText(shown);
    const QString tip = briefText(text, TOOLTIP_LINES, TOOLTIP_LINE_CHARS);
    m_text->setToolTip(tip == shown ? QString() : tip);
    show();
}

void MessageBar::clear()
{
    m_text->clear();
    m_text->setToolTip(QString());
    m_full.clear();
    hide();
}

QString MessageBar::text() const
{
    return isHidden() ? QString() : m_full;
}

QSize MessageBar::minimumSizeHint() const
{
    return {0, 0};
}

QString MessageBar::shownText() const
{
    return isHidden() ? QString() : m_text->text();
}

} // namespace idlescope
