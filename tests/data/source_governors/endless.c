// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * endless.c - a governor whose reflect() never returns on its second call
 * (entry 1, stream row 1 of hop.csv), for idlescope's tests: the replay
 * must stop it at its timeout and say where it was.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>

static DEFINE_PER_CPU(int, endless_reflects);

static int endless_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			  bool *stop_tick)
{
	return 0;
}

static void endless_reflect(struct cpuidle_device *dev, int index)
{
	int *reflects = this_cpu_ptr(&endless_reflects);

	if (++*reflects == 2)
		for (;;)
			barrier();
}

static struct cpuidle_governor endless_governor = {
	.name =		"endless",
	.rating =	1,
	.select =	endless_select,
	.reflect =	endless_reflect,
};

static int __init init_endless(void)
{
	return cpuidle_register_governor(&endless_governor);
}

postcore_initcall(init_endless);
