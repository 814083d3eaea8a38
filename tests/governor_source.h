// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file governor_source.h
 * Governor files that tests write beside their assertions. A governor made to
 * test one behaviour of the host (it crashes, exits, prints, returns a state
 * the table lacks) differs from the next only in its select() and a few lines
 * above it; the rest is the kernel's registration idiom, written here once:
 * the struct cpuidle_governor with its name, rating and select, and the __init
 * function that registers it at postcore_initcall. A test states what its
 * governor does in C and this writes the file. The realistic governors, whose
 * comments hold the tables the tests check (hop.c, span.c, window.c) or whose
 * compiler errors sit at fixed places (broken.c, unsupported.c), stay files in
 * tests/data/source_governors.
 */
#pragma once

#include "tests/test_files.h"

#include <QByteArray>
#include <QDir>
#include <QString>

namespace idlescope::test {

/// A governor written by a test. Its functions and variables are named after @c name
/// (NAME_select, NAME_governor, init_NAME), as a kernel file's are after the governor.
struct TestGovernor {
    QByteArray name;
    /// The body of NAME_select(drv, dev, stop_tick) without its braces, a line for each
    /// line of C; each is indented by one tab when written.
    QByteArray select;
    /// Lines at file scope above select() (a per-CPU counter, a helper, a #warning).
    QByteArray fileScope = {};
    /// Lines of init_NAME() before it registers the governor, a line for each line of C.
    QByteArray init = {};
    int rating = 1;
    /// false: init_NAME() is there but no initcall runs it, so the file registers nothing.
    bool registered = true;
};

/// @p lines with a tab before each line that is not empty, ending in a newline.
inline QByteArray indentedByATab(const QByteArray &lines)
{
    QByteArray out;
    for (const QByteArray &line : lines.split('\n'))
        out += (line.isEmpty() ? line : '\t' + line) + '\n';
    out.chop(1); // split() gave one more piece than there were newlines
    return out.isEmpty() || out.endsWith('\n') ? out : out + '\n';
}

/// The C file of @p g: the two headers a governor includes (lines 1 and 2), its file-scope
/// lines (from line 3), its select() and the registration idiom.
inline QByteArray governorSource(const TestGovernor &g)
{
    const QByteArray &n = g.name;
    QByteArray c = "#include <linux/cpuidle.h>\n#include <linux/kernel.h>\n";
    if (!g.fileScope.isEmpty())
        c += g.fileScope + (g.fileScope.endsWith('\n') ? "" : "\n");
    c += '\n';
    c += "static int " + n
         + "_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,\n\t\t\tbool *stop_tick)\n{\n"
         + indentedByATab(g.select) + "}\n\n";
    c += "static struct cpuidle_governor " + n + "_governor = {\n\t.name =\t\t\"" + n + "\",\n\t.rating =\t"
         + QByteArray::number(g.rating) + ",\n\t.select =\t" + n + "_select,\n};\n\n";
    c += QByteArray("static int __init ") + (g.registered ? "" : "__maybe_unused ") + "init_" + n + "(void)\n{\n"
         + indentedByATab(g.init) + "\treturn cpuidle_register_governor(&" + n + "_governor);\n}\n";
    if (g.registered)
        c += "\npostcore_initcall(init_" + n + ");\n";
    return c;
}

/// Writes governorSource(@p g) as @p dir/NAME.c and returns its path.
inline QString writeGovernor(const QString &dir, const TestGovernor &g)
{
    const QString path = QDir(dir).filePath(QString::fromUtf8(g.name) + QStringLiteral(".c"));
    writeFile(path, governorSource(g));
    return path;
}

/// A governor that picks state 0 until its select() of entry @p entry (its calls counted
/// from 0 in a per-CPU counter), where it dereferences NULL: the replay must name SIGSEGV
/// and that entry. The CLI's crash tests and the window's share it.
inline TestGovernor crashingGovernor(const QByteArray &name, int entry)
{
    return {.name = name,
            .select = "int *calls = this_cpu_ptr(&" + name
                      + "_calls);\n"
                        "volatile int *nowhere = NULL;\n"
                        "\n"
                        "if ((*calls)++ == "
                      + QByteArray::number(entry)
                      + ")\n"
                        "\treturn *nowhere;\n"
                        "return 0;\n",
            .fileScope = "static DEFINE_PER_CPU(int, " + name + "_calls);\n"};
}

/// "LINE:COLUMN" (both from 1, a tab one column, as gcc and clang count) of the first
/// @p what in @p text, as a compiler's message names a place; "0:0" when it is not there.
inline QString placeOf(const QByteArray &text, const QByteArray &what)
{
    const qsizetype at = text.indexOf(what);
    if (at < 0)
        return QStringLiteral("0:0");
    const qsizetype lineStart = text.lastIndexOf('\n', at) + 1; // 0 on the first line
    return QString::number(text.left(at).count('\n') + 1) + u':' + QString::number(at - lineStart + 1);
}

} // namespace idlescope::test
