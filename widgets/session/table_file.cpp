// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/session/table_file.h"

#include "core/io/table_json.h"

#include <QCoreApplication>
#include <QThread>

#include <atomic>

namespace idlescope {

namespace {

/// An atomic: reads run on the file threads while a test reads the count on its own.
std::atomic<int> g_guiThreadReads{0};

} // namespace

Result<IdleStateTable> readTableFile(const QString &path)
{
    if (QCoreApplication::instance() && QThread::currentThread() == QCoreApplication::instance()->thread())
        ++g_guiThreadReads;
    return readTableJson(path.toStdString());
}

int tableFileReadsOnGuiThread()
{
    return g_guiThreadReads.load();
}

} // namespace idlescope
