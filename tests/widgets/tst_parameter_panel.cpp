// SPDX-License-Identifier: GPL-3.0-or-later
// The parameter panel alone: rows come from Governor::tunables() (a tunable
// only reaches variants that have it), values map to settings, bad input is
// rejected with a message, the badge follows the values, kernel defaults reset.
#include "core/governors/registry.h"
#include "widgets/panels/parameter_panel.h"
#include "widgets/panels/parameter_row.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>

using namespace idlescope;

namespace {

std::vector<GovernorSpec> governors(std::initializer_list<const char *> ids)
{
    std::vector<GovernorSpec> out;
    for (const char *id : ids)
        out.push_back(GovernorSpec{id, {}, QColor(Qt::blue)});
    return out;
}

/// Types @p text into a row's field and commits it as the user would.
void typeInto(ParameterRow *row, const QString &text)
{
    row->field()->selectAll();
    QTest::keyClicks(row->field(), text);
    QTest::keyClick(row->field(), Qt::Key_Return);
}

} // namespace

class TestParameterPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void rowsFollowEachVariantsTunables();
    void sliderWritesSettingAndBadge();
    void fieldAcceptsMicroseconds();
    void fieldRejectsBadInput_data();
    void fieldRejectsBadInput();
    void kernelDefaultsResetsEverything();
    void settingsSurviveReselection();
    void tickAndLatency();
    void errorNamesTheGovernorAndLaterEditClearsIt();
    void wideRangesUseALogSlider();
};

void TestParameterPanel::initTestCase()
{
    for (const char *id : {"menu-6.14", "menu-resthresh", "teo-6.14", "oracle"})
        QVERIFY2(findVariant(id), id);
}

void TestParameterPanel::rowsFollowEachVariantsTunables()
{
    ParameterPanel p;
    p.setGovernors(governors({"menu-6.14", "menu-resthresh", "teo-6.14", "oracle"}));
    // Every tunable the variant declares gets a row, and no other.
    for (const char *id : {"menu-6.14", "menu-resthresh", "teo-6.14"}) {
        auto gov = createGovernor(id);
        for (const TunableInfo &t : gov->tunables()) {
            ParameterRow *row = p.row(id, QString::fromUtf8(t.name));
            QVERIFY2(row, t.name);
            QCOMPARE(row->value(), t.kernelDefault);
        }
    }
    QVERIFY(p.row("menu-6.14", QStringLiteral("INTERVALS")));
    QVERIFY(!p.row("teo-6.14", QStringLiteral("INTERVALS")));
    QVERIFY(!p.row("oracle", QStringLiteral("INTERVALS")));
    ParameterRow *intervals = p.row("menu-6.14", QStringLiteral("INTERVALS"));
    QCOMPARE(intervals->minimum(), std::int64_t(1));
    QCOMPARE(intervals->maximum(), std::int64_t(64));
    QCOMPARE(intervals->value(), std::int64_t(8));
    ParameterRow *thr = p.row("menu-resthresh", QStringLiteral("RESIDENCY_THRESHOLD_NS"));
    QVERIFY(thr);
    QCOMPARE(thr->maximum(), std::int64_t(500000)); // 0..500 us
    QCOMPARE(thr->field()->text(), QStringLiteral("15"));
}

void TestParameterPanel::sliderWritesSettingAndBadge()
{
    ParameterPanel p;
    p.setGovernors(governors({"menu-6.14", "menu-resthresh"}));
    QSignalSpy changed(&p, &ParameterPanel::parametersChanged);
    ParameterRow *row = p.row("menu-6.14", QStringLiteral("INTERVALS"));
    row->slider()->setSliderDown(true);
    row->slider()->setValue(16 - 1); // slider position 0 = value 1
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.last().first().toBool(), false); // still dragging: debounced run
    row->slider()->setSliderDown(false);
    QCOMPARE(changed.last().first().toBool(), true);  // release: run now
    QCOMPARE(row->value(), std::int64_t(16));
    QCOMPARE(row->field()->text(), QStringLiteral("16"));
    const auto s = p.settingsFor("menu-6.14");
    QCOMPARE(s.size(), std::size_t(1));
    QCOMPARE(s[0].first, std::string("INTERVALS"));
    QCOMPARE(s[0].second, std::int64_t(16));
    QVERIFY(p.isModified("menu-6.14"));
    // Only the variant that was changed.
    QVERIFY(p.settingsFor("menu-resthresh").empty());
    QVERIFY(!p.isModified("menu-resthresh"));
    // Back to the default value: no setting, no badge.
    row->slider()->setValue(8 - 1);
    QVERIFY(p.settingsFor("menu-6.14").empty());
    QVERIFY(!p.isModified("menu-6.14"));
}

