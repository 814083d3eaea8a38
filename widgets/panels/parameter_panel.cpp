// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/parameter_panel.h"

#include "core/governors/registry.h"
#include "core/replay/governor_factory.h"
#include "widgets/panels/parameter_row.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace idlescope {

namespace {

const int kTickRates[] = {100, 250, 300, 1000};

QLabel *swatch(const QColor &c, QWidget *parent)
{
    auto *l = new QLabel(parent);
    l->setFixedSize(12, 12);
    l->setStyleSheet(QStringLiteral("background:%1; border-radius:2px;").arg(c.name()));
    return l;
}

} // namespace

ParameterPanel::ParameterPanel(QWidget *parent)
    : QWidget(parent), m_tick(new QComboBox(this)), m_latencyOn(new QCheckBox(tr("Latency limit"), this)),
      m_latency(new ParameterRow(tr("latency limit"), QStringLiteral("ns"), 0, LATENCY_LIMIT_MAX_NS, 100000, this)),
      m_defaults(new QPushButton(tr("Kernel defaults"), this)), m_governorLayout(new QVBoxLayout)
{
    auto *layout = new QVBoxLayout(this);
    auto *global = new QGroupBox(tr("Idle loop"), this);
    auto *form = new QFormLayout(global);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // In a narrow dock (a 1024-pixel projector) the latency limit's slider goes under its check
    // box: beside it, this row made the panel 327 px wide in a 256 px dock, and every governor's
    // unit column was cut off at the dock's edge.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    for (int hz : kTickRates)
        m_tick->addItem(tr("%1 Hz").arg(hz), hz);
    m_tick->setToolTip(tr("CONFIG_HZ: the periodic tick rate (TICK_NSEC = 1 s / HZ)"));
    form->addRow(tr("Tick rate"), m_tick);
    m_latencyOn->setToolTip(tr("A PM QoS resume-latency limit applied to every span "
                               "(cpuidle_governor_latency_req()); off keeps the stream's own column"));
    m_latency->setEnabled(false);
    form->addRow(m_latencyOn, m_latency);
    layout->addWidget(global);

    layout->addLayout(m_governorLayout);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    m_defaults->setToolTip(tr("Every tunable, the tick rate and the latency limit back to the kernel's values"));
    buttons->addWidget(m_defaults);
    layout->addLayout(buttons);
    layout->addStretch();

    connect(m_tick, &QComboBox::currentIndexChanged, this, [this] { emit parametersChanged(true); });
    connect(m_latencyOn, &QCheckBox::toggled, this, [this](bool on) {
        m_latency->setEnabled(on);
        emit parametersChanged(true);
    });
    connect(m_latency, &ParameterRow::valueChanged, this, [this](std::int64_t, bool final) {
        showError(QString());
        emit parametersChanged(final);
    });
    connect(m_latency, &ParameterRow::inputRejected, this,
            [this](const QString &message) { showError(message, m_latency); });
    connect(m_defaults, &QPushButton::clicked, this, &ParameterPanel::resetToKernelDefaults);
}

void ParameterPanel::setGovernors(const std::vector<GovernorSpec> &governors)
{
    for (const GovernorSpec &g : governors) {
        m_variantOf[QString::fromStdString(g.name())] = g.variant;
        for (const auto &[name, value] : g.settings)
            m_values[QString::fromStdString(g.name())][QString::fromStdString(name)] = value;
    }
    rebuildGovernorBoxes(governors);
}

void ParameterPanel::rebuildGovernorBoxes(const std::vector<GovernorSpec> &governors)
{
    for (GovernorBox &b : m_boxes)
        delete b.box;
    m_boxes.clear();
    for (const GovernorSpec &g : governors)
        if (g.variant != "oracle") // the oracle has nothing to tune
            m_boxes.push_back(makeBox(g));
    for (GovernorBox &b : m_boxes)
        m_governorLayout->addWidget(b.box);
    updateBadges();
}

ParameterPanel::GovernorBox ParameterPanel::makeBox(const GovernorSpec &g)
{
    GovernorBox b;
    b.name = g.name();
    b.variant = g.variant;
    auto *box = new QGroupBox(this);
    b.box = box;
    auto *grid = new QGridLayout(box);
    grid->setContentsMargins(8, 6, 8, 6);
    auto *header = new QHBoxLayout;
    header->addWidget(swatch(g.color, box));
    auto *title = new QLabel(QStringLiteral("<b>%1</b>").arg(QString::fromStdString(g.name()).toHtmlEscaped()), box);
    header->addWidget(title);
    if (const VariantInfo *v = findVariant(g.variant))
        title->setToolTip(QString::fromUtf8(v->summary));
    b.badge = new QLabel(tr("modified"), box);
    b.badge->setToolTip(tr("Parameters differ from the kernel's"));
    b.badge->setStyleSheet(QStringLiteral("background:#f28e2b; color:white; border-radius:6px; padding:0 6px;"
                                          "font-size:8pt; font-weight:bold;"));
    header->addWidget(b.badge);
    header->addStretch();
    grid->addLayout(header, 0, 0, 1, 2);

    auto gov = createGovernor(g.variant);
    const QString key = QString::fromStdString(g.name());
    int r = 1;
    if (gov) {
        for (const TunableInfo &t : gov->tunables()) {
            const QString name = QString::fromUtf8(t.name);
            auto *label = new QLabel(ParameterRow::caption(name, QString::fromUtf8(t.unit)), box);
            label->setToolTip(QString::fromUtf8(t.description));
            auto *row = new ParameterRow(name, QString::fromUtf8(t.unit), t.minValue, t.maxValue, t.kernelDefault, box);
            row->setToolTip(QString::fromUtf8(t.description));
            row->setValue(m_values.value(key).value(name, t.kernelDefault));
            // The name above its slider: beside it, RESIDENCY_THRESHOLD_NS left a dock of
            // 410 px an 82 px slider, where a pixel was a coarse step.
            grid->addWidget(label, r++, 0, 1, 2);
            grid->addWidget(row, r++, 0, 1, 2);
            b.rows << row;
            connect(row, &ParameterRow::valueChanged, this, [this, key, name](std::int64_t v, bool final) {
                m_values[key][name] = v;
                updateBadges();
                showError(QString()); // a later valid edit ends an earlier rejection
                emit parametersChanged(final);
            });
            // Several governors have a RESIDENCY_THRESHOLD_NS: say whose field was rejected.
            connect(row, &ParameterRow::inputRejected, this, [this, key, row](const QString &message) {
                showError(message.isEmpty() ? message : key + QStringLiteral(": ") + message, row);
            });
        }
    }
    if (r == 1) {
        auto *none = new QLabel(tr("no tunables"), box);
        none->setStyleSheet(QStringLiteral("color:#808080;"));
        grid->addWidget(none, r, 0, 1, 2);
    }
    return b;
}

