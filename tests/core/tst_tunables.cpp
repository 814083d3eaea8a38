// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The one tunables mechanism (tunable_check.h) and the one "[GOVERNOR:]NAME=VALUE"
 * parser (tunable_setting.h): every family words a range error and an unknown
 * name the same way, and the text form parses into the same three fields for
 * the CLI's replay and for compare.
 */
#include "core/governors/registry.h"
#include "core/governors/tunable_setting.h"
#include "core/replay/governor_factory.h"

#include <QTest>

using namespace idlescope;

class TestTunables : public QObject {
    Q_OBJECT

private slots:
    void parsesTheThreeForms_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("governor");
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("value");
        QTest::newRow("plain") << "INTERVALS=8"
                               << ""
                               << "INTERVALS" << qint64(8);
        QTest::newRow("governor") << "teo-6.14:PULSE=7"
                                  << "teo-6.14"
                                  << "PULSE" << qint64(7);
        QTest::newRow("negative") << "X=-3"
                                  << ""
                                  << "X" << qint64(-3);
        // Spaces around the value, as the CLI's parser allowed before.
        QTest::newRow("spaces") << "STDDEV_MAX_US= 30 "
                                << ""
                                << "STDDEV_MAX_US" << qint64(30);
    }

    void parsesTheThreeForms()
    {
        QFETCH(QString, text);
        QFETCH(QString, governor);
        QFETCH(QString, name);
        QFETCH(qint64, value);
        const Result<TunableSettingText> s = parseTunableSetting(text.toStdString());
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().toString().c_str());
        QCOMPARE(QString::fromStdString(s->governor), governor);
        QCOMPARE(QString::fromStdString(s->name), name);
        QCOMPARE(qint64(s->value), value);
    }

    void badTextNamesWhatIsWrong_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("no =") << "INTERVALS"
                              << "field 'INTERVALS': expected NAME=VALUE or GOVERNOR:NAME=VALUE";
        QTest::newRow("empty") << "INTERVALS="
                               << "field 'INTERVALS': value '' is not an integer";
        QTest::newRow("fraction") << "menu-6.14:INTERVALS=8.5"
                                  << "field 'INTERVALS': value '8.5' is not an integer";
        QTest::newRow("huge") << "PULSE=99999999999999999999"
                              << "field 'PULSE': value '99999999999999999999' is not an integer";
    }

    void badTextNamesWhatIsWrong()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        const Result<TunableSettingText> s = parseTunableSetting(text.toStdString(), "--set");
        QVERIFY(!s.ok());
        QCOMPARE(QString::fromStdString(s.error().toString()), "--set: " + error);
    }

    // The same wording from every family's table: "NAME = V is out of range
    // MIN..MAX for ID (kernel default D)" and "unknown parameter 'X' for ID
    // (known: ...)". Ranges and defaults from each family's TunableInfo.
    void oneWordingForEveryFamily_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("value");
        QTest::addColumn<QString>("error");
        QTest::newRow("menu") << "menu-6.14"
                              << "INTERVALS" << qint64(65)
                              << "INTERVALS = 65 is out of range 1..64 for menu-6.14 (kernel default 8)";
        QTest::newRow("teo") << "teo-6.19"
                             << "DECAY_SHIFT" << qint64(0)
                             << "DECAY_SHIFT = 0 is out of range 1..16 for teo-6.19 (kernel default 3)";
        QTest::newRow("teo-5.13") << "teo-5.13"
                                  << "INTERVALS" << qint64(65)
                                  << "INTERVALS = 65 is out of range 1..64 for teo-5.13 (kernel default 8)";
        QTest::newRow("ladder") << "ladder-latest"
                                << "DEMOTION_COUNT" << qint64(1001)
                                << "DEMOTION_COUNT = 1001 is out of range 1..1000 for ladder-latest (kernel default 1)";
        QTest::newRow("haltpoll") << "haltpoll-latest"
                                  << "guest_halt_poll_allow_shrink" << qint64(2)
                                  << "guest_halt_poll_allow_shrink = 2 is out of range 0..1 for haltpoll-latest "
                                     "(kernel default 1)";
        QTest::newRow("unknown") << "teo-5.14"
                                 << "LATENCY_THRESHOLD_NS" << qint64(1)
                                 << "unknown parameter 'LATENCY_THRESHOLD_NS' for teo-5.14 (known: PULSE, "
                                    "DECAY_SHIFT, NR_RECENT)";
        QTest::newRow("none") << "oracle"
                              << "X" << qint64(1) << "unknown parameter 'X' for oracle (it has no parameters)";
    }

    void oneWordingForEveryFamily()
    {
        QFETCH(QString, variant);
        QFETCH(QString, name);
        QFETCH(qint64, value);
        QFETCH(QString, error);
        auto gov = createGovernor(variant.toStdString());
        QVERIFY(gov);
        std::string err;
        QVERIFY(!gov->setTunable(name.toStdString(), value, &err));
        QCOMPARE(QString::fromStdString(err), error);
        QVERIFY(gov->atKernelDefaults()); // a refused value changes nothing
    }

    // Every listed tunable reads back what was set through the table.
    void everyRowReadsBackWhatWasSet()
    {
        for (const VariantInfo *v : allVariants()) {
            auto gov = createGovernor(v->id);
            for (const TunableInfo &t : gov->tunables()) {
                QCOMPARE(gov->tunable(t.name), t.kernelDefault);
                const std::int64_t other = t.kernelDefault == t.maxValue ? t.minValue : t.kernelDefault + 1;
                std::string err;
                QVERIFY2(gov->setTunable(t.name, other, &err), err.c_str());
                QCOMPARE(gov->tunable(t.name), other);
            }
            QCOMPARE(gov->tunable("NO_SUCH_TUNABLE"), std::int64_t(0));
        }
    }
};

QTEST_GUILESS_MAIN(TestTunables)
#include "tst_tunables.moc"
