// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Opening a session that is not a file (issue 15, item 9): a FIFO blocked
 * open() for ever, so the window never appeared; /dev/zero (here through a
 * symlink) passed the size check (a device's size is 0) and was read until
 * memory ran out. Both are refused at once, naming what they are.
 */
#include "widgets/session/session.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace idlescope;

class TestSessionInput : public QObject {
    Q_OBJECT

private slots:
    void fifoAndDeviceAreRefused()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("s.idlescope"));
        QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
        const Result<Session> a = loadSession(fifo);
        QVERIFY(!a.ok());
        QCOMPARE(a.error().file, fifo.toStdString());
        QVERIFY2(a.error().message.find("is a FIFO (named pipe), not a file") != std::string::npos,
                 a.error().message.c_str());

        const QString zero = dir.filePath(QStringLiteral("zero.idlescope"));
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), zero));
        const Result<Session> b = loadSession(zero);
        QVERIFY(!b.ok());
        QVERIFY2(b.error().message.find("is a device, not a file") != std::string::npos, b.error().message.c_str());
    }
};

QTEST_MAIN(TestSessionInput)
#include "tst_session_input.moc"
