// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file export_dialogs.h
 * File → Export menu helpers: ask for a file name, pick the format from its
 * suffix (or the chosen filter), export with data_export.h, and show a
 * message box naming the file on failure. Plots: figure_export.h
 * exportFigureWithDialog().
 */
#pragma once

#include "widgets/runner/simulation_snapshot.h"

class QWidget;

namespace idlescope {

/// Per-entry data of run @p governorIndex as .csv or .json.
void exportRunWithDialog(const SnapshotPtr &snap, int governorIndex, QWidget *parent);

/// Every governor's summary as .json or .csv (the comparison table).
void exportSummariesWithDialog(const SnapshotPtr &snap, QWidget *parent);

} // namespace idlescope
