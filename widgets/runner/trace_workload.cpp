// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/runner/trace_workload.h"

#include "core/scenario/scenario_trace.h"
#include "core/trace/table_proposal.h"
#include "core/trace/trace_import.h"
#include "core/trace/trace_limits.h"
#include "core/trace/trace_model.h"
#include "core/trace/trace_stream.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QMutex>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <memory>

namespace idlescope {

namespace {

/// One imported file: the trace itself (so that another CPU is one
/// toReplayStream away) and its summary.
struct CachedTrace {
    QString absolutePath;
    QString stamp;
    std::shared_ptr<const trace::TraceImport> trace;
    TraceSummary summary;
};

/// Only the last trace is kept: a trace can take hundreds of MB, and the
/// window shows one workload at a time.
struct TraceCache {
    QMutex mutex;
    std::shared_ptr<const CachedTrace> last;
    QString cancelledPath; ///< absolute path and stamp of the last import the user cancelled
    QString cancelledStamp;
    std::atomic<int> imports = 0; ///< atomics: tests read them without waiting for an import
    std::atomic<bool> lastOnGuiThread = false;
};

TraceCache &cache()
{
    static TraceCache c;
    return c;
}

TraceSummary summarize(const trace::TraceImport &t)
{
    TraceSummary s;
    s.format = QString::fromUtf8(trace::traceFormatName(t.format));
    s.events = t.events;
    s.hasTimerEvents = t.hasTimerEvents;
    s.hasMissEvents = t.hasMissEvents;
    const trace::TraceLimits limits = trace::traceLimits(t);
    s.defaultIdleOnly = limits.defaultIdleOnly;
    s.microsecondTimestamps = limits.microsecondTimestamps;
    std::vector<scenario::CpuRows> rows;
    for (const trace::CpuTrace &c : t.cpus) {
        TraceCpuInfo info;
        info.cpu = c.cpu;
        info.recordedSpans = static_cast<qint64>(c.spans.size());
        info.entries = static_cast<qint64>(c.entries.size());
        // The exported count is what selecting the CPU replays; the export is
        // cheap next to the import and keeps the count identical to the CLI's.
        if (!c.spans.empty()) {
            const trace::StreamExport e = trace::toReplayStream(c);
            info.spans = e.spans;
            info.rows = static_cast<qint64>(e.stream.size());
            info.account = QString::fromStdString(trace::spanAccountText(info.recordedSpans, info.spans, e.dropped));
            info.timerFallback = e.timerFallback;
            info.timerClamped = e.timerClamped;
        }
        rows.push_back({c.cpu, info.rows});
        s.cpus.push_back(info);
    }
    s.bestCpu = scenario::cpuWithMostRows(rows); // the CLI's pick: one function of core/scenario
    // Kinds by count, most frequent first: the one line the panel shows leads with what matters.
    std::vector<int> kinds;
    for (int k = 0; k < trace::WARNING_KIND_COUNT; ++k)
        if (t.warningCounts[k] > 0)
            kinds.push_back(k);
    std::stable_sort(kinds.begin(), kinds.end(), [&](int a, int b) { return t.warningCounts[a] > t.warningCounts[b]; });
    for (const int k : kinds) {
        const auto kind = static_cast<trace::WarningKind>(k);
        const std::int64_t n = t.warningCount(kind);
        s.warningTotal += n;
        s.warningKinds << QStringLiteral("%1 \u00d7 %2").arg(QString::fromUtf8(trace::warningKindName(kind))).arg(n);
        // The first warning of each kind in full (file:line: kind (field): detail).
        for (const trace::ImportWarning &w : t.warnings)
            if (w.kind == kind) {
                s.firstWarnings << QString::fromStdString(w.toString());
                break;
            }
    }
    return s;
}

Result<std::shared_ptr<const CachedTrace>> importCached(const QString &path, TraceImportProgress *progress = nullptr)
{
    if (path.isEmpty()) // "Kernel trace" picked but no file opened yet
        return Error{"", 0, "workload", "no trace file chosen (File \u2192 Open kernel trace\u2026)"};
    const QFileInfo info(path);
    if (!info.exists())
        return Error{path.toStdString(), 0, "", "no such file"};
    const QString absolute = info.absoluteFilePath();
    const QString stamp = fileStamp(path);
    TraceCache &c = cache();
    // Held during the import: the panel's summary task and the runner's job
    // ask for the same file at about the same time, and only one should read it.
    QMutexLocker lock(&c.mutex);
    if (c.last && c.last->absolutePath == absolute && c.last->stamp == stamp)
        return c.last;
    // Cancelled by the user: a simulation waiting for the same file does not read it after all.
    const bool cancelled = c.cancelledPath == absolute && c.cancelledStamp == stamp;
    if (progress) {
        c.cancelledPath.clear();
    } else if (cancelled) {
        return Error::cancelled("import cancelled", path.toStdString());
    }
    ++c.imports;
    c.lastOnGuiThread =
        QCoreApplication::instance() && QThread::currentThread() == QCoreApplication::instance()->thread();
    trace::ProgressFn follow;
    if (progress)
        follow = [progress](std::int64_t done, std::int64_t total) {
            if (total > 0)
                progress->permille.store(static_cast<int>(std::min<std::int64_t>(1000, done * 1000 / total)));
            return !progress->cancel.load();
        };
    Result<trace::TraceImport> imported = trace::importTrace(path.toStdString(), {}, follow);
    if (!imported) {
        if (progress && progress->cancel.load()) {
            c.cancelledPath = absolute;
            c.cancelledStamp = stamp;
        }
        return imported.error();
    }
    auto entry = std::make_shared<CachedTrace>();
    entry->absolutePath = absolute;
    entry->stamp = stamp;
    entry->summary = summarize(*imported);
    entry->summary.stamp = stamp;
    const trace::TableProposal proposal = trace::tableProposal(path.toStdString(), *imported);
    entry->summary.sidecarTable = QString::fromStdString(proposal.sidecarPath);
    entry->summary.statesSeen = proposal.statesSeen;
    entry->summary.machine = trace::machineBesideTrace(path.toStdString());
    entry->trace = std::make_shared<const trace::TraceImport>(std::move(*imported));
    c.last = entry; // the previous trace is freed once no job holds it
    return std::shared_ptr<const CachedTrace>(entry);
}

} // namespace

QString fileStamp(const QString &path)
{
    const QFileInfo info(path); // a fresh QFileInfo: never a cached stat
    if (!info.exists())
        return {};
    return QStringLiteral("%1:%2").arg(info.lastModified().toMSecsSinceEpoch()).arg(info.size());
}

Result<TraceSummary> traceSummary(const QString &path, TraceImportProgress *progress)
{
    auto entry = importCached(path, progress);
    if (!entry)
        return entry.error();
    TraceSummary s = (*entry)->summary;
    s.path = path;
    return s;
}

namespace {

/// The CPU @p cpu of the cached trace and its export, or the error traceWorkloadStream() gives.
Result<std::pair<std::shared_ptr<const CachedTrace>, trace::StreamExport>> exportCpu(const QString &path, int &cpu)
{
    auto entry = importCached(path);
    if (!entry)
        return entry.error();
    // The summary has picked the CPU with the most rows already (core/scenario's rule); a trace
    // without one is left to core/scenario to refuse.
    if (cpu == TRACE_BEST_CPU && (*entry)->summary.bestCpu >= 0)
        cpu = (*entry)->summary.bestCpu;
    Result<scenario::TraceCpuExport> e = scenario::exportTraceCpu(*(*entry)->trace, cpu, path.toStdString());
    if (!e)
        return e.error();
    cpu = e->cpu;
    return std::make_pair(*entry, std::move(e->exported));
}

} // namespace

Result<IdleStream> traceWorkloadStream(const QString &path, int cpu)
{
    auto e = exportCpu(path, cpu);
    if (!e)
        return e.error();
    return std::move(e->second.stream);
}

Result<TraceCpuSource> traceCpuSource(const QString &path, int cpu)
{
    auto e = exportCpu(path, cpu);
    if (!e)
        return e.error();
    TraceCpuSource src;
    src.trace = e->first->trace;
    src.cpu = cpu;
    src.rows = std::move(e->second.rows);
    src.timerFallback = e->second.timerFallback;
    src.timerClamped = e->second.timerClamped;
    src.account = e->first->summary.cpus[static_cast<std::size_t>(cpu)].account;
    Ns t0 = -1;
    for (const trace::CpuTrace &c : src.trace->cpus)
        if (c.events > 0 && (t0 < 0 || c.firstNs < t0))
            t0 = c.firstNs;
    src.originNs = t0 < 0 ? 0 : t0;
    return src;
}

int traceImportCount()
{
    return cache().imports.load();
}

bool lastTraceImportOnGuiThread()
{
    return cache().lastOnGuiThread.load();
}

} // namespace idlescope
