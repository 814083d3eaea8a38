/* SPDX-License-Identifier: GPL-3.0-or-later */
/* idlescope kernel shim: the common governor definitions (RESIDENCY_THRESHOLD_NS, SAFE_TIMER_RANGE_NS) are in idlescope/kernel.h. */
#include <idlescope/kernel.h>
