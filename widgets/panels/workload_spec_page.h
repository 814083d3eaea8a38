// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file workload_spec_page.h
 * A workload written in the command line's spec grammar (`a + b`,
 * `mix(...)`, docs/workloads.md) as one text field, with the number of spans
 * and the seed. The text is parsed on every keystroke by the core's own parser
 * (parseWorkloadSpec()); a refusal is shown under the field with its column,
 * and only a spec that parses, of one workload point, is committed. It edits
 * a WorkloadKind::Spec workload's text, spans and seed — the spans are then
 * exactly those `idlescope-cli replay --workload` generates for the same
 * text, span count and seed (specWorkloadStream()). A "loop" choice above the
 * field makes the text a closed loop instead (WorkloadKind::ClosedLoop, the
 * text that of `idlescope-cli compare --closed-loop`,
 * closed_loop_workload.h); its operations are in the text, so spans are hidden.
 */
#pragma once

#include "widgets/runner/scenario_spec.h"

#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;

namespace idlescope {

class CheckedSpinBox;
class SeedSpinBox;

class WorkloadSpecPage : public QWidget {
    Q_OBJECT
public:
    explicit WorkloadSpecPage(QWidget *parent = nullptr);

    /// Show the Spec or ClosedLoop workload @p w (its text, spans and seed).
    void setWorkload(const WorkloadSourceSpec &w);
    /// The last committed text with the spans and seed shown, a Spec or a ClosedLoop.
    WorkloadSourceSpec workload() const;
    /// The refusal of the text being typed ("" when it parses).
    QString message() const;
    /// The field (tests type into it).
    QLineEdit *field() const { return m_field; }
    /// Open loop (a stream replayed) or closed loop (tests pick it).
    QComboBox *loopBox() const { return m_loop; }

signals:
    /// A spec that parses was committed (Enter or focus out), or spans or seed changed.
    void valuesChanged();

private:
    /// Parses the field's text and shows or clears the refusal; true when it may be committed.
    bool check();
    void commit();

    /// The loop box changed: another grammar for the same field.
    void loopChanged();
    bool closedLoop() const;

    QComboBox *m_loop;
    QLineEdit *m_field;
    QLabel *m_message;
    CheckedSpinBox *m_spans;
    SeedSpinBox *m_seed;
    QString m_committed;
    QFormLayout *m_form = nullptr;
    int m_spansRow = 0;
    QString m_otherLoopText; ///< the field's text in the other loop mode, back when it is picked again
};

} // namespace idlescope
