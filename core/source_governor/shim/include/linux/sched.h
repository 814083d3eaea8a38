/* SPDX-License-Identifier: GPL-3.0-or-later */
/* idlescope kernel shim: everything a governor file uses is in idlescope/kernel.h. */
#include <idlescope/kernel.h>
