// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file workload_form.h
 * The parameters of one synthetic generator (core/workloads: periodic, duty,
 * poisson, bimodal, io, server, ...) as a form, built from its ParamInfo
 * table: durations in µs, percentages, Hz, counts and choices, each with its
 * range and help text, plus the number of spans and the seed. Values travel
 * as a QVariantMap in the generator's held units (see workload.h), which is
 * what WorkloadSpec::params stores.
 */
#pragma once

#include <QVariantMap>
#include <QWidget>

class QFormLayout;

namespace idlescope {

/// The largest generated stream the GUI offers (spans).
inline constexpr int WORKLOAD_MAX_SPANS = 10000000;

namespace workloads {
struct GeneratorInfo;
}

class WorkloadForm : public QWidget {
    Q_OBJECT
public:
    explicit WorkloadForm(QWidget *parent = nullptr);

    /// Show the parameters of @p generator with @p values (missing ones at their defaults).
    void setGenerator(const workloads::GeneratorInfo *generator, const QVariantMap &values);
    const workloads::GeneratorInfo *generator() const { return m_info; }

    /// Every parameter in held units, plus "spans" and "seed".
    QVariantMap values() const;

signals:
    void valuesChanged();

private:
    const workloads::GeneratorInfo *m_info = nullptr;
    QFormLayout *m_form;
    QList<QWidget *> m_editors; ///< one per parameter, then spans, then seed
};

} // namespace idlescope
