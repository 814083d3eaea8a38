// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/trace/entries_dock.h"

#include "widgets/view_state.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace idlescope {

EntriesDock::EntriesDock(ViewState *view, QWidget *parent) : QWidget(parent), m_view(view)
{
    m_model = new EntriesModel(this);
    setupUi();
    createConnections();
}

void EntriesDock::setupUi()
{
    createFilters();
    createTable();
    // Two rows of filters, and combo boxes that may shrink below their longest
    // item: in one row at full width they made the bottom dock, and so the
    // window, wider than a 1600-pixel screen.
    for (QComboBox *b : {m_runBox, m_missBox, m_stateBox, m_endBox}) {
        b->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        b->setMinimumContentsLength(10);
    }
    m_count->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto *choices = new QHBoxLayout;
    choices->setContentsMargins(0, 0, 0, 0);
    for (QComboBox *b : {m_runBox, m_missBox, m_stateBox, m_endBox})
        choices->addWidget(b, 1);
    auto *range = new QHBoxLayout;
    range->setContentsMargins(0, 0, 0, 0);
    range->addWidget(m_minUs);
    range->addWidget(m_maxUs);
    range->addWidget(m_count, 1);
    range->addWidget(m_progress);
    range->addWidget(m_cancel);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(choices);
    layout->addLayout(range);
    layout->addWidget(m_table, 1);
}

void EntriesDock::createFilters()
{
    m_runBox = new QComboBox(this);
    m_runBox->setToolTip(tr("Whose entries: a governor, or the kernel's recorded choices"));
    m_missBox = new QComboBox(this);
    m_missBox->addItem(tr("every entry"), 0);
    m_missBox->addItem(tr("above or below"), int(ENTRY_ABOVE | ENTRY_BELOW));
    m_missBox->addItem(tr("above"), int(ENTRY_ABOVE));
    m_missBox->addItem(tr("below"), int(ENTRY_BELOW));
    m_stateBox = new QComboBox(this);
    m_endBox = new QComboBox(this);
    m_endBox->addItem(tr("any end"), -1);
    for (int e = 0; e < ENTRY_END_COUNT; ++e)
        m_endBox->addItem(tr("ended by %1").arg(QString::fromUtf8(entryEndName(static_cast<EntryEnd>(e)))), e);
    auto spin = [this](const QString &prefix, const QString &tip) {
        auto *s = new QSpinBox(this);
        s->setRange(-1, 100000000);
        s->setValue(-1);
        s->setSpecialValueText(tr("%1 any").arg(prefix));
        s->setPrefix(prefix + QLatin1Char(' '));
        s->setSuffix(QStringLiteral(" \u00b5s"));
        s->setToolTip(tip);
        return s;
    };
    m_minUs = spin(tr("residency \u2265"), tr("Only entries at least this long"));
    m_maxUs = spin(tr("\u2264"), tr("Only entries at most this long"));
    m_count = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setFormat(tr("sorting %p%"));
    m_progress->setToolTip(tr("The new order is made in the background; the old one stays until it is ready"));
    m_progress->hide();
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setToolTip(tr("Keep the order shown"));
    m_cancel->hide();
    m_progressTimer = new QTimer(this);
    m_progressTimer->setInterval(100);
}

void EntriesDock::createTable()
{
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(EntriesModel::Time, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    // Fixed row heights: the view never measures ten million rows.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setStretchLastSection(true);
}

void EntriesDock::createConnections()
{
    for (QComboBox *b : {m_missBox, m_stateBox, m_endBox})
        connect(b, &QComboBox::currentIndexChanged, this, &EntriesDock::applyFilter);
    for (QSpinBox *s : {m_minUs, m_maxUs})
        connect(s, &QSpinBox::valueChanged, this, &EntriesDock::applyFilter);
    connect(m_runBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (m_filling)
            return;
        m_model->setRun(i);
        applyFilter();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (m_filling || !current.isValid() || !m_view)
                    return;
                // The rows on screen may still be a previous run's (busy): select among those.
                const std::int64_t e = m_model->entryAt(current.row());
                if (e >= 0 && m_model->shownRun() >= 0)
                    m_view->selectEntry(m_model->shownRun(), e);
            });
    connect(m_model, &EntriesModel::busyChanged, this, &EntriesDock::showBusy);
    connect(m_model, &EntriesModel::rowsReplaced, this, [this] {
        updateCount();
        showSelectedRow();
    });
    connect(m_progressTimer, &QTimer::timeout, this,
            [this] { m_progress->setValue(static_cast<int>(m_model->progress() * 1000)); });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_model->cancelPending();
        // Back to the order shown, in the header and in the filter boxes.
        const QSignalBlocker block(m_table->horizontalHeader());
        m_table->horizontalHeader()->setSortIndicator(m_model->sortColumn(), m_model->sortOrder());
        showFilter(m_model->filter());
        const QSignalBlocker blockRun(m_runBox);
        m_runBox->setCurrentIndex(m_model->run());
    });
    if (m_view)
        connect(m_view, &ViewState::entrySelected, this, &EntriesDock::followSelection);
}

