// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/inspector/episode_inspector.h"

#include "core/source_governor/source_governor.h"
#include "core/trace/recorded_entries.h"

#include "widgets/inspector/inspector_html.h"
#include "widgets/inspector/reasoning_chart.h"
#include "widgets/panels/message_bar.h"
#include "widgets/trace/trace_entry_text.h"
#include "widgets/view_state.h"

#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace idlescope {

namespace {
/// Characters of a reason the inspector's title holds (the title is one line of the panel).
constexpr int REASON_CHARS = 160;
} // namespace

EpisodeInspector::EpisodeInspector(QWidget *parent) : QWidget(parent)
{
    createActions();
    setupUi();
    connect(&m_watcher, &QFutureWatcher<Job>::finished, this, [this] {
        const Job job = m_watcher.result();
        present(job.result, job.request);
    });
    showMessage(tr("Click an entry in a plot, or press <b>N</b> for the next miss."));
}

EpisodeInspector::~EpisodeInspector()
{
    m_watcher.waitForFinished(); // the job holds its own snapshot pointer; just do not leak the thread
}

void EpisodeInspector::createActions()
{
    m_nextAction = new QAction(tr("Next Miss"), this);
    m_nextAction->setShortcut(QKeySequence(Qt::Key_N));
    m_nextAction->setToolTip(tr("Select the next above/below entry of this governor (N)"));
    m_prevAction = new QAction(tr("Previous Miss"), this);
    m_prevAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_N));
    m_prevAction->setToolTip(tr("Select the previous above/below entry of this governor (Shift+N)"));
    for (QAction *a : {m_nextAction, m_prevAction})
        a->setShortcutContext(Qt::WindowShortcut);
    addAction(m_nextAction);
    addAction(m_prevAction);
    connect(m_nextAction, &QAction::triggered, this, &EpisodeInspector::nextMiss);
    connect(m_prevAction, &QAction::triggered, this, &EpisodeInspector::previousMiss);
    m_copyTsAction = new QAction(tr("Copy timestamp"), this);
    m_copyTsAction->setToolTip(tr("Copy the entry's trace timestamp (seconds, as trace-cmd report, KernelShark "
                                  "and Perfetto show it)"));
    m_copyTsAction->setEnabled(false);
    connect(m_copyTsAction, &QAction::triggered, this, [this] {
        if (!m_timestamp.isEmpty())
            QGuiApplication::clipboard()->setText(m_timestamp);
    });
}

void EpisodeInspector::setupUi()
{
    auto tool = [this](QAction *a, Qt::ArrowType arrow) {
        auto *b = new QToolButton(this);
        b->setDefaultAction(a);
        b->setArrowType(arrow);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        return b;
    };
    m_kindBox = new QComboBox(this);
    m_kindBox->addItems({tr("above or below"), tr("above only"), tr("below only")});
    m_kindBox->setToolTip(tr("Which misses Next/Previous Miss looks for"));
    connect(m_kindBox, &QComboBox::currentIndexChanged, this, [this](int i) { m_missKind = static_cast<MissKind>(i); });

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(tool(m_prevAction, Qt::LeftArrow));
    bar->addWidget(tool(m_nextAction, Qt::RightArrow));
    bar->addWidget(m_kindBox);
    bar->addStretch(1);
    auto *copy = new QToolButton(this);
    copy->setDefaultAction(m_copyTsAction);
    bar->addWidget(copy);

    m_title = new QLabel(this);
    m_title->setTextFormat(Qt::RichText);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_text = new QTextBrowser(this);
    m_text->setOpenLinks(false);
    connect(m_text, &QTextBrowser::anchorClicked, this, &EpisodeInspector::openLink);
    m_chart = new ReasoningChart(this);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_text);
    split->addWidget(m_chart);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_title);
    layout->addWidget(split, 1);
}

void EpisodeInspector::setMissKind(MissKind k)
{
    m_missKind = k;
    m_kindBox->setCurrentIndex(static_cast<int>(k));
}

std::uint8_t EpisodeInspector::missMask() const
{
    switch (m_missKind) {
    case MissKind::Above: return ENTRY_ABOVE;
    case MissKind::Below: return ENTRY_BELOW;
    case MissKind::Any: break;
    }
    return ENTRY_ABOVE | ENTRY_BELOW;
}

