// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/start_size.h"

namespace idlescope {

QSize firstStartSize(const QRect &available)
{
    if (available.isEmpty())
        return COMFORTABLE_WINDOW_SIZE;
    // A window larger than the screen opens with its title bar or its edges out of reach.
    return COMFORTABLE_WINDOW_SIZE.boundedTo(available.size());
}

} // namespace idlescope
