// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * chatty.c - a governor that prints one line of 15 characters
 * ("chatty select!" and its newline) in every select() and always picks
 * state 0, for idlescope's tests: on a long stream its log passes what
 * idlescope keeps (64 KiB), which must end on a whole line and say where
 * it was cut.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>

static int chatty_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			 bool *stop_tick)
{
	pr_info("chatty select!\n");
	return 0;
}

static struct cpuidle_governor chatty_governor = {
	.name =		"chatty",
	.rating =	1,
	.select =	chatty_select,
};

static int __init init_chatty(void)
{
	return cpuidle_register_governor(&chatty_governor);
}

postcore_initcall(init_chatty);
