// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * loud_refusal.c - a governor that prints one line of 15 characters
 * ("loud select!!!" and its newline) in every select() and picks state 0,
 * until its 10001st call (entry 10000), where it returns drv->state_count,
 * one past the deepest state, for idlescope's tests: by then it has printed
 * 150,000 characters, more than the 64 KiB of its log idlescope keeps, and
 * the host's refusal written after them must still be told.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>

static DEFINE_PER_CPU(int, loud_calls);

static int loud_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		       bool *stop_tick)
{
	int *calls = this_cpu_ptr(&loud_calls);

	pr_info("loud select!!!\n");
	return (*calls)++ == 10000 ? drv->state_count : 0;
}

static struct cpuidle_governor loud_governor = {
	.name =		"loud",
	.rating =	1,
	.select =	loud_select,
};

static int __init init_loud(void)
{
	return cpuidle_register_governor(&loud_governor);
}

postcore_initcall(init_loud);
