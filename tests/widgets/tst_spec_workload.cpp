// SPDX-License-Identifier: GPL-3.0-or-later
// Compound workloads in the window: the command line's spec grammar (a + b,
// mix(...)) typed in the workload panel. A refusal is shown at the field with
// its column and nothing is simulated; a spec that parses is simulated on
// exactly the spans core/scenario resolves for the same text, span count and
// seed (the function idlescope-cli replay --workload calls too; its values are
// checked by hand in tests/core/tst_scenario.cpp); a session keeps the spec as
// its text. IDLESCOPE_TEST_SHOTS=DIR keeps the
// panel as PNG.
#include "core/scenario/scenario_stream.h"
#include "runner_fixture.h"
#include "tests/cli_process.h"
#include "widgets/main_window.h"
#include "widgets/panels/checked_spin_box.h"
#include "widgets/panels/seed_spin_box.h"
#include "widgets/panels/setup_panel.h"
#include "widgets/panels/workload_spec_page.h"
#include "widgets/runner/builtin_scenario.h"
#include "widgets/runner/spec_workload.h"
#include "widgets/session/session_json.h"
#include "window_fixture.h"

#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

using namespace idlescope;

class TestSpecWorkload : public QObject {
    Q_OBJECT
private slots:
    void refusalShownAtTheFieldWithItsColumn();
    void sweepIsRefused();
    void simulatesTheScenarioSpans();
    void sessionKeepsTheSpecText();
    void sessionParamsGiveTheCliText();
};

namespace {

/// A mix of two overlays: every kind of node of the grammar.
const QString COMPOUND = QStringLiteral("mix(3*periodic:kind=ipi,interval_us=80 + poisson:mean_us=400 | "
                                        "1*bimodal;block=20)");

/// Replaces the field's text with @p text as typed, then presses Enter.
void type(QLineEdit *field, const QString &text)
{
    field->setFocus();
    field->selectAll();
    QTest::keyClick(field, Qt::Key_Backspace);
    QTest::keyClicks(field, text);
    QTest::keyClick(field, Qt::Key_Return);
}

/// Selects the "spec" workload kind in @p panel as a user does (the combo's activated()).
bool chooseSpecKind(SetupPanel &panel)
{
    auto *combo = panel.findChild<QComboBox *>();
    const int spec = static_cast<int>(WorkloadKind::Spec);
    for (QComboBox *c : panel.findChildren<QComboBox *>())
        if (c->findData(spec) >= 0)
            combo = c;
    const int i = combo ? combo->findData(spec) : -1;
    if (i < 0)
        return false;
    combo->setCurrentIndex(i);
    emit combo->activated(i);
    return true;
}

/**
 * Checks that @p snap simulated the spans core/scenario resolves for @p text, @p spans and
 * @p seed (what `idlescope-cli replay --workload TEXT --spans N --seed S` replays), span by
 * span, on the default scenario's table as built in (the POWER10 LPAR at its own HZ).
 */
void checkScenarioSpans(const SimulationSnapshot &snap, const QString &text, qint64 spans, qint64 seed)
{
    scenario::WorkloadSource source;
    source.kind = scenario::WorkloadKind::Spec;
    source.text = text.toStdString();
    source.spans = spans;
    source.seed = seed;
    const Result<IdleStream> core = scenario::workloadStream(source);
    QVERIFY2(core, core ? "" : core.error().toString().c_str());
    QCOMPARE(snap.stream->size(), core->size());
    for (std::size_t i = 0; i < core->size(); ++i) {
        const IdleSpan &a = (*snap.stream)[i];
        const IdleSpan &b = (*core)[i];
        QVERIFY2(a.gapNs == b.gapNs && a.timerNs == b.timerNs && a.wakeNs == b.wakeNs
                     && a.latencyReqNs == b.latencyReqNs && a.util == b.util && a.needResched == b.needResched,
                 qPrintable(QStringLiteral("span %1 differs").arg(i)));
    }
    QVERIFY(snap.table == *builtinTable(QString::fromUtf8(POWER10_TARGET_ID)));
}

} // namespace

