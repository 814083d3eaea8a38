// SPDX-License-Identifier: GPL-3.0-or-later
// The same variant twice at other tunables (A/B), offscreen: menu-6.19 duplicated
// in the governor list, the copy at INTERVALS 16 and renamed "i16". Each instance
// runs with its own tunables (its entries are those of a plain replay of menu-6.19
// at that setting: runGovernor() on the snapshot's stream, and the copied
// idlescope-cli compare line, run as a process, counts what the table shows); both
// are in the comparison table, the legend and the figure legend under their names
// with colours of their own; a session keeps both with their tunables; a session
// listing a variant twice without a label is refused, naming the entry.
#include "compare_command_check.h"
#include "poisson_scenario.h"
#include "window_fixture.h"

#include "core/replay/governor_run.h"
#include "widgets/export/compare_command.h"
#include "widgets/export/figure_export.h"
#include "widgets/panels/governor_legend.h"
#include "widgets/panels/parameter_panel.h"
#include "widgets/panels/parameter_row.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/session/session_json.h"

#include <QFile>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace idlescope;

namespace {

/// poissonScenario(30000, 7) (intel-skx at HZ 1000, 100 us limit) with menu-6.19 and the oracle.
ScenarioSpec abScenario()
{
    ScenarioSpec s = test::poissonScenario(30000, 7);
    s.governors.clear();
    for (const char *id : {"menu-6.19", "oracle"}) {
        GovernorSpec g;
        g.variant = id;
        g.color = governorColor(s.governors.empty() ? 0 : 1, id);
        s.governors.push_back(g);
    }
    return s;
}

/// Window @p w showing menu-6.19 and "i16", a second menu-6.19 at INTERVALS 16, made as a
/// user would: Duplicate, type 16 in the copy's INTERVALS field, rename the copy.
SnapshotPtr showTwoInstances(MainWindow &w)
{
    auto failed = [](const char *step) {
        qWarning("showTwoInstances: %s", step);
        return nullptr;
    };
    if (!test::nextSnapshot(w, [&] { w.applySpec(abScenario()); }))
        return failed("no snapshot of the scenario");
    QString label;
    if (!test::nextSnapshot(w, [&] { label = w.setupPanel()->duplicateGovernor(QStringLiteral("menu-6.19")); }))
        return failed("no snapshot after Duplicate");
    if (label != QLatin1String("menu-6.19 (B)"))
        return failed("another label");
    ParameterRow *row = w.parameterPanel()->row(label.toStdString(), QStringLiteral("INTERVALS"));
    if (!row)
        return failed("no INTERVALS row for the copy");
    if (!test::nextSnapshot(w, [&] { // typed in the copy's field, then Enter
            row->field()->setText(QStringLiteral("16"));
            row->field()->setModified(true);
            emit row->field()->editingFinished();
        }))
        return failed("no snapshot after INTERVALS 16");
    return test::nextSnapshot(w, [&] { w.setupPanel()->renameGovernor(label, QStringLiteral("i16")); });
}

/// The states entered by runGovernor() of menu-6.19 with @p settings on @p snap's stream and table.
std::vector<std::int8_t> plainReplayStates(const SimulationSnapshot &snap, const std::vector<TunableSetting> &settings)
{
    Result<GovernorRun> r = runGovernor(snap.table, *snap.stream, "menu-6.19",
                                        {.settings = settings, .latencyLimitNs = snap.spec.latencyLimitNs});
    return r ? r->state : std::vector<std::int8_t>{};
}

} // namespace

class TestGovernorInstances : public QObject {
    Q_OBJECT
private slots:
    void twoInstancesRunAtTheirOwnTunables();
    void copiedCommandReproducesBothRows();
    void sessionKeepsBothInstances();
    void sessionWithAVariantTwiceUnlabelledIsRefused();
    void badLabelsAreRefused();

private:
    test::IsolatedSettings m_settings;
};

