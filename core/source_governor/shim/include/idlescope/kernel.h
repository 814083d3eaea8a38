/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * idlescope's kernel shim: the kernel API a cpuidle governor file uses,
 * for one CPU in idlescope's reference replay. Every <linux/...> header a
 * governor includes comes here. Written by the idlescope authors from the
 * kernel's documented semantics (types, integer arithmetic and return
 * values as the kernel defines them); no kernel code is copied.
 *
 * Helpers that read the machine (sleep length, latency limit, clock, tick)
 * return what the reference replay defines for the current select: see
 * shared/conformance/README.md and docs/testing-your-patch.md. What is not
 * here is "not provided yet": the build names it.
 */
#ifndef IDLESCOPE_KERNEL_H
#define IDLESCOPE_KERNEL_H

#include <idlescope/cpuidle_abi.h>

/* ---- types (include/linux/types.h) ---- */
typedef idlescope_bool bool;
#define true 1
#define false 0
typedef idlescope_s8 s8;
typedef idlescope_u8 u8;
typedef idlescope_s16 s16;
typedef idlescope_u16 u16;
typedef idlescope_s32 s32;
typedef idlescope_u32 u32;
typedef idlescope_s64 s64;
typedef idlescope_u64 u64;
typedef s8 int8_t;
typedef u8 uint8_t;
typedef s16 int16_t;
typedef u16 uint16_t;
typedef s32 int32_t;
typedef u32 uint32_t;
typedef s64 int64_t;
typedef u64 uint64_t;
typedef unsigned long size_t;
typedef long ssize_t;
typedef long ptrdiff_t;
typedef unsigned long uintptr_t;
typedef s64 ktime_t;
typedef struct { int counter; } atomic_t;
#define NULL ((void *)0)

/* ---- limits (include/linux/limits.h) ---- */
#define U8_MAX ((u8)~0U)
#define S8_MAX ((s8)(U8_MAX >> 1))
#define U16_MAX ((u16)~0U)
#define S16_MAX ((s16)(U16_MAX >> 1))
#define U32_MAX ((u32)~0U)
#define S32_MAX ((s32)(U32_MAX >> 1))
#define S32_MIN ((s32)(-S32_MAX - 1))
#define U64_MAX ((u64)~0ULL)
#define S64_MAX ((s64)(U64_MAX >> 1))
#define S64_MIN ((s64)(-S64_MAX - 1))
#define INT_MAX ((int)(~0U >> 1))
#define INT_MIN (-INT_MAX - 1)
#define UINT_MAX (~0U)
#define LONG_MAX ((long)(~0UL >> 1))
#define LONG_MIN (-LONG_MAX - 1)
#define ULONG_MAX (~0UL)
#define LLONG_MAX ((long long)(~0ULL >> 1))
#define ULLONG_MAX (~0ULL)
#define KTIME_MAX ((s64)~((u64)1 << 63))
#define KTIME_MIN (-KTIME_MAX - 1)

/* ---- compiler (include/linux/compiler*.h) ---- */
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val) do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)
#define barrier() __asm__ __volatile__("" ::: "memory")
#define __read_mostly
#define __ro_after_init
#define __init
#define __exit
#define __initdata
#define __cpuidle
#define notrace
#define noinstr
#define __always_inline inline __attribute__((__always_inline__))
#define noinline __attribute__((__noinline__))
#define __maybe_unused __attribute__((__unused__))
#define __always_unused __attribute__((__unused__))
#define __used __attribute__((__used__))
#define __packed __attribute__((__packed__))
#define __aligned(x) __attribute__((__aligned__(x)))
#define __must_check __attribute__((__warn_unused_result__))
#define __weak __attribute__((__weak__))
#define fallthrough __attribute__((__fallthrough__))
#define __stringify_1(x) #x
#define __stringify(x) __stringify_1(x)
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")")
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - __builtin_offsetof(type, member)))
#define offsetof(type, member) __builtin_offsetof(type, member)

