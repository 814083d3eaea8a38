# SPDX-License-Identifier: GPL-3.0-or-later
#
# Every file of the build is named in a CMakeLists.txt (no file(GLOB)). So
# that a new file cannot be left out silently, the configure step writes what
# the lists name to <build>/listed_sources.txt, and tst_source_lists compares
# it with the source tree: a tests/*/tst_*.cpp, a .cpp of core/, app/,
# widgets/ or bench/, a file of the kernel shim or a built-in target JSON that
# no list names fails that test.

# Files the build reads without compiling them (the embedded kernel shim and
# target tables): idlescope_listed_files(<dir> <names relative to dir>...).
function(idlescope_listed_files dir)
    foreach(_f IN LISTS ARGN)
        set_property(GLOBAL APPEND PROPERTY IDLESCOPE_LISTED_FILES ${dir}/${_f})
    endforeach()
endfunction()

# Folders whose files tst_source_lists looks for in the lists; a part that
# is not configured (-DIDLESCOPE_BUILD_GUI=OFF ...) adds none.
function(idlescope_checked_folders)
    foreach(_d IN LISTS ARGN)
        set_property(GLOBAL APPEND PROPERTY IDLESCOPE_CHECKED_FOLDERS ${_d})
    endforeach()
endfunction()

function(_idlescope_collect_sources dir out)
    set(_all "")
    get_property(_targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(_t IN LISTS _targets)
        get_target_property(_type ${_t} TYPE)
        if(_type STREQUAL "INTERFACE_LIBRARY" OR _type STREQUAL "UTILITY")
            continue()
        endif()
        get_target_property(_srcs ${_t} SOURCES)
        get_target_property(_tdir ${_t} SOURCE_DIR)
        foreach(_s IN LISTS _srcs)
            if(_s MATCHES "^\\$<")
                continue()
            endif()
            cmake_path(ABSOLUTE_PATH _s BASE_DIRECTORY ${_tdir} NORMALIZE)
            list(APPEND _all ${_s})
        endforeach()
    endforeach()
    get_property(_subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    foreach(_d IN LISTS _subdirs)
        _idlescope_collect_sources(${_d} _sub)
        list(APPEND _all ${_sub})
    endforeach()
    set(${out} ${_all} PARENT_SCOPE)
endfunction()

# Called last by the top-level CMakeLists.txt: writes listed_sources.txt
# ("folder <path>" lines, then one listed file a line, relative to the
# source tree).
function(idlescope_write_source_lists)
    _idlescope_collect_sources(${PROJECT_SOURCE_DIR} _sources)
    get_property(_files GLOBAL PROPERTY IDLESCOPE_LISTED_FILES)
    get_property(_folders GLOBAL PROPERTY IDLESCOPE_CHECKED_FOLDERS)
    set(_text "")
    foreach(_d IN LISTS _folders)
        string(APPEND _text "folder ${_d}\n")
    endforeach()
    set(_rel "")
    foreach(_f IN LISTS _sources _files)
        cmake_path(IS_PREFIX PROJECT_SOURCE_DIR ${_f} NORMALIZE _inside)
        cmake_path(IS_PREFIX PROJECT_BINARY_DIR ${_f} NORMALIZE _generated)
        if(_inside AND NOT _generated)
            cmake_path(RELATIVE_PATH _f BASE_DIRECTORY ${PROJECT_SOURCE_DIR})
            list(APPEND _rel ${_f})
        endif()
    endforeach()
    list(REMOVE_DUPLICATES _rel)
    list(SORT _rel)
    foreach(_f IN LISTS _rel)
        string(APPEND _text "${_f}\n")
    endforeach()
    file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/listed_sources.txt CONTENT "${_text}" @ONLY)
endfunction()
