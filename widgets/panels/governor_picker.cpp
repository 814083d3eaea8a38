// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/governor_picker.h"

#include "core/common/text_cells.h"
#include "core/experiments/comparison.h"
#include "core/governors/registry.h"
#include "core/source_governor/source_governor.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/source_file_watch.h"

#include <QFileInfo>
#include <QFont>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace idlescope {

namespace {

/// A source row's sourceFileStamp() (governors() passes it on as GovernorSpec::sourceStamp).
constexpr int SOURCE_STAMP_ROLE = Qt::UserRole + 1;
/// A second instance's label (GovernorSpec::label); empty on a variant's own row.
constexpr int LABEL_ROLE = Qt::UserRole + 2;
/// Why a source row has no run (setSourceFailure()); empty when it has one.
constexpr int SOURCE_FAILURE_ROLE = Qt::UserRole + 3;

/// The governor's name of a row (GovernorSpec::name()): its label, else its variant id.
/// Draws a frame around the current row while the list has the focus. The rows are not
/// selectable (a tick chooses a governor), and with no selection the style drew the keyboard's
/// place nowhere: Up, Down and Space worked on an invisible row.
class FocusFrameDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::paint(painter, option, index);
        if (!(option.state & QStyle::State_HasFocus))
            return;
        painter->save();
        painter->setPen(QPen(option.palette.color(QPalette::Active, QPalette::Highlight), 2));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(QRectF(option.rect).adjusted(1, 1, -1, -1));
        painter->restore();
    }
};

QString rowName(const QListWidgetItem *item)
{
    const QString label = item->data(LABEL_ROLE).toString();
    return label.isEmpty() ? item->data(Qt::UserRole).toString() : label;
}

QString instanceToolTip(const QString &label, const QString &variant)
{
    return GovernorPicker::tr("<b>%1</b>: a second instance of %2, with tunables of its own. Double-click to "
                              "rename it; its context menu removes it.")
        .arg(label.toHtmlEscaped(), variant.toHtmlEscaped());
}

QIcon colorIcon(const QColor &c, bool filled)
{
    QPixmap pm(12, 12);
    pm.fill(Qt::transparent);
    if (filled) { // unselected governors get a blank of the same size, so names line up
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(c.darker(120));
        p.setBrush(c);
        p.drawRoundedRect(QRectF(0.5, 0.5, 11, 11), 2, 2);
    }
    return QIcon(pm);
}

/// The registry's variants grouped by family (in the registry's family order), each family
/// by the kernel version it is based on; patches keep their place after their base version.
std::vector<const VariantInfo *> sortedVariants()
{
    std::vector<const VariantInfo *> out = allVariants();
    std::vector<std::string> families;
    for (const VariantInfo *v : out)
        if (std::find(families.begin(), families.end(), v->family) == families.end())
            families.emplace_back(v->family);
    auto familyIndex = [&](const VariantInfo *v) {
        return std::find(families.begin(), families.end(), v->family) - families.begin();
    };
    std::stable_sort(out.begin(), out.end(), [&](const VariantInfo *a, const VariantInfo *b) {
        return std::pair(familyIndex(a), a->base) < std::pair(familyIndex(b), b->base);
    });
    return out;
}

} // namespace

GovernorPicker::GovernorPicker(QWidget *parent) : QGroupBox(tr("Governors"), parent)
{
    auto *box = this;
    auto *v = new QVBoxLayout(box);
    m_governors = new QListWidget(box);
    m_governors->setUniformItemSizes(true);
    m_governors->setItemDelegate(new FocusFrameDelegate(m_governors));
    {
        // The kernel's own choices, as a row like any governor's (a kernel trace only: governors()).
        auto *item = new QListWidgetItem(QStringLiteral("recorded"), m_governors);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
        item->setToolTip(tr("<b>recorded</b><br>What the kernel itself chose in the trace (the states of "
                            "power:cpu_idle and their measured residencies). Only for a kernel trace."));
        item->setData(Qt::UserRole, QStringLiteral("recorded"));
    }
    for (const VariantInfo *info : sortedVariants()) {
        auto *item = new QListWidgetItem(QString::fromUtf8(info->id), m_governors);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
        item->setToolTip(
            QStringLiteral("<b>%1</b> (%2)<br>%3")
                .arg(QString::fromUtf8(info->id), QString::fromUtf8(info->kernel), QString::fromUtf8(info->summary)));
        item->setData(Qt::UserRole, QString::fromUtf8(info->id));
    }
    v->addWidget(m_governors);
    auto *hint = new QLabel(tr("Right-click a governor to duplicate it: the same variant at other tunables."), box);
    hint->setWordWrap(true);
    hint->setStyleSheet(QStringLiteral("color:#707070; font-size:8pt;"));
    v->addWidget(hint);
    updateGovernorIcons();
    m_governors->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_governors->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_governors, &QWidget::customContextMenuRequested, this, &GovernorPicker::showGovernorMenu);
    connect(m_governors, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        if (m_filling)
            return;
        if (item->text() != rowName(item)) { // a second instance's label was edited
            instanceRowEdited(item);
            return;
        }
        updateGovernorIcons();
        emit governorsChanged();
    });
}

