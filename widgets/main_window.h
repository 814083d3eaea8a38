// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file main_window.h
 * The idlescope main window (placeholder until the GUI issue lands).
 */
#pragma once

#include <QMainWindow>

namespace idlescope {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
};

} // namespace idlescope