void EpisodeInspector::setSnapshot(SnapshotPtr snapshot)
{
    m_snap = std::move(snapshot);
    // Five per governor: the first ones say where to look; compare --agreement lists more.
    m_disagreements = m_snap ? firstDisagreements(*m_snap, 5) : std::vector<DisagreementLink>{};
    const bool stillThere = m_snap && m_gov >= 0 && m_gov < m_snap->governorCount() && m_entry >= 0
                            && m_entry < static_cast<qint64>(m_snap->governors[size_t(m_gov)].run->size());
    const bool enable = m_snap && m_snap->governorCount() > 0;
    m_nextAction->setEnabled(enable);
    m_prevAction->setEnabled(enable);
    if (stillThere) {
        const int g = m_gov;
        const qint64 e = m_entry;
        m_gov = -1; // force a refresh: the run may have changed
        showEntry(g, e);
    } else {
        showEntry(-1, -1);
    }
}

void EpisodeInspector::setViewState(ViewState *view)
{
    if (m_view)
        disconnect(m_view, nullptr, this, nullptr);
    m_view = view;
    if (m_view)
        connect(m_view, &ViewState::entrySelected, this, &EpisodeInspector::showEntry);
}

void EpisodeInspector::setTimestamp()
{
    const Ns ts = m_snap ? entryTraceNs(*m_snap, m_gov, m_entry) : -1;
    m_timestamp = ts >= 0 ? traceTimestampText(ts) : QString();
    m_copyTsAction->setEnabled(!m_timestamp.isEmpty());
}

void EpisodeInspector::presentRecorded()
{
    m_detail.reset();
    // The kernel's entry has no governor reasoning to chart (it was read from the trace).
    m_chart->clear(tr("The kernel's entry: no governor reasoning to chart"));
    setTimestamp();
    m_axisNs = idlescope::entryAxisNs(*m_snap, m_gov, m_entry);
    // The same clock as a simulated entry's title and the plots' axis.
    m_title->setText(QStringLiteral("<b>%1</b>")
                         .arg(tr("recorded · entry %1 · span %2 · at %3")
                                  .arg(m_entry)
                                  .arg(entrySpanNumber(*m_snap, m_gov, m_entry))
                                  .arg(entryTimeText(*m_snap, m_gov, m_entry))
                                  .toHtmlEscaped()));
    m_text->setHtml(recordedEntryHtml(*m_snap, m_gov, m_entry) + disagreementsHtml(*m_snap, m_disagreements));
    emit detailShown(m_gov, m_entry);
}

void EpisodeInspector::showMessage(const QString &text, const QString &chartTitle)
{
    m_timestamp.clear();
    m_axisNs = -1;
    m_copyTsAction->setEnabled(false);
    m_detail.reset();
    m_title->setText(text);
    m_title->setToolTip(QString());
    m_text->clear();
    m_chart->clear(chartTitle);
}

void EpisodeInspector::showEntry(int governorIndex, qint64 entryIndex)
{
    if (governorIndex == m_gov && entryIndex == m_entry && m_detail)
        return;
    m_gov = governorIndex;
    m_entry = entryIndex;
    const std::uint64_t request = ++m_request;
    if (!m_snap || governorIndex < 0 || entryIndex < 0) {
        showMessage(tr("No entry selected. Click an entry in a plot, or press <b>N</b> for the next miss."));
        emit detailShown(-1, -1);
        return;
    }
    const bool inRange = governorIndex < m_snap->governorCount()
                         && entryIndex < static_cast<qint64>(m_snap->governors[size_t(governorIndex)].run->size());
    if (inRange && isRecordedRun(*m_snap, governorIndex)) { // read from the trace: nothing to replay
        presentRecorded();
        return;
    }
    // A governor built from source is replayed by its host process: never on this thread.
    const bool sourceRun = inRange && isSourceGovernorId(m_snap->governors[size_t(governorIndex)].run->variant);
    if ((entryIndex < SYNC_ENTRY_LIMIT && !sourceRun) || !inRange) { // a bad index fails at once
        present(computeEntryDetail(*m_snap, governorIndex, entryIndex), request);
        return;
    }
    m_title->setText(tr("Replaying %1 entries to explain entry %2…").arg(entryIndex).arg(entryIndex));
    m_chart->clear(tr("Replaying to explain entry %1\u2026").arg(entryIndex)); // not the previous entry's chart
    SnapshotPtr snap = m_snap;                                                 // the worker keeps the snapshot alive
    m_watcher.setFuture(QtConcurrent::run([snap, governorIndex, entryIndex, request] {
        return Job{computeEntryDetail(*snap, governorIndex, entryIndex), request};
    }));
}

