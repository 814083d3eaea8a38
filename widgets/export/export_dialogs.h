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

#include <QString>
#include <QStringList>

class QWidget;

namespace idlescope {

/**
 * The save dialog every export asks with: @p suggested proposed in the last folder, @p filters
 * ("CSV (*.csv)", …) with the first's suffix added to a name typed without one (the filter
 * chosen decides), and an existing file only overwritten once the user confirmed it (the
 * suffix added before the check, so "cpus" asks about "cpus.csv"). "" when cancelled.
 */
QString askSavePath(QWidget *parent, const QString &title, const QString &suggested, const QStringList &filters);

/// Per-entry data of run @p governorIndex as .csv or .json.
void exportRunWithDialog(const SnapshotPtr &snap, int governorIndex, QWidget *parent);

/// Every governor's summary as .json or .csv (the comparison table).
void exportSummariesWithDialog(const SnapshotPtr &snap, QWidget *parent);

} // namespace idlescope
