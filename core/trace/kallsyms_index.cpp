// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/kallsyms_index.h"

#include <algorithm>
#include <dlfcn.h>

struct tep_handle;

namespace idlescope::trace {

namespace {

thread_local KallsymsIndex *t_capture = nullptr;

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

} // namespace

void KallsymsIndex::parse(std::string_view text)
{
    // Names are under half of a kallsyms line and lines ~40 bytes: one allocation each.
    m_names.reserve(m_names.size() + text.size() / 2);
    m_functions.reserve(m_functions.size() + text.size() / 32);
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;

        // ADDR (hex), blanks, TYPE (one character), blanks, NAME up to a blank or the end.
        size_t i = 0;
        std::uint64_t addr = 0;
        int digits = 0;
        for (; i < line.size() && hexDigit(line[i]) >= 0 && digits < 16; ++i, ++digits)
            addr = addr << 4 | static_cast<std::uint64_t>(hexDigit(line[i]));
        if (digits == 0 || i >= line.size() || !isBlank(line[i]))
            continue;
        while (i < line.size() && isBlank(line[i]))
            ++i;
        if (i >= line.size())
            continue;
        ++i; // the symbol type
        while (i < line.size() && isBlank(line[i]))
            ++i;
        const size_t nameStart = i;
        while (i < line.size() && !isBlank(line[i]) && line[i] != '\r')
            ++i;
        if (i == nameStart || line[nameStart] == '$')
            continue;
        m_functions.push_back({addr, static_cast<std::uint32_t>(m_names.size())});
        m_names.append(line.substr(nameStart, i - nameStart));
        m_names.push_back('\0');
    }
    // /proc/kallsyms lists the kernel's own symbols by address but modules after them.
    const auto byAddress = [](const Function &a, const Function &b) { return a.addr < b.addr; };
    if (!std::is_sorted(m_functions.begin(), m_functions.end(), byAddress))
        std::stable_sort(m_functions.begin(), m_functions.end(), byAddress);
}

const char *KallsymsIndex::find(std::uint64_t addr) const
{
    // The last function starting at or below addr; like libtraceevent, an address past the
    // last function's start matches it only exactly (its end is unknown).
    auto it = std::upper_bound(m_functions.begin(), m_functions.end(), addr,
                               [](std::uint64_t a, const Function &f) { return a < f.addr; });
    if (it == m_functions.begin())
        return nullptr;
    const std::uint64_t start = std::prev(it)->addr;
    if (it == m_functions.end() && start != addr)
        return nullptr;
    // Among functions at one address, the first of the file.
    auto first =
        std::lower_bound(m_functions.begin(), it, start, [](const Function &f, std::uint64_t a) { return f.addr < a; });
    return m_names.c_str() + first->name;
}

KallsymsCapture::KallsymsCapture(KallsymsIndex &index) : m_previous(t_capture)
{
    t_capture = &index;
}

KallsymsCapture::~KallsymsCapture()
{
    t_capture = m_previous;
}

} // namespace idlescope::trace

// libtraceevent's entry point, defined by the program so that libtracecmd's call lands here
// (see kallsyms_index.h): into the capturing index when there is one, else on to the library.
extern "C" int tep_parse_kallsyms(tep_handle *tep, const char *kallsyms)
{
    using idlescope::trace::t_capture;
    if (t_capture) {
        if (kallsyms)
            t_capture->parse(kallsyms);
        return 0;
    }
    using ParseFn = int (*)(tep_handle *, const char *);
    static const auto library = reinterpret_cast<ParseFn>(::dlsym(RTLD_NEXT, "tep_parse_kallsyms"));
    return library ? library(tep, kallsyms) : -1;
}
