// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/session/source_consent.h"

#include "core/common/text_cells.h"
#include "core/source_governor/source_consent.h"
#include "core/source_governor/source_governor.h"
#include "widgets/runner/scenario_spec.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

namespace idlescope {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("SourceConsent", text);
}

} // namespace

QStringList SourceConsentStore::hashes() const
{
    if (m_settings)
        return m_settings->value(QLatin1String(SETTINGS_KEY)).toStringList();
    return QSettings().value(QLatin1String(SETTINGS_KEY)).toStringList();
}

void SourceConsentStore::remember(const QString &sha256)
{
    QStringList all = hashes();
    if (all.contains(sha256))
        return;
    all.append(sha256);
    if (m_settings)
        m_settings->setValue(QLatin1String(SETTINGS_KEY), all);
    else
        QSettings().setValue(QLatin1String(SETTINGS_KEY), all);
}

void SourceConsentStore::grantRemembered() const
{
    for (const QString &h : hashes())
        source_governor::grantSourceHash(h.toStdString());
}

std::vector<SourceConsentCheck> sourceConsentChecks(const ScenarioSpec &scenario)
{
    std::vector<SourceConsentCheck> checks;
    if (!source_governor::sourceConsentRequired())
        return checks;
    for (const GovernorSpec &g : scenario.governors) {
        if (!isSourceGovernorId(g.variant))
            continue;
        const Result<SourceGovernorSpec> spec = parseSourceGovernorId(g.variant);
        if (!spec)
            continue; // the run names the bad id
        // Read as the build reads it: a FIFO or a device is refused at once, never waited on.
        const Result<std::string> hash = source_governor::sourceFileSha256(spec->path);
        if (!hash)
            continue; // nothing will be built: the run reports why in the build's words
        const QFileInfo file(QString::fromStdString(spec->path));
        SourceConsentCheck check{spec->path, *hash, file.absoluteFilePath(), {}, {}};
        // A link is asked about by what it leads to: "link.c" hid that /etc/passwd is read.
        if (file.isSymLink())
            check.resolved = file.canonicalFilePath();
        for (const source_governor::SourceHeader &h : source_governor::sourceHeaders(spec->path))
            check.headers << QString::fromStdString(h.name);
        checks.push_back(std::move(check));
    }
    return checks;
}

QString askSourceConsent(const QString &session, const std::vector<SourceConsentCheck> &checks,
                         const SourceConsentAsker &asker, SourceConsentStore &store)
{
    if (!source_governor::sourceConsentRequired())
        return {};
    for (const SourceConsentCheck &c : checks) {
        const QString sha = QString::fromStdString(c.sha256);
        if (store.hashes().contains(sha) || source_governor::sourceConsented(c.path, std::string())) {
            source_governor::grantSourceHash(c.sha256);
            continue;
        }
        const SourceConsentRequest request{session, c.source, sha, c.headers, c.resolved};
        // The hash covers the headers too: the message names them, so that it can be checked.
        QString source = QString::fromStdString(printableFileName(c.source.toStdString()));
        if (!c.resolved.isEmpty())
            source += QStringLiteral(" -> ") + QString::fromStdString(printableFileName(c.resolved.toStdString()));
        const QString what =
            c.headers.isEmpty() ? source : tr("%1 with the headers beside it (%2)").arg(source, c.headers.join(u", "));
        if (!asker)
            return tr("it builds and runs the governor source %1 (sha256 %2), which you have not allowed: open "
                      "the session in the window and answer its question, or give --allow-source to build and "
                      "run the session's source files without asking")
                .arg(what, sha);
        if (!asker(request))
            return tr("you did not allow building and running the governor source %1 (sha256 %2)").arg(what, sha);
        source_governor::grantSourceHash(c.sha256);
        store.remember(sha);
    }
    return {};
}

QString askSourceConsent(const QString &session, const ScenarioSpec &scenario, const SourceConsentAsker &asker,
                         SourceConsentStore &store)
{
    return askSourceConsent(session, sourceConsentChecks(scenario), asker, store);
}

QString sourceConsentFileText(const SourceConsentRequest &request)
{
    const auto shown = [](const QString &name) {
        return QString::fromStdString(printableFileName(name.toStdString()));
    };
    const QString name = shown(QFileInfo(request.source).fileName());
    return request.resolved.isEmpty() ? name : name + QStringLiteral(" -> ") + shown(request.resolved);
}

QString sourceConsentQuestion(const SourceConsentRequest &request)
{
    const QString headers = request.headers.isEmpty()
                                ? QString()
                                : tr("Headers beside it, built with it: %1\n").arg(request.headers.join(u", "));
    return tr("File: %1\nFolder: %2\n%3SHA-256: %4\n\nBuild and run it only if you trust where it "
              "comes from. A yes is remembered for this content; a changed file or header asks again.")
        .arg(sourceConsentFileText(request),
             QString::fromStdString(printableFileName(QFileInfo(request.source).absolutePath().toStdString())), headers,
             request.sha256);
}

bool sourceConsentDialog(QWidget *parent, const SourceConsentRequest &request)
{
    QMessageBox box(parent);
    box.setIcon(QMessageBox::Warning);
    box.setWindowTitle(tr("Build and run code from this session?"));
    box.setText(
        tr("The session %1 has a governor built from a source file. Building it runs the compiler on the "
           "file, and running it runs its code on your computer (in a sandbox: no network, no files, "
           "no other programs).")
            .arg(QString::fromStdString(printableFileName(QFileInfo(request.session).fileName().toStdString()))));
    box.setInformativeText(sourceConsentQuestion(request));
    QPushButton *yes = box.addButton(tr("Build and run"), QMessageBox::AcceptRole);
    box.addButton(tr("Don't open"), QMessageBox::RejectRole);
    box.setDefaultButton(qobject_cast<QPushButton *>(box.buttons().last()));
    box.exec();
    return box.clickedButton() == yes;
}

} // namespace idlescope