void TestGovernorInstances::twoInstancesRunAtTheirOwnTunables()
{
    MainWindow w;
    QVERIFY(QTest::qWaitFor([&] { return w.snapshot() != nullptr; }, test::WINDOW_TIMEOUT_MS));
    const SnapshotPtr snap = showTwoInstances(w);
    QVERIFY(snap);
    QCOMPARE(snap->governorCount(), 3);
    const int a = snap->indexOf("menu-6.19");
    const int b = snap->indexOf("i16");
    QVERIFY(a >= 0);
    QCOMPARE(b, a + 1); // the copy's row is below its variant's
    const auto A = static_cast<std::size_t>(a);
    const auto B = static_cast<std::size_t>(b);
    QCOMPARE(snap->governors[B].run->variant, std::string("menu-6.19"));
    QVERIFY(snap->governors[A].run->settings.empty());
    QCOMPARE(snap->governors[B].run->settings, (std::vector<TunableSetting>{{"INTERVALS", 16}}));
    QVERIFY(!snap->governors[B].atDefaults && snap->governors[A].atDefaults);

    // Each run is the plain replay of menu-6.19 at its setting, and the two differ (a real A/B).
    const std::vector<std::int8_t> at8 = plainReplayStates(*snap, {});
    const std::vector<std::int8_t> at16 = plainReplayStates(*snap, {{"INTERVALS", 16}});
    QCOMPARE(snap->governors[A].run->state, at8);
    QCOMPARE(snap->governors[B].run->state, at16);
    QVERIFY(at8 != at16);

    // Colours of their own; names in the table, the legend and the figures' legend.
    QVERIFY(snap->governors[A].color != snap->governors[B].color);
    const ComparisonTableModel *m = w.comparison()->model();
    QCOMPARE(m->data(m->index(a, ComparisonTableModel::GovColumn), Qt::DisplayRole).toString(),
             QStringLiteral("menu-6.19"));
    QCOMPARE(m->data(m->index(b, ComparisonTableModel::GovColumn), Qt::EditRole).toString(), QStringLiteral("i16"));
    // The copy's tunables differ from the kernel's: its row carries the badge.
    QCOMPARE(m->data(m->index(b, ComparisonTableModel::GovColumn), Qt::DisplayRole).toString(),
             QStringLiteral("i16 \u270e"));
    QVERIFY(m->data(m->index(b, ComparisonTableModel::GovColumn), Qt::ToolTipRole)
                .toString()
                .startsWith(QStringLiteral("i16: an instance of menu-6.19")));
    QVERIFY2(w.legend()->chipText(b).startsWith(QStringLiteral("\u25a0 i16  modified")),
             qPrintable(w.legend()->chipText(b)));
    QVERIFY2(w.legend()->chipText(a).startsWith(QStringLiteral("\u25a0 menu-6.19\n")),
             qPrintable(w.legend()->chipText(a)));
    const QList<LegendEntry> legend = legendFor(*snap);
    QCOMPARE(legend.size(), 3);
    QCOMPARE(legend[b].name, QStringLiteral("i16"));
    QCOMPARE(legend[b].color, snap->governors[B].color);

    // The parameter boxes: one per instance, the copy's at 16, the original's at the kernel's 8.
    QCOMPARE(w.parameterPanel()->row("menu-6.19", QStringLiteral("INTERVALS"))->value(), std::int64_t(8));
    QCOMPARE(w.parameterPanel()->row("i16", QStringLiteral("INTERVALS"))->value(), std::int64_t(16));
    QVERIFY(w.parameterPanel()->row("menu-6.19 (B)", QStringLiteral("INTERVALS")) == nullptr);

    // For a look (not an assertion): IDLESCOPE_SCREENSHOT_DIR=DIR writes the window and the table.
    if (const QString dir = qEnvironmentVariable("IDLESCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
        w.resize(1600, 1000);
        w.show();
        QTest::qWait(1500);
        w.grab().save(dir + QStringLiteral("/ab-window.png"));
        w.comparison()->resize(1200, 260);
        w.comparison()->grab().save(dir + QStringLiteral("/ab-comparison.png"));
    }

    // Removing the copy leaves menu-6.19 as it was.
    const SnapshotPtr one = test::nextSnapshot(w, [&] { w.setupPanel()->removeGovernor(QStringLiteral("i16")); });
    QVERIFY(one);
    QCOMPARE(one->governorCount(), 2);
    QCOMPARE(one->indexOf("i16"), -1);
    QCOMPARE(one->governors[static_cast<std::size_t>(one->indexOf("menu-6.19"))].run->state, at8);
}

void TestGovernorInstances::copiedCommandReproducesBothRows()
{
    MainWindow w;
    QVERIFY(QTest::qWaitFor([&] { return w.snapshot() != nullptr; }, test::WINDOW_TIMEOUT_MS));
    const SnapshotPtr snap = showTwoInstances(w);
    QVERIFY(snap);
    const QString copied = w.copyAsCommand();
    QVERIFY2(copied.contains(QStringLiteral("--governors menu-6.19,i16=menu-6.19 --set i16:INTERVALS=16")),
             qPrintable(copied));
    QVERIFY2(!copied.contains(QStringLiteral("twice")), qPrintable(copied));
    QVERIFY(compareCommand(snap->spec).caveats.isEmpty());
    test::checkTableAgainstCommand(w, snap->spec.target.table, copied, 30000, 2);

    // A label with spaces (the default one) is quoted for the shell as one word.
    ScenarioSpec spec = snap->spec;
    spec.governors[1].label = "menu-6.19 (B)";
    const QString quoted = compareCommand(spec).text;
    QVERIFY2(quoted.contains(QStringLiteral("--governors 'menu-6.19,menu-6.19 (B)=menu-6.19' --set "
                                            "'menu-6.19 (B):INTERVALS=16'")),
             qPrintable(quoted));
}

void TestGovernorInstances::sessionKeepsBothInstances()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("ab.idlescope"));
    QColor colorB;
    {
        MainWindow w;
        QVERIFY(QTest::qWaitFor([&] { return w.snapshot() != nullptr; }, test::WINDOW_TIMEOUT_MS));
        const SnapshotPtr snap = showTwoInstances(w);
        QVERIFY(snap);
        colorB = snap->governors[static_cast<std::size_t>(snap->indexOf("i16"))].color;
        QCOMPARE(w.saveSessionTo(path), QString());
    }
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY2(text.contains("\"label\": \"i16\""), text.constData());
    QCOMPARE(text.count("\"label\""), 1); // menu-6.19's own entry is as an older file has it

    MainWindow w;
    QVERIFY(QTest::qWaitFor([&] { return w.snapshot() != nullptr; }, test::WINDOW_TIMEOUT_MS));
    const SnapshotPtr s = test::nextSnapshot(w, [&] { QCOMPARE(w.openSession(path), QString()); });
    QVERIFY(s);
    QCOMPARE(s->governorCount(), 3);
    const int b = s->indexOf("i16");
    QVERIFY(b >= 1);
    const auto B = static_cast<std::size_t>(b);
    QCOMPARE(s->governors[B].run->variant, std::string("menu-6.19"));
    QCOMPARE(s->governors[B].run->settings, (std::vector<TunableSetting>{{"INTERVALS", 16}}));
    QVERIFY(s->governors[static_cast<std::size_t>(s->indexOf("menu-6.19"))].run->settings.empty());
    QCOMPARE(s->governors[B].color, colorB);
    QCOMPARE(w.parameterPanel()->row("i16", QStringLiteral("INTERVALS"))->value(), std::int64_t(16));
    // The list shows the copy's row, checked, and the next scenario's governors replace it.
    const std::vector<GovernorSpec> listed = w.setupPanel()->governors();
    QCOMPARE(listed.size(), std::size_t(3));
    QCOMPARE(listed[B].name(), std::string("i16"));
    QVERIFY(test::nextSnapshot(w, [&] { w.applySpec(abScenario()); }));
    QCOMPARE(w.setupPanel()->governors().size(), std::size_t(2));
}

