// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/trace_workload_page.h"

#include "widgets/trace/trace_disclosure.h"

#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardItemModel>
#include <QtConcurrent/QtConcurrentRun>

namespace idlescope {

namespace {

constexpr int SHOWN_WARNINGS = 8; ///< first warnings (one per kind) in the tooltip

QString htmlEscaped(const QString &s)
{
    return s.toHtmlEscaped();
}

void setItemEnabled(QComboBox *combo, int index, bool enabled)
{
    if (auto *model = qobject_cast<QStandardItemModel *>(combo->model()))
        if (QStandardItem *item = model->item(index))
            item->setEnabled(enabled);
}

} // namespace

TraceWorkloadPage::TraceWorkloadPage(QWidget *parent) : QWidget(parent)
{
    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    auto *fileRow = new QHBoxLayout;
    m_file = new QLabel(tr("no file"), this);
    m_file->setTextFormat(Qt::PlainText);
    // A long trace name must not widen the dock: it is elided to the label's width.
    m_file->setMinimumWidth(40);
    m_file->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto *open = new QPushButton(tr("Open\u2026"), this);
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(open);
    form->addRow(fileRow);

    m_cpuCombo = new QComboBox(this);
    m_cpuCombo->setToolTip(tr("The CPU whose recorded idle spans are replayed"));
    m_cpuCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_cpuCombo->setMinimumContentsLength(12);
    form->addRow(tr("CPU"), m_cpuCombo);

    m_info = new QLabel(this);
    m_info->setWordWrap(true);
    m_info->setStyleSheet(QStringLiteral("color:#707070; font-size:8pt;"));
    form->addRow(m_info);
    // A large trace takes a while: how far it is, and a way out.
    m_progressBar = new QProgressBar(this);
    m_progressBar->setTextVisible(true);
    m_cancelImport = new QPushButton(tr("Cancel"), this);
    m_cancelImport->setToolTip(tr("Stop importing this trace"));
    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progressBar, 1);
    progressRow->addWidget(m_cancelImport);
    form->addRow(progressRow);
    m_progressBar->hide();
    m_cancelImport->hide();
    m_progressTimer.setInterval(100);
    connect(&m_progressTimer, &QTimer::timeout, this, [this] {
        const int permille = m_importProgress ? m_importProgress->permille.load() : -1;
        if (permille >= 0) {
            m_progressBar->setRange(0, 1000);
            m_progressBar->setValue(permille);
            m_progressBar->setFormat(QStringLiteral("%1 %").arg(permille / 10.0, 0, 'f', 1));
        }
    });
    connect(m_cancelImport, &QPushButton::clicked, this, &TraceWorkloadPage::cancelImport);
    m_tableNote = new QLabel(this);
    m_tableNote->setWordWrap(true);
    m_tableNote->setStyleSheet(QStringLiteral("color:#4e79a7; font-size:8pt;"));
    m_useTable = new QPushButton(this);
    m_useTable->setToolTip(tr("Replay the trace with this idle-state table"));
    connect(m_useTable, &QPushButton::clicked, this, &TraceWorkloadPage::useTableClicked);
    form->addRow(m_tableNote);
    form->addRow(m_useTable);
    setTableProposal({}, {});
    m_warnings = new QLabel(this);
    m_warnings->setWordWrap(true);
    m_warnings->setStyleSheet(QStringLiteral("color:#9a6700; font-size:8pt;"));
    m_warnings->hide();
    form->addRow(m_warnings);

    m_file->installEventFilter(this);
    connect(open, &QPushButton::clicked, this, &TraceWorkloadPage::openRequested);
    connect(m_cpuCombo, &QComboBox::activated, this,
            [this](int index) { pickCpu(m_cpuCombo->itemData(index).toInt()); });
    connect(&m_watcher, &QFutureWatcher<ImportJob>::finished, this, &TraceWorkloadPage::importFinished);
}

void TraceWorkloadPage::setTableProposal(const QString &text, const QString &button)
{
    m_tableNote->setText(text);
    m_tableNote->setVisible(!text.isEmpty());
    m_useTable->setText(button);
    m_useTable->setVisible(!text.isEmpty() && !button.isEmpty());
}

