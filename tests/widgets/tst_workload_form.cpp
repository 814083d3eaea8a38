// SPDX-License-Identifier: GPL-3.0-or-later
// The workload form's fields refuse what their range cannot take out loud:
// typed text is committed with Enter as a user does, the value the engine
// gets is read back from the workload's text, and the reason is read from the label
// under the field.
#include "core/workloads/workload.h"
#include "widgets/panels/checked_spin_box.h"
#include "widgets/panels/seed_spin_box.h"
#include "widgets/panels/workload_form.h"
#include "widgets/panels/workload_spec_page.h"
#include "widgets/runner/spec_workload.h"
#include "workload_param.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

#include <limits>

using namespace idlescope;

class TestWorkloadForm : public QObject {
    Q_OBJECT
private slots:
    void minusIsRefusedNotDropped();
    void zeroIntervalIsRefused();
    void messageGoesOnceFixed();
    void seedHoldsEverySeedOfTheCli();
    void slackIsDisabledWhereNoTimerWakes();
};

namespace {

/// The form's field named @p what (spans, seed, interval, ...).
CheckedSpinBox *field(WorkloadForm &f, const QString &what)
{
    for (CheckedSpinBox *box : f.findChildren<CheckedSpinBox *>())
        if (box->what() == what)
            return box;
    return nullptr;
}

/// Replaces the field's text with @p text and presses Enter.
void type(CheckedSpinBox *box, const QString &text)
{
    box->setFocus();
    box->findChild<QLineEdit *>()->selectAll();
    QTest::keyClick(box->findChild<QLineEdit *>(), Qt::Key_Backspace);
    QTest::keyClicks(box->findChild<QLineEdit *>(), text);
    QTest::keyClick(box, Qt::Key_Return);
}

/// A shown form of the periodic generator at its defaults.
struct PeriodicForm {
    WorkloadForm form;
    PeriodicForm()
    {
        form.setWorkload(generatorWorkload(*workloads::findGenerator("periodic")));
        form.show();
    }
    bool exposed() { return QTest::qWaitForWindowExposed(&form); }
    qint64 value(const char *name) const
    {
        const WorkloadSourceSpec w = form.workload();
        return qstrcmp(name, "spans") == 0 ? w.spans : test::workloadParam(w, name);
    }
};

} // namespace

void TestWorkloadForm::minusIsRefusedNotDropped()
{
    // Audit: typing -5 in spans ran 5 spans (the spin box dropped the '-' keystroke).
    PeriodicForm f;
    QVERIFY(f.exposed());
    CheckedSpinBox *spans = field(f.form, QStringLiteral("spans"));
    QVERIFY(spans);
    QCOMPARE(f.value("spans"), qint64(200000)); // the default
    QSignalSpy changed(&f.form, &WorkloadForm::valuesChanged);
    type(spans, QStringLiteral("-5"));
    QCOMPARE(f.value("spans"), qint64(200000)); // not 5
    QCOMPARE(changed.count(), 0);
    QVERIFY2(spans->message().contains(QStringLiteral("'-5' refused")), qPrintable(spans->message()));
    QVERIFY2(spans->message().contains(QStringLiteral("1 to 10,000,000")), qPrintable(spans->message()));
    if (const QString dir = qEnvironmentVariable("IDLESCOPE_TEST_SHOTS"); !dir.isEmpty())
        f.form.grab().save(dir + QStringLiteral("/workload-form-refusal.png"));
}

void TestWorkloadForm::zeroIntervalIsRefused()
{
    // Audit: interval 0 was accepted. periodic's interval_us takes 1 ns .. 100 s.
    PeriodicForm f;
    QVERIFY(f.exposed());
    CheckedSpinBox *interval = field(f.form, QStringLiteral("interval"));
    QVERIFY(interval);
    QCOMPARE(f.value("interval_us"), qint64(100000)); // 100 us in ns
    type(interval, QStringLiteral("0"));
    QCOMPARE(f.value("interval_us"), qint64(100000));
    QVERIFY2(interval->message().contains(QStringLiteral("'0' refused")), qPrintable(interval->message()));
    // The grammar refuses it too (the CLI's periodic:interval_us=0).
    const workloads::GeneratorInfo *g = workloads::findGenerator("periodic");
    const int idx = g->paramIndex("interval_us");
    QVERIFY(idx >= 0);
    QCOMPARE(g->params[static_cast<std::size_t>(idx)].min, std::int64_t(1));
}

void TestWorkloadForm::messageGoesOnceFixed()
{
    PeriodicForm f;
    QVERIFY(f.exposed());
    CheckedSpinBox *spans = field(f.form, QStringLiteral("spans"));
    QVERIFY(spans);
    type(spans, QStringLiteral("0"));
    QVERIFY(!spans->message().isEmpty());
    type(spans, QStringLiteral("5000"));
    QCOMPARE(f.value("spans"), qint64(5000));
    QVERIFY2(spans->message().isEmpty(), qPrintable(spans->message()));
}

