# SPDX-License-Identifier: GPL-3.0-or-later
# Warnings are applied per target, never globally.
function(idlescope_set_warnings target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                           -Wno-missing-field-initializers
                           $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>)
endfunction()

# Qt-facing targets: no implicit char* <-> QString conversions.
function(idlescope_qt_strict target)
    target_compile_definitions(${target} PRIVATE QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII
                               QT_USE_QSTRINGBUILDER QT_NO_FOREACH)
endfunction()
