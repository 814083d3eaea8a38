// SPDX-License-Identifier: GPL-3.0-or-later
// The parameter panel alone: rows come from Governor::tunables() (a tunable
// only reaches variants that have it), values map to settings, bad input is
// rejected with a message, the badge follows the values, kernel defaults reset.
#include "core/governors/registry.h"
#include "core/replay/governor_factory.h"
#include "widgets/panels/parameter_panel.h"
#include "widgets/panels/parameter_row.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>
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
    void slidersCoverAFineRangeAroundTheKernelValue();
    void refusalShowsAtItsFieldUntilFixed();
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
    QCOMPARE(thr->maximum(), std::int64_t(100000000)); // the field: 0..100 ms, as --set takes
    QCOMPARE(thr->field()->text(), QStringLiteral("15"));
    // A teacher's finding: RESIDENCY_THRESHOLD_NS over a field of "15 µs" read as 15 ns. The
    // caption above the row names both units; INTERVALS (no unit change) stays its name.
    const QString caption = QStringLiteral("RESIDENCY_THRESHOLD_NS\n(ns in the kernel, here in \u00b5s)");
    QCOMPARE(ParameterRow::caption(QStringLiteral("RESIDENCY_THRESHOLD_NS"), QStringLiteral("ns")), caption);
    QCOMPARE(ParameterRow::caption(QStringLiteral("INTERVALS"), QString()), QStringLiteral("INTERVALS"));
    bool shown = false;
    for (const QLabel *l : p.findChildren<QLabel *>())
        shown = shown || l->text() == caption;
    QVERIFY(shown);
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
    QCOMPARE(changed.last().first().toBool(), true); // release: run now
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
    QTest::newRow("too big") << QStringLiteral("100001") << QStringLiteral("between"); // > 100 ms
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

/// Drags @p row's slider handle by @p dx pixels with the mouse, as a hand does.
static std::int64_t dragBy(ParameterRow *row, int dx)
{
    QSlider *s = row->slider();
    QStyleOptionSlider opt;
    opt.initFrom(s);
    opt.orientation = s->orientation();
    opt.minimum = s->minimum();
    opt.maximum = s->maximum();
    opt.sliderPosition = s->sliderPosition();
    opt.sliderValue = s->value();
    const QPoint from = s->style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, s).center();
    const QPoint to = from + QPoint(dx, 0);
    QMouseEvent press(QEvent::MouseButtonPress, from, s->mapToGlobal(from), Qt::LeftButton, Qt::LeftButton, {});
    QApplication::sendEvent(s, &press);
    QMouseEvent move(QEvent::MouseMove, to, s->mapToGlobal(to), Qt::NoButton, Qt::LeftButton, {});
    QApplication::sendEvent(s, &move);
    QMouseEvent release(QEvent::MouseButtonRelease, to, s->mapToGlobal(to), Qt::LeftButton, Qt::NoButton, {});
    QApplication::sendEvent(s, &release);
    return row->value();
}

