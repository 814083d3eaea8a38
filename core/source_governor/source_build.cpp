// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/source_governor/source_build.h"

#include "core/common/input_file.h"
#include "core/common/sha256.h"
#include "core/source_governor/host_protocol.h"
#include "core/source_governor/kernel_shim_files.h"
#include "core/source_governor/private_cache.h"
#include "core/source_governor/source_consent.h"
#include "core/source_governor/subprocess.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <span>
#include <sstream>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <utility>
#include <vector>

namespace idlescope::source_governor {

namespace fs = std::filesystem;

namespace {

/// The compiler flags, as the kernel builds a governor where it matters:
/// GNU C11, signed overflow wraps, no type-based aliasing, no libc headers.
/// Calls to undeclared functions and mismatched callback types are errors
/// (a silently wrong prototype would decide wrongly), and every symbol must
/// resolve when linking, so that a helper the shim lacks is named at once.
const char *const kCompileFlags[] = {
    "-std=gnu11",
    "-O2",
    "-fPIC",
    "-shared",
    "-fno-strict-overflow",
    "-fno-strict-aliasing",
    "-fno-common",
    "-fdiagnostics-color=never",
    "-Werror=implicit-function-declaration",
    "-Werror=implicit-int",
    "-Werror=incompatible-pointer-types",
    "-Werror=int-conversion",
    "-Werror=return-type",
    "-nostdinc",
};

/// In the cache key: objects built from private copies only (see buildSourceGovernor()).
constexpr const char *kPrivateCopies = "private copies of the allowed files";

/// In the cache key: objects assembled from compiler output checked for the assembler's
/// file-reading directives (asmReadsFiles()); one built before could hold any file.
constexpr const char *kCheckedAssembly = "assembly checked for .incbin and .include";

/// The build's limits, for the compiler driver and each of cc1, as and ld: 1 GiB of address
/// space (a governor needs some 100 MiB; a macro bomb took 1.27 GB), files no larger than an
/// object the host loads (the assembly and the object), and CPU time matching the timeout.
ProcessLimits buildLimits(int timeoutSeconds)
{
    return ProcessLimits{std::int64_t{1} << 30, HOST_OBJECT_LIMIT + (std::int64_t{1} << 20), timeoutSeconds + 1};
}

/// gcc goes on to the end of a file that is no C (300,000 errors: minutes); it stops at
/// this many. clang stops at 20 of its own accord, and warns of the gcc flag.
constexpr const char *kGccErrorLimit = "-fmax-errors=50";

/// Whether @p cc is clang (its --version says so), once per compiler and process.
bool isClang(const std::string &cc)
{
    static std::mutex mutex;
    static std::map<std::string, bool> known;
    std::lock_guard lock(mutex);
    if (const auto it = known.find(cc); it != known.end())
        return it->second;
    const Result<Finished> r = runToEnd({cc, "--version"}, DEFAULT_BUILD_TIMEOUT_S);
    return known[cc] = r && r->output.find("clang") != std::string::npos;
}

/// The file is C whatever its name: patched copies are named menu.c.orig, menu.c~ or
/// menu-patched, which the compiler would otherwise take for a linker script, and menu.h
/// for a header to precompile (an object with no governor in it). In the cache key, so
/// that what such a name built before is built again. One list for the command and the
/// key, so that the two cannot drift apart.
const char *const kSourceLanguage[] = {"-x", "c"};

/// The arguments as the key has always hashed them: joined by one space ("-x c").
std::string joinedArguments(std::span<const char *const> args)
{
    std::string joined;
    for (const char *a : args) {
        if (!joined.empty())
            joined += ' ';
        joined += a;
    }
    return joined;
}

/// FNV-1a, 64 bits: a cache key, not a security measure.
struct Hash {
    std::uint64_t h = 1469598103934665603ull;
    void add(std::string_view s)
    {
        for (unsigned char c : s) {
            h ^= c;
            h *= 1099511628211ull;
        }
        const std::uint64_t n = s.size();
        for (int i = 0; i < 8; ++i) {
            h ^= (n >> (8 * i)) & 0xff;
            h *= 1099511628211ull;
        }
    }
    std::string hex() const
    {
        char buf[17];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
        return buf;
    }
};

/// The largest file read: far more than any governor or header.
constexpr std::size_t MAX_FILE_BYTES = std::size_t{64} << 20;

/// A regular file's text, read without blocking (core/common/input_file.h): a FIFO header
/// beside the source or a src: link to /dev/zero is refused, never waited on.
Result<std::string> readFile(const std::string &path)
{
    Result<std::string> text = readInputFile(path, MAX_FILE_BYTES, "a governor source");
    if (!text && text.error().message.starts_with("cannot open: ")) // in this file's words
        return Error{path, 0, "",
                     "cannot read the governor source: " + text.error().message.substr(std::strlen("cannot open: "))};
    return text;
}

std::string compiler()
{
    if (const char *cc = std::getenv("CC"); cc && *cc)
        return cc;
    return "cc";
}

/// The files a make rule names after its colon (what gcc -MD writes): "\\ " is a
/// space inside a name, a backslash at the end of a line continues the list.
std::vector<std::string> dependencyFiles(const std::string &rule)
{
    std::vector<std::string> files;
    std::string name;
    auto flush = [&] {
        if (!name.empty())
            files.push_back(std::exchange(name, {}));
    };
    const std::size_t colon = rule.find(": ");
    for (std::size_t i = colon == std::string::npos ? rule.size() : colon + 2; i < rule.size(); ++i) {
        const char c = rule[i];
        const char next = i + 1 < rule.size() ? rule[i + 1] : '\0';
        if (c == '\\' && (next == ' ' || next == '\n')) {
            if (next == ' ')
                name += ' ';
            else
                flush();
            ++i;
        } else if (c == ' ' || c == '\t' || c == '\n') {
            flush();
        } else {
            name += c;
        }
    }
    flush();
    return files;
}

/// The first of @p files (what the compiler read) that lies under none of @p allowed (its
/// own copies, the shim), named as it was read; "" when every one does.
std::string fileOutside(const std::vector<std::string> &files, const std::vector<fs::path> &allowed)
{
    std::error_code ec;
    std::vector<fs::path> roots;
    for (const fs::path &a : allowed)
        roots.push_back(fs::weakly_canonical(fs::absolute(a, ec), ec));
    for (const std::string &f : files) {
        // Symlinks and ".." resolved: "ownDir/../../x.h" is not the copies' own.
        const fs::path real = fs::weakly_canonical(fs::absolute(f, ec), ec);
        const bool inside = std::any_of(roots.begin(), roots.end(), [&](const fs::path &root) {
            const auto [r, p] = std::mismatch(root.begin(), root.end(), real.begin(), real.end());
            return r == root.end();
        });
        if (!inside)
            return f;
    }
    return {};
}

/// The line (1-based) of the first line directive of @p text, `#line N "file"` or the
/// preprocessor's own `# N "file"`, 0 when none. The compiler reads the file such a
/// directive names to quote its lines in a message (a #line of /etc/shadow printed its
/// first line, one of /dev/zero made cc1 ask for 4 GiB, one of a FIFO waited for ever):
/// a file outside the build, outside the yes. Backslash-newlines are spliced and comments
/// before the word skipped, as the preprocessor does.
std::int64_t lineDirective(const std::string &text)
{
    std::int64_t line = 1;
    std::size_t i = 0;
    const auto skipBlanks = [&](std::int64_t &newlines) {
        for (;;) {
            if (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\f' || text[i] == '\v'))
                ++i;
            else if (i + 1 < text.size() && text[i] == '\\' && text[i + 1] == '\n')
                i += 2, ++newlines;
            else if (i + 1 < text.size() && text[i] == '/' && text[i + 1] == '*') {
                const std::size_t end = text.find("*/", i + 2);
                const std::size_t stop = end == std::string::npos ? text.size() : end + 2;
                newlines += std::count(text.begin() + static_cast<std::ptrdiff_t>(i),
                                       text.begin() + static_cast<std::ptrdiff_t>(stop), '\n');
                i = stop;
            } else
                return;
        }
    };
    while (i < text.size()) {
        const std::int64_t at = line;
        std::int64_t newlines = 0;
        skipBlanks(newlines);
        bool hash = false;
        if (i < text.size() && text[i] == '#')
            hash = true, ++i;
        else if (i + 1 < text.size() && text[i] == '%' && text[i + 1] == ':')
            hash = true, i += 2;
        if (hash) {
            skipBlanks(newlines);
            const bool digit = i < text.size() && text[i] >= '0' && text[i] <= '9';
            const bool word = text.compare(i, 4, "line") == 0
                              && (i + 4 >= text.size()
                                  || !(std::isalnum(static_cast<unsigned char>(text[i + 4])) || text[i + 4] == '_'));
            if (digit || word)
                return at;
        }
        // On to the next line that is not continued by a backslash.
        for (; i < text.size(); ++i) {
            if (text[i] != '\n')
                continue;
            ++newlines;
            if (i > 0 && text[i - 1] == '\\')
                continue;
            ++i;
            break;
        }
        line = at + newlines;
    }
    return 0;
}

/// The first assembler directive of @p assembly that reads a file or makes one (`.incbin`,
/// `.include`, and the macro directives, whose arguments can spell either), "" when none.
/// The assembler reads what these name after the compiler's -MD list was written: a yes
/// covered the C, not /etc/shadow or a tuning.bin swapped in later. Any case (the assembler
/// takes .INCBIN too), anywhere, a string literal's text included: a directive may follow
/// a ';' or a label on its line, and telling a string from a directive would mean parsing
/// the assembler's syntax as it does.
std::string asmReadsFiles(const std::string &assembly)
{
    static const std::regex directive(R"(\.(incbin|include|macro|irpc?|altmacro)\b)", std::regex::icase);
    std::smatch m;
    if (std::regex_search(assembly, m, directive))
        return "." + m[1].str();
    return {};
}

/// @p output without the compiler's messages about files outside the build (any whose
/// "FILE:LINE" is not under one of @p own): an #include of /etc/shadow made the compiler
/// quote its lines in its errors. A message's lines that follow it (the quoted source
/// line, the caret) go with it; what was left out is counted on a line of its own.
std::string withoutOutsideFiles(const std::string &output, const std::vector<std::string> &own)
{
    static const std::regex located(R"(^(?:In file included from |\s+from )?([^:\s][^:]*):\d+[:,])");
    std::string kept;
    std::size_t dropped = 0;
    bool keep = true;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (std::regex_search(line, m, located)) {
            const std::string file = m[1];
            keep = file.starts_with("<") || std::any_of(own.begin(), own.end(), [&](const std::string &prefix) {
                       return file.starts_with(prefix) && file.find("/../") == std::string::npos;
                   });
        } else if (!line.empty() && line[0] != ' ' && line[0] != '\t') {
            keep = true; // "cc1: ...", the linker's lines
        }
        if (keep)
            kept += line + "\n";
        else
            ++dropped;
    }
    if (dropped > 0)
        kept += "\u2026 " + std::to_string(dropped)
                + " lines about files outside the build (the file and the headers beside it) left out\n";
    return kept;
}

std::string uniqueSuffix()
{
    static std::atomic<unsigned> counter{0};
    return ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1));
}

