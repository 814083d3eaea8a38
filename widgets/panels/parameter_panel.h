// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file parameter_panel.h
 * The knobs of a run. Global: the tick rate (the table's tick_hz: 100, 250,
 * 300, 1000 Hz) and a PM QoS latency limit applied to every span. Per
 * selected governor: one slider row for every tunable its family declares
 * (Governor::tunables(): INTERVALS, RESIDENCY_THRESHOLD_NS, DECAY_SHIFT,
 * PULSE, ...), so a tunable only ever reaches variants that have it. A
 * governor whose values differ from the kernel's shows a "modified" badge;
 * "Kernel defaults" resets everything.
 */
#pragma once

#include "core/replay/governor_run.h"
#include "widgets/runner/scenario_spec.h"

#include <QMap>
#include <QWidget>

class QComboBox;
class QCheckBox;
class QLabel;
class QPushButton;
class QVBoxLayout;

namespace idlescope {

class ParameterRow;

class ParameterPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParameterPanel(QWidget *parent = nullptr);

    /// Show rows for these governors (in order); settings already made for a governor are kept.
    /// Governors are told apart by GovernorSpec::name(): a second instance of a variant (a
    /// label of its own) has a box and values of its own.
    void setGovernors(const std::vector<GovernorSpec> &governors);
    /// The tick rate the table declares (the "kernel default" of the tick control).
    void setTableTickHz(int hz);
    /// The table's own tick rate (set by setTableTickHz()).
    int tableTickHz() const { return m_tableTickHz; }

    /// Non-default settings of the governor named @p name (GovernorSpec::name(); what its
    /// GovernorSpec::settings should hold).
    std::vector<TunableSetting> settingsFor(const std::string &name) const;
    /// Set a governor's values (session load); unknown names are ignored.
    void applySettings(const std::string &name, const std::vector<TunableSetting> &settings);

    /// A second instance @p to of @p variant starts with governor @p from's values.
    void copyGovernor(const QString &from, const QString &to, const std::string &variant);
    /// Governor @p from is now named @p to: its values go with it.
    void renameGovernor(const QString &from, const QString &to);

    int tickHz() const;
    void setTickHz(int hz);
    /// -1 for "no limit".
    Ns latencyLimitNs() const;
    void setLatencyLimitNs(Ns ns);

    /// True when governor @p name's values differ from the kernel defaults (the badge is shown).
    bool isModified(const std::string &name) const;
    /// The row of tunable @p tunable of governor @p name, or null (tests and measurements).
    ParameterRow *row(const std::string &name, const QString &tunable) const;
    /// The rejected input message shown, prefixed with its governor ("" when none).
    QString lastError() const;

public slots:
    /// Every governor tunable, the tick rate and the latency limit back to the kernel's values.
    void resetToKernelDefaults();

signals:
    /// A value changed; @p final is false while a slider is being dragged.
    void parametersChanged(bool final);

private:
    struct GovernorBox {
        std::string name; ///< GovernorSpec::name()
        std::string variant;
        QWidget *box = nullptr;
        QLabel *badge = nullptr;
        QList<ParameterRow *> rows;
    };
    void rebuildGovernorBoxes(const std::vector<GovernorSpec> &governors);
    GovernorBox makeBox(const GovernorSpec &g);
    void updateBadges();
    /// Show @p message under @p at's field (null or empty: clear every message).
    void showError(const QString &message, ParameterRow *at = nullptr);

    QComboBox *m_tick;
    QCheckBox *m_latencyOn;
    ParameterRow *m_latency;
    QPushButton *m_defaults;
    QString m_lastError;
    QVBoxLayout *m_governorLayout;
    int m_tableTickHz = 250;
    std::vector<GovernorBox> m_boxes;
    /// Values the user set, per governor name and tunable (kept while a governor is deselected).
    QMap<QString, QMap<QString, std::int64_t>> m_values;
    /// The variant of each governor name setGovernors() was given (a label's variant).
    QMap<QString, std::string> m_variantOf;
};

} // namespace idlescope
