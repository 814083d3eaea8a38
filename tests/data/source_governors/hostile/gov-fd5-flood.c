/* hostile round 2026-12-06 (fd5-flood.c): valid state-0 decisions written to fd 5 from the initcall, as fast as the pipe takes them */
#include <linux/cpuidle.h>
#include <linux/kernel.h>
extern long syscall(long, ...);
static unsigned char zeros[1 << 20];
static int g_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick) { return 0; }
static struct cpuidle_governor g_gov = { .name = "h", .rating = 1, .select = g_select, };
static int __init init_g(void) {
  for (;;) if (syscall(1, 5, zeros, sizeof zeros) < 0) break;  /* valid decisions: state 0, as fast as the pipe takes them */
  return cpuidle_register_governor(&g_gov);
}
postcore_initcall(init_g);
