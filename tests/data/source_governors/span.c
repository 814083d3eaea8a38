// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * span.c - a governor that measures each idle span with local_clock(), as
 * teo did from v5.13 to v6.18 (time_span_ns), written for idlescope's tests
 * in the kernel's style (it is no kernel code). select() reads the clock;
 * reflect() reads it again, and a span of at least 100 us sends the next
 * entry to C2, a shorter one to C1. It never clears *stop_tick.
 *
 * In the reference replay local_clock() in reflect() is the select's time
 * plus the residency. On three_states.json and hop.csv every span is one
 * entry lasting until its wakeup, so residency = wake_ns + exit latency:
 *
 *  row wake_ns  measured span before it   state  residency
 *   0  200000   none (zeroed device)       C1(0)  201000
 *   1  2000000  201000 >= 100000           C2(1)  2010000
 *   2  30000    2010000 >= 100000          C2(1)  40000
 *   3  20000    40000 < 100000             C1(0)  21000
 *   4  5000     21000 < 100000             C1(0)  6000
 *   5  150000   6000 < 100000              C1(0)  151000
 *
 * below on rows 0, 1 and 5 (residency - exit latency >= the next state's
 * target residency), above on row 2 (40000 < C2's 50000 and C1 fits).
 * A clock that stood still between select() and reflect() would measure 0
 * every time and keep every entry in C1.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>

#define LONG_SPAN_NS	(100 * NSEC_PER_USEC)

struct span_device {
	u64 select_time_ns;
	bool deep;
};

static DEFINE_PER_CPU(struct span_device, span_devices);

static int span_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		       bool *stop_tick)
{
	struct span_device *data = this_cpu_ptr(&span_devices);

	data->select_time_ns = local_clock();
	return data->deep ? 1 : 0;
}

static void span_reflect(struct cpuidle_device *dev, int index)
{
	struct span_device *data = this_cpu_ptr(&span_devices);

	dev->last_state_idx = index;
	data->deep = local_clock() - data->select_time_ns >= LONG_SPAN_NS;
}

static int span_enable_device(struct cpuidle_driver *drv,
			      struct cpuidle_device *dev)
{
	struct span_device *data = per_cpu_ptr(&span_devices, dev->cpu);

	memset(data, 0, sizeof(*data));
	return 0;
}

static struct cpuidle_governor span_governor = {
	.name =		"span",
	.rating =	5,
	.enable =	span_enable_device,
	.select =	span_select,
	.reflect =	span_reflect,
};

static int __init init_span(void)
{
	return cpuidle_register_governor(&span_governor);
}

postcore_initcall(init_span);
