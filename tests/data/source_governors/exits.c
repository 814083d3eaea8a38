// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * exits.c - a governor that ends its own process with exit_group(0) in its
 * third select() (entry 2), for idlescope's tests: a governor never exits,
 * and the replay must say that it did, with the status and the entry.
 * The kernel has no exit() for a governor to call: the system call is made
 * directly (x86-64 and arm64 numbers).
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>

static DEFINE_PER_CPU(int, exits_calls);

static void exits_exit_group(long status)
{
#if defined(__x86_64__)
	register long nr asm("rax") = 231;
	register long arg asm("rdi") = status;

	asm volatile("syscall" : "+r"(nr) : "r"(arg) : "rcx", "r11", "memory");
#elif defined(__aarch64__)
	register long nr asm("x8") = 94;
	register long arg asm("x0") = status;

	asm volatile("svc #0" : "+r"(arg) : "r"(nr) : "memory");
#else
#error "exits.c knows exit_group's number on x86-64 and arm64 only"
#endif
}

static int exits_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			bool *stop_tick)
{
	int *calls = this_cpu_ptr(&exits_calls);

	if ((*calls)++ == 2)
		exits_exit_group(0);
	return 0;
}

static struct cpuidle_governor exits_governor = {
	.name =		"exits",
	.rating =	1,
	.select =	exits_select,
};

static int __init init_exits(void)
{
	return cpuidle_register_governor(&exits_governor);
}

postcore_initcall(init_exits);
