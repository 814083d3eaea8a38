// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * window.c - a governor that owns the polling window (dev->poll_limit_ns)
 * as haltpoll does, written for idlescope's tests in the kernel's style (it
 * is no kernel code). It polls (keeping the tick) unless the last entry was
 * a poll that its window ended, then halts (stopping the tick). select()
 * opens a 20 us window when there is none; every halt doubles the window in
 * reflect(), up to 80 us.
 *
 * On poll_halt.json (POLL; halt 1/1 us) and window.csv (gap 10 us, timer
 * 1 s, ticks far away), a poll lasts min(window, time to the wakeup) and
 * its window ended it when window < time to the wakeup:
 *
 *  row wake   entry: window  decision            residency  poll_time_limit
 *   0  50 us  0: none->20    poll                20 us      1 (20 < 50)
 *             1: 20          halt (window ended) 30+1 us   -> window 40
 *   1  30 us  0: 40          poll (after a halt) 30 us      0 (40 < 30 no)
 *   2  100 us 0: 40          poll                40 us      1
 *             1: 40          halt                60+1 us   -> window 80
 *   3  10 us  0: 80          poll                10 us      0
 *
 * Every poll is "below" (it lasted at least halt's 1 us target residency),
 * no halt is above or below (no deeper state). end_now_ns = 1e9 + 4 gaps
 * + 20 + 31 + 30 + 40 + 61 + 10 us = 1,000,232,000.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>

#define WINDOW_START_NS	(20 * NSEC_PER_USEC)
#define WINDOW_MAX_NS	(80 * NSEC_PER_USEC)

static int window_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			 bool *stop_tick)
{
	if (!dev->poll_limit_ns)
		dev->poll_limit_ns = WINDOW_START_NS;
	else if (dev->last_state_idx == 0 && dev->poll_time_limit)
		return 1;

	*stop_tick = false;
	return 0;
}

static void window_reflect(struct cpuidle_device *dev, int index)
{
	dev->last_state_idx = index;
	if (index == 1)
		dev->poll_limit_ns = min_t(u64, 2 * dev->poll_limit_ns, WINDOW_MAX_NS);
}

static int window_enable_device(struct cpuidle_driver *drv,
				struct cpuidle_device *dev)
{
	dev->poll_limit_ns = 0;
	return 0;
}

static struct cpuidle_governor window_governor = {
	.name =		"window",
	.rating =	1,
	.enable =	window_enable_device,
	.select =	window_select,
	.reflect =	window_reflect,
};

static int __init init_window(void)
{
	return cpuidle_register_governor(&window_governor);
}

postcore_initcall(init_window);
