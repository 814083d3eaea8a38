// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/session/file_threads.h"

#include <QThreadPool>

namespace idlescope {

QThreadPool &fileThreads()
{
    static QThreadPool *pool = [] {
        auto *p = new QThreadPool;
        p->setMaxThreadCount(4);
        return p;
    }();
    return *pool;
}

} // namespace idlescope
