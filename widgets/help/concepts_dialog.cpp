// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/help/concepts_dialog.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QTextBrowser>
#include <QVBoxLayout>

// The resource lives in a static library: pull its initialiser in explicitly
// (Q_INIT_RESOURCE must be used outside any namespace).
static void initHelpResource()
{
    Q_INIT_RESOURCE(help);
}

namespace idlescope {

namespace {
const QString CONCEPTS_URL = QStringLiteral("qrc:/help/concepts.html");
}

QString conceptsHtml()
{
    initHelpResource();
    QFile f(QStringLiteral(":/help/concepts.html"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

ConceptsDialog::ConceptsDialog(QWidget *parent) : QDialog(parent)
{
    initHelpResource();
    setWindowTitle(tr("Concepts — idlescope"));
    m_browser = new QTextBrowser(this);
    m_browser->setOpenExternalLinks(true);
    m_browser->setSource(QUrl(CONCEPTS_URL));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_browser);
    layout->addWidget(buttons);
    resize(720, 640);
}

void ConceptsDialog::showTopic(const QString &anchor)
{
    m_browser->scrollToAnchor(anchor);
}

} // namespace idlescope
