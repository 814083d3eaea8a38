// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file flow_layout.h
 * A layout that places its items left to right and wraps to a new row when
 * the next one does not fit, like words in a paragraph. Its minimum width is
 * that of its widest item, so a row of many items (the governor chips) never
 * widens the window; the height follows the width (heightForWidth).
 */
#pragma once

#include <QLayout>
#include <QList>

namespace idlescope {

class FlowLayout : public QLayout {
public:
    /// @p hSpacing / @p vSpacing: gaps between items and between rows (px).
    explicit FlowLayout(QWidget *parent = nullptr, int hSpacing = 12, int vSpacing = 4);
    ~FlowLayout() override;

    void addItem(QLayoutItem *item) override;
    /// Insert @p widget at @p index (clamped to the item count).
    void insertWidget(int index, QWidget *widget);
    int count() const override { return static_cast<int>(m_items.size()); }
    QLayoutItem *itemAt(int index) const override;
    QLayoutItem *takeAt(int index) override;

    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect &rect) override;

    /// The number of rows the items take at @p width (tests).
    int rowCount(int width) const;

private:
    /// Lays the items out in @p rect (or only measures when @p apply is false); returns the height used.
    int doLayout(const QRect &rect, bool apply, int *rows = nullptr) const;

    QList<QLayoutItem *> m_items;
    int m_hSpace;
    int m_vSpace;
};

} // namespace idlescope
