// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/comparison/comparison_view.h"

#include "widgets/trace/trace_disclosure.h"

#include "core/experiments/closed_loop_format.h"
#include "core/io/atomic_file.h"
#include "widgets/comparison/comparison_table_model.h"
#include "widgets/export/comparison_export.h"
#include "widgets/export/export_dialogs.h"
#include "widgets/export/figure_export.h"
#include "widgets/export/scenario_context.h"
#include "widgets/export/table_figure.h"

#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace idlescope {

QString twoLineHeader(const QString &label)
{
    // Break at the '_' or space nearest the middle: the kernel names stay
    // whole and readable, and a column is as wide as its longer half.
    if (label.size() <= 6)
        return label;
    int best = -1;
    for (int i = 1; i + 1 < label.size(); ++i) {
        if (label[i] != QLatin1Char('_') && label[i] != QLatin1Char(' '))
            continue;
        if (best < 0 || std::abs(2 * i - int(label.size())) < std::abs(2 * best - int(label.size())))
            best = i;
    }
    if (best < 0)
        return label;
    if (label[best] == QLatin1Char(' '))
        return label.left(best) + QLatin1Char('\n') + label.mid(best + 1);
    return label.left(best + 1) + QLatin1Char('\n') + label.mid(best + 1); // "idle_miss_" / "ratio"
}

namespace {

/// The table on screen with two-line column titles (twoLineHeader()), so
/// that the per-state columns fit beside the kernel threads' ones at the
/// dock's default width; exports read the model and keep one-line names.
class TwoLineHeaderProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        const QVariant v = QSortFilterProxyModel::headerData(section, orientation, role);
        if (orientation == Qt::Horizontal && role == Qt::DisplayRole)
            return twoLineHeader(v.toString());
        return v;
    }
};

/// Qt reserves room for the sort arrow as wide as the header is high: with
/// two-line titles that doubled it and undid what the second line saved.
/// One line's height is the arrow's room here, whatever the title's lines.
class TwoLineHeaderView : public QHeaderView {
public:
    using QHeaderView::QHeaderView;

protected:
    QSize sectionSizeFromContents(int logicalIndex) const override
    {
        QSize size = QHeaderView::sectionSizeFromContents(logicalIndex);
        if (isSortIndicatorShown() && model()) {
            const QString title = model()->headerData(logicalIndex, orientation(), Qt::DisplayRole).toString();
            size.rwidth() -= int(title.count(QLatin1Char('\n'))) * fontMetrics().height();
        }
        return size;
    }
};

} // namespace

ComparisonView::ComparisonView(QWidget *parent) : QWidget(parent)
{
    setupUi();
    createConnections();
}

void ComparisonView::setupUi()
{
    createTable();
    auto *bar = createToolBar();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    // The table keeps its header and two governor rows however short the dock (at 1024 x 768
    // a trace's note, word-wrapped below, took the whole dock and ran over the table).
    m_view->setMinimumHeight(m_view->horizontalHeader()->sizeHint().height()
                             + 2 * m_view->verticalHeader()->defaultSectionSize() + 2 * m_view->frameWidth()
                             + m_view->horizontalScrollBar()->sizeHint().height());
    layout->addWidget(createTraceNote());
}

void ComparisonView::createTable()
{
    m_model = new ComparisonTableModel(this);
    m_proxy = new TwoLineHeaderProxy(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::EditRole);

    m_view = new QTableView(this);
    m_view->setHorizontalHeader(new TwoLineHeaderView(Qt::Horizontal, m_view));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // display order until the user sorts
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->setAlternatingRowColors(true);
    // Compact rows and cells: the default dock height shows every governor and the oracle,
    // and the per-state columns fit beside the kernel threads' columns more often.
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->setStyleSheet(QStringLiteral("QTableView::item { padding: 0px 3px; }"
                                         "QHeaderView::section { padding: 1px 3px; }"));
    m_view->setContextMenuPolicy(Qt::CustomContextMenu); // its menu: createConnections()
}

