// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * broken.c - a governor with a syntax error on line 15 (a missing ';'
 * before the return), for idlescope's tests: the build must fail with the
 * compiler's own "broken.c:15:..." message.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>

static int broken_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			 bool *stop_tick)
{
	int idx = drv->state_count - 1

	return idx;
}

static struct cpuidle_governor broken_governor = {
	.name =		"broken",
	.rating =	1,
	.select =	broken_select,
};

static int __init init_broken(void)
{
	return cpuidle_register_governor(&broken_governor);
}

postcore_initcall(init_broken);
