// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/flow_layout.h"

#include <QWidget>

#include <algorithm>

namespace idlescope {

FlowLayout::FlowLayout(QWidget *parent, int hSpacing, int vSpacing)
    : QLayout(parent), m_hSpace(hSpacing), m_vSpace(vSpacing)
{
}

FlowLayout::~FlowLayout()
{
    while (QLayoutItem *item = takeAt(0))
        delete item;
}

void FlowLayout::addItem(QLayoutItem *item)
{
    m_items.append(item);
}

void FlowLayout::insertWidget(int index, QWidget *widget)
{
    addChildWidget(widget);
    m_items.insert(std::clamp(index, 0, count()), new QWidgetItem(widget));
    invalidate();
}

QLayoutItem *FlowLayout::itemAt(int index) const
{
    return index >= 0 && index < count() ? m_items[index] : nullptr;
}

QLayoutItem *FlowLayout::takeAt(int index)
{
    return index >= 0 && index < count() ? m_items.takeAt(index) : nullptr;
}

int FlowLayout::heightForWidth(int width) const
{
    return doLayout(QRect(0, 0, width, 0), false);
}

QSize FlowLayout::minimumSize() const
{
    QSize size;
    for (const QLayoutItem *item : m_items)
        size = size.expandedTo(item->minimumSize());
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const
{
    return minimumSize();
}

void FlowLayout::setGeometry(const QRect &rect)
{
    QLayout::setGeometry(rect);
    doLayout(rect, true);
}

int FlowLayout::rowCount(int width) const
{
    int rows = 0;
    doLayout(QRect(0, 0, width, 0), false, &rows);
    return rows;
}

int FlowLayout::doLayout(const QRect &rect, bool apply, int *rows) const
{
    const QMargins m = contentsMargins();
    const QRect area = rect.marginsRemoved(m);
    int x = area.x();
    int y = area.y();
    int rowHeight = 0;
    int n = 0;
    for (QLayoutItem *item : m_items) {
        if (item->isEmpty())
            continue;
        // A chip gets its preferred width unless the row is narrower than that.
        const QSize hint =
            item->sizeHint().boundedTo(QSize(std::max(area.width(), item->minimumSize().width()), QWIDGETSIZE_MAX));
        if (x > area.x() && x + hint.width() > area.right() + 1) {
            x = area.x();
            y += rowHeight + m_vSpace;
            rowHeight = 0;
        }
        if (x == area.x())
            ++n;
        if (apply)
            item->setGeometry(QRect(QPoint(x, y), hint));
        x += hint.width() + m_hSpace;
        rowHeight = std::max(rowHeight, hint.height());
    }
    if (rows)
        *rows = n;
    return y + rowHeight - rect.y() + m.bottom();
}

} // namespace idlescope
