// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/session/scenario_edit.h"

#include <utility>

namespace idlescope {

ScenarioEdit::ScenarioEdit(const QString &text, EditState before, EditState after, Apply apply)
    : m_before(std::move(before)), m_after(std::move(after)), m_apply(std::move(apply))
{
    setText(text);
}

void ScenarioEdit::undo()
{
    m_apply(m_before);
}

void ScenarioEdit::redo()
{
    if (m_pushed)
        m_apply(m_after);
    m_pushed = true;
}

} // namespace idlescope
