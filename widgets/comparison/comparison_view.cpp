// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/comparison/comparison_view.h"

#include "core/io/atomic_file.h"
#include "widgets/comparison/comparison_table_model.h"
#include "widgets/export/model_export.h"

#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QMessageBox>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace idlescope {

ComparisonView::ComparisonView(QWidget *parent) : QWidget(parent)
{
    m_model = new ComparisonTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::EditRole);

    m_view = new QTableView(this);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // display order until the user sorts
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->setAlternatingRowColors(true);
    connect(m_view, &QTableView::clicked, this, [this](const QModelIndex &i) {
        emit governorActivated(i.data(ComparisonTableModel::GovernorIndexRole).toInt());
    });

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
    bar->addWidget(button(tr("Copy Markdown"), tr("Copy the table as a Markdown table"),
                          &ComparisonView::copyMarkdown));
    bar->addWidget(button(tr("Copy CSV"), tr("Copy the table as CSV"), &ComparisonView::copyCsv));
    bar->addWidget(button(tr("Export…"), tr("Save the table as .csv or .md"),
                          &ComparisonView::exportWithDialog));
    bar->addStretch(1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(m_view);
}

void ComparisonView::setSnapshot(SnapshotPtr snapshot)
{
    m_model->setSnapshot(std::move(snapshot));
    updateGeometry(); // the row count may have changed the size hint
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

QString ComparisonView::markdown() const { return modelToMarkdown(*m_model); }
QString ComparisonView::csv() const { return modelToCsv(*m_model); }

void ComparisonView::copyMarkdown() { QApplication::clipboard()->setText(markdown()); }
void ComparisonView::copyCsv() { QApplication::clipboard()->setText(csv()); }

QString ComparisonView::exportTo(const QString &path) const
{
    const bool md = path.endsWith(QLatin1String(".md"), Qt::CaseInsensitive)
                    || path.endsWith(QLatin1String(".markdown"), Qt::CaseInsensitive);
    const QByteArray text = (md ? markdown() : csv()).toUtf8();
    const Status st = writeFileAtomically(path.toStdString(), text.toStdString());
    return st.ok() ? QString() : QString::fromStdString(st.error().toString());
}

void ComparisonView::exportWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export comparison"), QString(),
                                                      tr("CSV (*.csv);;Markdown (*.md)"));
    if (path.isEmpty())
        return;
    const QString err = exportTo(path);
    if (!err.isEmpty())
        QMessageBox::warning(this, tr("Export failed"), err);
}

} // namespace idlescope