std::vector<GovernorSpec> GovernorPicker::governors() const
{
    std::vector<GovernorSpec> out;
    for (int i = 0; i < m_governors->count(); ++i) {
        QListWidgetItem *item = m_governors->item(i);
        if (item->checkState() != Qt::Checked)
            continue;
        if (item->data(Qt::UserRole).toString() == QLatin1String("recorded") && !m_recordedAvailable)
            continue; // a generated stream has no recorded choices
        GovernorSpec g;
        g.variant = item->data(Qt::UserRole).toString().toStdString();
        g.label = item->data(LABEL_ROLE).toString().toStdString();
        g.color = m_colors.value(rowName(item), QColor(Qt::gray));
        g.sourceStamp = item->data(SOURCE_STAMP_ROLE).toString();
        out.push_back(g);
    }
    return out;
}

void GovernorPicker::setGovernors(const std::vector<GovernorSpec> &governors)
{
    m_filling = true;
    // Second instances are the scenario's: the rows of the one shown before go.
    for (int i = m_governors->count() - 1; i >= 0; --i)
        if (!m_governors->item(i)->data(LABEL_ROLE).toString().isEmpty())
            delete m_governors->takeItem(i);
    for (int i = 0; i < m_governors->count(); ++i)
        m_governors->item(i)->setCheckState(Qt::Unchecked);
    for (const GovernorSpec &g : governors) {
        const QString id = QString::fromStdString(g.variant);
        // A session's: its file as it is now (stamped by the session's read, on its worker).
        if (isSourceGovernorId(g.variant) && !sourceGovernorIds().contains(id))
            addSourceGovernor(id,
                              !g.sourceStamp.isEmpty()
                                  ? g.sourceStamp
                                  : sourceFileStamp(QString::fromStdString(parseSourceGovernorId(g.variant)->path)));
        const QString name = QString::fromStdString(g.name());
        QListWidgetItem *item = rowOf(name);
        if (!item && !g.label.empty() && rowOf(id))
            item = addInstanceRow(id, name);
        m_colors[name] = g.color;
        if (item)
            item->setCheckState(Qt::Checked);
    }
    m_recordedParked = false;
    updateRecordedRow(); // a session's "recorded" on a generated stream: parked like a checked one
    updateGovernorIcons();
    m_filling = false;
}

void GovernorPicker::setGovernorChecked(const std::string &name, bool checked)
{
    if (QListWidgetItem *item = rowOf(QString::fromStdString(name)))
        item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

QListWidgetItem *GovernorPicker::rowOf(const QString &name) const
{
    for (int i = 0; i < m_governors->count(); ++i)
        if (rowName(m_governors->item(i)) == name)
            return m_governors->item(i);
    return nullptr;
}

QListWidgetItem *GovernorPicker::addInstanceRow(const QString &variant, const QString &label)
{
    int last = -1;
    for (int i = 0; i < m_governors->count(); ++i)
        if (m_governors->item(i)->data(Qt::UserRole).toString() == variant)
            last = i;
    const QListWidgetItem *own = m_governors->item(last);
    auto *item = new QListWidgetItem(label);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsEditable);
    item->setData(Qt::UserRole, variant);
    item->setData(LABEL_ROLE, label);
    item->setData(SOURCE_STAMP_ROLE, own->data(SOURCE_STAMP_ROLE));
    item->setToolTip(instanceToolTip(label, variant));
    item->setCheckState(Qt::Unchecked);
    m_governors->insertItem(last + 1, item);
    return item;
}

QString GovernorPicker::duplicateGovernor(const QString &name)
{
    const QListWidgetItem *from = rowOf(name);
    const QString variant = from ? from->data(Qt::UserRole).toString() : QString();
    if (!from || variant == QLatin1String("oracle") || variant == QLatin1String("recorded"))
        return {};
    // "menu-6.19 (B)", then (C)...: the first letter no row has.
    QString label;
    for (int n = 1; label.isEmpty() || rowOf(label); ++n)
        label = n < 26 ? QStringLiteral("%1 (%2)").arg(variant, QChar(u'A' + n))
                       : QStringLiteral("%1 (%2)").arg(variant).arg(n + 1);
    const bool filling = std::exchange(m_filling, true);
    addInstanceRow(variant, label)->setCheckState(Qt::Checked);
    updateGovernorIcons();
    m_filling = filling;
    emit governorDuplicated(name, label);
    emit governorsChanged();
    return label;
}

