// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The one table writer (core/common/table_writer.h) on a small table whose
 * first column holds a comma, a quote, a line break, a control character
 * (U+0001) and a '|'. Every expected text is written out here by hand from the
 * rules in table_writer.h and text_cells.h (markdownCell, csvField, columnSafe,
 * jsonString), not produced by the code under test.
 */
#include "core/common/table_writer.h"

#include <QTest>

#include <string>

using namespace idlescope;

namespace {

table::Table smallTable()
{
    table::Table t;
    t.title = "two runs";
    t.columns = {{"name"},
                 {"entries", table::Align::Right},
                 {"time_ms", table::Align::Right},
                 {"energy_J", table::Align::Right}};
    t.rows.push_back({table::text("a,b"), table::integer(12), table::fixed(1.5, 3), table::general(2.4e-5, 6)});
    t.rows.push_back({table::text("say \"hi\"\nx\x01|"), table::integer(-3), table::fixed(3.14159, 2),
                      table::missing("no power data")});
    t.rows.push_back({table::text(""), table::blank(), table::blank(), table::blank()});
    t.notes = {"energy: none for the second"};
    return t;
}

} // namespace

class TestTableWriter : public QObject {
    Q_OBJECT

private slots:
    void markdownEscapesCellsAndAlignsColumns()
    {
        // '"' stays, the line break reads \n, U+0001 \x01, '|' \|; a blank is " |", an empty text "  |".
        const std::string expected = "two runs\n\n"
                                     "| name | entries | time_ms | energy_J |\n"
                                     "|---|---:|---:|---:|\n"
                                     "| a,b | 12 | 1.500 | 2.4e-05 |\n"
                                     "| say \"hi\"\\nx\\x01\\| | -3 | 3.14 | no power data |\n"
                                     "|  | | | |\n"
                                     "\nenergy: none for the second\n";
        QCOMPARE(table::markdown(smallTable()), expected);
    }

    void csvQuotesByRfc4180()
    {
        // Quoted when a comma, a quote or a line break is in it, its quotes doubled; the
        // control character stays inside the quotes (csvField's rule).
        QCOMPARE(table::csv(smallTable()), std::string("name,entries,time_ms,energy_J\n\"a,b\",12,1.500,2.4e-05\n"
                                                       "\"say \"\"hi\"\"\nx\x01|\",-3,3.14,no power data\n,,,\n"));
    }

    void jsonObjectsQuoteTextAndLeaveBlanksOut()
    {
        table::Table t = smallTable();
        // Numbers as printed, text as JSON strings (\" and \u000a, \u0001), missing null.
        QCOMPARE(table::jsonObject(t, t.rows[0]),
                 std::string("{\"name\": \"a,b\", \"entries\": 12, \"time_ms\": 1.500, \"energy_J\": 2.4e-05}"));
        QCOMPARE(table::jsonObject(t, t.rows[1]),
                 std::string("{\"name\": \"say \\\"hi\\\"\\u000ax\\u0001|\", \"entries\": -3, \"time_ms\": 3.14, "
                             "\"energy_J\": null}"));
        QCOMPARE(table::jsonObject(t, t.rows[2]), std::string("{\"name\": \"\"}"));
        t.columns[0].json = false;
        t.rows.resize(2);
        QCOMPARE(table::jsonObjects(t, ",", "\n  "),
                 std::string("\n  {\"entries\": 12, \"time_ms\": 1.500, \"energy_J\": 2.4e-05},"
                             "\n  {\"entries\": -3, \"time_ms\": 3.14, \"energy_J\": null}"));
    }

    void noValueIsWordsInMarkdownEmptyInCsvNullInJson()
    {
        // The window's comparison writes a cell without a value this way: a reader of the
        // markdown sees why, a CSV parser finds no text in a column of numbers, JSON has null.
        table::Table t;
        t.columns = {{"governor"}, {"idle_energy_J", table::Align::Right}, {"entries", table::Align::Right}};
        t.rows.push_back({table::text("a|b"), table::noValue("no power data"), table::integer(5)});
        QCOMPARE(table::markdown(t), std::string("| governor | idle_energy_J | entries |\n|---|---:|---:|\n"
                                                 "| a\\|b | no power data | 5 |\n"));
        QCOMPARE(table::csv(t), std::string("governor,idle_energy_J,entries\na|b,,5\n"));
        QCOMPARE(table::jsonObject(t, t.rows[0]),
                 std::string("{\"governor\": \"a|b\", \"idle_energy_J\": null, \"entries\": 5}"));
    }
};

QTEST_GUILESS_MAIN(TestTableWriter)
#include "tst_table_writer.moc"