void EntriesDock::fillCombos()
{
    const QSignalBlocker b1(m_runBox);
    const QSignalBlocker b2(m_stateBox);
    const int state = m_stateBox->currentData().isValid() ? m_stateBox->currentData().toInt() : -1;
    m_runBox->clear();
    m_stateBox->clear();
    m_stateBox->addItem(tr("any state"), -1);
    if (!m_snap)
        return;
    for (int g = 0; g < m_snap->governorCount(); ++g)
        m_runBox->addItem(m_snap->name(g));
    m_runBox->setCurrentIndex(m_model->run());
    for (int s = 0; s < m_snap->table.count(); ++s)
        m_stateBox->addItem(QString::fromStdString(m_snap->table[s].name), s);
    m_stateBox->setCurrentIndex(std::max(0, m_stateBox->findData(state)));
}

void EntriesDock::setSnapshot(SnapshotPtr snapshot)
{
    m_snap = snapshot;
    m_filling = true;
    m_model->setSnapshot(std::move(snapshot));
    fillCombos();
    m_filling = false;
    applyFilter();
}

void EntriesDock::applyFilter()
{
    if (m_filling)
        return;
    EntryFilter f;
    f.missMask = static_cast<std::uint8_t>(m_missBox->currentData().toInt());
    f.state = m_stateBox->currentData().isValid() ? m_stateBox->currentData().toInt() : -1;
    f.end = m_endBox->currentData().toInt();
    f.minResidencyNs = m_minUs->value() < 0 ? -1 : Ns(m_minUs->value()) * 1000;
    f.maxResidencyNs = m_maxUs->value() < 0 ? -1 : Ns(m_maxUs->value()) * 1000;
    m_filling = true;
    m_model->setFilter(f);
    m_filling = false;
    updateCount();
    showSelectedRow();
}

void EntriesDock::updateCount()
{
    const int run = m_model->shownRun();
    const qint64 total = run >= 0 && m_snap ? qint64(m_snap->governors[size_t(run)].run->size()) : 0;
    const QLocale locale;
    m_count->setText(tr("%1 of %2 entries").arg(locale.toString(m_model->rowCount()), locale.toString(total)));
}

void EntriesDock::showBusy(bool busy)
{
    m_progress->setValue(0);
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    if (busy) {
        m_progressTimer->start();
        m_table->viewport()->setCursor(Qt::BusyCursor);
    } else {
        m_progressTimer->stop();
        m_table->viewport()->unsetCursor();
    }
}

void EntriesDock::showFilter(const EntryFilter &f)
{
    m_filling = true;
    m_missBox->setCurrentIndex(std::max(0, m_missBox->findData(int(f.missMask))));
    m_stateBox->setCurrentIndex(std::max(0, m_stateBox->findData(f.state)));
    m_endBox->setCurrentIndex(std::max(0, m_endBox->findData(f.end)));
    m_minUs->setValue(f.minResidencyNs < 0 ? -1 : int(f.minResidencyNs / 1000));
    m_maxUs->setValue(f.maxResidencyNs < 0 ? -1 : int(f.maxResidencyNs / 1000));
    m_filling = false;
}

void EntriesDock::followSelection(int g, qint64 /*entry: the view's selection, shown by showSelectedRow()*/)
{
    if (m_filling || !m_snap || g < 0 || g >= m_snap->governorCount())
        return;
    m_filling = true;
    if (g != m_model->run()) {
        m_model->setRun(g);
        const QSignalBlocker block(m_runBox);
        m_runBox->setCurrentIndex(g);
        updateCount();
    }
    m_filling = false;
    showSelectedRow(); // else after rowsReplaced()
}

void EntriesDock::showSelectedRow()
{
    // Only within the run shown: the run is the user's choice (the run box) or a new
    // selection's (followSelection()). A filter, a sort or new rows switched it back to the
    // selected entry's run, so the run box snapped back to it (issue 33).
    if (m_filling || !m_snap || !m_view)
        return;
    const int g = m_view->selectedGovernor();
    const int row =
        g >= 0 && m_model->shownRun() == g && m_model->run() == g ? m_model->rowOf(m_view->selectedEntry()) : -1;
    if (row < 0)
        return;
    m_filling = true;
    const QModelIndex index = m_model->index(row, 0);
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    m_filling = false;
}

QString EntriesDock::countText() const
{
    return m_count->text();
}

} // namespace idlescope
