// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * MENU_STEP, for menu_governor.cpp and the version families it includes
 * (menu_v5_10.h, menu_v7_0.h). Private to those files: nothing else
 * includes it.
 */
#pragma once

// select() up to step 3 is one function for the compiler: in a run of 2 us
// polls under a latency limit (menu v5.10's poll time) every select returns
// there, and its steps, called out of line, cost a call, a stack frame and a
// stack-protector check each (update() alone was a quarter of the select).
// Steps 4 to 8 are inlined the same way into selectDeeper(), which stays out
// of line for that early path: called, they were a sixth of a select on the
// GUI's default scenario (menu v6.14: 448 -> 375 instructions per select).
// A family's steps sit in a header of menu_governor.cpp's one translation
// unit rather than in a .cpp of their own for the same reason: across
// translation units they could not be inlined.
#define MENU_STEP [[gnu::always_inline]] inline
