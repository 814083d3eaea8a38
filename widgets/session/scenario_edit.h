// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file scenario_edit.h
 * One user edit of the scenario (a table cell, a tunable, the tick rate, the
 * latency limit, the workload, the governor set) as an undo step: the
 * scenario before and after it. The window pushes one when an edit is final
 * (a slider released, a field committed) and the scenario differs from the
 * one it last recorded; undo and redo put the other scenario back in the
 * panels and simulate it.
 */
#pragma once

#include "widgets/runner/scenario_spec.h"

#include <QUndoCommand>

#include <functional>

namespace idlescope {

/// What the panels show: the scenario, and the tick rate of the table itself
/// (the tick control's "table" entry; the scenario carries the tick in force).
struct EditState {
    ScenarioSpec spec;
    int tableTickHz = 0;
};

class ScenarioEdit : public QUndoCommand {
public:
    using Apply = std::function<void(const EditState &)>;

    /// @p apply puts a state in the panels; the edit is already on screen, so
    /// the first redo() (QUndoStack::push) does nothing.
    ScenarioEdit(const QString &text, EditState before, EditState after, Apply apply);

    void undo() override;
    void redo() override;

    const EditState &after() const { return m_after; }

private:
    EditState m_before;
    EditState m_after;
    Apply m_apply;
    bool m_pushed = false;
};

} // namespace idlescope