void TestParameterPanel::fieldAcceptsMicroseconds()
{
    ParameterPanel p;
    p.setGovernors(governors({"menu-resthresh"}));
    ParameterRow *thr = p.row("menu-resthresh", QStringLiteral("RESIDENCY_THRESHOLD_NS"));
    QSignalSpy changed(&p, &ParameterPanel::parametersChanged);
    typeInto(thr, QStringLiteral("42.5"));
    QCOMPARE(thr->value(), std::int64_t(42500));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(p.settingsFor("menu-resthresh").at(0).second, std::int64_t(42500));
    QVERIFY(p.lastError().isEmpty());
}

void TestParameterPanel::fieldRejectsBadInput_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expect");
    QTest::newRow("empty") << QString() << QStringLiteral("not a number");
    QTest::newRow("nan") << QStringLiteral("nan") << QStringLiteral("not a number");
    QTest::newRow("inf") << QStringLiteral("inf") << QStringLiteral("not a number");
    QTest::newRow("words") << QStringLiteral("fast") << QStringLiteral("not a number");
    QTest::newRow("too big") << QStringLiteral("100000") << QStringLiteral("between");
    QTest::newRow("negative") << QStringLiteral("-3") << QStringLiteral("between");
}

void TestParameterPanel::fieldRejectsBadInput()
{
    QFETCH(QString, text);
    QFETCH(QString, expect);
    ParameterPanel p;
    p.show();
    p.setGovernors(governors({"menu-resthresh"}));
    ParameterRow *thr = p.row("menu-resthresh", QStringLiteral("RESIDENCY_THRESHOLD_NS"));
    QSignalSpy changed(&p, &ParameterPanel::parametersChanged);
    thr->field()->setText(text);
    thr->field()->setModified(true);
    emit thr->field()->editingFinished();
    QCOMPARE(changed.count(), 0);                         // the engine never sees it
    QCOMPARE(thr->value(), std::int64_t(15000));          // last good value kept
    QCOMPARE(thr->field()->text(), QStringLiteral("15")); // and shown again
    QVERIFY2(p.lastError().contains(expect), qPrintable(p.lastError()));
    QVERIFY(p.lastError().contains(QStringLiteral("RESIDENCY_THRESHOLD_NS")));
    // A good value clears the message.
    typeInto(thr, QStringLiteral("20"));
    QVERIFY(p.lastError().isEmpty());
}

void TestParameterPanel::errorNamesTheGovernorAndLaterEditClearsIt()
{
    ParameterPanel p;
    p.show();
    p.setGovernors(governors({"menu-6.14", "menu-resthresh"}));
    ParameterRow *thr = p.row("menu-resthresh", QStringLiteral("RESIDENCY_THRESHOLD_NS"));
    thr->field()->setText(QString());
    thr->field()->setModified(true);
    emit thr->field()->editingFinished();
    // Both governors have the tunable: the message says whose field it was.
    QCOMPARE(p.lastError(), QStringLiteral("menu-resthresh: RESIDENCY_THRESHOLD_NS: '' is not a number"));
    // A valid slider move on another governor's row ends it.
    p.row("menu-6.14", QStringLiteral("INTERVALS"))->slider()->setValue(5 - 1);
    QCOMPARE(p.settingsFor("menu-6.14").at(0).second, std::int64_t(5));
    QVERIFY(p.lastError().isEmpty());
}

