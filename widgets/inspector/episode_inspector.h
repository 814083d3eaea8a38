// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file episode_inspector.h
 * The episode inspector (content of a QDockWidget): for the selected entry of
 * the selected governor it shows the entry's inputs and what ended it, the
 * decision with its above/below verdict, the governor's reasoning in plain
 * sentences, a small chart (reasoning_chart.h), the oracle's choice for the
 * same entry and what the mistake cost. "Previous miss" / "Next miss" move
 * the selection to the neighbouring above and/or below entry.
 *
 * Usage: setSnapshot() with every new snapshot, setViewState() once (the
 * inspector then follows ViewState::entrySelected and moves the selection
 * through ViewState::selectEntry, so every plot follows). Without a
 * ViewState, call showEntry() and connect entrySelected().
 *
 * The details are re-computed by replaying the governor up to the entry
 * (reasoningAt): directly for entries below SYNC_ENTRY_LIMIT, else on a
 * worker thread; detailShown() tells when the panel is up to date.
 */
#pragma once

#include "widgets/inspector/entry_detail.h"
#include "widgets/runner/simulation_snapshot.h"
#include "widgets/trace/trace_disagreements.h"

#include <QFutureWatcher>
#include <QWidget>

#include <optional>

class QAction;
class QComboBox;
class QLabel;
class QTextBrowser;
class QToolButton;

namespace idlescope {

class ReasoningChart;
class ViewState;

class EpisodeInspector : public QWidget {
    Q_OBJECT
public:
    /// Entries below this index are explained on the GUI thread (menu-6.14
    /// replays 50000 entries in about 5 ms, 1 M in about 100 ms on a loaded
    /// 2-core machine); later ones on a worker.
    static constexpr std::int64_t SYNC_ENTRY_LIMIT = 50000;

    /// Which misses "next/previous miss" looks for.
    enum class MissKind { Any, Above, Below };

    explicit EpisodeInspector(QWidget *parent = nullptr);
    ~EpisodeInspector() override;

    /// A new simulation; re-shows the current selection if it still exists.
    void setSnapshot(SnapshotPtr snapshot);
    /// Follow (and drive) the shared selection; may be null.
    void setViewState(ViewState *view);

    void setMissKind(MissKind k);

    /// The detail on display, or null (nothing selected, or still computing).
    const EntryDetail *detail() const { return m_detail ? &*m_detail : nullptr; }
    /// The panel's text as plain text (title + body), for tests and copying.
    QString plainText() const;
    /// The panel's HTML body.
    QString html() const;
    ReasoningChart *chart() const { return m_chart; }
    QTextBrowser *textBrowser() const { return m_text; }
    /// On a trace with its recorded run: each simulated governor's first disagreements with the
    /// kernel on this CPU, listed under every entry as links (a click selects the kernel's entry).
    const std::vector<DisagreementLink> &disagreements() const { return m_disagreements; }

    /// The selected entry's trace timestamp as "Copy timestamp" copies it ("" without a trace).
    QString traceTimestamp() const { return m_timestamp; }
    QAction *copyTimestampAction() const { return m_copyTsAction; }
    /// Where the plots draw the entry shown (entryAxisNs(): the trace's or stream's clock, the
    /// one the title's "at" gives), -1 when none is shown.
    Ns entryAxisNs() const { return m_axisNs; }

    /// Actions with shortcuts ("N" / "Shift+N"), for menus and toolbars.
    QAction *nextMissAction() const { return m_nextAction; }
    QAction *previousMissAction() const { return m_prevAction; }

public slots:
    /// Show entry @p entryIndex of run @p governorIndex; (-1, -1) clears.
    void showEntry(int governorIndex, qint64 entryIndex);
    void nextMiss();
    void previousMiss();
    /// A link of the panel: an entryLink() selects that entry (and shows it); others are ignored.
    void openLink(const QUrl &url);
    /// Selects (and shows) the kernel's recorded entry that began at @p traceNs on the trace's
    /// clock, as a disagreement of the CPUs dock names it; false when the snapshot shown has no
    /// recorded run or no such entry (another CPU's).
    bool goToTraceEntry(qint64 traceNs);

signals:
    /// The inspector moved the selection (next/previous miss).
    void entrySelected(int governorIndex, qint64 entryIndex);
    /// The panel now shows this entry (or (-1, -1): cleared / failed).
    void detailShown(int governorIndex, qint64 entryIndex);

private:
    void setupUi();
    void createActions();
    void jumpToMiss(bool forward);
    /// Selects entry @p e of run @p g in the view, shows it here and says so (a link, a miss).
    void goToEntry(int g, std::int64_t e);
    void present(const Result<EntryDetail> &r, std::uint64_t request);
    /// @p text as the title, no detail; the chart titled @p chartTitle ("Select an entry" when empty).
    void showMessage(const QString &text, const QString &chartTitle = QString());
    void presentRecorded();
    void setTimestamp();
    std::uint8_t missMask() const;

    SnapshotPtr m_snap;
    ViewState *m_view = nullptr;
    std::optional<EntryDetail> m_detail;
    std::vector<DisagreementLink> m_disagreements;
    int m_gov = -1;
    qint64 m_entry = -1;
    std::uint64_t m_request = 0;
    MissKind m_missKind = MissKind::Any;

    QLabel *m_title = nullptr;
    QTextBrowser *m_text = nullptr;
    ReasoningChart *m_chart = nullptr;
    QComboBox *m_kindBox = nullptr;
    QAction *m_nextAction = nullptr;
    QAction *m_prevAction = nullptr;
    QAction *m_copyTsAction = nullptr;
    QString m_timestamp;
    Ns m_axisNs = -1;
    struct Job {
        Result<EntryDetail> result = Error{};
        std::uint64_t request = 0;
    };
    QFutureWatcher<Job> m_watcher;
};

} // namespace idlescope
