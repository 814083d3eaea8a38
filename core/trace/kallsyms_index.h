// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file kallsyms_index.h
 * Kernel function names by address, from the kallsyms text a trace-cmd .dat
 * carries ("ADDR TYPE NAME [MODULE]" lines, as /proc/kallsyms prints them).
 *
 * Why our own: libtracecmd hands that text to libtraceevent's
 * tep_parse_kallsyms() while it opens a file, which scans each of the
 * ~100,000 lines with sscanf and allocates every name on its own; on the
 * small .dat files that is most of the import, while idlescope looks up a
 * handful of hrtimer callbacks. While a KallsymsCapture is alive on a thread,
 * that call is answered here instead (one pass, one buffer; the definition in
 * kallsyms_index.cpp takes the library's place in the dynamic link), and the
 * importer resolves callbacks with find(). Outside a capture the call goes on
 * to libtraceevent unchanged, so every other user of the library (and a
 * caller that wants the library's own result, ImportConfig::libraryKallsyms)
 * sees what it always saw. tst_kallsyms_index checks that the names agree
 * with libtraceevent's on every repository .dat.
 */
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace idlescope::trace {

class KallsymsIndex {
public:
    /// Reads kallsyms lines; names starting with '$' (the ARM mapping symbols) are left out,
    /// as libtraceevent leaves them out. Lines that do not parse are skipped.
    void parse(std::string_view text);
    /// The function whose start is @p addr, or which contains it (the greatest start below
    /// it, when a next function starts after it), as tep_find_function() answers; null if none.
    const char *find(std::uint64_t addr) const;
    std::size_t size() const { return m_functions.size(); }

private:
    struct Function {
        std::uint64_t addr = 0;
        std::uint32_t name = 0; ///< offset into m_names
    };
    std::string m_names;               ///< NUL-terminated names, back to back
    std::vector<Function> m_functions; ///< sorted by address, file order among equals
};

/// While alive, libtracecmd's kallsyms on this thread go into @p index (see the file comment).
class KallsymsCapture {
public:
    explicit KallsymsCapture(KallsymsIndex &index);
    ~KallsymsCapture();
    KallsymsCapture(const KallsymsCapture &) = delete;
    KallsymsCapture &operator=(const KallsymsCapture &) = delete;

private:
    KallsymsIndex *m_previous;
};

} // namespace idlescope::trace
