// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file concepts_dialog.h
 * Help → Concepts: the cpuidle vocabulary (target residency, exit latency,
 * above/below, sleep length, intercepts, …) in our own words, from the
 * embedded page qrc:/help/concepts.html (resources/help/concepts.html).
 */
#pragma once

#include <QDialog>
#include <QString>

class QTextBrowser;

namespace idlescope {

/// The HTML text of the concepts page (the embedded resource); empty if missing.
QString conceptsHtml();

/// A non-modal dialog showing the concepts page; one instance may be reused.
class ConceptsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ConceptsDialog(QWidget *parent = nullptr);

    /// Scrolls to a section: "states", "inputs", "misses", "tick", "poll",
    /// "menu", "teo", "cede", "oracle", "numbers" (the page's anchors).
    void showTopic(const QString &anchor);

    QTextBrowser *browser() const { return m_browser; }

private:
    QTextBrowser *m_browser = nullptr;
};

} // namespace idlescope
