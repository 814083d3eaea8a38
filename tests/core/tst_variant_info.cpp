// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * What the registry says of each variant beyond its decisions: the kernel
 * release it is based on (lists sort by it; the setup panel once parsed the
 * "kernel" text for it) and which table differences a governor can see.
 */
#include "core/governors/registry.h"
#include "core/states/idle_state_table.h"

#include "tests/governor_rig.h"

#include <QRegularExpression>
#include <QTest>

using namespace idlescope;

class TestVariantInfo : public QObject {
    Q_OBJECT

private slots:
    /// `base` is the release the kernel text starts with ("v6.14 + RFT 1/5" -> 6.14), read here
    /// independently with a regular expression; the oracle names no release.
    void baseIsTheReleaseTheKernelTextNames()
    {
        const QRegularExpression release(QStringLiteral("^v(\\d+)\\.(\\d+)"));
        for (const VariantInfo *v : allVariants()) {
            const QRegularExpressionMatch m = release.match(QString::fromUtf8(v->kernel));
            const KernelVersion expected =
                m.hasMatch() ? KernelVersion{m.captured(1).toInt(), m.captured(2).toInt()} : KernelVersion{};
            QVERIFY2(v->base == expected, v->id);
        }
    }

    /// Spot values, so that the check above cannot pass on an all-zero column.
    void spotValues()
    {
        QCOMPARE(findVariant("menu-5.10")->base.minor, 10);
        QVERIFY((findVariant("menu-7.1")->base == KernelVersion{7, 1}));
        QVERIFY((findVariant("teo-7.1")->base == KernelVersion{7, 1}));
        QVERIFY((findVariant("menu-nooverride")->base == KernelVersion{6, 14}));
        QVERIFY((findVariant("teo-5.14")->base == KernelVersion{5, 14}));
        QVERIFY((findVariant("oracle")->base == KernelVersion{}));
        QVERIFY(findVariant("teo-5.13")->base < findVariant("teo-5.14")->base);
        QVERIFY(findVariant("menu-6.6")->base < findVariant("menu-6.14")->base);
    }

    /// The rows of the families with one variant, which their own tests (tst_ladder,
    /// tst_teo_legacy) once checked one by one: the family, the kernel text, the poll-time
    /// rule and whether the idle loop reads got_tick for the governor.
    void oneVariantFamilies()
    {
        struct Row {
            const char *id, *family, *kernel;
            PollTimeRule pollTime;
            bool readsGotTick;
        };
        for (const Row &w : {Row{"ladder-latest", "ladder", "v7.0", PollTimeRule::V5_11, true},
                             Row{"teo-5.13", "teo", "v5.13", PollTimeRule::V5_11, false}}) {
            const VariantInfo *v = findVariant(w.id);
            QVERIFY2(v, w.id);
            QCOMPARE(QString::fromUtf8(v->family), QString::fromUtf8(w.family));
            QCOMPARE(QString::fromUtf8(v->kernel), QString::fromUtf8(w.kernel));
            QVERIFY2(v->pollTime == w.pollTime, w.id);
            QCOMPARE(v->idleLoopReadsGotTick, w.readsGotTick);
        }
    }

    /// A renamed table decides alike but is not the same table; a changed exit latency,
    /// disable bit or tick rate is seen by every governor.
    void decideAlikeReadsOnlyWhatGovernorsRead()
    {
        const IdleStateTable a = test::skxLike();
        IdleStateTable renamed = a;
        renamed.id = "other";
        renamed.states[2].name = "C1E-renamed";
        renamed.states[2].desc = "typed by hand";
        QVERIFY(decideAlike(a, renamed));
        QVERIFY(a != renamed);
        QVERIFY(a == test::skxLike());

        IdleStateTable slower = a;
        QVERIFY(slower.setExitLatencyNs(2, 11000).ok());
        QVERIFY(!decideAlike(a, slower));
        IdleStateTable disabled = a;
        QVERIFY(disabled.setDisabled(3, true).ok());
        QVERIFY(!decideAlike(a, disabled));
        IdleStateTable hz100 = a;
        QVERIFY(hz100.setTickHz(100).ok());
        QVERIFY(!decideAlike(a, hz100));
        IdleStateTable shorter = a;
        QVERIFY(shorter.removeState(3).ok());
        QVERIFY(!decideAlike(a, shorter));
    }
};

QTEST_APPLESS_MAIN(TestVariantInfo)
#include "tst_variant_info.moc"
