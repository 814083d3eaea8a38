// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * unregistered.c - a governor that is never registered (its initcall line
 * is missing), for idlescope's tests: the replay must say that the file
 * registers no governor.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>

static int unregistered_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			       bool *stop_tick)
{
	return 0;
}

static struct cpuidle_governor unregistered_governor = {
	.name =		"unregistered",
	.rating =	1,
	.select =	unregistered_select,
};

static int __init __maybe_unused init_unregistered(void)
{
	return cpuidle_register_governor(&unregistered_governor);
}
