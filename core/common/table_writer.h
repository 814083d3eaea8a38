// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file table_writer.h
 * One writer for the engine's text tables (compare, compare --machine, the closed
 * loop, trace-stats): a formatter builds a table once, a title, columns and rows of
 * cells, and the writer prints it as markdown, CSV or JSON objects, escaping every
 * cell the one way each format needs: a label that holds '|' or ',' stays in its
 * column in every table, and missing data is null in every JSON.
 *
 * It lives beside text_cells.h, whose escapers it uses, in the engine library:
 * the formatters of core/experiments are part of it, and core/formats links it
 * (a writer there would make the two libraries need each other).
 */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace idlescope::table {

/// A column's alignment in markdown: "---" (left) or "---:" (right).
enum class Align { Left, Right };

struct Column {
    std::string name;          ///< the markdown heading, CSV header and JSON key
    Align align = Align::Left; ///< markdown only
    bool json = true;          ///< false: jsonObject() leaves it out (the caller writes it as a key)
};

struct Cell {
    enum class Kind {
        Text,    ///< words: a JSON string
        Number,  ///< printed digits: a JSON number as they are
        Missing, ///< no value ("no power data"): its words in markdown and CSV, null in JSON
        Blank,   ///< nothing: " |" in markdown, an empty CSV field, left out of a JSON object
        /// No value, its reason said once beside the table (the window's exports head their
        /// tables with it): its words in markdown, an empty CSV field (a numeric column keeps
        /// only numbers for a reader that parses it), null in JSON.
        NoValue,
    };
    Kind kind = Kind::Blank;
    std::string text;
};

Cell text(std::string s);
Cell integer(std::int64_t v);
/// @p v with @p precision decimals ("%.*f").
Cell fixed(double v, int precision);
/// @p v with @p digits significant digits, the shortest form ("%.*g": 2.4e-05, 8).
Cell general(double v, int digits);
Cell missing(std::string words);
Cell noValue(std::string words);
Cell blank();

struct Table {
    std::string title; ///< markdown: a line before the table and a blank line; none when empty
    std::vector<Column> columns;
    std::vector<std::vector<Cell>> rows; ///< each as many cells as columns
    std::vector<std::string> notes;      ///< markdown: after the table, each "\n" + note + "\n"
};

/// The title, "| heading | ... |", the alignment line, a line per row, the notes.
/// An empty heading is written like a blank cell.
std::string markdown(const Table &t);

/// The column names and the rows, comma-separated, a line each.
std::string csv(const Table &t);

/// One row as {"column": value, ...}: a Column::json column each, Blank cells left out.
std::string jsonObject(const Table &t, const std::vector<Cell> &row);

/// Every row's jsonObject(), each after @p prefix, @p separator between two.
std::string jsonObjects(const Table &t, const std::string &separator, const std::string &prefix = "");

} // namespace idlescope::table