void TestWorkloadForm::seedHoldsEverySeedOfTheCli()
{
    // A hostile user's seed-big.idlescope: "seed": 4294967296 ran as 1000000, the spin box's
    // maximum (a double spin box set to 0..1000000). idlescope-cli --seed takes 0..2^63 - 1:
    // the generator form and the spec page hold each of them exactly, both ends included.
    constexpr qint64 seeds[] = {0, 4294967296, 9007199254740993 /* 2^53 + 1: no double holds it */,
                                std::numeric_limits<qint64>::max()};
    for (const qint64 seed : seeds) {
        WorkloadSourceSpec w = generatorWorkload(*workloads::findGenerator("periodic"));
        w.seed = seed;
        WorkloadForm form;
        form.setWorkload(w);
        QCOMPARE(form.workload().seed, seed);
        WorkloadSourceSpec spec = defaultSpecWorkload();
        spec.seed = seed;
        WorkloadSpecPage page;
        page.setWorkload(spec);
        QCOMPARE(page.workload().seed, seed);
    }
    // Typed: 2^63 - 1 is taken; 2^63 and -1 are refused out loud, the seed kept.
    PeriodicForm f;
    QVERIFY(f.exposed());
    SeedSpinBox *seed = f.form.findChild<SeedSpinBox *>();
    QVERIFY(seed);
    const auto typeSeed = [seed](const QString &text) {
        seed->setFocus();
        seed->findChild<QLineEdit *>()->selectAll();
        QTest::keyClick(seed->findChild<QLineEdit *>(), Qt::Key_Backspace);
        QTest::keyClicks(seed->findChild<QLineEdit *>(), text);
        QTest::keyClick(seed, Qt::Key_Return);
    };
    typeSeed(QStringLiteral("9223372036854775807"));
    QCOMPARE(f.form.workload().seed, std::numeric_limits<qint64>::max());
    QVERIFY(seed->message().isEmpty());
    for (const QString &bad : {QStringLiteral("9223372036854775808"), QStringLiteral("-1")}) {
        typeSeed(bad);
        QCOMPARE(f.form.workload().seed, std::numeric_limits<qint64>::max());
        QVERIFY2(seed->message().contains(QStringLiteral("seed takes 0 to 9223372036854775807: '%1' refused").arg(bad)),
                 qPrintable(seed->message()));
    }
    // A step at the top does not wrap.
    seed->stepBy(1);
    QCOMPARE(f.form.workload().seed, std::numeric_limits<qint64>::max());
}

void TestWorkloadForm::slackIsDisabledWhereNoTimerWakes()
{
    // periodic's slack_us stretches the sleeper's own timer; kind=ipi and kind=pipe are
    // woken by their waker, and the command line refuses a written slack_us there
    // ("slack_us acts on kind=timer only"). The form showed the field as if it acted.
    PeriodicForm f;
    QVERIFY(f.exposed());
    CheckedSpinBox *slack = field(f.form, QStringLiteral("slack"));
    QVERIFY(slack);
    QComboBox *kind = f.form.findChild<QComboBox *>();
    QVERIFY(kind);
    // periodic's default kind is ipi: the field opens disabled.
    QCOMPARE(kind->currentText(), QStringLiteral("ipi"));
    QVERIFY(!slack->isEnabled());
    QVERIFY2(slack->toolTip().contains(QStringLiteral("slack_us acts on kind=timer only")),
             qPrintable(slack->toolTip()));
    kind->setCurrentIndex(kind->findText(QStringLiteral("timer")));
    emit kind->activated(kind->currentIndex());
    QVERIFY(slack->isEnabled());
    type(slack, QStringLiteral("20"));
    QCOMPARE(f.value("slack_us"), qint64(20000));

    // kind=pipe as a user picks it: the field and its label are disabled, the tooltip says why.
    kind->setCurrentIndex(kind->findText(QStringLiteral("pipe")));
    emit kind->activated(kind->currentIndex());
    QVERIFY(!slack->isEnabled());
    auto *form = f.form.findChild<QFormLayout *>();
    QWidget *label = form->labelForField(slack->withMessage());
    QVERIFY(label && !label->isEnabled());
    QVERIFY2(slack->toolTip().contains(QStringLiteral("slack_us acts on kind=timer only")),
             qPrintable(slack->toolTip()));
    // The text written holds the default (50 us), which the grammar takes as unwritten, so the
    // 20 us left in the field is not sent to a kind it would be refused for.
    QCOMPARE(f.value("slack_us"), qint64(50000));
    QVERIFY(f.form.workload().text.find("slack_us=20") == std::string::npos);

    // Back to kind=timer: enabled again with its help, and the 20 us it held is used.
    kind->setCurrentIndex(kind->findText(QStringLiteral("timer")));
    emit kind->activated(kind->currentIndex());
    QVERIFY(slack->isEnabled());
    QVERIFY(!slack->toolTip().contains(QStringLiteral("acts on")));
    QCOMPARE(f.value("slack_us"), qint64(20000));

    // A workload loaded with kind=ipi opens with the field disabled.
    WorkloadForm ipi;
    WorkloadSourceSpec w = generatorWorkload(*workloads::findGenerator("periodic"));
    w.text = "periodic:kind=ipi";
    ipi.setWorkload(w);
    QVERIFY(!field(ipi, QStringLiteral("slack"))->isEnabled());
}

QTEST_MAIN(TestWorkloadForm)
#include "tst_workload_form.moc"
