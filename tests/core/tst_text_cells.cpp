// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * printableText(), the one escaper of control characters (issue 30): a
 * governor's text for a terminal (Terminal mode) and a file name shown in a
 * question or a message (Name mode, printableFileName()) used to
 * be escaped by two functions with different rules: a name's C1 controls and
 * a terminal line's bidirectional controls went through raw. Expected strings
 * are written out by hand from the rules in text_cells.h.
 */
#include "core/common/text_cells.h"
#include "core/source_governor/source_consent.h"

#include <QTest>

#include <string>

using namespace idlescope;

class TestTextCells : public QObject {
    Q_OBJECT

private slots:
    void terminalKeepsLinesAndEscapesTheRest()
    {
        // ESC, CR, DEL as \xNN; the line break and the tab stay; a backslash is as it is.
        QCOMPARE(printableText("a\x1b[2J\r\x7f\\b\n\tc"), std::string("a\\x1b[2J\\x0d\\x7f\\b\n\tc"));
        // U+009B (CSI, C2 9B in UTF-8) as \u009b; U+00E9 (C3 A9) is a letter.
        QCOMPARE(printableText("\xc2\x9b"
                               "2J caf\xc3\xa9"),
                 std::string("\\u009b2J caf\xc3\xa9"));
    }

    void nameIsOneLine()
    {
        QCOMPARE(printableText("a\nb\tc\\d\x1b[31m\r", PrintableMode::Name), std::string("a\\nb\\tc\\\\d\\x1b[31m\\r"));
        QCOMPARE(printableFileName("a\nb"), std::string("a\\nb"));
    }

    void bothModesEscapeC1AndBidiControls()
    {
        // U+202E (E2 80 AE) turned "evil\u202ec.unem" into "evilmenu.c" on screen; U+2066
        // (E2 81 A6) is an isolate; U+0085 (C2 85, NEL) breaks a line in some terminals.
        // Before, a terminal line kept the first two and a name kept the third.
        const std::string text = "evil\xe2\x80\xae"
                                 "c.unem \xe2\x81\xa6x \xc2\x85y";
        const std::string escaped = "evil\\u202ec.unem \\u2066x \\u0085y";
        QCOMPARE(printableText(text), escaped);
        QCOMPARE(printableText(text, PrintableMode::Name), escaped);
        QCOMPARE(printableFileName(text), escaped);
        // A cut sequence at the end is left alone (it is no control character).
        QCOMPARE(printableText("x\xe2\x80"), std::string("x\xe2\x80"));
        QCOMPARE(printableText("x\xc2", PrintableMode::Name), std::string("x\xc2"));
    }

    void controlCharactersAreFoundOnce()
    {
        // holdsControlCharacter(): what printableText() escapes in both modes, the one test
        // of a label or a description shown in the views (a hostile user's ctrl.idlescope).
        for (const char *bad : {"x\xe2\x80\xae"
                                "evil",
                                "a\nb", "a\x1b[31m", "a\x7f", "a\xc2\x9b", "a\xe2\x81\xa9", "a\xe2\x80\x8e",
                                "a\xd8\x9c" /* U+061C, the Arabic letter mark */,
                                // Invisible: "me\u200bnu" beside "menu" (a fresh user's find).
                                "me\xe2\x80\x8bnu", "a\xe2\x80\x8d", "a\xe2\x81\xa0", "a\xef\xbb\xbf", "a\xc2\xad"})
            QVERIFY2(holdsControlCharacter(bad), bad);
        for (const char *good : {"", "i16", "caf\xc3\xa9 \xc2\xb5s", "\xd9\x85\xd8\xab", "x\xe2\x80", "a\\b"})
            QVERIFY2(!holdsControlCharacter(good), good);
        // U+061C is escaped as the other bidirectional controls are.
        QCOMPARE(printableText("me\xe2\x80\x8bnu \xef\xbb\xbf\xc2\xad", PrintableMode::Name),
                 std::string("me\\u200bnu \\ufeff\\u00ad"));
        QCOMPARE(printableText("a\xd8\x9c"
                               "b"),
                 std::string("a\\u061cb"));
    }
};

QTEST_GUILESS_MAIN(TestTextCells)
#include "tst_text_cells.moc"