void TraceWorkloadPage::pickCpu(int cpu)
{
    if (cpu == m_cpu)
        return;
    if (m_summary) {
        // Only a CPU the selector offers: one with spans to replay.
        const int row = m_cpuCombo->findData(cpu);
        if (row < 0 || !(m_cpuCombo->model()->flags(m_cpuCombo->model()->index(row, 0)) & Qt::ItemIsEnabled))
            return;
        m_cpuCombo->setCurrentIndex(row);
    }
    m_cpu = cpu;
    if (m_summary)
        showInfo();
    emit cpuChanged();
}

void TraceWorkloadPage::setTrace(const QString &path, int cpu)
{
    ++m_serial; // whatever import is still running is for an older request
    const bool sameFile = m_summary && QFileInfo(path).absoluteFilePath() == QFileInfo(m_path).absoluteFilePath();
    m_path = path;
    m_stamp = fileStamp(path);
    m_cpu = cpu;
    m_file->setToolTip(path);
    elideFileName();
    if (sameFile && m_summary->stamp == m_stamp) {
        fillCpus();         // already imported: another CPU of the same file, or a session of it
        announceWarnings(); // it may come back as the workload after another one
        return;
    }
    m_summary.reset();
    if (path.isEmpty()) { // the page before any file: nothing to import
        m_cpuCombo->clear();
        m_info->clear();
        m_warnings->hide();
        return;
    }
    m_info->setText(tr("Importing\u2026"));
    m_warnings->hide();
    showRequestedCpuOnly(tr("importing\u2026"));
    // The import runs on the thread pool; the simulation asks the same cache
    // for the stream and waits for this import instead of doing its own.
    m_importProgress = std::make_shared<TraceImportProgress>();
    m_progressBar->setValue(0);
    m_progressBar->setRange(0, 0); // busy until the first report
    m_progressBar->show();
    m_cancelImport->show();
    m_cancelImport->setEnabled(true);
    m_progressTimer.start();
    m_watcher.setFuture(QtConcurrent::run([path, serial = m_serial, progress = m_importProgress]() {
        ImportJob job;
        job.serial = serial;
        Result<TraceSummary> s = traceSummary(path, progress.get());
        if (s) {
            job.summary = std::move(*s);
        } else { // the trace is the workload's "path": named so, as buildSnapshot() names a stream file
            Error e = s.error();
            if (e.field.empty())
                e.field = "workload.path";
            job.error = QString::fromStdString(e.toString());
        }
        return job;
    }));
}

bool TraceWorkloadPage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_file && event->type() == QEvent::Resize)
        elideFileName();
    return QWidget::eventFilter(watched, event);
}

void TraceWorkloadPage::elideFileName()
{
    // Trace names are long (host-workload-cpus.ftrace.txt.gz): keep both ends visible.
    const QString name = m_path.isEmpty() ? tr("no file") : QFileInfo(m_path).fileName();
    m_file->setText(m_file->fontMetrics().elidedText(name, Qt::ElideMiddle, qMax(m_file->width(), 40)));
}

void TraceWorkloadPage::showRequestedCpuOnly(const QString &note)
{
    m_cpuCombo->clear();
    if (m_cpu == TRACE_BEST_CPU)
        m_cpuCombo->addItem(tr("most idle spans (%1)").arg(note), TRACE_BEST_CPU);
    else
        m_cpuCombo->addItem(tr("CPU %1 (%2)").arg(m_cpu).arg(note), m_cpu);
}

void TraceWorkloadPage::cancelImport()
{
    if (!m_importProgress || !m_watcher.isRunning())
        return;
    m_importProgress->cancel.store(true);
    m_cancelImport->setEnabled(false);
    m_info->setText(tr("Cancelling\u2026"));
}

void TraceWorkloadPage::importFinished()
{
    m_progressTimer.stop();
    m_progressBar->hide();
    m_cancelImport->hide();
    if (m_watcher.future().resultCount() == 0)
        return;
    const ImportJob job = m_watcher.result();
    // A result for an older request (another file, or none, since) is dropped.
    if (job.serial != m_serial)
        return;
    if (job.summary && job.summary->stamp != m_stamp)
        m_stamp = job.summary->stamp; // rewritten while importing: what was imported is what runs
    if (!job.summary) {
        m_info->setText(tr("Not imported"));
        showRequestedCpuOnly(tr("not imported"));
        emit errorOccurred(job.error);
        emit summaryReady();
        return;
    }
    m_summary = job.summary;
    const bool resolving = m_cpu == TRACE_BEST_CPU;
    fillCpus();
    announceWarnings();
    if (resolving && m_summary->bestCpu < 0)
        emit warningOccurred(tr("%1: no CPU of the trace has a complete idle span to replay").arg(m_path));
    emit summaryReady();
    if (resolving && m_cpu != TRACE_BEST_CPU)
        emit cpuResolved();
}