QHBoxLayout *ComparisonView::createToolBar()
{
    auto button = [this](const QString &text, const QString &tip, void (ComparisonView::*slot)()) {
        auto *b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, slot);
        return b;
    };
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(
        button(tr("Copy Markdown"), tr("Copy the table as a Markdown table"), &ComparisonView::copyMarkdown));
    bar->addWidget(button(tr("Copy CSV"), tr("Copy the table as CSV"), &ComparisonView::copyCsv));
    bar->addWidget(button(tr("Export…"),
                          tr("Save the table as .csv, .md or .json, or as a figure (.pdf, .svg) for a slide"),
                          &ComparisonView::exportWithDialog));
    // The governor legend above the plots follows the playback cursor; this table,
    // like the kernel threads' tables, is always the whole run.
    m_scope = new QLabel(tr("Whole-run totals \u00b7 the legend above follows the playback cursor"), this);
    m_scope->setToolTip(tr("Every column counts the whole run, as the kernel threads' tables do; the governor "
                           "legend above the plots counts up to the playback cursor."));
    m_scope->setStyleSheet(QStringLiteral("color:#707070;"));
    m_scope->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // never widens the window
    m_scope->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    bar->addWidget(m_scope, 1); // takes the free width; elided by the layout, never widening it
    m_powerLink = new QLabel(
        QStringLiteral("<a href='power'>%1</a>").arg(tr("No power data \u2014 how to add it").toHtmlEscaped()), this);
    m_powerLink->setToolTip(powerDataHowTo());
    m_powerLink->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    m_powerLink->hide();
    bar->insertWidget(3, m_powerLink);
    return bar;
}

QWidget *ComparisonView::createTraceNote()
{
    m_traceNote = new QLabel(this);
    m_traceNote->setWordWrap(true);
    m_traceNote->setStyleSheet(QStringLiteral("color:#707070;"));
    m_traceNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The note scrolls within three lines: what the trace cannot tell stays there, under the
    // numbers, without pushing them out of the dock.
    m_noteScroll = new QScrollArea(this);
    m_noteScroll->setWidget(m_traceNote);
    m_noteScroll->setWidgetResizable(true);
    m_noteScroll->setFrameShape(QFrame::NoFrame);
    m_noteScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_noteScroll->setMaximumHeight(3 * fontMetrics().lineSpacing() + 4);
    m_noteScroll->hide();
    return m_noteScroll;
}

void ComparisonView::createConnections()
{
    connect(m_view, &QTableView::clicked, this, [this](const QModelIndex &i) {
        // "no power data" in the energy column is a way to where power data is set.
        if (i.column() == ComparisonTableModel::EnergyColumn && m_powerLink->isVisibleTo(this)
            && !i.data(Qt::EditRole).isValid()) {
            emit powerDataRequested();
            return;
        }
        emit governorActivated(i.data(ComparisonTableModel::GovernorIndexRole).toInt());
    });
    // The context menu: the copies of the toolbar, and the command that reproduces the table.
    connect(m_view, &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        QMenu menu(this);
        menu.addAction(tr("Copy Markdown"), this, &ComparisonView::copyMarkdown);
        menu.addAction(tr("Copy CSV"), this, &ComparisonView::copyCsv);
        menu.addAction(tr("Copy as command"), this, &ComparisonView::copyCommandRequested);
        menu.exec(m_view->viewport()->mapToGlobal(at));
    });
    connect(m_powerLink, &QLabel::linkActivated, this, &ComparisonView::powerDataRequested);
}