/// Beside a built object: the compiler's warnings of its build, after the path it was built
/// from and a NUL byte, so that a cache hit shows them as the build did.
std::string warningsRecord(const std::string &sourcePath, const std::string &warnings)
{
    return sourcePath + '\0' + warnings;
}

/// The warnings of a warningsRecord() for the build of @p sourcePath; nothing when there is no
/// record (an object cached before records were kept: it is built again). A record of the same
/// content from another path names that file: its lines name @p sourcePath instead.
std::optional<std::string> recordedWarnings(const fs::path &record, const std::string &sourcePath)
{
    Result<std::string> text = readFile(record.string());
    if (!text)
        return std::nullopt;
    const std::size_t nul = text->find('\0');
    if (nul == std::string::npos)
        return std::nullopt;
    const std::string builtFrom = text->substr(0, nul);
    std::string warnings = text->substr(nul + 1);
    if (builtFrom == sourcePath || warnings.empty())
        return warnings;
    std::string out;
    std::istringstream lines(warnings);
    for (std::string line; std::getline(lines, line);) {
        if (line.starts_with(builtFrom + ":"))
            line.replace(0, builtFrom.size(), sourcePath);
        out += line + "\n";
    }
    return out;
}

/// @p text at @p path, written beside it and renamed over it.
Status writeCacheFile(const fs::path &path, const std::string &text, const char *what)
{
    const std::string tmp = path.string() + uniqueSuffix();
    {
        // Readable and writable by you only, whatever the umask (private_cache.h refuses a
        // file of the cache that others can write), and never through a link.
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        bool written = fd >= 0;
        int error = fd >= 0 ? 0 : errno;
        for (std::size_t at = 0; written && at < text.size();) {
            const ssize_t n = ::write(fd, text.data() + at, text.size() - at);
            if (n < 0 && errno == EINTR)
                continue;
            written = n > 0;
            if (!written)
                error = n < 0 ? errno : ENOSPC;
            at += written ? static_cast<std::size_t>(n) : 0;
        }
        if (fd >= 0 && ::close(fd) != 0 && written) {
            written = false;
            error = errno;
        }
        if (!written) {
            ::unlink(tmp.c_str());
            // The reason, as the system gives it: a full disk is not a cache you cannot write.
            return Error{tmp, 0, "",
                         std::string("cannot write the built governor's ") + what + ": " + std::strerror(error)};
        }
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec)
        return Error{path.string(), 0, "",
                     std::string("cannot store the built governor's ") + what + ": " + ec.message()};
    return Ok{};
}