std::vector<TunableSetting> ParameterPanel::settingsFor(const std::string &name) const
{
    std::vector<TunableSetting> out;
    const QString key = QString::fromStdString(name);
    auto gov = createGovernor(m_variantOf.value(key, name));
    if (!gov)
        return out;
    const QMap<QString, std::int64_t> values = m_values.value(key);
    for (const TunableInfo &t : gov->tunables()) {
        const std::int64_t v = values.value(QString::fromUtf8(t.name), t.kernelDefault);
        if (v != t.kernelDefault)
            out.emplace_back(t.name, v);
    }
    return out;
}

void ParameterPanel::applySettings(const std::string &governor, const std::vector<TunableSetting> &settings)
{
    const QString key = QString::fromStdString(governor);
    m_values.remove(key);
    for (const auto &[name, value] : settings)
        m_values[key][QString::fromStdString(name)] = value;
    for (GovernorBox &b : m_boxes)
        if (b.name == governor)
            for (ParameterRow *row : std::as_const(b.rows))
                row->setValue(m_values.value(key).value(row->name(), row->defaultValue()));
    updateBadges();
}

void ParameterPanel::copyGovernor(const QString &from, const QString &to, const std::string &variant)
{
    m_variantOf[to] = variant;
    m_values[to] = m_values.value(from);
}

void ParameterPanel::renameGovernor(const QString &from, const QString &to)
{
    if (m_variantOf.contains(from))
        m_variantOf[to] = m_variantOf.take(from);
    m_values[to] = m_values.take(from);
}

int ParameterPanel::tickHz() const
{
    return m_tick->currentData().toInt();
}

void ParameterPanel::setTickHz(int hz)
{
    int i = m_tick->findData(hz);
    if (i < 0) {
        m_tick->addItem(tr("%1 Hz").arg(hz), hz);
        i = m_tick->count() - 1;
    }
    const QSignalBlocker block(m_tick);
    m_tick->setCurrentIndex(i);
}

void ParameterPanel::setTableTickHz(int hz)
{
    m_tableTickHz = hz;
    for (int i = 0; i < m_tick->count(); ++i) {
        const int v = m_tick->itemData(i).toInt();
        m_tick->setItemText(i, v == hz ? tr("%1 Hz (table)").arg(v) : tr("%1 Hz").arg(v));
    }
    setTickHz(hz);
}

Ns ParameterPanel::latencyLimitNs() const
{
    return m_latencyOn->isChecked() ? m_latency->value() : -1;
}

void ParameterPanel::setLatencyLimitNs(Ns ns)
{
    const QSignalBlocker block(m_latencyOn);
    m_latencyOn->setChecked(ns >= 0);
    m_latency->setEnabled(ns >= 0);
    if (ns >= 0)
        m_latency->setValue(ns);
}

bool ParameterPanel::isModified(const std::string &name) const
{
    return !settingsFor(name).empty();
}

ParameterRow *ParameterPanel::row(const std::string &name, const QString &tunable) const
{
    for (const GovernorBox &b : m_boxes)
        if (b.name == name)
            for (ParameterRow *r : b.rows)
                if (r->name() == tunable)
                    return r;
    return nullptr;
}

QString ParameterPanel::lastError() const
{
    return m_lastError;
}

void ParameterPanel::resetToKernelDefaults()
{
    m_values.clear();
    for (GovernorBox &b : m_boxes)
        for (ParameterRow *row : std::as_const(b.rows))
            row->setValue(row->defaultValue());
    setTickHz(m_tableTickHz);
    setLatencyLimitNs(-1);
    showError(QString());
    updateBadges();
    emit parametersChanged(true);
}

void ParameterPanel::updateBadges()
{
    for (GovernorBox &b : m_boxes)
        b.badge->setVisible(isModified(b.name));
}

void ParameterPanel::showError(const QString &message, ParameterRow *at)
{
    // One message at a time, under the field it is about: any later edit, valid
    // or refused, replaces it, so a message never outlives the input it refused.
    m_lastError = message;
    m_latency->showMessage(QString());
    for (GovernorBox &b : m_boxes)
        for (ParameterRow *row : std::as_const(b.rows))
            row->showMessage(QString());
    if (at && !message.isEmpty())
        at->showMessage(at->errorMessage());
}

} // namespace idlescope