void TestGovernorInstances::sessionWithAVariantTwiceUnlabelledIsRefused()
{
    Session session;
    session.scenario = abScenario();
    session.scenario.governors.insert(session.scenario.governors.begin() + 1, session.scenario.governors[0]);
    session.scenario.governors[1].label = "i16";
    const QByteArray good = sessionToJson(session);
    Result<Session> back = sessionFromJson(good, QStringLiteral("ab.idlescope"));
    QVERIFY2(back, back ? "" : back.error().toString().c_str());
    QCOMPARE(back->scenario.governors[1].label, std::string("i16"));
    QCOMPARE(back->scenario.governors[0].label, std::string());

    session.scenario.governors[1].label.clear();
    Result<Session> twice = sessionFromJson(sessionToJson(session), QStringLiteral("ab.idlescope"));
    QVERIFY(!twice);
    QCOMPARE(QString::fromStdString(twice.error().field), QStringLiteral("governors[1]"));
    QVERIFY(QString::fromStdString(twice.error().message).contains(QStringLiteral("listed twice")));
    // A label that is another governor's name: said as such (it said "give the second
    // instance a label" of one that had one; a user-test finding).
    session.scenario.governors[1].label = "i16";
    session.scenario.governors[2].label = "i16";
    Result<Session> clash = sessionFromJson(sessionToJson(session), QStringLiteral("ab.idlescope"));
    QVERIFY(!clash);
    QCOMPARE(QString::fromStdString(clash.error().field), QStringLiteral("governors[2]"));
    QVERIFY2(QString::fromStdString(clash.error().message).contains(QStringLiteral("is another governor's name")),
             clash.error().toString().c_str());
    session.scenario.governors[2].label.clear();

    session.scenario.governors[1].label = "a:b";
    Result<Session> colon = sessionFromJson(sessionToJson(session), QStringLiteral("ab.idlescope"));
    QVERIFY(!colon);
    QCOMPARE(QString::fromStdString(colon.error().field), QStringLiteral("governors[1].label"));
    // A hostile user's ctrl.idlescope: "label": "x\u202eevil" reversed the numbers after it in
    // the legend and the inspector, and its description held a newline, an escape and U+202E.
    session.scenario.governors[1].label = "x\u202eevil";
    Result<Session> rlo = sessionFromJson(sessionToJson(session), QStringLiteral("ab.idlescope"));
    QVERIFY(!rlo);
    QCOMPARE(QString::fromStdString(rlo.error().field), QStringLiteral("governors[1].label"));
    QVERIFY2(rlo.error().message.find("bidirectional control") != std::string::npos, rlo.error().toString().c_str());
    session.scenario.governors[1].label = "i16";
    for (const char *text : {"evil\n\x1b[31mRED", "RED\u202eabc", "a\u2066b", "a\u061cb"}) {
        session.scenario.workload.description = QString::fromUtf8(text);
        Result<Session> d = sessionFromJson(sessionToJson(session), QStringLiteral("ab.idlescope"));
        QVERIFY2(!d, text);
        QCOMPARE(QString::fromStdString(d.error().field), QStringLiteral("workload.description"));
    }
    // Other scripts are text, not controls: read as they are.
    session.scenario.workload.description = QString::fromUtf8("\u0645\u062b\u0627\u0644 \u00b5s");
    QVERIFY(sessionFromJson(sessionToJson(session), QStringLiteral("ab.idlescope")));
}