void EpisodeInspector::present(const Result<EntryDetail> &r, std::uint64_t request)
{
    if (request != m_request)
        return; // a newer selection superseded this one
    if (!r.ok()) {
        // A stale run's reason is a compiler's whole output: its first line, cut short, says
        // why (escaped: the title is rich text, "<stdin>" or "a < b" would vanish into
        // markup); the tooltip has a longer part, the message bar the whole.
        const QString reason = QString::fromStdString(r.error().toString());
        const qsizetype newline = reason.indexOf(QLatin1Char('\n'));
        showMessage(tr("Cannot explain this entry: %1")
                        .arg(briefText(newline < 0 ? reason : reason.left(newline), 1, REASON_CHARS).toHtmlEscaped()),
                    tr("No chart: this entry could not be explained"));
        m_title->setToolTip(QStringLiteral("<pre>%1</pre>").arg(briefText(reason, 20, 160).toHtmlEscaped()));
        emit detailShown(-1, -1);
        return;
    }
    m_detail = r.value();
    const QColor &own = m_snap->governors[size_t(m_gov)].color;
    const QColor color = own.isValid() ? own : QColor(Qt::black);
    m_axisNs = m_detail->axisNs;
    m_title->setText(QStringLiteral("<b>%1</b>")
                         .arg(entryTitle(*m_detail, entryTimeText(*m_snap, m_gov, m_entry),
                                         m_snap->trace ? entrySpanNumber(*m_snap, m_gov, m_entry) : -1)
                                  .toHtmlEscaped()));
    m_title->setToolTip(QString());
    setTimestamp();
    // On a trace: where the span is in it; for every run: its own clock's drift from the workload's.
    const Ns drift = entryDriftNs(*m_snap, m_gov, m_entry, m_detail->entry.startNs);
    QString drifted;
    if (m_snap->spanClockNs) // hand-made snapshots have no workload clock
        drifted = tr("<p><b>Clock:</b> this run's own time is %1 %2 the %3 here (exit latencies and poll limits "
                     "add up); the plots draw the entry at the %3.</p>")
                      .arg(durationText(drift < 0 ? -drift : drift), drift < 0 ? tr("behind") : tr("ahead of"),
                           m_snap->clockName());
    m_text->setHtml(entryDetailHtml(*m_detail, m_snap->table, color) + traceSourceHtml(*m_snap, m_gov, m_entry)
                    + drifted + disagreementsHtml(*m_snap, m_disagreements));
    m_chart->showDetail(*m_detail, m_snap->table, color);
    emit detailShown(m_gov, m_entry);
}

void EpisodeInspector::jumpToMiss(bool forward)
{
    if (!m_snap || m_snap->governorCount() == 0)
        return;
    const int gov = m_gov >= 0 && m_gov < m_snap->governorCount() ? m_gov : 0;
    const qint64 from = gov == m_gov ? m_entry : -1;
    const std::int64_t next = findMiss(*m_snap->governors[size_t(gov)].run, from, forward, missMask());
    if (next < 0) {
        m_title->setText(forward ? tr("No later miss in %1.").arg(m_snap->name(gov))
                                 : tr("No earlier miss in %1.").arg(m_snap->name(gov)));
        return;
    }
    goToEntry(gov, next);
}

void EpisodeInspector::openLink(const QUrl &url)
{
    int g = -1;
    std::int64_t e = -1;
    if (!m_snap || !parseEntryLink(url, &g, &e) || g < 0 || g >= m_snap->governorCount() || e < 0
        || e >= static_cast<std::int64_t>(m_snap->governors[size_t(g)].run->size()))
        return;
    goToEntry(g, e);
}

bool EpisodeInspector::goToTraceEntry(qint64 traceNs)
{
    const int g = m_snap && m_snap->trace ? m_snap->indexOf(trace::RECORDED_VARIANT) : -1;
    if (g < 0)
        return false;
    // The recorded run's startNs is the trace time minus the origin (firstDisagreements()).
    const std::vector<Ns> &starts = m_snap->governors[size_t(g)].run->startNs;
    const Ns t = traceNs - m_snap->trace->originNs;
    const auto it = std::lower_bound(starts.begin(), starts.end(), t);
    if (it == starts.end() || *it != t)
        return false;
    goToEntry(g, it - starts.begin());
    return true;
}

void EpisodeInspector::goToEntry(int g, std::int64_t e)
{
    if (m_view)
        m_view->selectEntry(g, e); // comes back through entrySelected → showEntry
    if (m_gov != g || m_entry != e)
        showEntry(g, e);
    emit entrySelected(g, e);
}

void EpisodeInspector::nextMiss()
{
    jumpToMiss(true);
}
void EpisodeInspector::previousMiss()
{
    jumpToMiss(false);
}

QString EpisodeInspector::plainText() const
{
    QTextDocument title;
    title.setHtml(m_title->text());
    return title.toPlainText() + QLatin1Char('\n') + m_text->toPlainText();
}

QString EpisodeInspector::html() const
{
    return m_text->toHtml();
}

} // namespace idlescope