/* ---- bits and arithmetic (include/linux/bits.h, bitops.h, log2.h) ---- */
#define BIT(nr) (1UL << (nr))
#define BIT_ULL(nr) (1ULL << (nr))
#define GENMASK(h, l) (((~0UL) << (l)) & (~0UL >> (63 - (h))))
static inline int fls(unsigned int x) { return x ? 32 - __builtin_clz(x) : 0; }
static inline int fls64(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }
static inline unsigned long __fls(unsigned long x) { return 63 - __builtin_clzl(x); }
static inline unsigned long __ffs(unsigned long x) { return __builtin_ctzl(x); }
static inline int ffs(int x) { return __builtin_ffs(x); }
#define ilog2(n) ((n) ? (int)(63 - __builtin_clzll((u64)(n))) : -1)
#define is_power_of_2(n) ((n) != 0 && (((n) & ((n) - 1)) == 0))

/* ---- min/max (include/linux/minmax.h): the C promotions of ?: ---- */
#define min(x, y) ({ __auto_type __idl_x = (x); __auto_type __idl_y = (y); __idl_x < __idl_y ? __idl_x : __idl_y; })
#define max(x, y) ({ __auto_type __idl_x = (x); __auto_type __idl_y = (y); __idl_x > __idl_y ? __idl_x : __idl_y; })
#define min3(x, y, z) min((__typeof__(x))min(x, y), z)
#define max3(x, y, z) max((__typeof__(x))max(x, y), z)
#define min_t(type, x, y) ({ type __idl_x = (x); type __idl_y = (y); __idl_x < __idl_y ? __idl_x : __idl_y; })
#define max_t(type, x, y) ({ type __idl_x = (x); type __idl_y = (y); __idl_x > __idl_y ? __idl_x : __idl_y; })
#define clamp(val, lo, hi) min((__typeof__(val))max(val, lo), hi)
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)
#define clamp_val(val, lo, hi) clamp_t(__typeof__(val), val, lo, hi)
#define swap(a, b) do { __typeof__(a) __idl_t = (a); (a) = (b); (b) = __idl_t; } while (0)
#define abs(x) ({ __auto_type __idl_v = (x); __idl_v < 0 ? -__idl_v : __idl_v; })

/* ---- division (include/linux/math64.h, math.h, asm-generic/div64.h), 64-bit ---- */
static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
    *remainder = (u32)(dividend % divisor);
    return dividend / divisor;
}
static inline u64 div_u64(u64 dividend, u32 divisor) { return dividend / divisor; }
static inline s64 div_s64(s64 dividend, s32 divisor) { return dividend / divisor; }
static inline u64 div64_u64(u64 dividend, u64 divisor) { return dividend / divisor; }
static inline s64 div64_s64(s64 dividend, s64 divisor) { return dividend / divisor; }
static inline u64 div64_ul(u64 dividend, unsigned long divisor) { return dividend / divisor; }
/* do_div(n, base): n becomes n / base (n is a u64 lvalue); yields the remainder. */
#define do_div(n, base) ({ u32 __idl_base = (base); u32 __idl_rem = (u32)((u64)(n) % __idl_base); \
                           (n) = (u64)(n) / __idl_base; __idl_rem; })
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define DIV_ROUND_UP_ULL(ll, d) div_u64((u64)(ll) + (d) - 1, (d))
#define DIV_ROUND_DOWN_ULL(ll, d) div_u64((u64)(ll), (d))
#define DIV_ROUND_CLOSEST_ULL(x, divisor) ({ u32 __idl_d = (divisor); div_u64((u64)(x) + __idl_d / 2, __idl_d); })
#define DIV64_U64_ROUND_CLOSEST(dividend, divisor) ({ u64 __idl_d = (divisor); div64_u64((dividend) + __idl_d / 2, __idl_d); })
#define DIV64_U64_ROUND_UP(ll, d) ({ u64 __idl_d = (d); div64_u64((ll) + __idl_d - 1, __idl_d); })
/* Rounds to the closest integer, halves away from zero (either operand may be signed). */
#define DIV_ROUND_CLOSEST(x, divisor) ({ __auto_type __idl_x = (x); __auto_type __idl_d = (divisor); \
    (((__typeof__(x))-1) > 0 || ((__typeof__(divisor))-1) > 0 || ((__idl_x > 0) == (__idl_d > 0))) \
        ? ((__idl_x + (__idl_d / 2)) / __idl_d) : ((__idl_x - (__idl_d / 2)) / __idl_d); })
#define roundup(x, y) ((((x) + ((y) - 1)) / (y)) * (y))
#define rounddown(x, y) ((x) - ((x) % (y)))

