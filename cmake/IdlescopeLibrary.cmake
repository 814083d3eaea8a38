# SPDX-License-Identifier: GPL-3.0-or-later
# A static library of the project, idlescope_<part>: declared with its alias
# idlescope::<part> (what the other targets link) and the project's warnings
# in one place, so that no library goes without either. Sources may follow
# here or in target_sources().
function(idlescope_add_library part)
    add_library(idlescope_${part} STATIC ${ARGN})
    add_library(idlescope::${part} ALIAS idlescope_${part})
    idlescope_set_warnings(idlescope_${part})
endfunction()
