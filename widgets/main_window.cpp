// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/main_window.h"

#include <QLabel>

namespace idlescope {

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setWindowTitle(tr("idlescope"));
    setCentralWidget(new QLabel(tr("idlescope: cpuidle governor lab"), this));
    resize(1280, 800);
}

} // namespace idlescope
