// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/error.h"

#include "core/common/text_cells.h"

namespace idlescope {

std::string Error::toString() const
{
    std::string out;
    if (!file.empty()) {
        // Escaped: a name holding "\nSHA-256: ..." printed a line of its own on stderr.
        out += printableFileName(file);
        if (line > 0)
            out += ':' + std::to_string(line);
        out += ": ";
    } else if (line > 0) {
        out += "line " + std::to_string(line) + ": ";
    }
    if (!field.empty())
        out += "field '" + printableFileName(field) + "': "; // a key of the file may hold a newline too
    out += message;
    return out;
}

std::string quoteField(std::string_view value, std::size_t max)
{
    if (value.size() <= max)
        return std::string(value);
    return std::string(value.substr(0, max)) + "... (" + std::to_string(value.size()) + " bytes)";
}

} // namespace idlescope
