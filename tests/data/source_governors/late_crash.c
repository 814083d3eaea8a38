// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * late_crash.c - a governor that picks state 0 until its 100,001st select()
 * (entry 100000), where it dereferences a NULL pointer, for idlescope's
 * tests. By then the host has sent its first decisions (it writes them in
 * pieces of 64 KiB, one byte each here), so idlescope is already playing
 * them back when the crash comes: it must still name SIGSEGV at entry 100000.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>

static DEFINE_PER_CPU(int, late_crash_calls);

static int late_crash_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			     bool *stop_tick)
{
	int *calls = this_cpu_ptr(&late_crash_calls);
	volatile int *nowhere = NULL;

	if ((*calls)++ == 100000)
		return *nowhere;
	return 0;
}

static struct cpuidle_governor late_crash_governor = {
	.name =		"late_crash",
	.rating =	1,
	.select =	late_crash_select,
};

static int __init init_late_crash(void)
{
	return cpuidle_register_governor(&late_crash_governor);
}

postcore_initcall(init_late_crash);
