/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * idlescope's kernel shim runtime: the out-of-line helpers of the shim
 * (cpuidle_register_governor(), cpuidle_poll_time(), initcalls, printk),
 * linked into every governor built from source. The host finds the driver,
 * the device and the shim state here by name.
 */
#include <idlescope/cpuidle_abi.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct idlescope_shim_state idlescope_shim;
struct cpuidle_driver idlescope_driver;
struct cpuidle_device idlescope_device;

int cpuidle_register_governor(struct cpuidle_governor *gov)
{
    int i;
    if (!gov || !gov->select)
        return -22; /* -EINVAL, as the kernel for a governor without select */
    for (i = 0; i < idlescope_shim.governor_count; i++)
        if (idlescope_shim.governors[i] == gov)
            return -17; /* -EEXIST */
    if (idlescope_shim.governor_count == IDLESCOPE_MAX_GOVERNORS)
        return -28;
    idlescope_shim.governors[idlescope_shim.governor_count++] = gov;
    return 0;
}

int idlescope_initcall(int (*fn)(void))
{
    int ret = fn();
    if (ret && !idlescope_shim.initcall_error)
        idlescope_shim.initcall_error = ret;
    return ret;
}

/*
 * cpuidle_poll_time(): how long the polling state may spin. The cached
 * dev->poll_limit_ns when set; else, before v5.11, the target residency of
 * the first enabled state after state 0 (TICK_NSEC if none); from v5.11 the
 * first enabled one of at least CPUIDLE_POLL_MIN (10 us), at most a
 * sixteenth of a tick, which is also the default.
 */
idlescope_u64 cpuidle_poll_time(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
    const idlescope_s64 tick_nsec = idlescope_shim.tick_nsec;
    idlescope_u64 limit;
    int i;

    if (dev->poll_limit_ns)
        return dev->poll_limit_ns;
    if (idlescope_shim.poll_rule == IDLESCOPE_POLL_RULE_V5_5) {
        limit = (idlescope_u64)tick_nsec;
        for (i = 1; i < drv->state_count; i++) {
            if (dev->states_usage[i].disable)
                continue;
            limit = (idlescope_u64)drv->states[i].target_residency_ns;
            break;
        }
    } else {
        const idlescope_u64 max_limit = (idlescope_u64)(tick_nsec / 16);
        limit = max_limit;
        for (i = 1; i < drv->state_count; i++) {
            idlescope_u64 state_limit;
            if (dev->states_usage[i].disable)
                continue;
            state_limit = (idlescope_u64)drv->states[i].target_residency_ns;
            if (state_limit < 10000)
                continue;
            limit = state_limit < max_limit ? state_limit : max_limit;
            break;
        }
    }
    dev->poll_limit_ns = limit;
    return limit;
}

int idlescope_printk(const char *fmt, ...)
{
    va_list ap;
    int n;
    /* A KERN_<LEVEL> prefix: the SOH character and one level character. */
    if (fmt[0] == '\001' && fmt[1] != '\0')
        fmt += 2;
    va_start(ap, fmt);
    n = vfprintf(stderr, fmt, ap);
    va_end(ap);
    return n;
}

void idlescope_warn(const char *file, int line, const char *cond)
{
    fprintf(stderr, "WARNING: %s:%d: WARN_ON(%s)\n", file, line, cond);
}

void idlescope_bug(const char *file, int line, const char *cond)
{
    fprintf(stderr, "kernel BUG at %s:%d: %s\n", file, line, cond);
    fflush(stderr);
    abort();
}
