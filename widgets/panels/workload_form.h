// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file workload_form.h
 * The parameters of one synthetic generator (core/workloads: periodic, duty,
 * poisson, bimodal, io, server, ...) as a form, built from its ParamInfo
 * table: durations in µs, percentages, Hz, counts and choices, each with its
 * range and help text, plus the number of spans and the seed. The form is
 * the parsed form of a Generator workload's text (WorkloadSourceSpec::text, the
 * command line's grammar): it reads its fields from the text and writes the
 * text back, every parameter in its named unit (spec_workload.h).
 */
#pragma once

#include "core/workloads/workload.h"
#include "widgets/runner/scenario_spec.h"

#include <QWidget>

class QFormLayout;

namespace idlescope {

/// The largest generated stream the GUI offers (spans).
inline constexpr int WORKLOAD_MAX_SPANS = 10000000;

class WorkloadForm : public QWidget {
    Q_OBJECT
public:
    explicit WorkloadForm(QWidget *parent = nullptr);

    /// Show the generator of the Generator workload @p w with the parameters of its text
    /// (those not written at their defaults), its spans and seed.
    void setWorkload(const WorkloadSourceSpec &w);
    const workloads::GeneratorInfo *generator() const { return m_info; }

    /// The Generator workload the fields say: the text with every parameter, spans and seed.
    WorkloadSourceSpec workload() const;

signals:
    void valuesChanged();

private:
    /// The parameters as the fields hold them, disabled ones included.
    workloads::ParamValues fieldValues() const;
    /// Disables, with a tooltip saying why, each parameter that acts nowhere with the others'
    /// values (GeneratorInfo::check with that parameter written).
    void updateActiveParams();

    const workloads::GeneratorInfo *m_info = nullptr;
    QFormLayout *m_form;
    QList<QWidget *> m_editors; ///< one per parameter, then spans, then seed
    QList<QWidget *> m_cells;   ///< one per parameter: the row's field (the editor and its message)
};

} // namespace idlescope
