// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file source_consent.h
 * The window's side of core/source_governor/source_consent.h: before a
 * session whose governors include one built from source is shown, the user
 * is asked, for each such file the user has not allowed yet, whether to
 * build and run it, seeing the session, the file's path, the headers beside
 * it (the build compiles those too, and nothing else of the folder's) and the
 * SHA-256 of them all (source_governor::sourceConsentHash(): what `sha256sum
 * FILE` prints when there is no header). A yes is remembered by that hash in
 * the settings (sourceConsent/sha256): the same content opens without a
 * question from then on, a changed file or header asks again.
 */
#pragma once

#include <QSettings>
#include <QString>
#include <QStringList>

#include <functional>
#include <string>
#include <vector>

class QWidget;

namespace idlescope {

struct ScenarioSpec;

/// What the user is asked about.
struct SourceConsentRequest {
    QString session;     ///< the session that names the file
    QString source;      ///< the file (absolute)
    QString sha256;      ///< source_governor::sourceConsentHash() of it and its headers
    QStringList headers; ///< the headers beside it that the hash covers (file names)
    QString resolved;    ///< what @c source is once its links are followed ("" when it is no link)
};

/// The file of @p request as the question names it: its name, and where a link leads
/// ("link.c -> /etc/passwd": the content hashed and built is the target's), escaped
/// (printableFileName()).
QString sourceConsentFileText(const SourceConsentRequest &request);

/// The question's details: the file (sourceConsentFileText()), its folder, the headers and the SHA-256.
QString sourceConsentQuestion(const SourceConsentRequest &request);

/// Asks the user; true for a yes. None set (a scripted run): every file is refused.
using SourceConsentAsker = std::function<bool(const SourceConsentRequest &)>;

/// The hashes allowed, kept in QSettings.
class SourceConsentStore {
public:
    static constexpr const char *SETTINGS_KEY = "sourceConsent/sha256";
    /// Uses @p settings, or the application's default QSettings when null.
    explicit SourceConsentStore(QSettings *settings = nullptr) : m_settings(settings) {}
    QStringList hashes() const;
    void remember(const QString &sha256);
    /// Tells the core every hash remembered (at the window's start).
    void grantRemembered() const;

private:
    QSettings *m_settings;
};

/// One source file of a scenario, read and hashed: what askSourceConsent() asks about.
struct SourceConsentCheck {
    std::string path;    ///< as the governor id names it (the build's key)
    std::string sha256;  ///< source_governor::sourceConsentHash() of it and its headers
    QString source;      ///< the file, absolute
    QStringList headers; ///< the headers beside it that the hash covers (file names)
    QString resolved;    ///< @c source with its links followed, "" when it is no link
};

/**
 * Reads and hashes every source file of @p scenario that needs a yes (none while
 * consent is not required); a bad id or an unreadable file is left out (the run
 * reports those in the build's words). It reads files, so that a session is
 * opened on a worker thread (session_opener.h): call it there, never on the GUI's.
 */
std::vector<SourceConsentCheck> sourceConsentChecks(const ScenarioSpec &scenario);

/**
 * Asks, with @p asker, for every file of @p checks (of session @p session) not
 * allowed already, and grants each yes. Reads no file (the GUI thread's part).
 * "" when every file may be built; else the message saying which file was not
 * allowed and how to allow it.
 */
QString askSourceConsent(const QString &session, const std::vector<SourceConsentCheck> &checks,
                         const SourceConsentAsker &asker, SourceConsentStore &store);
/// Both at once (a recovery copy, read on the GUI thread from the user's own folder).
QString askSourceConsent(const QString &session, const ScenarioSpec &scenario, const SourceConsentAsker &asker,
                         SourceConsentStore &store);

/// The question as a dialog over @p parent: Build and run / Don't open.
bool sourceConsentDialog(QWidget *parent, const SourceConsentRequest &request);

} // namespace idlescope