/* ---- time (include/linux/time64.h, jiffies.h, ktime.h) ---- */
#define MSEC_PER_SEC 1000L
#define USEC_PER_MSEC 1000L
#define NSEC_PER_USEC 1000L
#define NSEC_PER_MSEC 1000000L
#define USEC_PER_SEC 1000000L
#define NSEC_PER_SEC 1000000000L
/* CONFIG_HZ of the table being replayed: a run-time value here. */
#define HZ (idlescope_shim.hz)
/* (NSEC_PER_SEC + HZ / 2) / HZ and (USEC_PER_SEC + HZ / 2) / HZ, as long,
 * computed once by the host: a division per use would cost more than the
 * kernel's constant does. */
#define TICK_NSEC ((long)idlescope_shim.tick_nsec)
#define TICK_USEC ((long)idlescope_shim.tick_usec)
static inline s64 ktime_to_ns(const ktime_t kt) { return kt; }
static inline ktime_t ns_to_ktime(u64 ns) { return (ktime_t)ns; }
static inline s64 ktime_divns(const ktime_t kt, s64 div) { return kt / div; }
static inline s64 ktime_to_us(const ktime_t kt) { return ktime_divns(kt, NSEC_PER_USEC); }
static inline s64 ktime_to_ms(const ktime_t kt) { return ktime_divns(kt, NSEC_PER_MSEC); }
static inline ktime_t ktime_set(const s64 secs, const unsigned long nsecs)
{
    return secs >= KTIME_MAX / NSEC_PER_SEC ? KTIME_MAX : secs * NSEC_PER_SEC + (s64)nsecs;
}
#define ktime_sub(lhs, rhs) ((lhs) - (rhs))
#define ktime_add(lhs, rhs) ((lhs) + (rhs))
#define ktime_add_ns(kt, nsval) ((kt) + (nsval))
#define ktime_sub_ns(kt, nsval) ((kt) - (nsval))
#define ktime_add_us(kt, usec) ((kt) + (s64)(usec) * NSEC_PER_USEC)
static inline int ktime_compare(const ktime_t a, const ktime_t b) { return a < b ? -1 : a > b ? 1 : 0; }
static inline bool ktime_after(const ktime_t a, const ktime_t b) { return ktime_compare(a, b) > 0; }
static inline bool ktime_before(const ktime_t a, const ktime_t b) { return ktime_compare(a, b) < 0; }
static inline s64 ktime_us_delta(const ktime_t later, const ktime_t earlier) { return ktime_to_us(later - earlier); }
static inline s64 ktime_ms_delta(const ktime_t later, const ktime_t earlier) { return ktime_to_ms(later - earlier); }
static inline ktime_t ktime_get(void) { return idlescope_shim.now_ns; }
static inline u64 ktime_get_ns(void) { return (u64)idlescope_shim.now_ns; }
static inline u64 local_clock(void) { return (u64)idlescope_shim.now_ns; }
static inline u64 sched_clock(void) { return (u64)idlescope_shim.now_ns; }
static inline u64 running_clock(void) { return (u64)idlescope_shim.now_ns; }

/* ---- tick (include/linux/tick.h): the reference replay's one CPU ---- */
static inline ktime_t tick_nohz_get_sleep_length(ktime_t *delta_next)
{
    *delta_next = idlescope_shim.delta_next_ns;
    return idlescope_shim.sleep_length_ns;
}
static inline bool tick_nohz_tick_stopped(void) { return idlescope_shim.tick_stopped; }
static inline bool tick_nohz_tick_stopped_cpu(int cpu) { (void)cpu; return idlescope_shim.tick_stopped; }
static inline bool tick_nohz_idle_got_tick(void)
{
    bool got = idlescope_shim.got_idle_tick;
    idlescope_shim.got_idle_tick = 0;
    return got;
}
/* NO_HZ is on (the replay stops the tick), also at boot (no nohz=off). */
#define tick_nohz_enabled ((bool)1)
#define tick_nohz_active ((bool)1)

