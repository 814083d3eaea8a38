// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * spoof_host.c - a governor that prints, in each select(), 30 lines that
 * begin as the governor host's own lines do ("idlescope-governor-host: "
 * and 3,000 'x'), and picks state 0, until its 2001st call (entry 2000),
 * where it returns drv->state_count, one past the deepest state, for
 * idlescope's tests: about 180 MB of such lines before the host's real
 * refusal. idlescope keeps the host's lines found past the 64 KiB of the
 * log it keeps; of these it must keep the last few, not all of them.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>

static DEFINE_PER_CPU(int, spoof_calls);
static char spoof_line[3001];

static int spoof_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			bool *stop_tick)
{
	int *calls = this_cpu_ptr(&spoof_calls);
	int i;

	for (i = 0; i < 3000; i++)
		spoof_line[i] = 'x';
	for (i = 0; i < 30; i++)
		pr_info("idlescope-governor-host: %s\n", spoof_line);
	return (*calls)++ == 2000 ? drv->state_count : 0;
}

static struct cpuidle_governor spoof_governor = {
	.name =		"spoof",
	.rating =	1,
	.select =	spoof_select,
};

static int __init init_spoof(void)
{
	return cpuidle_register_governor(&spoof_governor);
}

postcore_initcall(init_spoof);
