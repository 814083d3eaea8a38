// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/main_window.h"

#include <QApplication>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("idlescope"));
    QApplication::setOrganizationName(QStringLiteral("idlescope"));
    QApplication::setApplicationVersion(QStringLiteral(IDLESCOPE_VERSION));
    idlescope::MainWindow w;
    w.show();
    return app.exec();
}