/* ---- per-CPU data (include/linux/percpu-defs.h): CPU 0 only ---- */
#define DEFINE_PER_CPU(type, name) __typeof__(type) name
#define DEFINE_PER_CPU_SHARED_ALIGNED(type, name) __typeof__(type) name
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) name
#define per_cpu(var, cpu) (*((void)(cpu), &(var)))
#define per_cpu_ptr(ptr, cpu) ((void)(cpu), (ptr))
#define this_cpu_ptr(ptr) (ptr)
#define raw_cpu_ptr(ptr) (ptr)
#define this_cpu_read(var) (var)
#define __this_cpu_read(var) (var)
#define raw_cpu_read(var) (var)
#define this_cpu_write(var, val) do { (var) = (val); } while (0)
#define __this_cpu_write(var, val) do { (var) = (val); } while (0)
#define this_cpu_inc(var) do { (var)++; } while (0)
#define __this_cpu_inc(var) do { (var)++; } while (0)
#define smp_processor_id() 0
#define raw_smp_processor_id() 0
#define get_cpu() 0
#define put_cpu() do { } while (0)
#define nr_cpu_ids 1U
#define num_possible_cpus() 1U
#define num_online_cpus() 1U
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < 1; (cpu)++)
#define for_each_online_cpu(cpu) for_each_possible_cpu(cpu)
#define preempt_disable() do { } while (0)
#define preempt_enable() do { } while (0)
#define local_irq_disable() do { } while (0)
#define local_irq_enable() do { } while (0)

/* ---- scheduler (include/linux/sched/*.h): what the replay defines ---- */
#define CONFIG_SMP 1
#define SCHED_CAPACITY_SHIFT 10
#define SCHED_CAPACITY_SCALE (1L << SCHED_CAPACITY_SHIFT)
/* nr_iowait_cpu() is 0 in the reference replay. */
static inline unsigned int nr_iowait_cpu(int cpu) { (void)cpu; return 0; }
static inline unsigned long idlescope_sched_cpu_util(int cpu) { (void)cpu; return (unsigned long)idlescope_shim.util; }
/* One argument from v6.0, (cpu, max) before: both spellings. */
#define sched_cpu_util(cpu, ...) idlescope_sched_cpu_util(cpu)
static inline unsigned long arch_scale_cpu_capacity(int cpu) { (void)cpu; return SCHED_CAPACITY_SCALE; }
static inline bool need_resched(void) { return false; }
static inline bool current_clr_polling_and_test(void) { return false; }

/* ---- cpuidle core (include/linux/cpuidle.h, drivers/cpuidle/cpuidle.c) ---- */
/* The PM QoS resume-latency limit of this span, in ns (v5.2+ signature). */
static inline s64 cpuidle_governor_latency_req(unsigned int cpu) { (void)cpu; return idlescope_shim.latency_req_ns; }
u64 cpuidle_poll_time(struct cpuidle_driver *drv, struct cpuidle_device *dev);
int cpuidle_register_governor(struct cpuidle_governor *gov);
#define CPUIDLE_POLL_MIN (10 * NSEC_PER_USEC)
static inline struct cpuidle_driver *cpuidle_get_cpu_driver(struct cpuidle_device *dev);
extern struct cpuidle_driver idlescope_driver;
static inline struct cpuidle_driver *cpuidle_get_cpu_driver(struct cpuidle_device *dev) { (void)dev; return &idlescope_driver; }

/* "gov.h" of drivers/cpuidle/governors (v6.7+). */
#define RESIDENCY_THRESHOLD_NS (15 * NSEC_PER_USEC)
#define SAFE_TIMER_RANGE_NS (2 * TICK_NSEC)

/* ---- strings and memory ---- */
#define memset(s, c, n) __builtin_memset(s, c, n)
#define memcpy(d, s, n) __builtin_memcpy(d, s, n)
#define memcmp(a, b, n) __builtin_memcmp(a, b, n)
#define strlen(s) __builtin_strlen(s)
#define strcmp(a, b) __builtin_strcmp(a, b)

