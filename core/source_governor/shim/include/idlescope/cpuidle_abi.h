/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * idlescope's kernel shim: the cpuidle structures a governor file reads and
 * writes, laid out for the one idlescope process that runs it (the governor
 * host), and the per-select values the host hands to the shim's helpers.
 *
 * Written by the idlescope authors from the documented semantics of
 * include/linux/cpuidle.h; only the members a governor may use are here.
 * Field types follow the kernel's (v5.10 ... v7.0), because governors
 * compute with them: last_residency_ns and poll_limit_ns are u64,
 * exit_latency_ns and target_residency_ns s64, the microsecond copies
 * unsigned int. Included by C (the governor file, the shim runtime) and by
 * C++ (the host), so it uses no C-only or C++-only construct.
 */
#ifndef IDLESCOPE_CPUIDLE_ABI_H
#define IDLESCOPE_CPUIDLE_ABI_H

#ifndef __cplusplus
typedef _Bool idlescope_bool;
#else
typedef bool idlescope_bool;
#endif

typedef signed char idlescope_s8;
typedef unsigned char idlescope_u8;
typedef short idlescope_s16;
typedef unsigned short idlescope_u16;
typedef int idlescope_s32;
typedef unsigned int idlescope_u32;
typedef long long idlescope_s64;
typedef unsigned long long idlescope_u64;

#define CPUIDLE_STATE_MAX 10
#define CPUIDLE_NAME_LEN 16
#define CPUIDLE_DESC_LEN 32

/* struct cpuidle_state.flags */
#define CPUIDLE_FLAG_NONE (0x00)
#define CPUIDLE_FLAG_POLLING (1U << 0)
#define CPUIDLE_FLAG_COUPLED (1U << 1)
#define CPUIDLE_FLAG_TIMER_STOP (1U << 2)
#define CPUIDLE_FLAG_UNUSABLE (1U << 3)
#define CPUIDLE_FLAG_OFF (1U << 4)
#define CPUIDLE_FLAG_TLB_FLUSHED (1U << 5)
#define CPUIDLE_FLAG_RCU_IDLE (1U << 6)

/* struct cpuidle_state_usage.disable bits (v5.5+) */
#define CPUIDLE_STATE_DISABLED_BY_USER (1ULL << 0)
#define CPUIDLE_STATE_DISABLED_BY_DRIVER (1ULL << 1)

struct cpuidle_driver;
struct cpuidle_device;

struct cpuidle_state_usage {
    unsigned long long disable; /* sysfs "disable": a table state marked disabled */
    unsigned long long usage;
    idlescope_u64 time_ns;
    unsigned long long above;
    unsigned long long below;
    unsigned long long rejected;
    unsigned long long s2idle_usage;
    unsigned long long s2idle_time;
};

struct cpuidle_state {
    char name[CPUIDLE_NAME_LEN];
    char desc[CPUIDLE_DESC_LEN];
    idlescope_s64 exit_latency_ns;
    idlescope_s64 target_residency_ns;
    unsigned int flags;
    unsigned int exit_latency;     /* in us: exit_latency_ns / 1000 */
    int power_usage;               /* in mW; 0 here */
    unsigned int target_residency; /* in us: target_residency_ns / 1000 */
    int (*enter)(struct cpuidle_device *dev, struct cpuidle_driver *drv, int index);
    int (*enter_dead)(struct cpuidle_device *dev, int index);
    int (*enter_s2idle)(struct cpuidle_device *dev, struct cpuidle_driver *drv, int index);
};

struct cpuidle_driver {
    const char *name;
    void *owner;
    unsigned int bctimer : 1;
    struct cpuidle_state states[CPUIDLE_STATE_MAX];
    int state_count;
    int safe_state_index;
    void *cpumask;
    const char *governor;
};

struct cpuidle_device {
    unsigned int registered : 1;
    unsigned int enabled : 1;
    unsigned int poll_time_limit : 1;
    unsigned int cpu;
    idlescope_s64 next_hrtimer;
    int last_state_idx;
    idlescope_u64 last_residency_ns;
    idlescope_u64 poll_limit_ns;
    idlescope_u64 forced_idle_latency_limit_ns;
    struct cpuidle_state_usage states_usage[CPUIDLE_STATE_MAX];
};

struct idlescope_list_head {
    struct idlescope_list_head *next, *prev;
};

struct cpuidle_governor {
    char name[CPUIDLE_NAME_LEN];
    struct idlescope_list_head governor_list;
    unsigned int rating;
    int (*enable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
    void (*disable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
    int (*select)(struct cpuidle_driver *drv, struct cpuidle_device *dev, idlescope_bool *stop_tick);
    void (*reflect)(struct cpuidle_device *dev, int index);
};

/* How cpuidle_poll_time() computes its limit (drivers/cpuidle/cpuidle.c). */
#define IDLESCOPE_POLL_RULE_V5_5 0  /* TR of the first enabled state after 0, else TICK_NSEC */
#define IDLESCOPE_POLL_RULE_V5_11 1 /* first enabled state with TR >= 10 us, at most TICK_NSEC/16 */

#define IDLESCOPE_MAX_GOVERNORS 4

/*
 * What the kernel helpers return during the current select or reflect,
 * written by the host before each call (the reference replay's values:
 * shared/conformance/README.md), and what the file registered.
 */
struct idlescope_shim_state {
    idlescope_s64 now_ns;          /* local_clock(), ktime_get() */
    idlescope_s64 sleep_length_ns; /* tick_nohz_get_sleep_length() */
    idlescope_s64 delta_next_ns;   /* its *delta_next */
    idlescope_s64 latency_req_ns;  /* cpuidle_governor_latency_req() */
    idlescope_s64 tick_nsec;       /* TICK_NSEC */
    idlescope_s64 tick_usec;       /* TICK_USEC */
    int hz;                        /* HZ (CONFIG_HZ of the table) */
    int tick_stopped;              /* tick_nohz_tick_stopped() */
    int got_idle_tick;             /* the sticky flag tick_nohz_idle_got_tick() reads and clears */
    int util;                      /* sched_cpu_util(), capacity 1024 */
    int poll_rule;                 /* IDLESCOPE_POLL_RULE_* */
    int governor_count;
    struct cpuidle_governor *governors[IDLESCOPE_MAX_GOVERNORS];
    int initcall_error;            /* first non-zero initcall return value */
};

#ifdef __cplusplus
extern "C" {
#endif
/* Defined by the shim runtime (linked into every built governor). */
extern struct idlescope_shim_state idlescope_shim;
#ifdef __cplusplus
}
#endif

#endif /* IDLESCOPE_CPUIDLE_ABI_H */