bool GovernorPicker::renameGovernor(const QString &name, const QString &label)
{
    QListWidgetItem *item = rowOf(name);
    if (!item || item->data(LABEL_ROLE).toString().isEmpty())
        return false;
    if (label == name)
        return true;
    QString problem = QString::fromStdString(experiments::governorLabelProblem(label.toStdString()));
    if (problem.isEmpty() && (rowOf(label) || findVariant(label.toStdString())))
        problem = tr("%1 is already a governor's name").arg(label);
    if (!problem.isEmpty()) {
        // Escaped: the refused label may hold the very control that reorders the message.
        emit errorOccurred(
            tr("Label '%1' refused: %2")
                .arg(QString::fromStdString(printableText(label.toStdString(), PrintableMode::Name)), problem));
        return false;
    }
    const bool filling = std::exchange(m_filling, true);
    item->setData(LABEL_ROLE, label);
    item->setText(label);
    item->setToolTip(instanceToolTip(label, item->data(Qt::UserRole).toString()));
    if (m_colors.contains(name))
        m_colors[label] = m_colors.take(name);
    m_filling = filling;
    emit governorRenamed(name, label);
    if (item->checkState() == Qt::Checked)
        emit governorsChanged();
    return true;
}

void GovernorPicker::removeGovernor(const QString &name)
{
    QListWidgetItem *item = rowOf(name);
    if (!item || item->data(LABEL_ROLE).toString().isEmpty())
        return;
    removeRow(item, name);
}

void GovernorPicker::removeRow(QListWidgetItem *item, const QString &name)
{
    const bool checked = item->checkState() == Qt::Checked;
    m_colors.remove(name);
    delete m_governors->takeItem(m_governors->row(item));
    if (checked)
        emit governorsChanged();
}

void GovernorPicker::instanceRowEdited(QListWidgetItem *item)
{
    const QString label = item->data(LABEL_ROLE).toString();
    if (label.isEmpty() || item->text() == label)
        return;
    const QString typed = item->text();
    {
        const bool filling = std::exchange(m_filling, true);
        item->setText(label); // kept when the new label is refused
        m_filling = filling;
    }
    renameGovernor(label, typed);
}

void GovernorPicker::showGovernorMenu(const QPoint &pos)
{
    QListWidgetItem *item = m_governors->itemAt(pos);
    if (!item)
        return;
    const QString name = rowName(item);
    const QString variant = item->data(Qt::UserRole).toString();
    QMenu menu(this);
    QAction *dup = menu.addAction(tr("Duplicate %1 (other tunables)").arg(variant), this,
                                  [this, name] { duplicateGovernor(name); });
    dup->setEnabled(variant != QLatin1String("oracle") && variant != QLatin1String("recorded"));
    if (!item->data(LABEL_ROLE).toString().isEmpty()) {
        menu.addAction(tr("Rename…"), this, [this, item] { m_governors->editItem(item); });
        menu.addAction(tr("Remove %1").arg(name), this, [this, name] { removeGovernor(name); });
    }
    menu.exec(m_governors->viewport()->mapToGlobal(pos));
}

void GovernorPicker::addSourceGovernor(const QString &id, const QString &stamp)
{
    const bool filling = m_filling;
    m_filling = true;
    QListWidgetItem *item = rowOf(id); // the file's own row, not a second instance's
    if (!item) {
        item = new QListWidgetItem(id, m_governors);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setData(Qt::UserRole, id);
        item->setToolTip(sourceToolTip(id));
    }
    item->setData(SOURCE_STAMP_ROLE, stamp);
    item->setCheckState(Qt::Checked);
    updateGovernorIcons();
    m_filling = filling;
}

QString GovernorPicker::sourceToolTip(const QString &id, const QString &failure)
{
    const Result<SourceGovernorSpec> spec = parseSourceGovernorId(id.toStdString());
    const QString path = spec ? QString::fromStdString(spec->path) : id;
    const QString kernel = spec ? QString::fromStdString(spec->core.name()) : QString();
    QString tip = tr("<b>%1</b><br>Built from source: %2, run with the cpuidle core of v%3 in its own "
                     "process. Saving the file rebuilds and re-simulates it.")
                      .arg(QFileInfo(path).fileName().toHtmlEscaped(), path.toHtmlEscaped(), kernel);
    // The failure's first line (a crash's signal and entry, a compiler's file:line): the
    // message bar has the whole of it, the governor's log included.
    if (!failure.isEmpty())
        tip += tr("<br><br><b>Stale</b>: no run yet; the file fails:<br>%1")
                   .arg(failure.section(QLatin1Char('\n'), 0, 0).toHtmlEscaped());
    return tip;
}

