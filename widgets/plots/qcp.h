// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file qcp.h
 * The only place that includes <qcustomplot.h> (QCustomPlot 2.1, GPL).
 * Its inline code uses Qt's `foreach`; when a target builds with
 * QT_NO_FOREACH we lend it a range-for for the duration of the include.
 */
#pragma once

#ifdef QT_NO_FOREACH
#define IDLESCOPE_LENT_FOREACH
#define foreach(variable, container) for (variable : container)
#endif

#include <qcustomplot.h>

#ifdef IDLESCOPE_LENT_FOREACH
#undef foreach
#undef IDLESCOPE_LENT_FOREACH
#endif
