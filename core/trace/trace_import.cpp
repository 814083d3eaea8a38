// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/trace/trace_import.h"

#include "core/common/input_file.h"
#include "core/formats/decompressed_file.h"
#include "core/formats/line_reader.h"
#include "core/trace/text_importer.h"

#include <cstring>

namespace idlescope::trace {

namespace {

// trace-cmd's file magic (trace-cmd.dat(5)): 0x17 0x08 0x44 "tracing".
constexpr char DAT_MAGIC[] = "\x17\x08\x44tracing";
constexpr size_t DAT_MAGIC_LEN = 10;

// Progress is reported about every this many lines (cheap, frequent enough to cancel in < 1 s).
constexpr std::int64_t PROGRESS_LINES = 1 << 16;

} // namespace

Result<TraceFormat> sniffTraceFile(const std::string &path)
{
    // A FIFO would block open() for ever; a device would be read without end.
    if (Status s = checkRegularInput(path, "a trace"); !s)
        return s.error();
    DecompressedFile in(path);
    char head[DAT_MAGIC_LEN] = {};
    std::size_t n = 0;
    while (in.ok() && n < DAT_MAGIC_LEN) {
        const std::size_t got = in.read(head + n, DAT_MAGIC_LEN - n);
        if (got == 0)
            break;
        n += got;
    }
    if (!in.ok())
        return in.error();
    if (n == DAT_MAGIC_LEN && std::memcmp(head, DAT_MAGIC, DAT_MAGIC_LEN) == 0)
        return TraceFormat::TraceCmdDat;
    return TraceFormat::Unknown; // text: the line parser tells which kind
}

Result<TraceImport> importTrace(const std::string &path, const ImportConfig &config, const ProgressFn &progress)
{
    LineReader reader(path);
    if (!reader.ok())
        return reader.error();
    Result<TraceFormat> format = sniffTraceFile(path);
    if (!format)
        return format.error();
    if (*format == TraceFormat::TraceCmdDat)
        return importTraceDat(path, config, progress);

    TextImporter importer(path, config);
    std::string_view line;
    while (reader.next(line)) {
        const std::int64_t no = reader.lineNumber();
        if (Status s = importer.line(line, no); !s)
            return s.error();
        if (progress && no % PROGRESS_LINES == 0 && !progress(reader.bytesRead(), reader.fileSize()))
            return Error{path, no, "", "import cancelled", ErrorCode::Cancelled};
    }
    if (!reader.ok())
        return reader.error();
    if (progress)
        progress(reader.fileSize(), reader.fileSize());
    return importer.finish(reader.lineNumber());
}

Result<TraceImport> importTraceText(std::string_view text, const std::string &label, const ImportConfig &config)
{
    TextImporter importer(label, config);
    std::int64_t no = 0;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos)
            nl = text.size();
        std::string_view line = text.substr(pos, nl - pos);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        pos = nl + 1;
        if (Status s = importer.line(line, ++no); !s)
            return s.error();
    }
    return importer.finish(no);
}

} // namespace idlescope::trace