void TestSpecWorkload::refusalShownAtTheFieldWithItsColumn()
{
    WorkloadSpecPage page;
    WorkloadSourceSpec periodic = defaultSpecWorkload();
    periodic.text = "periodic";
    periodic.spans = 1000;
    page.setWorkload(periodic);
    page.resize(260, 200); // about the setup panel's width
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QCOMPARE(page.message(), QString());
    QSignalSpy changed(&page, &WorkloadSpecPage::valuesChanged);
    // "periodic + " ends where a term is expected: column 12, one past the 11 characters.
    const QString bad = QStringLiteral("periodic + ");
    type(page.field(), bad);
    QVERIFY2(page.message().startsWith(QStringLiteral("column 12: ")), qPrintable(page.message()));
    QCOMPARE(changed.count(), 0);                            // nothing simulated
    QCOMPARE(page.workload().text, std::string("periodic")); // the last good one
    QCOMPARE(page.field()->text(), bad);                     // the typed text stays, to be mended
    // The command line refuses the same text with the same words (exit 2).
    const test::CliResult cli =
        test::runCli({QStringLiteral("replay"), QStringLiteral("--table"), QStringLiteral("pseries-power10-lpar"),
                      QStringLiteral("--workload"), bad, QStringLiteral("--governor"), QStringLiteral("menu-6.19")});
    QCOMPARE(cli.exitCode, 2);
    QVERIFY2(cli.err.contains(page.message()), qPrintable(cli.err + QStringLiteral(" / ") + page.message()));
    // An unknown parameter names itself, also while typing (no Enter).
    page.field()->setFocus();
    QTest::keyClicks(page.field(), QStringLiteral("x"));
    QVERIFY2(page.message().startsWith(QStringLiteral("column 12: ")), qPrintable(page.message()));
    if (const QString dir = qEnvironmentVariable("IDLESCOPE_TEST_SHOTS"); !dir.isEmpty()) {
        QCoreApplication::processEvents(); // the layout request of the shown message
        page.grab().save(dir + QStringLiteral("/spec-workload-refusal.png"));
    }
    // Mended: the message goes and the spec is committed once.
    type(page.field(), COMPOUND);
    QCOMPARE(page.message(), QString());
    QCOMPARE(changed.count(), 1);
    QCOMPARE(page.workload().text, COMPOUND.toStdString());
}

void TestSpecWorkload::sweepIsRefused()
{
    // The window shows one workload: a range (a sweep of 3 points) is refused, naming the parameter.
    const QString refusal = specWorkloadRefusal(QStringLiteral("periodic:interval_us=10..30:3"));
    QVERIFY2(refusal.contains(QStringLiteral("sweeps 3 points of interval_us")), qPrintable(refusal));
    QCOMPARE(specWorkloadRefusal(COMPOUND), QString());
}

void TestSpecWorkload::simulatesTheScenarioSpans()
{
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_VERIFY_WITH_TIMEOUT(w.snapshot() != nullptr, test::WINDOW_TIMEOUT_MS);
    SetupPanel *panel = w.setupPanel();
    // As a user does: pick the kind, set spans and seed, type the spec and press Enter.
    QVERIFY(chooseSpecKind(*panel));
    WorkloadSpecPage *page = panel->specPage();
    QVERIFY(page->isVisible());
    for (CheckedSpinBox *spin : page->findChildren<CheckedSpinBox *>())
        spin->setValue(3000); // spans: the seed has a field of its own (any seed of --seed, exactly)
    QVERIFY(page->findChild<SeedSpinBox *>());
    page->findChild<SeedSpinBox *>()->setValue(7);
    type(page->field(), COMPOUND);
    QCOMPARE(page->message(), QString());
    const auto wanted = [](const WorkloadSourceSpec &x) {
        return x.kind == WorkloadKind::Spec && x.text == COMPOUND.toStdString() && x.spans == 3000 && x.seed == 7;
    };
    QTRY_VERIFY_WITH_TIMEOUT(!w.isBusyShown() && wanted(w.snapshot()->spec.workload), test::WINDOW_TIMEOUT_MS);
    const SnapshotPtr s = w.snapshot();
    QCOMPARE(s->spec.workload.text, COMPOUND.toStdString());
    QCOMPARE(static_cast<qint64>(s->stream->size()), qint64(3000));
    checkScenarioSpans(*s, COMPOUND, 3000, 7);
    if (QTest::currentTestFailed())
        return;
    const int menu = s->indexOf("menu-6.19");
    QVERIFY(menu >= 0);
    const GovernorRun &run = *s->governors[static_cast<std::size_t>(menu)].run;
    QCOMPARE(run.summary.spans, qint64(3000));
    // Not a workload that happens to agree: the spans vary (mix of a 80 us overlay and bimodal).
    QVERIFY(run.residencyNs[0] != run.residencyNs[1] || run.residencyNs[1] != run.residencyNs[2]);
    if (const QString shots = qEnvironmentVariable("IDLESCOPE_TEST_SHOTS"); !shots.isEmpty()) {
        w.refreshPlotsNow();
        w.grab().save(shots + QStringLiteral("/spec-workload-window.png"));
    }
}