void TraceWorkloadPage::announceWarnings()
{
    if (m_summary->warningTotal > 0)
        emit warningOccurred(tr("%1: imported with %2 warnings (%3); hover the warning line under Workload for the "
                                "first of each kind")
                                 .arg(QFileInfo(m_path).fileName(), QLocale().toString(m_summary->warningTotal),
                                      m_summary->warningKinds.join(QStringLiteral(", "))));
}

void TraceWorkloadPage::showInfo()
{
    const TraceSummary &s = *m_summary;
    const QLocale locale;
    // What the trace cannot tell about the CPU replayed, under the counts (trace_disclosure.h).
    QStringList info{
        (s.cpus.size() == 1 ? tr("%1 \u00b7 %2 CPU \u00b7 %3 events") : tr("%1 \u00b7 %2 CPUs \u00b7 %3 events"))
            .arg(s.format, locale.toString(static_cast<qint64>(s.cpus.size())), locale.toString(s.events))};
    info << traceDisclosure(s, m_cpu);
    m_info->setText(info.join(QLatin1Char('\n')));
}

void TraceWorkloadPage::fillCpus()
{
    const TraceSummary &s = *m_summary;
    const QLocale locale;
    if (m_cpu == TRACE_BEST_CPU && s.bestCpu >= 0)
        m_cpu = s.bestCpu;
    m_cpuCombo->clear();
    int current = -1;
    for (const TraceCpuInfo &c : s.cpus) {
        QString text;
        QString tip;
        if (c.spans > 0) {
            text = (c.spans == 1 ? tr("CPU %1 \u2014 %2 idle span") : tr("CPU %1 \u2014 %2 idle spans"))
                       .arg(c.cpu)
                       .arg(locale.toString(c.spans));
            tip = tr("%1; %2 cpu_idle entries").arg(c.account, locale.toString(c.entries));
        } else if (c.recordedSpans > 0) {
            text = tr("CPU %1 \u2014 no complete span").arg(c.cpu);
            tip = tr("Nothing to replay: %1").arg(c.account);
        } else {
            text = tr("CPU %1 \u2014 no idle spans").arg(c.cpu);
            tip = tr("No idle span recorded on this CPU");
        }
        if (c.cpu == s.bestCpu)
            tip += tr(" \u00b7 the most idle spans");
        m_cpuCombo->addItem(text, c.cpu);
        const int row = m_cpuCombo->count() - 1;
        m_cpuCombo->setItemData(row, tip, Qt::ToolTipRole);
        // Nothing to replay: listed (the user sees why) but not selectable.
        setItemEnabled(m_cpuCombo, row, c.spans > 0);
        if (c.cpu == m_cpu)
            current = row;
    }
    if (current < 0 && m_cpu != TRACE_BEST_CPU) {
        // A session or a caller asked for a CPU the trace lacks: show it as such.
        m_cpuCombo->addItem(tr("CPU %1 \u2014 not in the trace").arg(m_cpu), m_cpu);
        current = m_cpuCombo->count() - 1;
        setItemEnabled(m_cpuCombo, current, false);
    }
    m_cpuCombo->setCurrentIndex(current);

    showInfo();
    if (s.warningTotal > 0) {
        m_warnings->setText(
            (s.warningTotal == 1 ? tr("\u26a0 %1 import warning: %2") : tr("\u26a0 %1 import warnings: %2"))
                .arg(locale.toString(s.warningTotal), s.warningKinds.join(QStringLiteral(", "))));
        QString tip = QStringLiteral("<b>%1</b><br>").arg(tr("Import warnings by kind"));
        for (const QString &k : s.warningKinds)
            tip += htmlEscaped(k) + QStringLiteral("<br>");
        tip += QStringLiteral("<br><b>%1</b><br>").arg(tr("First of each kind"));
        for (int i = 0; i < s.firstWarnings.size() && i < SHOWN_WARNINGS; ++i)
            tip += QStringLiteral("<code>%1</code><br>").arg(htmlEscaped(s.firstWarnings[i]));
        m_warnings->setToolTip(tip);
        m_warnings->show();
    } else {
        m_warnings->hide();
    }
}

} // namespace idlescope
