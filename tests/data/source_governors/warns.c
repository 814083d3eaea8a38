// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * warns.c - a governor that builds with one compiler warning (the
 * #warning below, which gcc and clang both put at line 13, column 2) and
 * always picks state 0, for idlescope's tests: the warning is shown on
 * its first build and again on every build found in the cache.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>

/* The line and column the tests look for: keep it on line 13. */

#warning "warns.c is built with this warning"

static int warns_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			bool *stop_tick)
{
	return 0;
}

static struct cpuidle_governor warns_governor = {
	.name =		"warns",
	.rating =	1,
	.select =	warns_select,
};

static int __init init_warns(void)
{
	return cpuidle_register_governor(&warns_governor);
}

postcore_initcall(init_warns);
