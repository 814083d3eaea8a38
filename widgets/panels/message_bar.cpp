// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/message_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace idlescope {

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
    m_text->setText(text);
    show();
}

void MessageBar::clear()
{
    m_text->clear();
    hide();
}

QString MessageBar::text() const
{
    return isHidden() ? QString() : m_text->text();
}

} // namespace idlescope
