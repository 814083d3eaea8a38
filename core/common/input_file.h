// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file input_file.h
 * Reading an input file without hanging or exhausting memory. A FIFO blocks
 * open() until a writer comes (for ever), and /dev/zero or a device reports
 * size 0 and never ends: only regular files are read, checked before and
 * after opening (symlinks followed), and each kind of input has a size cap.
 */
#pragma once

#include "core/common/error.h"

#include <cstddef>
#include <string>

namespace idlescope {

/// Ok when @p path (symlinks followed) is a regular file; else an error naming
/// what it is (a folder, a FIFO, a device) and that @p kind must be a file.
Status checkRegularInput(const std::string &path, const char *kind);

/**
 * The whole of the regular file @p path, refused when it is not a regular
 * file (never blocks: opened non-blocking) or longer than @p maxBytes
 * ("too large for <kind> (over N KiB/MiB)").
 */
Result<std::string> readInputFile(const std::string &path, std::size_t maxBytes, const char *kind);

} // namespace idlescope