/* ---- messages (include/linux/printk.h, bug.h): on the host's stderr ---- */
#define KERN_EMERG "\001" "0"
#define KERN_ALERT "\001" "1"
#define KERN_CRIT "\001" "2"
#define KERN_ERR "\001" "3"
#define KERN_WARNING "\001" "4"
#define KERN_NOTICE "\001" "5"
#define KERN_INFO "\001" "6"
#define KERN_DEBUG "\001" "7"
#define KERN_CONT "\001" "c"
int idlescope_printk(const char *fmt, ...) __attribute__((__format__(__printf__, 1, 2)));
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define printk(fmt, ...) idlescope_printk(fmt, ##__VA_ARGS__)
#define pr_emerg(fmt, ...) idlescope_printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...) idlescope_printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...) idlescope_printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...) idlescope_printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) idlescope_printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warning pr_warn
#define pr_notice(fmt, ...) idlescope_printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) idlescope_printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...) idlescope_printk(KERN_CONT fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) ({ if (0) idlescope_printk(fmt, ##__VA_ARGS__); 0; })
#define pr_devel pr_debug
#define pr_info_once pr_info
#define pr_warn_once pr_warn
#define pr_err_once pr_err
void idlescope_warn(const char *file, int line, const char *cond);
void idlescope_bug(const char *file, int line, const char *cond) __attribute__((__noreturn__));
#define WARN_ON(cond) ({ int __idl_c = !!(cond); if (unlikely(__idl_c)) idlescope_warn(__FILE__, __LINE__, #cond); unlikely(__idl_c); })
#define WARN_ON_ONCE(cond) WARN_ON(cond)
#define WARN(cond, fmt, ...) ({ int __idl_c = !!(cond); if (unlikely(__idl_c)) { idlescope_warn(__FILE__, __LINE__, #cond); idlescope_printk(fmt, ##__VA_ARGS__); } unlikely(__idl_c); })
#define WARN_ONCE(cond, fmt, ...) WARN(cond, fmt, ##__VA_ARGS__)
#define BUG() idlescope_bug(__FILE__, __LINE__, "BUG()")
#define BUG_ON(cond) do { if (unlikely(cond)) idlescope_bug(__FILE__, __LINE__, #cond); } while (0)

/* ---- modules and initcalls (include/linux/module.h, moduleparam.h, init.h) ---- */
#define MODULE_LICENSE(x)
#define MODULE_AUTHOR(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_PARM_DESC(name, desc)
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
/* Parameters keep their initial value (the kernel's default). */
#define module_param(name, type, perm) _Static_assert(sizeof(name) > 0, "module_param")
#define module_param_named(name, value, type, perm) _Static_assert(sizeof(value) > 0, "module_param_named")
#define core_param(name, var, type, perm) _Static_assert(sizeof(var) > 0, "core_param")
int idlescope_initcall(int (*fn)(void));
/* The file's initcall runs when the host loads the built governor. */
#define idlescope_define_initcall(fn) \
    static void __attribute__((__constructor__, __used__)) __idlescope_initcall_##fn(void) { idlescope_initcall(fn); }
#define pure_initcall(fn) idlescope_define_initcall(fn)
#define core_initcall(fn) idlescope_define_initcall(fn)
#define postcore_initcall(fn) idlescope_define_initcall(fn)
#define arch_initcall(fn) idlescope_define_initcall(fn)
#define subsys_initcall(fn) idlescope_define_initcall(fn)
#define fs_initcall(fn) idlescope_define_initcall(fn)
#define device_initcall(fn) idlescope_define_initcall(fn)
#define late_initcall(fn) idlescope_define_initcall(fn)
#define module_init(fn) idlescope_define_initcall(fn)
#define module_exit(fn) static void (*__idlescope_exit_##fn)(void) __attribute__((__unused__)) = fn

/* ---- tracepoints (include/trace/events/power.h): disabled, so their arguments are not evaluated ---- */
#define trace_guest_halt_poll_ns(...) do { } while (0)
#define trace_guest_halt_poll_ns_grow(...) do { } while (0)
#define trace_guest_halt_poll_ns_shrink(...) do { } while (0)
#define trace_cpu_idle(...) do { } while (0)
#define trace_cpu_idle_miss(...) do { } while (0)

/* ---- paravirtualisation (include/linux/kvm_para.h): a guest with the hint ---- */
#define KVM_HINTS_REALTIME 0
static inline bool kvm_para_available(void) { return true; }
static inline bool kvm_para_has_hint(unsigned int feature) { (void)feature; return true; }

/* ---- errors (include/uapi/asm-generic/errno-base.h) ---- */
#define EPERM 1
#define ENOENT 2
#define EINTR 4
#define EIO 5
#define ENOMEM 12
#define EBUSY 16
#define EEXIST 17
#define ENODEV 19
#define EINVAL 22
#define ENOSPC 28
#define ENOSYS 38

#endif /* IDLESCOPE_KERNEL_H */
