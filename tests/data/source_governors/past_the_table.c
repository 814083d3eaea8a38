// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * past_the_table.c - a governor whose select() returns drv->state_count, one
 * past the deepest state, on its third call (entry 2), for idlescope's tests:
 * the replay must refuse the index and name the entry.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>

static DEFINE_PER_CPU(int, past_calls);

static int past_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		       bool *stop_tick)
{
	int *calls = this_cpu_ptr(&past_calls);

	return (*calls)++ == 2 ? drv->state_count : 0;
}

static struct cpuidle_governor past_governor = {
	.name =		"past",
	.rating =	1,
	.select =	past_select,
};

static int __init init_past(void)
{
	return cpuidle_register_governor(&past_governor);
}

postcore_initcall(init_past);
