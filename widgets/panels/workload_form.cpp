// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/workload_form.h"

#include "core/workloads/workload.h"
#include "core/workloads/workload_spec.h"
#include "widgets/panels/checked_spin_box.h"
#include "widgets/panels/seed_spin_box.h"
#include "widgets/runner/spec_workload.h"

#include <QComboBox>
#include <QFormLayout>

#include <cmath>

namespace idlescope {

using workloads::ParamInfo;
using workloads::ParamUnit;

namespace {

/// Held units per displayed unit, the suffix, and the decimals shown.
struct Display {
    double scale;
    QString suffix;
    int decimals;
};

Display displayOf(ParamUnit u)
{
    switch (u) {
    case ParamUnit::Us: return {1000.0, QStringLiteral(" \u00b5s"), 3};
    case ParamUnit::Percent: return {1000.0, QStringLiteral(" %"), 3};
    case ParamUnit::Hz: return {1000.0, QStringLiteral(" Hz"), 3};
    case ParamUnit::Count:
    case ParamUnit::Choice: break;
    }
    return {1.0, QString(), 0};
}

} // namespace

WorkloadForm::WorkloadForm(QWidget *parent) : QWidget(parent), m_form(new QFormLayout(this))
{
    m_form->setContentsMargins(0, 0, 0, 0);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // A field goes under its label in a narrow Setup dock rather than past its edge.
    m_form->setRowWrapPolicy(QFormLayout::WrapLongRows);
}

void WorkloadForm::setWorkload(const WorkloadSourceSpec &w)
{
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    m_editors.clear();
    m_cells.clear();
    const workloads::GeneratorInfo *generator = workloadGenerator(w);
    m_info = generator;
    if (!generator)
        return;
    const Result<workloads::ParamValues> parsed = generatorValues(w.text);
    const workloads::ParamValues values = parsed ? *parsed : generator->defaults();
    auto emitChange = [this] {
        updateActiveParams();
        emit valuesChanged();
    };
    for (const ParamInfo &p : generator->params) {
        const QString name = QString::fromUtf8(p.name);
        const qint64 held = values.get(p.name);
        // Labels drop the unit suffix of the name: the field shows the unit.
        QString label = name;
        for (const char *suffix : {"_us", "_pct"})
            if (label.endsWith(QLatin1String(suffix)))
                label.chop(static_cast<int>(qstrlen(suffix)));
        label.replace(QLatin1Char('_'), QLatin1Char(' '));
        QWidget *editor;
        QWidget *cell;
        if (p.unit == ParamUnit::Choice) {
            auto *combo = new QComboBox(this);
            for (const char *c : p.choices)
                combo->addItem(QString::fromUtf8(c));
            combo->setCurrentIndex(static_cast<int>(held));
            connect(combo, &QComboBox::activated, this, emitChange);
            editor = cell = combo;
        } else {
            const Display d = displayOf(p.unit);
            auto *spin = new CheckedSpinBox(label, this);
            spin->setDecimals(d.decimals);
            spin->setRange(static_cast<double>(p.min) / d.scale, static_cast<double>(p.max) / d.scale);
            spin->setValue(static_cast<double>(held) / d.scale);
            spin->setSuffix(d.suffix);
            connect(spin, &QDoubleSpinBox::valueChanged, this, emitChange);
            editor = spin;
            cell = spin->withMessage();
        }
        editor->setToolTip(QString::fromUtf8(p.help));
        m_form->addRow(label, cell);
        m_editors << editor;
        m_cells << cell;
    }
    auto *spans = new CheckedSpinBox(tr("spans"), this);
    spans->setDecimals(0);
    spans->setRange(1, WORKLOAD_MAX_SPANS);
    spans->setGroupSeparatorShown(true);
    spans->setValue(static_cast<double>(w.spans));
    spans->setToolTip(tr("Idle spans to generate"));
    connect(spans, &QDoubleSpinBox::valueChanged, this, emitChange);
    m_form->addRow(tr("spans"), spans->withMessage());
    auto *seed = new SeedSpinBox(this); // any seed of --seed, exactly (a double holds 2^53)
    seed->setValue(w.seed);
    seed->setToolTip(tr("Random seed (0 to 2^63 - 1, as idlescope-cli --seed): the same seed gives the same stream"));
    connect(seed, &SeedSpinBox::valueChanged, this, emitChange);
    m_form->addRow(tr("seed"), seed->withMessage());
    m_editors << spans << seed;
    updateActiveParams();
}

workloads::ParamValues WorkloadForm::fieldValues() const
{
    workloads::ParamValues values = m_info->defaults();
    int i = 0;
    for (const ParamInfo &p : m_info->params) {
        QWidget *e = m_editors[i++];
        qint64 held;
        if (auto *combo = qobject_cast<QComboBox *>(e))
            held = combo->currentIndex();
        else
            held = std::llround(static_cast<QDoubleSpinBox *>(e)->value() * displayOf(p.unit).scale);
        values.set(p.name, held);
    }
    return values;
}

void WorkloadForm::updateActiveParams()
{
    if (!m_info)
        return;
    // The generator's own check says which written parameters act nowhere with the others'
    // values (slack_us on periodic's kind=ipi/pipe, base_us on a device profile): the rule the
    // command line refuses them by, asked one parameter at a time. Values that no run could
    // take (check() refuses them unwritten) leave every field as it is: the run says why.
    const workloads::ParamValues values = fieldValues();
    const bool valid = !m_info->check || m_info->check(values, 0).empty();
    int i = 0;
    for (const ParamInfo &p : m_info->params) {
        const auto bit = static_cast<std::uint32_t>(1U << i);
        const std::string why = valid && m_info->check ? m_info->check(values, bit) : std::string();
        QWidget *editor = m_editors[i];
        QWidget *cell = m_cells[i];
        ++i;
        cell->setEnabled(why.empty());
        if (QWidget *label = m_form->labelForField(cell))
            label->setEnabled(why.empty());
        // A disabled field still shows its tooltip: it says why the field does nothing here.
        editor->setToolTip(why.empty() ? QString::fromUtf8(p.help)
                                       : tr("Not used with these settings: %1").arg(QString::fromStdString(why)));
    }
}

WorkloadSourceSpec WorkloadForm::workload() const
{
    WorkloadSourceSpec out;
    if (!m_info)
        return out;
    workloads::ParamValues values = fieldValues();
    // A disabled field acts nowhere: it is written at its default, which the grammar takes as
    // not written, so a value left in it from another kind is not refused.
    int i = 0;
    for (const ParamInfo &p : m_info->params)
        if (!m_cells[i++]->isEnabled())
            values.set(p.name, p.def);
    out.text = workloads::generatorText(values);
    out.spans = qRound(static_cast<QDoubleSpinBox *>(m_editors[i++])->value());
    out.seed = static_cast<SeedSpinBox *>(m_editors[i])->value();
    return out;
}

} // namespace idlescope
