// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/workload_spec_page.h"

#include "core/workloads/workload_spec.h"
#include "widgets/panels/checked_spin_box.h"
#include "widgets/panels/seed_spin_box.h"
#include "widgets/panels/workload_form.h"
#include "widgets/runner/spec_workload.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace idlescope {

WorkloadSpecPage::WorkloadSpecPage(QWidget *parent)
    : QWidget(parent), m_loop(new QComboBox(this)), m_field(new QLineEdit(this)), m_message(new QLabel(this)),
      m_spans(new CheckedSpinBox(tr("spans"), this)), m_seed(new SeedSpinBox(this))
{
    // The field, its refusal under it (a box layout gives a wrapped label its height; a
    // form row does not), then spans and seed.
    auto *v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    auto *top = new QFormLayout;
    auto *form = new QFormLayout;
    for (QFormLayout *f : {top, form}) {
        f->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        f->setRowWrapPolicy(QFormLayout::WrapLongRows); // a narrow Setup dock: fields under labels
    }
    // The loop choice's long items made this page, hidden or not, the Setup panel's widest (a
    // stacked widget is as wide as its widest page): the combo shrinks, its items stay whole.
    m_loop->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_loop->setMinimumContentsLength(12);
    m_field->setPlaceholderText(QStringLiteral("periodic:interval_us=100 + poisson:mean_us=500"));
    m_field->setToolTip(tr("A workload in the grammar of idlescope-cli compare --workload: generators overlaid "
                           "with '+', mixed with mix(w*a | b; block=N) (see docs/workloads.md). "
                           "Enter or leaving the field simulates it."));
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color:#b0302a;"));
    m_message->hide();
    m_loop->addItem(tr("open loop: replay a stream"), QStringLiteral("open"));
    m_loop->addItem(tr("closed loop: io / pingpong"), QStringLiteral("closed"));
    m_loop->setToolTip(tr("Open loop: the spans are generated first and every governor replays the same ones "
                          "(compare --workload). Closed loop: the next event waits for the CPU's wakeup, so the "
                          "run's operations per second and added latency depend on the governor "
                          "(compare --closed-loop, docs/workloads.md)."));
    top->addRow(tr("loop"), m_loop);
    top->addRow(tr("spec"), m_field);
    v->addLayout(top);
    v->addWidget(m_message);
    v->addLayout(form);
    m_spans->setDecimals(0);
    m_spans->setRange(1, WORKLOAD_MAX_SPANS);
    m_spans->setGroupSeparatorShown(true);
    m_spans->setToolTip(tr("Idle spans to generate (idlescope-cli --spans)"));
    form->addRow(tr("spans"), m_spans->withMessage());
    m_spansRow = form->rowCount() - 1;
    m_form = form;
    m_seed->setToolTip(tr("Random seed (idlescope-cli --seed, 0 to 2^63 - 1): the same seed gives the same stream"));
    form->addRow(tr("seed"), m_seed->withMessage());
    v->addStretch(1);
    setWorkload(defaultSpecWorkload());

    connect(m_loop, &QComboBox::currentIndexChanged, this, &WorkloadSpecPage::loopChanged);
    connect(m_field, &QLineEdit::textEdited, this, &WorkloadSpecPage::check);
    connect(m_field, &QLineEdit::editingFinished, this, &WorkloadSpecPage::commit);
    connect(m_spans, &QDoubleSpinBox::valueChanged, this, &WorkloadSpecPage::valuesChanged);
    connect(m_seed, &SeedSpinBox::valueChanged, this, &WorkloadSpecPage::valuesChanged);
}

void WorkloadSpecPage::setWorkload(const WorkloadSourceSpec &w)
{
    const QSignalBlocker a(m_spans), b(m_seed), c(m_loop);
    const bool closed = w.kind == WorkloadKind::ClosedLoop;
    m_loop->setCurrentIndex(closed ? 1 : 0);
    m_form->setRowVisible(m_spansRow, !closed);
    m_otherLoopText.clear();
    m_committed = QString::fromStdString(w.text);
    m_field->setText(m_committed);
    m_spans->setValue(static_cast<double>(w.spans));
    m_seed->setValue(w.seed);
    check();
}

WorkloadSourceSpec WorkloadSpecPage::workload() const
{
    WorkloadSourceSpec w;
    w.kind = closedLoop() ? WorkloadKind::ClosedLoop : WorkloadKind::Spec;
    w.text = m_committed.toStdString();
    w.spans = qRound(m_spans->value());
    w.seed = m_seed->value();
    return w;
}

bool WorkloadSpecPage::closedLoop() const
{
    return m_loop->currentData().toString() == QLatin1String("closed");
}

void WorkloadSpecPage::loopChanged()
{
    // Each mode keeps its own text: switching back finds the one left there.
    const QString other = m_otherLoopText;
    m_otherLoopText = m_field->text();
    const QString text = !other.isEmpty() ? other
                         : closedLoop()   ? QStringLiteral("io:service_us=50,work_us=10,iodepth=1,ops=10000")
                                          : defaultSpecText();
    m_form->setRowVisible(m_spansRow, !closedLoop());
    m_field->setText(text);
    m_field->setPlaceholderText(closedLoop() ? QStringLiteral("io:service_us=50,work_us=10,iodepth=4")
                                             : QStringLiteral("periodic:interval_us=100 + poisson:mean_us=500"));
    if (!check())
        return;
    m_committed = text;
    emit valuesChanged();
}

QString WorkloadSpecPage::message() const
{
    return m_message->isHidden() ? QString() : m_message->text();
}

bool WorkloadSpecPage::check()
{
    const QString refusal = specWorkloadRefusal(m_field->text(), closedLoop());
    m_message->setText(refusal);
    m_message->setVisible(!refusal.isEmpty());
    return refusal.isEmpty();
}

void WorkloadSpecPage::commit()
{
    // A refused text stays in the field, with its reason, until it is mended; the
    // simulation keeps the last spec that parsed.
    if (!check() || m_field->text() == m_committed)
        return;
    m_committed = m_field->text();
    emit valuesChanged();
}

} // namespace idlescope
