// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * hop.c - a tiny ladder-like governor, written for idlescope's tests in the
 * kernel's style (it is no kernel code).
 *
 * It stands on one state. After an idle period (the last residency less the
 * exit latency of the state it stood on) of at least twice the next deeper
 * state's target residency it hops one state deeper; after one shorter than
 * its own state's target residency it hops one state shallower. It never
 * clears *stop_tick, so the tick is always stopped.
 *
 * On three_states.json (C1 1/1 us, C2 10/50 us, C3 100/500 us exit latency /
 * target residency, no polling state) and hop.csv every span is one entry
 * that lasts until its wakeup, so residency = wake_ns + exit latency:
 *
 *  row wake_ns  last idle (prev residency - prev exit)  state  residency
 *   0  200000   0 - 1000 = -1000 (zeroed device)          C1(0)  201000
 *   1  2000000  201000 - 1000 = 200000 >= 2*50000: deeper C2(1)  2010000
 *   2  30000    2010000 - 10000 = 2000000 >= 2*500000     C3(2)  130000
 *   3  20000    130000 - 100000 = 30000 < 500000: back    C2(1)  30000
 *   4  5000     30000 - 10000 = 20000 < 50000: back       C1(0)  6000
 *   5  150000   6000 - 1000 = 5000, C1 is the shallowest  C1(0)  151000
 *
 * above/below as cpuidle_enter_state() counts them: rows 0, 1 and 5 below
 * (residency - exit latency >= the next state's target residency), rows 2
 * and 3 above (residency < the state's target residency), row 4 neither.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>

struct hop_device {
	int idx;
};

static DEFINE_PER_CPU(struct hop_device, hop_devices);

static int hop_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		      bool *stop_tick)
{
	struct hop_device *data = this_cpu_ptr(&hop_devices);
	s64 last_idle = dev->last_residency_ns -
			drv->states[data->idx].exit_latency_ns;

	if (data->idx + 1 < drv->state_count &&
	    last_idle >= 2 * drv->states[data->idx + 1].target_residency_ns)
		data->idx++;
	else if (data->idx > 0 &&
		 last_idle < drv->states[data->idx].target_residency_ns)
		data->idx--;

	return data->idx;
}

static void hop_reflect(struct cpuidle_device *dev, int index)
{
	dev->last_state_idx = index;
}

static int hop_enable_device(struct cpuidle_driver *drv,
			     struct cpuidle_device *dev)
{
	struct hop_device *data = per_cpu_ptr(&hop_devices, dev->cpu);

	memset(data, 0, sizeof(*data));
	return 0;
}

static struct cpuidle_governor hop_governor = {
	.name =		"hop",
	.rating =	5,
	.enable =	hop_enable_device,
	.select =	hop_select,
	.reflect =	hop_reflect,
};

static int __init init_hop(void)
{
	return cpuidle_register_governor(&hop_governor);
}

postcore_initcall(init_hop);