void TestGovernorInstances::badLabelsAreRefused()
{
    SetupPanel p;
    p.setGovernors(abScenario().governors);
    QSignalSpy errors(&p, &SetupPanel::errorOccurred);
    QSignalSpy changed(&p, &SetupPanel::governorsChanged);
    QCOMPARE(p.duplicateGovernor(QStringLiteral("oracle")), QString()); // nothing to tune
    QCOMPARE(p.duplicateGovernor(QStringLiteral("menu-6.19")), QStringLiteral("menu-6.19 (B)"));
    QCOMPARE(p.duplicateGovernor(QStringLiteral("menu-6.19")), QStringLiteral("menu-6.19 (C)"));
    QCOMPARE(changed.size(), 2);
    // The last two: a right-to-left override and a C1 control (a hostile user's ctrl.idlescope
    // label turned the numbers after it around in the legend and the inspector).
    for (const char *bad : {"menu-6.19 (C)", "teo-6.14", "x,y", "a=b", "", "x\u202eevil", "x\u009b31m"})
        QVERIFY2(!p.renameGovernor(QStringLiteral("menu-6.19 (B)"), QString::fromUtf8(bad)), bad);
    QCOMPARE(errors.size(), 7);
    QVERIFY2(errors.at(2).at(0).toString().contains(QStringLiteral("','")), qPrintable(errors.at(2).at(0).toString()));
    // Refused with the label escaped (\u202e shown, not obeyed).
    QCOMPARE(errors.at(5).at(0).toString(),
             QStringLiteral("Label 'x\\u202eevil' refused: a label may not hold a control character or a "
                            "bidirectional control (U+202E and the like reorder the text shown after it)"));
    QVERIFY(!p.renameGovernor(QStringLiteral("menu-6.19"), QStringLiteral("mine"))); // a variant's own row keeps its id
    QCOMPARE(changed.size(), 2);
    std::vector<std::string> names;
    for (const GovernorSpec &g : p.governors())
        names.push_back(g.name());
    std::erase(names, std::string("oracle"));
    QCOMPARE(names, (std::vector<std::string>{"menu-6.19", "menu-6.19 (B)", "menu-6.19 (C)"}));
}

QTEST_MAIN(TestGovernorInstances)
#include "tst_governor_instances.moc"
