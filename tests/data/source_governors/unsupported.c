// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * unsupported.c - a governor that calls a kernel helper idlescope's shim
 * does not have (get_cpu_idle_time_us(), of the cpufreq governors), for
 * idlescope's tests: the build must name it as not provided yet.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <linux/tick.h>

static int unsupported_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			      bool *stop_tick)
{
	u64 wall;

	return get_cpu_idle_time_us(dev->cpu, &wall) > 1000 ? 1 : 0;
}

static struct cpuidle_governor unsupported_governor = {
	.name =		"unsupported",
	.rating =	1,
	.select =	unsupported_select,
};

static int __init init_unsupported(void)
{
	return cpuidle_register_governor(&unsupported_governor);
}

postcore_initcall(init_unsupported);
