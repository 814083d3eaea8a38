// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * odd_bool.c - a governor, written for idlescope's tests (it is no kernel
 * code), that stores the byte 2 in *stop_tick through a char pointer, as a
 * careless or hostile file may: no bool the kernel's C writes holds 2, but the
 * host reads the byte. It always picks state 0.
 *
 * The host took the byte for a C++ bool (0 or 1): gcc turned "stop_tick ?
 * DECISION_STOP_TICK : 0" into a shift, so 2 became the next flag,
 * DECISION_POLL_LIMIT, without its 8-byte value, and idlescope read the
 * following decisions as that value; under UndefinedBehaviorSanitizer it is a
 * load of an invalid bool. Any byte but 0 stops the tick, as a C bool
 * converted from it would.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>

static int odd_bool_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			   bool *stop_tick)
{
	*(unsigned char *)stop_tick = 2;
	return 0;
}

static struct cpuidle_governor odd_bool_governor = {
	.name =		"odd_bool",
	.rating =	5,
	.select =	odd_bool_select,
};

static int __init init_odd_bool(void)
{
	return cpuidle_register_governor(&odd_bool_governor);
}

postcore_initcall(init_odd_bool);