void TestSpecWorkload::sessionKeepsTheSpecText()
{
    Session s;
    s.scenario = defaultScenario();
    s.scenario.workload = WorkloadSourceSpec{};
    s.scenario.workload.kind = WorkloadKind::Spec;
    s.scenario.workload.text = COMPOUND.toStdString();
    s.scenario.workload.spans = 3000;
    s.scenario.workload.seed = 7;
    const QByteArray json = sessionToJson(s);
    const QJsonObject params = QJsonDocument::fromJson(json)
                                   .object()
                                   .value(QStringLiteral("workload"))
                                   .toObject()
                                   .value(QStringLiteral("params"))
                                   .toObject();
    QCOMPARE(params.value(QStringLiteral("spec")).toString(), COMPOUND); // the text, as typed
    Result<Session> back = sessionFromJson(json, QStringLiteral("t.idlescope"));
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
    QCOMPARE(params.value(QStringLiteral("spans")).toInteger(), qint64(3000));
    QCOMPARE(params.value(QStringLiteral("seed")).toInteger(), qint64(7));
    QCOMPARE(back->scenario.workload.kind, WorkloadKind::Spec);
    QVERIFY(sameWorkload(back->scenario.workload, s.scenario.workload));

    // A hand-edited spec that does not parse is refused when the session is opened, at its column.
    QByteArray broken = json;
    broken.replace("block=20", "block=x");
    Result<Session> refused = sessionFromJson(broken, QStringLiteral("t.idlescope"));
    QVERIFY(!refused.ok());
    const QString err = QString::fromStdString(refused.error().toString());
    QVERIFY2(err.contains(QStringLiteral("workload.params.spec")) && err.contains(QStringLiteral("column ")),
             qPrintable(err));
}

void TestSpecWorkload::sessionParamsGiveTheCliText()
{
    // A generator as sessions write it (format 3, as the window held it before it held the
    // text): its params, run_us and next_timer_us left out (their defaults, 5 us and 10 ms).
    Session s;
    s.scenario = defaultScenario();
    QJsonObject root = QJsonDocument::fromJson(sessionToJson(s)).object();
    const QJsonObject params{{QStringLiteral("kind"), 2}, // pipe
                             {QStringLiteral("interval_us"), 50},
                             {QStringLiteral("jitter_us"), 2.5},
                             {QStringLiteral("spans"), 3000},
                             {QStringLiteral("seed"), 7}};
    root.insert(QStringLiteral("workload"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("periodic")},
                                                        {QStringLiteral("path"), QString()},
                                                        {QStringLiteral("description"), QStringLiteral("pipe")},
                                                        {QStringLiteral("params"), params}});
    const Result<Session> back = sessionFromJson(QJsonDocument(root).toJson(), QStringLiteral("old.idlescope"));
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
    const WorkloadSourceSpec &w = back->scenario.workload;
    QCOMPARE(w.kind, WorkloadKind::Generator);
    // Every parameter of periodic in its order and named unit, as `compare --workload` takes it.
    // (slack_us came with format 4: a pipe wakeup has no timer, so its default stands.)
    const std::string text = "periodic:kind=pipe,interval_us=50,jitter_us=2.5,run_us=5,next_timer_us=10000,slack_us=50";
    QCOMPARE(w.text, text);
    QCOMPARE(w.spans, qint64(3000));
    QCOMPARE(w.seed, qint64(7));
    QVERIFY(!w.legacySeeding);
    // Saved again: the same keys, every parameter written out in the unit of its name.
    const QJsonObject saved = QJsonDocument::fromJson(sessionToJson(*back))
                                  .object()
                                  .value(QStringLiteral("workload"))
                                  .toObject()
                                  .value(QStringLiteral("params"))
                                  .toObject();
    QJsonObject all = params;
    all.insert(QStringLiteral("run_us"), 5);
    all.insert(QStringLiteral("next_timer_us"), 10000);
    all.insert(QStringLiteral("slack_us"), 50);
    QCOMPARE(saved, all);
    // Its spans are those core/scenario (and so the command line) makes of that text, spans and seed.
    const SnapshotPtr snap = test::simulateOnce(back->scenario);
    QVERIFY(snap);
    QCOMPARE(static_cast<qint64>(snap->stream->size()), qint64(3000));
    checkScenarioSpans(*snap, QString::fromStdString(text), 3000, 7);
}

QTEST_MAIN(TestSpecWorkload)
#include "tst_spec_workload.moc"