void ComparisonView::setSnapshot(SnapshotPtr snapshot)
{
    QStringList note = snapshot && snapshot->trace ? traceDisclosure(*snapshot->trace, snapshot->table) : QStringList();
    const bool closedLoop = snapshot && snapshot->isClosedLoop();
    if (closedLoop) {
        note << tr("Closed loop: each governor's wakeups delay its next operation, so every governor runs "
                   "spans of its own; only these totals are kept (the per-entry views stay empty).");
        // Core's words for what a row sums and the window its energy_J is over, as compare's title.
        std::vector<ClosedLoopRun> runs;
        for (const GovernorResult &g : snapshot->governors)
            if (g.closedLoop)
                runs.push_back(*g.closedLoop);
        if (snapshot->closedLoopMachine && !runs.empty())
            note << QString::fromStdString("Rows: " + closedLoopScope(*snapshot->closedLoopMachine, runs) + ".");
        // The board's other CPUs ran a background, as compare says it on the command line.
        if (!snapshot->closedLoopBackground.isEmpty())
            note << snapshot->closedLoopBackground + QLatin1Char('.');
    }
    m_traceNote->setText(note.join(QLatin1Char(' ')));
    m_noteScroll->setVisible(!note.isEmpty());
    m_model->setSnapshot(std::move(snapshot));
    // The way to power data shows only while a row's energy reads "no power data": a table file
    // without power_mw, not a board whose clusters price every row (a closed loop on arm-juno-r0
    // showed the link beside its filled energy columns).
    const bool noPower = m_model->lacksPowerData();
    m_powerLink->setVisible(noPower);
    // The link takes the toolbar's room: the scope note then keeps its first words (its tooltip has all).
    m_scope->setText(noPower ? tr("Whole-run totals")
                             : tr("Whole-run totals \u00b7 the legend above follows the playback cursor"));
    for (int c = 0; c < m_model->columnCount(); ++c)
        m_view->setColumnHidden(c, !m_model->columnApplies(c));
    updateGeometry(); // the row count may have changed the size hint
}

QString ComparisonView::powerDataHowTo()
{
    return tr("Energy is priced with the table's power data, the same in every view. Setup \u203a Target: "
              "choose \u201cTable file\u2026\u201d and load a table JSON whose states have \"power_mw\" "
              "(and optionally \"entry_exit_energy_uj\", and \"active_power_mw\" at the top). On a trace, a "
              "built-in table of a board with a public energy model (arm-juno-r0) has it for every CPU. On the "
              "command line: --power STATE=NUMBERmW.");
}

QSize ComparisonView::sizeHint() const
{
    const int rows = std::max(m_model->rowCount(), 3);
    const int rowHeight = m_view->verticalHeader()->defaultSectionSize();
    const int height = layout()->itemAt(0)->sizeHint().height() + m_view->horizontalHeader()->sizeHint().height()
                       + rows * rowHeight + m_view->horizontalScrollBar()->sizeHint().height()
                       + 2 * m_view->frameWidth() + 12;
    return {QWidget::sizeHint().width(), height};
}

QString ComparisonView::traceNoteText() const
{
    return m_traceNote->text();
}

QString ComparisonView::scopeText() const
{
    return m_scope->text();
}

ComparisonSelection ComparisonView::shownSelection() const
{
    // The rows exactly as the view lists them (its sort, and for equal keys the order an
    // earlier sort left: a proxy sorted afresh put tied rows in model order), and only the
    // columns it shows (a replayed stream has no closed-loop columns).
    ComparisonSelection s;
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        s.rows.push_back(m_proxy->mapToSource(m_proxy->index(r, 0)).row());
    for (int c = 0; c < m_model->columnCount(); ++c)
        if (!m_view->isColumnHidden(c))
            s.columns.push_back(c);
    return s;
}

QStringList ComparisonView::context() const
{
    const SnapshotPtr snap = m_model->snapshot();
    // A snapshot of no scenario (an empty window) names no target.
    if (!snap || snap->spec.target.id.isEmpty())
        return {};
    QStringList lines = resultContext(*snap);
    // What a row counts: the whole run (the playback cursor moves the legend, not the table), or
    // a closed loop's CPUs and the window its energy is over, in core's words.
    if (snap->isClosedLoop() && snap->closedLoopMachine) {
        std::vector<ClosedLoopRun> runs;
        for (const GovernorResult &g : snap->governors)
            if (g.closedLoop)
                runs.push_back(*g.closedLoop);
        lines << QString::fromStdString("Rows: whole-run totals; " + closedLoopScope(*snap->closedLoopMachine, runs));
        if (!snap->closedLoopBackground.isEmpty())
            lines << snap->closedLoopBackground;
    } else {
        lines << tr("Rows: whole-run totals of each governor's run");
    }
    // Why a numeric column has empty cells (the screen's "—" and "no power data").
    lines << noValueNotes(*m_model, shownSelection());
    return lines;
}

