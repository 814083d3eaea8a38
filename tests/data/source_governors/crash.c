// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * crash.c - a governor that dereferences a NULL pointer in select() on its
 * fourth call (entry 3), for idlescope's tests: the replay must report
 * SIGSEGV at entry 3 and survive it.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>

static DEFINE_PER_CPU(int, crash_calls);

static int crash_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			bool *stop_tick)
{
	int *calls = this_cpu_ptr(&crash_calls);
	volatile int *nowhere = NULL;

	if ((*calls)++ == 3)
		return *nowhere;
	return 0;
}

static struct cpuidle_governor crash_governor = {
	.name =		"crash",
	.rating =	1,
	.select =	crash_select,
};

static int __init init_crash(void)
{
	return cpuidle_register_governor(&crash_governor);
}

postcore_initcall(init_crash);
