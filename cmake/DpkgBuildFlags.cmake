# SPDX-License-Identifier: GPL-3.0-or-later
#
# Debian's hardening flags (dpkg-buildflags with hardening=+all: stack
# protector, _FORTIFY_SOURCE, format checks, RELRO and immediate binding) for
# every target, so that the binaries the .deb ships are hardened like
# Debian's own. Optimisation and debug flags (-O2, -g) and -ffile-prefix-map
# are left out: the build type chooses those, and a path in the flags would
# make one worktree's compiler cache useless to another.
#
# On by default where dpkg-buildflags exists and the build is optimised
# (_FORTIFY_SOURCE needs optimisation; a Debug build keeps its plain flags),
# and off for sanitizer and fuzzer builds (fortified libc calls go around the
# sanitizers' interceptors, which would then miss overflows).

find_program(DPKG_BUILDFLAGS dpkg-buildflags)
if(DPKG_BUILDFLAGS AND NOT CMAKE_BUILD_TYPE STREQUAL "Debug" AND NOT IDLESCOPE_BUILD_FUZZERS
   AND NOT CMAKE_CXX_FLAGS MATCHES "-fsanitize")
    set(_idlescope_hardening_default ON)
else()
    set(_idlescope_hardening_default OFF)
endif()
option(IDLESCOPE_DPKG_BUILDFLAGS "Add Debian's hardening flags from dpkg-buildflags"
       ${_idlescope_hardening_default})

function(_idlescope_dpkg_flags var out)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env DEB_BUILD_MAINT_OPTIONS=hardening=+all
                            ${DPKG_BUILDFLAGS} --get ${var}
                    OUTPUT_VARIABLE _flags OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
        message(FATAL_ERROR "dpkg-buildflags --get ${var} failed (${_rc})")
    endif()
    separate_arguments(_list UNIX_COMMAND "${_flags}")
    list(FILTER _list EXCLUDE REGEX "^-(O|g)|^-ffile-prefix-map=|^-fdebug-prefix-map=")
    list(JOIN _list " " _joined)
    set(${out} "${_joined}" PARENT_SCOPE)
endfunction()

if(IDLESCOPE_DPKG_BUILDFLAGS)
    if(NOT DPKG_BUILDFLAGS)
        message(FATAL_ERROR "IDLESCOPE_DPKG_BUILDFLAGS is ON but dpkg-buildflags (dpkg-dev) is missing")
    endif()
    _idlescope_dpkg_flags(CPPFLAGS _cpp)
    _idlescope_dpkg_flags(CXXFLAGS _cxx)
    _idlescope_dpkg_flags(LDFLAGS _ld)
    string(APPEND CMAKE_CXX_FLAGS " ${_cpp} ${_cxx}")
    string(APPEND CMAKE_EXE_LINKER_FLAGS " ${_ld}")
    string(APPEND CMAKE_SHARED_LINKER_FLAGS " ${_ld}")
    message(STATUS "Hardening flags from dpkg-buildflags: ${_cpp} ${_cxx} | ${_ld}")
endif()