void TestParameterPanel::slidersCoverAFineRangeAroundTheKernelValue()
{
    // Audit: a 30 px drag took STDDEV_MAX_US from 20 to 66,588 us, 15 px took INTERVALS
    // from 8 to 27. The slider now covers [minimum, 4 x kernel value] (at least 16 units),
    // the field the whole range the governor takes.
    ParameterPanel p;
    p.setGovernors(governors({"menu-6.14", "menu-resthresh", "teo-6.14"}));
    p.resize(410, 900); // the dock's width in the default window
    p.show();
    QVERIFY(QTest::qWaitForWindowExposed(&p));
    struct Want {
        const char *variant, *name;
        std::int64_t sliderMin, sliderMax, fieldMax;
    };
    const Want wants[] = {
        {"menu-6.14", "INTERVALS", 1, 32, 64},                             // 8 x 4; MENU_MAX_INTERVALS
        {"menu-6.14", "STDDEV_MAX_US", 0, 80, 1000000},                    // 20 us x 4
        {"menu-6.14", "STDDEV_RATIO", 1, 24, 1000},                        // 6 x 4
        {"menu-resthresh", "RESIDENCY_THRESHOLD_NS", 0, 60000, 100000000}, // 15 us x 4
        {"teo-6.14", "PULSE", 1, 4096, 1 << 20},                           // 1024 x 4
        {"teo-6.14", "DECAY_SHIFT", 1, 16, 16},                            // 3 x 4 < 1 + 16: the whole range
    };
    for (const Want &w : wants) {
        ParameterRow *row = p.row(w.variant, QString::fromUtf8(w.name));
        QVERIFY2(row, w.name);
        QCOMPARE(row->sliderMinimum(), w.sliderMin);
        QCOMPARE(row->sliderMaximum(), w.sliderMax);
        QCOMPARE(row->maximum(), w.fieldMax);
    }
    // 60 us in round steps of 0.1 us (600 positions), not 6 ns ones.
    QCOMPARE(p.row("menu-resthresh", QStringLiteral("RESIDENCY_THRESHOLD_NS"))->sliderStep(), std::int64_t(100));

    // The audit's drags, by mouse on the handle.
    ParameterRow *stddev = p.row("menu-6.14", QStringLiteral("STDDEV_MAX_US"));
    QVERIFY2(stddev->slider()->width() >= 150, qPrintable(QString::number(stddev->slider()->width())));
    const std::int64_t afterStddev = dragBy(stddev, 30);
    // 30 px of a >= 150 px slider over 0..80 us: at most 16 us more (the audit: 66,568 more).
    QVERIFY2(afterStddev > 20 && afterStddev <= 36, qPrintable(QString::number(afterStddev)));
    ParameterRow *intervals = p.row("menu-6.14", QStringLiteral("INTERVALS"));
    const std::int64_t afterIntervals = dragBy(intervals, 15);
    // 15 px over 31 steps of >= 150 px: at most 3 more (the audit: 19 more).
    QVERIFY2(afterIntervals > 8 && afterIntervals <= 11, qPrintable(QString::number(afterIntervals)));
    QCOMPARE(p.settingsFor("menu-6.14").size(), std::size_t(2));

    // Beyond the fine range, the field: INTERVALS 48 is taken, the slider waits at its end.
    typeInto(intervals, QStringLiteral("48"));
    QCOMPARE(intervals->value(), std::int64_t(48));
    QCOMPARE(intervals->slider()->value(), intervals->slider()->maximum());
    QCOMPARE(intervals->field()->text(), QStringLiteral("48"));
    ParameterRow *pulse = p.row("teo-6.14", QStringLiteral("PULSE"));
    QVERIFY(pulse->setText(QStringLiteral("1000000")));
    QCOMPARE(pulse->value(), std::int64_t(1000000));
}

void TestParameterPanel::refusalShowsAtItsFieldUntilFixed()
{
    // Audit: a stale "'abc' is not a number" stayed after the value was fixed, and the
    // reason was not at the field. It is shown under the row it refused, and goes once
    // that row (or any other) takes a value.
    ParameterPanel p;
    p.show();
    p.setGovernors(governors({"menu-6.14", "teo-6.14"}));
    ParameterRow *intervals = p.row("menu-6.14", QStringLiteral("INTERVALS"));
    ParameterRow *pulse = p.row("teo-6.14", QStringLiteral("PULSE"));
    typeInto(intervals, QStringLiteral("abc"));
    QCOMPARE(intervals->shownMessage(), QStringLiteral("INTERVALS: 'abc' is not a number"));
    QCOMPARE(intervals->value(), std::int64_t(8));
    QVERIFY(pulse->shownMessage().isEmpty());
    typeInto(intervals, QStringLiteral("0")); // below INTERVALS' minimum of 1
    QCOMPARE(intervals->shownMessage(), QStringLiteral("INTERVALS must be between 1 and 64 samples"));
    typeInto(intervals, QStringLiteral("12"));
    QVERIFY(intervals->shownMessage().isEmpty());
    QVERIFY(p.lastError().isEmpty());
    QCOMPARE(intervals->value(), std::int64_t(12));
    // A refusal on one row and a valid edit on another: no message left.
    typeInto(pulse, QStringLiteral("-1"));
    QVERIFY(pulse->shownMessage().contains(QStringLiteral("between 1 and")));
    typeInto(intervals, QStringLiteral("10"));
    QVERIFY(pulse->shownMessage().isEmpty());
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
    QCOMPARE(rates, QStringList(
                        {QStringLiteral("100"), QStringLiteral("250"), QStringLiteral("300"), QStringLiteral("1000")}));
    QVERIFY(combo->currentText().contains(QStringLiteral("table")));
    QCOMPARE(p.latencyLimitNs(), Ns(-1));
    p.setLatencyLimitNs(50000);
    QCOMPARE(p.latencyLimitNs(), Ns(50000));
}

QTEST_MAIN(TestParameterPanel)
#include "tst_parameter_panel.moc"