void GovernorPicker::setSourceFailure(const QString &id, const QString &failure)
{
    QListWidgetItem *item = rowOf(id);
    if (!item || item->data(SOURCE_FAILURE_ROLE).toString() == failure)
        return;
    const bool filling = std::exchange(m_filling, true); // no governorsChanged(): nothing to re-simulate
    item->setData(SOURCE_FAILURE_ROLE, failure);
    item->setToolTip(sourceToolTip(id, failure));
    QFont font = item->font();
    font.setItalic(!failure.isEmpty());
    item->setFont(font);
    m_filling = filling;
}

QString GovernorPicker::sourceFailure(const QString &id) const
{
    const QListWidgetItem *item = rowOf(id);
    return item ? item->data(SOURCE_FAILURE_ROLE).toString() : QString();
}

QStringList GovernorPicker::sourceGovernorIds() const
{
    QStringList ids;
    for (int i = 0; i < m_governors->count(); ++i)
        if (const QString id = m_governors->item(i)->data(Qt::UserRole).toString();
            isSourceGovernorId(id.toStdString()) && m_governors->item(i)->data(LABEL_ROLE).toString().isEmpty())
            ids << id;
    return ids;
}

void GovernorPicker::setSourceStamp(const QString &id, const QString &stamp)
{
    for (int i = 0; i < m_governors->count(); ++i)
        if (m_governors->item(i)->data(Qt::UserRole).toString() == id)
            m_governors->item(i)->setData(SOURCE_STAMP_ROLE, stamp);
}

void GovernorPicker::removeSourceGovernor(const QString &id)
{
    if (QListWidgetItem *item = rowOf(id); item && sourceGovernorIds().contains(id))
        removeRow(item, id);
}

void GovernorPicker::renameSourceGovernor(const QString &id, const QString &newId)
{
    for (int i = 0; i < m_governors->count(); ++i) {
        QListWidgetItem *item = m_governors->item(i);
        if (item->data(Qt::UserRole).toString() != id)
            continue;
        const bool filling = m_filling;
        m_filling = true;
        item->setText(newId);
        item->setData(Qt::UserRole, newId);
        if (m_colors.contains(id))
            m_colors[newId] = m_colors.take(id);
        m_filling = filling;
    }
}

void GovernorPicker::setRecordedAvailable(bool available)
{
    m_recordedAvailable = available;
    updateRecordedRow();
}

void GovernorPicker::checkRecorded()
{
    for (int i = 0; i < m_governors->count(); ++i)
        if (m_governors->item(i)->data(Qt::UserRole).toString() == QLatin1String("recorded")) {
            const QSignalBlocker block(m_governors);
            m_governors->item(i)->setCheckState(Qt::Checked);
            updateGovernorIcons();
        }
}

void GovernorPicker::updateRecordedRow()
{
    const bool trace = m_recordedAvailable;
    const QSignalBlocker block(m_governors);
    for (int i = 0; i < m_governors->count(); ++i) {
        QListWidgetItem *item = m_governors->item(i);
        if (item->data(Qt::UserRole).toString() != QLatin1String("recorded"))
            continue;
        if (trace) {
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
            if (std::exchange(m_recordedParked, false))
                item->setCheckState(Qt::Checked);
        } else {
            if (item->checkState() == Qt::Checked) {
                m_recordedParked = true;
                item->setCheckState(Qt::Unchecked);
            }
            item->setFlags(Qt::ItemIsUserCheckable); // shown, not selectable: a generated stream has no recorded run
        }
    }
    updateGovernorIcons();
}

void GovernorPicker::updateGovernorIcons()
{
    for (int i = 0; i < m_governors->count(); ++i) {
        QListWidgetItem *item = m_governors->item(i);
        const bool on = item->checkState() == Qt::Checked;
        const QSignalBlocker block(m_governors);
        if (!on) // a colour is the governor's only while it is selected
            m_colors.remove(rowName(item));
        item->setIcon(colorIcon(on ? colorFor(item) : QColor(Qt::gray), on));
    }
}

QColor GovernorPicker::colorFor(const QListWidgetItem *item)
{
    const QString id = rowName(item);
    if (m_colors.contains(id))
        return m_colors.value(id);
    // The first palette colour no checked governor uses.
    for (int n = 0;; ++n) {
        const QColor c = governorColor(n, item->data(Qt::UserRole).toString().toStdString());
        bool used = false;
        for (int i = 0; i < m_governors->count(); ++i) {
            const QString other = rowName(m_governors->item(i));
            if (other != id && m_governors->item(i)->checkState() == Qt::Checked && m_colors.value(other) == c)
                used = true;
        }
        if (!used || n > 32) {
            m_colors[id] = c;
            return c;
        }
    }
}

} // namespace idlescope