QString ComparisonView::markdown() const
{
    return comparisonMarkdown(comparisonTable(*m_model, shownSelection()), context());
}

QString ComparisonView::csv() const
{
    return comparisonCsv(comparisonTable(*m_model, shownSelection()), context());
}

QString ComparisonView::json() const
{
    return comparisonJson(comparisonTable(*m_model, shownSelection()), context());
}

FigureCaption ComparisonView::figureCaption() const
{
    FigureCaption c;
    c.title = tr("Comparison");
    const SnapshotPtr snap = m_model->snapshot();
    if (!snap)
        return c;
    // The scenario and the time the numbers count, as a plot's figure says them: the table is
    // always the whole run, whatever the window's zoom or cursor.
    QStringList scenario{snap->targetId, snap->workloadDescription};
    scenario.removeAll(QString()); // a hand-made snapshot may name no workload
    if (!scenario.isEmpty())
        c.title += QStringLiteral(" \u2014 ") + scenario.join(QStringLiteral(", "));
    if (!snap->isClosedLoop())
        c.title += QStringLiteral(" \u2014 ") + shownRangeText(0, snap->durationNs(), 0, snap->durationNs());
    c.context = context();
    return c;
}

QByteArray ComparisonView::figure(PlotFormat format) const
{
    // Each row's swatch in the governor's colour, as the legend and the plots draw it.
    QList<QColor> colours;
    const SnapshotPtr snap = m_model->snapshot();
    for (int r : shownSelection().rows)
        colours << (snap ? snap->governors[static_cast<std::size_t>(r)].color : QColor());
    return renderTableFigure(comparisonTable(*m_model, shownSelection()), colours, format, figureCaption());
}

void ComparisonView::copyMarkdown()
{
    QApplication::clipboard()->setText(markdown());
}
void ComparisonView::copyCsv()
{
    QApplication::clipboard()->setText(csv());
}

QString ComparisonView::exportTo(const QString &path) const
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    QByteArray text;
    if (suffix == QLatin1String("md") || suffix == QLatin1String("markdown"))
        text = markdown().toUtf8();
    else if (suffix == QLatin1String("json"))
        text = json().toUtf8();
    else if (suffix == QLatin1String("csv"))
        text = csv().toUtf8();
    else if (suffix == QLatin1String("pdf") || suffix == QLatin1String("svg"))
        text = figure(suffix == QLatin1String("pdf") ? PlotFormat::Pdf : PlotFormat::Svg);
    else // never CSV under a name that says otherwise
        return QString::fromStdString(
            Error{path.toStdString(), 0, "", "unknown table format: use .csv, .md, .json, .pdf or .svg"}.toString());
    if (text.isEmpty())
        return QString::fromStdString(Error{path.toStdString(), 0, "", "nothing was rendered"}.toString());
    const Status st = writeFileAtomically(path.toStdString(), std::string_view(text.constData(), size_t(text.size())));
    return st.ok() ? QString() : QString::fromStdString(st.error().toString());
}

void ComparisonView::exportWithDialog()
{
    // The CPUs dock's dialog: a proposed name ("lisa-juno-sched_load-6cpu-comparison.csv"), the
    // chosen filter's suffix added before the dialog asks about overwriting.
    const SnapshotPtr snap = m_model->snapshot();
    const QString path =
        askSavePath(this, tr("Export comparison"),
                    (snap ? exportBaseName(*snap) : QStringLiteral("idlescope")) + QStringLiteral("-comparison.csv"),
                    {tr("CSV (*.csv)"), tr("Markdown (*.md)"), tr("JSON (*.json)"), tr("PDF figure (*.pdf)"),
                     tr("SVG figure (*.svg)")});
    if (path.isEmpty())
        return;
    const QString err = exportTo(path);
    if (!err.isEmpty())
        QMessageBox::warning(this, tr("Export failed"), err);
}

} // namespace idlescope
