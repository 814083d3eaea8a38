// SPDX-License-Identifier: GPL-3.0-or-later
// The Setup panel's two pickers on their own (widgets/panels/target_picker.h,
// governor_picker.h): what the panel asks of them when the workload changes (the
// "recorded" row exists for a kernel trace only; a trace's proposed table is used by key),
// and that their programmatic setters emit nothing.
#include "widgets/panels/governor_picker.h"
#include "widgets/panels/target_picker.h"
#include "widgets/runner/builtin_scenario.h"

#include <QListWidget>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace idlescope;

class TestPickers : public QObject {
    Q_OBJECT
private slots:
    void targetPickerUsesAProposedTableByKey();
    void recordedRowFollowsTheWorkload();
    void duplicateTakesTheNextLetterAndItsOwnColour();
    void governorListShowsWhereTheFocusIs();
};

namespace {

QStringList names(const std::vector<GovernorSpec> &governors)
{
    QStringList out;
    for (const GovernorSpec &g : governors)
        out << QString::fromStdString(g.name());
    return out;
}

} // namespace

void TestPickers::targetPickerUsesAProposedTableByKey()
{
    TargetPicker picker;
    QSignalSpy changed(&picker, &TargetPicker::targetChanged);
    picker.setTarget(defaultScenario().target); // POWER10 LPAR: snooze, CEDE
    QCOMPARE(changed.count(), 0);
    auto *states = picker.findChild<QTableWidget *>();
    QVERIFY(states);
    QCOMPARE(states->rowCount(), 2);

    // What a trace's "Use intel-skx" does: the built-in table, as if chosen in the combo.
    picker.useTable(QStringLiteral("builtin:intel-skx"));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(picker.target().kind, TargetKind::Builtin);
    QCOMPARE(picker.target().id, QStringLiteral("intel-skx"));
    QCOMPARE(states->rowCount(), builtinTable(QStringLiteral("intel-skx"))->count());
    // A key that is no table of the combo changes nothing.
    picker.useTable(QStringLiteral("builtin:no-such-table"));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(picker.target().id, QStringLiteral("intel-skx"));
    // A table file that does not read: the error names it, the target stays.
    QSignalSpy errors(&picker, &TargetPicker::errorOccurred);
    picker.useTable(QStringLiteral("file:/no/such/table.json"));
    QCOMPARE(errors.count(), 1);
    QVERIFY2(errors.first().first().toString().contains(QStringLiteral("/no/such/table.json")),
             qPrintable(errors.first().first().toString()));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(picker.target().id, QStringLiteral("intel-skx"));
}

void TestPickers::recordedRowFollowsTheWorkload()
{
    GovernorPicker picker;
    QSignalSpy changed(&picker, &GovernorPicker::governorsChanged);
    picker.setRecordedAvailable(true); // a kernel trace
    picker.setGovernors({{"menu-6.14", {}, QColor(Qt::red)}});
    picker.checkRecorded(); // a trace was opened: its recorded run beside the governors
    QCOMPARE(names(picker.governors()), QStringList({"recorded", "menu-6.14"}));
    // A generated stream has no recorded run: not run, its check parked ...
    picker.setRecordedAvailable(false);
    QCOMPARE(names(picker.governors()), QStringList({"menu-6.14"}));
    auto *list = picker.findChild<QListWidget *>();
    QVERIFY(list);
    QCOMPARE(list->item(0)->data(Qt::UserRole).toString(), QStringLiteral("recorded"));
    QVERIFY(!(list->item(0)->flags() & Qt::ItemIsEnabled));
    // ... and given back with the next trace.
    picker.setRecordedAvailable(true);
    QCOMPARE(names(picker.governors()), QStringList({"recorded", "menu-6.14"}));
    QCOMPARE(changed.count(), 0); // none of that is the user's edit
}

void TestPickers::duplicateTakesTheNextLetterAndItsOwnColour()
{
    GovernorPicker picker;
    picker.setGovernors({{"menu-6.14", {}, QColor(Qt::red)}});
    QSignalSpy duplicated(&picker, &GovernorPicker::governorDuplicated);
    QSignalSpy changed(&picker, &GovernorPicker::governorsChanged);
    QCOMPARE(picker.duplicateGovernor(QStringLiteral("menu-6.14")), QStringLiteral("menu-6.14 (B)"));
    QCOMPARE(picker.duplicateGovernor(QStringLiteral("menu-6.14")), QStringLiteral("menu-6.14 (C)"));
    QCOMPARE(duplicated.count(), 2);
    QCOMPARE(duplicated.first().at(0).toString(), QStringLiteral("menu-6.14"));
    QCOMPARE(changed.count(), 2);
    const std::vector<GovernorSpec> govs = picker.governors();
    QCOMPARE(names(govs), QStringList({"menu-6.14", "menu-6.14 (B)", "menu-6.14 (C)"}));
    QCOMPARE(govs[0].color, QColor(Qt::red)); // the session's colour stays
    QVERIFY(govs[1].color != govs[0].color && govs[2].color != govs[0].color && govs[2].color != govs[1].color);
    // The oracle has nothing to tune: no second instance.
    QCOMPARE(picker.duplicateGovernor(QStringLiteral("oracle")), QString());
    QCOMPARE(duplicated.count(), 2);
}

void TestPickers::governorListShowsWhereTheFocusIs()
{
    // Issue 33 item 11: the rows are not selectable (a tick chooses), and the style drew the
    // keyboard's current row nowhere. With the focus, the current row has a frame in the
    // palette's highlight colour; without it, no row has.
    GovernorPicker picker;
    picker.resize(300, 400);
    picker.show();
    QVERIFY(QTest::qWaitForWindowExposed(&picker));
    auto *list = picker.findChild<QListWidget *>();
    QVERIFY(list);
    const QColor highlight = list->palette().color(QPalette::Active, QPalette::Highlight);
    const auto framed = [&](int row) {
        const QImage img = list->viewport()->grab().toImage();
        const QRect r = list->visualItemRect(list->item(row));
        int n = 0;
        for (int x = r.left(); x <= r.right(); ++x)
            n += img.pixelColor(x, r.top() + 1) == highlight;
        return n > r.width() / 2;
    };
    list->setCurrentRow(2);
    picker.activateWindow();
    list->clearFocus();
    QVERIFY(!list->hasFocus());
    QVERIFY(!framed(2)); // no focus: nothing drawn
    list->setFocus();
    QTRY_VERIFY(list->hasFocus());
    QVERIFY(framed(2));
    QVERIFY(!framed(3));
    QTest::keyClick(list, Qt::Key_Down);
    QCOMPARE(list->currentRow(), 3);
    QVERIFY(framed(3));
    QVERIFY(!framed(2));
}

QTEST_MAIN(TestPickers)
#include "tst_pickers.moc"