/// The shim's files and its compiled runtime under cache/shim-<hash>/, made once per shim version.
Result<std::string> shimDirectory(const std::string &cache, const std::string &cc)
{
    Hash h;
    for (const ShimFile &f : kernelShimFiles()) {
        h.add(f.path);
        h.add(f.text);
    }
    h.add(cc);
    const fs::path dir = fs::path(cache) / ("shim-" + h.hex());
    std::error_code ec;
    // Its headers are compiled against and its runtime linked into every governor: all of it
    // must be yours alone, at every level.
    if (fs::exists(dir / "runtime.o", ec)) {
        if (Status s = checkPrivateTree(dir.string()); !s)
            return s.error();
        return dir.string();
    }

    const fs::path tmp = fs::path(cache) / ("shim-" + h.hex() + uniqueSuffix());
    struct RemoveTmp {
        fs::path dir;
        bool keep = false;
        ~RemoveTmp()
        {
            std::error_code e;
            if (!keep)
                fs::remove_all(dir, e);
        }
    } removeTmp{tmp};
    if (Status s = makePrivateFolder(tmp.string()); !s)
        return s.error();
    for (const ShimFile &f : kernelShimFiles()) {
        const fs::path p = tmp / std::string(f.path);
        // Each folder on the way, made private (0700) one level at a time.
        fs::path level = tmp;
        for (const fs::path &part : fs::path(std::string(f.path)).parent_path()) {
            level /= part;
            if (Status s = makePrivateFolder(level.string()); !s)
                return s.error();
        }
        if (Status s = writeCacheFile(p, std::string(f.text), "kernel shim"); !s)
            return Error{p.string(), 0, "",
                         "cannot write the kernel shim: "
                             + s.error().message.substr(s.error().message.rfind(": ") + 2)};
    }
    Result<Finished> r =
        runToEnd({cc, "-std=gnu11", "-O2", "-fPIC", "-fdiagnostics-color=never", "-I", (tmp / "include").string(), "-c",
                  (tmp / "runtime.c").string(), "-o", (tmp / "runtime.o").string()},
                 DEFAULT_BUILD_TIMEOUT_S);
    if (!r)
        return r.error();
    if (r->timedOut)
        return Error{"", 0, "",
                     "compiling idlescope's kernel shim runtime with " + cc + " took more than "
                         + std::to_string(DEFAULT_BUILD_TIMEOUT_S) + " s: stopped"};
    if (r->exitStatus != 0)
        return Error{"", 0, "", "cannot compile idlescope's kernel shim runtime with " + cc + ":\n" + r->output};
    ::chmod((tmp / "runtime.o").c_str(), 0600); // the compiler's file follows the umask
    fs::rename(tmp, dir, ec);
    removeTmp.keep = !ec; // else another process made it first
    if (!fs::exists(dir / "runtime.o", ec))
        return Error{dir.string(), 0, "", "cannot create the kernel shim directory"};
    if (Status s = checkPrivateTree(dir.string()); !s)
        return s.error();
    return dir.string();
}

} // namespace