void TestParameterPanel::wideRangesUseALogSlider()
{
    ParameterPanel p;
    p.setGovernors(governors({"menu-6.14", "teo-6.14"}));
    ParameterRow *pulse = p.row("teo-6.14", QStringLiteral("PULSE"));
    ParameterRow *lat = p.row("teo-6.14", QStringLiteral("LATENCY_THRESHOLD_NS"));
    ParameterRow *intervals = p.row("menu-6.14", QStringLiteral("INTERVALS"));
    QVERIFY(pulse && lat && intervals);
    QVERIFY(pulse->isLogarithmic() && lat->isLogarithmic());
    QVERIFY(!intervals->isLogarithmic());
    QCOMPARE(pulse->minimum(), std::int64_t(1));
    QCOMPARE(pulse->maximum(), std::int64_t(1) << 20);
    // Ends map to the ends; the middle of 1..2^20 is ~2^10, not ~2^19 as on a linear slider.
    QSlider *s = pulse->slider();
    s->setValue(s->maximum());
    QCOMPARE(pulse->value(), std::int64_t(1) << 20);
    s->setValue(s->minimum());
    QCOMPARE(pulse->value(), std::int64_t(1));
    s->setValue(s->maximum() / 2);
    QVERIFY2(pulse->value() > 900 && pulse->value() < 1200, qPrintable(QString::number(pulse->value())));
    // LATENCY_THRESHOLD_NS (0..1 s): its 15 us default sits mid-slider, not at the left edge.
    QVERIFY2(lat->slider()->value() > lat->slider()->maximum() / 3, qPrintable(QString::number(lat->slider()->value())));
    // The field still takes any value of the full range.
    QVERIFY(pulse->setText(QStringLiteral("1000000")));
    QCOMPARE(pulse->value(), std::int64_t(1000000));
    QVERIFY(lat->setText(QStringLiteral("999999.999")));
    QCOMPARE(lat->value(), std::int64_t(999999999));
}

void TestParameterPanel::kernelDefaultsResetsEverything()
{
    ParameterPanel p;
    p.setGovernors(governors({"menu-6.14", "teo-6.14"}));
    p.setTableTickHz(100);
    p.row("menu-6.14", QStringLiteral("INTERVALS"))->slider()->setValue(3);
    p.setTickHz(1000);
    p.setLatencyLimitNs(20000);
    QVERIFY(p.isModified("menu-6.14"));
    QSignalSpy changed(&p, &ParameterPanel::parametersChanged);
    p.resetToKernelDefaults();
    QCOMPARE(changed.count(), 1);
    QVERIFY(!p.isModified("menu-6.14"));
    QCOMPARE(p.row("menu-6.14", QStringLiteral("INTERVALS"))->value(), std::int64_t(8));
    QCOMPARE(p.tickHz(), 100);
    QCOMPARE(p.latencyLimitNs(), Ns(-1));
}

void TestParameterPanel::settingsSurviveReselection()
{
    ParameterPanel p;
    p.setGovernors(governors({"menu-6.14"}));
    p.row("menu-6.14", QStringLiteral("INTERVALS"))->slider()->setValue(4 - 1);
    p.setGovernors(governors({"teo-6.14"})); // menu deselected
    QVERIFY(!p.row("menu-6.14", QStringLiteral("INTERVALS")));
    p.setGovernors(governors({"menu-6.14", "teo-6.14"})); // and back
    QCOMPARE(p.row("menu-6.14", QStringLiteral("INTERVALS"))->value(), std::int64_t(4));
    p.applySettings("menu-6.14", {{"INTERVALS", 12}});
    QCOMPARE(p.row("menu-6.14", QStringLiteral("INTERVALS"))->value(), std::int64_t(12));
}

void TestParameterPanel::tickAndLatency()
{
    ParameterPanel p;
    p.setTableTickHz(250);
    QCOMPARE(p.tickHz(), 250);
    auto *combo = p.findChild<QComboBox *>();
    QVERIFY(combo);
    QStringList rates;
    for (int i = 0; i < combo->count(); ++i)
        rates << combo->itemData(i).toString();
    QCOMPARE(rates, QStringList({QStringLiteral("100"), QStringLiteral("250"), QStringLiteral("300"), QStringLiteral("1000")}));
    QVERIFY(combo->currentText().contains(QStringLiteral("table")));
    QCOMPARE(p.latencyLimitNs(), Ns(-1));
    p.setLatencyLimitNs(50000);
    QCOMPARE(p.latencyLimitNs(), Ns(50000));
}

QTEST_MAIN(TestParameterPanel)
#include "tst_parameter_panel.moc"
