// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/table_writer.h"

#include "core/common/text_cells.h"

#include <cstdio>

namespace idlescope::table {

Cell text(std::string s)
{
    return {Cell::Kind::Text, std::move(s)};
}

Cell integer(std::int64_t v)
{
    return {Cell::Kind::Number, std::to_string(v)};
}

Cell fixed(double v, int precision)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", precision, v);
    return {Cell::Kind::Number, buf};
}

Cell general(double v, int digits)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return {Cell::Kind::Number, buf};
}

Cell missing(std::string words)
{
    return {Cell::Kind::Missing, std::move(words)};
}

Cell noValue(std::string words)
{
    return {Cell::Kind::NoValue, std::move(words)};
}

Cell blank()
{
    return {};
}

namespace {

std::string jsonValue(const Cell &c)
{
    switch (c.kind) {
    case Cell::Kind::Number: return c.text;
    case Cell::Kind::Missing:
    case Cell::Kind::NoValue: return "null";
    case Cell::Kind::Text:
    case Cell::Kind::Blank: break;
    }
    return jsonString(c.text);
}

} // namespace

std::string markdown(const Table &t)
{
    std::string out = t.title.empty() ? std::string() : t.title + "\n\n";
    // Headings are the formatter's own names (column-safe or fixed words), written as they are.
    out += "|";
    for (const Column &c : t.columns)
        out += c.name.empty() ? " |" : " " + c.name + " |";
    out += "\n|";
    for (const Column &c : t.columns)
        out += c.align == Align::Right ? "---:|" : "---|";
    out += '\n';
    for (const std::vector<Cell> &row : t.rows) {
        out += "|";
        for (const Cell &cell : row)
            out += cell.kind == Cell::Kind::Blank ? " |" : " " + markdownCell(cell.text) + " |";
        out += '\n';
    }
    for (const std::string &note : t.notes)
        out += "\n" + note + "\n";
    return out;
}

std::string csv(const Table &t)
{
    std::string out;
    for (size_t i = 0; i < t.columns.size(); ++i)
        out += (i ? "," : "") + csvField(t.columns[i].name);
    out += '\n';
    for (const std::vector<Cell> &row : t.rows) {
        for (size_t i = 0; i < row.size(); ++i)
            out += (i ? "," : "") + (row[i].kind == Cell::Kind::NoValue ? std::string() : csvField(row[i].text));
        out += '\n';
    }
    return out;
}

std::string jsonObject(const Table &t, const std::vector<Cell> &row)
{
    std::string out = "{";
    bool first = true;
    for (size_t i = 0; i < t.columns.size() && i < row.size(); ++i) {
        if (!t.columns[i].json || row[i].kind == Cell::Kind::Blank)
            continue;
        out += (first ? "" : ", ") + jsonString(t.columns[i].name) + ": " + jsonValue(row[i]);
        first = false;
    }
    return out + "}";
}

std::string jsonObjects(const Table &t, const std::string &separator, const std::string &prefix)
{
    std::string out;
    for (size_t i = 0; i < t.rows.size(); ++i)
        out += (i ? separator : "") + prefix + jsonObject(t, t.rows[i]);
    return out;
}

} // namespace idlescope::table