std::string cacheDirectory()
{
    if (const char *d = std::getenv("IDLESCOPE_CACHE_DIR"); d && *d)
        return d;
    if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
        return std::string(x) + "/idlescope";
    if (const char *home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.cache/idlescope";
    return "/tmp/idlescope-cache-" + std::to_string(::getuid());
}

Result<std::string> privateCacheDirectory()
{
    // The cache holds objects the governor host loads: a folder another user can write to
    // (the shared /tmp fallback made by someone else first) would let them run code as you.
    return openPrivateCacheRoot(cacheDirectory());
}

std::string capCompilerOutput(const std::string &output)
{
    // A binary or a generated file can make the compiler say megabytes; the first
    // errors are the ones to read (later ones mostly follow from them), and a window
    // showing it all stops answering.
    std::size_t end = 0;
    int lines = 0;
    while (end < output.size() && lines < MAX_COMPILER_LINES) {
        std::size_t next = output.find('\n', end);
        next = next == std::string::npos ? output.size() : next + 1;
        if (next > MAX_COMPILER_BYTES && lines > 0)
            break;
        end = std::min(next, MAX_COMPILER_BYTES);
        ++lines;
    }
    if (end >= output.size())
        return output;
    std::size_t more = 0;
    for (std::size_t i = end; i < output.size(); ++i)
        more += output[i] == '\n';
    if (output.back() != '\n')
        ++more;
    std::string out = output.substr(0, end);
    if (out.back() != '\n')
        out += '\n';
    return out + "\u2026 " + std::to_string(more) + " more lines of compiler output\n";
}

std::string explainCompilerOutput(const std::string &output)
{
    // The compiler's messages stay as they are (file:line:column: error: ...);
    // a note follows for each kernel symbol or header the shim does not have.
    static const std::regex implicitFn(R"(implicit declaration of function '([A-Za-z_][A-Za-z0-9_]*)')");
    static const std::regex undefinedRef(R"(undefined reference to `([A-Za-z_][A-Za-z0-9_]*)')");
    static const std::regex missingHeader(R"(fatal error: ([^:]+\.h): No such file or directory)");
    static const std::regex undeclared(R"('([A-Za-z_][A-Za-z0-9_]*)' undeclared)");
    static const std::regex unknownType(R"(unknown type name '([A-Za-z_][A-Za-z0-9_]*)')");
    // "FILE:LINE:" of a message, and a syntax error ("expected ';' before ...").
    static const std::regex where(R"(^(.*?):(\d+):\d+: )");
    static const std::regex syntaxError(R"(error: expected )");
    std::set<std::string> seen;
    std::string notes;
    auto note = [&](const std::string &key, const std::string &text) {
        if (seen.insert(key).second)
            notes += "note: " + text + "\n";
    };
    auto lineOf = [](const std::string &line) {
        std::smatch m;
        return std::regex_search(line, m, where) ? m[1].str() + ":" + m[2].str() : std::string();
    };
    std::vector<std::string> lines;
    std::set<std::string> syntaxErrorLines; // the source lines a syntax error is on
    {
        std::istringstream in(output);
        for (std::string line; std::getline(in, line);) {
            if (std::regex_search(line, syntaxError))
                syntaxErrorLines.insert(lineOf(line));
            lines.push_back(std::move(line));
        }
    }
    for (const std::string &line : lines) {
        std::smatch m;
        if (std::regex_search(line, m, implicitFn) || std::regex_search(line, m, undefinedRef)) {
            note(m[1], m[1].str() + " is not provided yet by idlescope's kernel shim");
        } else if (std::regex_search(line, m, missingHeader)) {
            // #include "x.h" is looked up from the file's folder first: a header of the
            // user's own, not one of the kernel's the shim could provide.
            const std::string header = m[1];
            if (output.find("#include \"" + header + "\"") != std::string::npos) {
                const std::string at = lineOf(line);
                note(header, header + " was not found next to " + at.substr(0, at.rfind(':'))
                                 + " (a build reads the file and the headers beside it only)");
            } else {
                note(header, "<" + header + "> is not provided yet by idlescope's kernel shim");
            }
        } else if (std::regex_search(line, m, undeclared) || std::regex_search(line, m, unknownType)) {
            // On the line of a syntax error the "unknown type" is a word of broken C
            // ("this is not C;"), not a kernel symbol.
            if (!syntaxErrorLines.contains(lineOf(line)))
                note(m[1],
                     "if " + m[1].str() + " is a kernel symbol, it is not provided yet by idlescope's kernel shim");
        }
    }
    std::string out = output;
    if (!out.empty() && out.back() != '\n')
        out += '\n';
    return out + notes;
}

namespace {

/// What a build compiles: the file and the headers beside it, read here once. The yes
/// covers these bytes, and the build reads nothing else of the user's.
struct BuildInput {
    std::string sourceName; ///< the file's name, which its private copy keeps
    std::string source;
    std::vector<SourceHeader> headers;
};

/// The refusal of a file the user has not said yes to: a session (or any file that names
/// this one) is no yes to build and run it, so where the yes is required (the window) a file
/// without it is not even compiled. The message gives the hash a yes is given for.
Status consentProblem(const std::string &sourcePath, const BuildInput &input)
{
    const std::string consentHash = sourceConsentHash(input.sourceName, input.source, input.headers);
    if (sourceConsented(sourcePath, consentHash))
        return Ok{};
    std::string names;
    for (const SourceHeader &hdr : input.headers)
        names += (names.empty() ? "" : ", ") + hdr.name;
    return Error{sourcePath, 0, "",
                 "not built: building and running it needs your yes ("
                     + (input.headers.empty() ? "its content's sha256 is "
                                              : "the sha256 of it and of the headers beside it, " + names + ", is ")
                     + consentHash + "; docs/testing-your-patch.md, \"Consent\")"};
}

/// The refusal of a binary: C source has no NUL byte, a binary (a.out, an object given by
/// mistake) does, and the compiler would answer it with one error for nearly every byte.
Status nulByteProblem(const std::string &sourcePath, const std::string &source)
{
    const std::size_t nul = source.find('\0');
    if (nul == std::string::npos)
        return Ok{};
    return Error{sourcePath, 1 + static_cast<std::int64_t>(std::count(source.begin(), source.begin() + nul, '\n')), "",
                 "not a C source file: it holds a NUL byte (at byte " + std::to_string(nul)
                     + "); give a governor source file (menu.c, teo.c, ...)"};
}

/// The refusal of a line directive in @p text (the file @p file): see lineDirective().
Status lineDirectiveProblem(const std::string &file, const std::string &text)
{
    if (const std::int64_t line = lineDirective(text); line > 0)
        return Error{file, line, "",
                     "not built: a line directive (#line N \"FILE\", or # N \"FILE\") names a file the compiler "
                     "would read to quote it, outside the file and the headers beside it "
                     "(docs/testing-your-patch.md, \"Consent\")"};
    return Ok{};
}

/// The file and its headers, read once and checked in the order a user meets the problems:
/// a path that is no file, an unreadable one, no yes, a binary, a line directive.
Result<BuildInput> readBuildInput(const std::string &sourcePath)
{
    if (Status s = sourcePathProblem(sourcePath); !s)
        return s.error();
    std::error_code fileError;
    if (fs::exists(sourcePath, fileError) && !fs::is_regular_file(sourcePath, fileError))
        return Error{sourcePath, 0, "", "not a file: give a governor source file (menu.c, teo.c, ...)"};
    Result<std::string> source = readFile(sourcePath);
    if (!source)
        return source.error();
    Result<std::vector<SourceHeader>> headers = readSourceHeaders(sourcePath);
    if (!headers)
        return headers.error();
    BuildInput input{fs::path(sourcePath).filename().string(), std::move(*source), std::move(*headers)};
    if (Status s = consentProblem(sourcePath, input); !s)
        return s.error();
    if (Status s = nulByteProblem(sourcePath, input.source); !s)
        return s.error();
    if (Status s = lineDirectiveProblem(sourcePath, input.source); !s)
        return s.error();
    for (const SourceHeader &hdr : input.headers)
        if (Status s = lineDirectiveProblem((fs::path(sourcePath).parent_path() / hdr.name).string(), hdr.text); !s)
            return s.error();
    return input;
}

/// The object's cache key: everything it depends on, which is all the compiler may read
/// (the file, the headers beside it such as the kernel's gov.h, the shim), and the compiler
/// and its flags.
std::string objectKey(const std::string &shim, const std::string &cc, const BuildInput &input)
{
    Hash h;
    h.add(shim);
    h.add(cc);
    for (const char *f : kCompileFlags)
        h.add(f);
    h.add(joinedArguments(kSourceLanguage));
    h.add(input.source);
    for (const SourceHeader &hdr : input.headers) {
        h.add(hdr.name);
        h.add(hdr.text);
    }
    // Objects built before the compiler read private copies only (it read the user's
    // folder, its other headers listed beside the object) are not this key's.
    h.add(kPrivateCopies);
    h.add(kCheckedAssembly);
    return h.hex();
}

/// The object @p so built before, with its warnings as its build gave them; nothing when
/// there is none or it has no warnings record (it is built again).
std::optional<Result<BuiltGovernor>> cachedGovernor(const fs::path &so, const fs::path &warningsFile,
                                                    const std::string &sourcePath)
{
    std::error_code ec;
    if (!fs::exists(so, ec))
        return std::nullopt;
    std::optional<std::string> warnings = recordedWarnings(warningsFile, sourcePath);
    if (!warnings)
        return std::nullopt;
    // The object is loaded and run as you: only one you made, that no one else can write.
    if (Status s = checkPrivateFile(so.string()); !s)
        return Result<BuiltGovernor>(s.error());
    return Result<BuiltGovernor>(BuiltGovernor{so.string(), std::move(*warnings), true});
}

/// The compiler reads the bytes that were hashed and consented to, from copies of its own
/// in the private cache (@p ownDir): the files may change between the hash and the build. A
/// header in quotes is looked up beside the file first: among these copies, and no include
/// path leads into the user's folder.
Status writeOwnCopies(const fs::path &ownDir, const BuildInput &input)
{
    if (Status s = makePrivateFolder(ownDir.string()); !s)
        return s;
    if (Status s = writeCacheFile(ownDir / input.sourceName, input.source, "source copy"); !s)
        return s;
    for (const SourceHeader &hdr : input.headers)
        if (Status s = writeCacheFile(ownDir / hdr.name, hdr.text, "header copy"); !s)
            return s;
    return Ok{};
}

/// Where a build's files lie: the private copies, the shim, and the temporary names of the
/// assembly, the dependency list and the object.
struct BuildPaths {
    std::string cc;
    std::string shim;
    fs::path ownDir;
    std::string tmp; ///< the object, renamed into the cache when it is kept
    std::string assembly;
};

/// What the build's programs said: their run (the compiler's, or the linker's after it with
/// both outputs), the compiler's -MD rule, and the file-reading assembler directive found.
struct BuildRun {
    Result<Finished> run;
    Result<std::string> rule;
    std::string readsFiles;
};

/// The first step: the compiler makes assembly (-S) of the private copy. -MD lists every
/// file it read, the shim's too. Its messages about a file outside the build (an #include
/// of /etc/shadow) would quote it: they are left out, whatever the build's end.
Result<Finished> compileToAssembly(const BuildPaths &paths, const std::string &sourceName, int timeoutSeconds)
{
    std::vector<std::string> argv{paths.cc};
    for (const char *f : kCompileFlags)
        if (std::string_view(f) != "-shared") // a link flag, for the second step
            argv.emplace_back(f);
    // Not in the key: it changes how soon a failing build stops, not what a good one makes.
    if (!isClang(paths.cc))
        argv.emplace_back(kGccErrorLimit);
    argv.insert(argv.end(), {"-isystem", paths.shim + "/include", "-include", "idlescope/kernel.h", "-MD", "-MF",
                             paths.tmp + ".d", "-S", "-o", paths.assembly});
    argv.insert(argv.end(), std::begin(kSourceLanguage), std::end(kSourceLanguage));
    argv.push_back((paths.ownDir / sourceName).string());
    Result<Finished> r = runToEnd(argv, timeoutSeconds, nullptr, buildLimits(timeoutSeconds));
    if (r)
        r->output = withoutOutsideFiles(r->output, {paths.ownDir.string() + "/", paths.shim + "/"});
    return r;
}

/// The second step: the assembly, checked first for the assembler's file-reading
/// directives, is assembled and linked with the shim's runtime. In one step the assembler
/// read what an asm() named (.incbin "/etc/shadow") after -MD had listed the C files only.
/// Assembly only (-x assembler, never assembler-with-cpp: that would preprocess again).
void assembleAndLink(const BuildPaths &paths, int timeoutSeconds, BuildRun &build)
{
    Result<std::string> text = readFile(paths.assembly);
    build.readsFiles = text ? asmReadsFiles(*text) : std::string("(unreadable assembly)");
    if (!build.readsFiles.empty())
        return;
    const std::vector<std::string> link{paths.cc,      "-fPIC",     "-shared",
                                        "-x",          "assembler", paths.assembly,
                                        "-x",          "none",      paths.shim + "/runtime.o",
                                        "-Wl,-z,defs", "-o",        paths.tmp};
    const std::int64_t remaining = timeoutSeconds; // the assembler and the linker take little
    Result<Finished> linked = runToEnd(link, static_cast<int>(remaining), nullptr, buildLimits(timeoutSeconds));
    if (linked)
        linked->output = build.run->output + linked->output;
    build.run = std::move(linked);
}

/// Both steps, with the messages naming the user's files (@p sourcePath's folder), not
/// the copies.
BuildRun runBuild(const BuildPaths &paths, const std::string &sourcePath, const std::string &sourceName,
                  int timeoutSeconds)
{
    BuildRun build{compileToAssembly(paths, sourceName, timeoutSeconds), readFile(paths.tmp + ".d"), {}};
    std::error_code ec;
    fs::remove(paths.tmp + ".d", ec);
    if (build.run && !build.run->timedOut && build.run->exitStatus == 0)
        assembleAndLink(paths, timeoutSeconds, build);
    const std::string ownPrefix = paths.ownDir.string() + "/";
    const std::string userPrefix =
        fs::path(sourcePath).parent_path().empty() ? std::string() : fs::path(sourcePath).parent_path().string() + "/";
    if (build.run)
        for (std::size_t at = 0; (at = build.run->output.find(ownPrefix, at)) != std::string::npos;
             at += userPrefix.size())
            build.run->output.replace(at, ownPrefix.size(), userPrefix);
    return build;
}

/// Whether a failed build hit one of buildLimits(): a signal of the limits, or a compiler
/// or assembler saying it ran out of memory or file size.
bool hitBuildLimit(const Finished &run)
{
    return run.signal == SIGXFSZ || run.signal == SIGXCPU || run.signal == SIGKILL
           || run.output.find("out of memory") != std::string::npos
           || run.output.find("cannot allocate") != std::string::npos
           || run.output.find("memory exhausted") != std::string::npos
           || run.output.find("File size limit exceeded") != std::string::npos
           || run.output.find("File too large") != std::string::npos;
}

/// Why the object of @p build is not kept, if it is not: the build failed or ran out of
/// time, its assembly reads files, the compiler read a file outside the copies and the shim
/// (or did not say what it read), or the object is larger than the host loads.
Status buildRefusal(const BuildPaths &paths, const std::string &sourcePath, int timeoutSeconds, const BuildRun &build)
{
    if (!build.run)
        return build.run.error();
    const Finished &r = *build.run;
    if (r.timedOut)
        return Error{sourcePath, 0, "",
                     "the build took more than " + std::to_string(timeoutSeconds)
                         + " s: stopped (does the file include a FIFO or a device?)"};
    if (!build.readsFiles.empty())
        return Error{sourcePath, 0, "",
                     "not built: its assembly holds the directive " + build.readsFiles
                         + ", with which the assembler reads files (or spells such a directive) beyond the file and "
                           "the headers beside it, outside what you allowed (docs/testing-your-patch.md, \"Consent\")"};
    if (r.exitStatus != 0 || r.signal != 0)
        return Error{"", 0, "",
                     sourcePath + " does not build:\n" + explainCompilerOutput(capCompilerOutput(r.output))
                         + (hitBuildLimit(r) ? "note: the build has 1 GiB of memory per compiler process, "
                                                   + std::to_string(HOST_OBJECT_LIMIT >> 20)
                                                   + " MiB for the files it writes and the build's time in CPU time\n"
                                             : std::string())};
    if (const std::string outside = fileOutside(build.rule ? dependencyFiles(*build.rule) : std::vector<std::string>{},
                                                {paths.ownDir, fs::path(paths.shim)});
        !outside.empty() || !build.rule)
        return Error{sourcePath, 0, "",
                     outside.empty() ? "not built: the compiler did not say which files it read"
                                     : "not built: the compiler read " + outside
                                           + ", which is not the file or a header beside it: a build reads only "
                                             "what you allowed (docs/testing-your-patch.md, \"Consent\")"};
    // The host loads no larger object (its private root is sized from it).
    if (struct stat st{}; ::stat(paths.tmp.c_str(), &st) != 0 || st.st_size > HOST_OBJECT_LIMIT)
        return Error{sourcePath, 0, "",
                     "not built: the built governor is larger than " + std::to_string(HOST_OBJECT_LIMIT >> 20)
                         + " MiB, the most the governor sandbox loads"};
    return Ok{};
}

/// The built object @p tmp into the cache as @p so, its warnings record first: an object
/// without one is built again.
Status storeBuilt(const std::string &tmp, const fs::path &so, const fs::path &warningsFile, const std::string &record)
{
    if (Status s = writeCacheFile(warningsFile, record, "warnings"); !s)
        return s;
    ::chmod(tmp.c_str(), 0700); // the compiler's file follows the umask
    std::error_code ec;
    fs::rename(tmp, so, ec);
    if (ec)
        return Error{so.string(), 0, "", "cannot store the built governor: " + ec.message()};
    return Ok{};
}

} // namespace

Result<BuiltGovernor> buildSourceGovernor(const std::string &sourcePath, int timeoutSeconds)
{
    Result<BuildInput> input = readBuildInput(sourcePath);
    if (!input)
        return input.error();
    const std::string cc = compiler();
    Result<std::string> privateCache = privateCacheDirectory();
    if (!privateCache)
        return privateCache.error();
    const fs::path governors = fs::path(*privateCache) / "governors";
    if (Status s = makePrivateFolder(governors.string()); !s)
        return s.error();
    Result<std::string> shim = shimDirectory(*privateCache, cc);
    if (!shim)
        return shim.error();
    const fs::path so = governors / (objectKey(*shim, cc, *input) + ".so");
    const fs::path warningsFile = fs::path(so.string() + ".warnings");
    if (std::optional<Result<BuiltGovernor>> hit = cachedGovernor(so, warningsFile, sourcePath))
        return std::move(*hit);

    const std::string tmp = so.string() + uniqueSuffix();
    const BuildPaths paths{cc, *shim, fs::path(tmp + ".src"), tmp, tmp + ".s"};
    struct RemoveCopies {
        const BuildPaths &paths;
        ~RemoveCopies()
        {
            std::error_code e;
            fs::remove_all(paths.ownDir, e);
            ::unlink(paths.assembly.c_str());
        }
    } removeCopies{paths};
    if (Status s = writeOwnCopies(paths.ownDir, *input); !s)
        return s.error();
    const BuildRun build = runBuild(paths, sourcePath, input->sourceName, timeoutSeconds);
    Status kept = buildRefusal(paths, sourcePath, timeoutSeconds, build);
    const std::string warnings = kept ? capCompilerOutput(build.run->output) : std::string();
    if (kept)
        kept = storeBuilt(tmp, so, warningsFile, warningsRecord(sourcePath, warnings));
    if (!kept) {
        std::error_code ec;
        fs::remove(tmp, ec);
        return kept.error();
    }
    return BuiltGovernor{so.string(), warnings, false};
}

} // namespace idlescope::source_governor
