// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/states/idle_state_table.h"

#include "core/common/text_cells.h"

namespace idlescope {

namespace {

Error stateError(const IdleStateTable &t, int i, const char *field, std::string msg)
{
    std::string where = "state " + std::to_string(i);
    if (i >= 0 && i < t.count() && !t[i].name.empty())
        where += " (" + printableText(t[i].name, PrintableMode::Name) + ")";
    return Error{t.id, 0, field, where + ": " + std::move(msg)};
}

template <typename Fn>
Status editValidated(IdleStateTable &t, Fn &&edit)
{
    IdleStateTable backup = t;
    if (Status s = edit(); !s) {
        t = std::move(backup);
        return s;
    }
    if (Status s = t.validate(); !s) {
        t = std::move(backup);
        return s;
    }
    return Ok{};
}

Status checkIndex(const IdleStateTable &t, int index)
{
    if (index < 0 || index >= t.count())
        return Error{t.id, 0, "index",
                     "no state " + std::to_string(index) + " (table has " + std::to_string(t.count()) + ")"};
    return Ok{};
}

/// Applies @p edit to state @p index of @p t, as editValidated(): a bad index or a table
/// that is no longer valid leaves @p t as it was.
template <typename Fn>
Status editStateValidated(IdleStateTable &t, int index, Fn &&edit)
{
    return editValidated(t, [&]() -> Status {
        if (Status s = checkIndex(t, index); !s)
            return s;
        edit(t.states[static_cast<size_t>(index)]);
        return Ok{};
    });
}

} // namespace

Status IdleStateTable::validate() const
{
    if (states.empty())
        return Error{id, 0, "states", "the table has no idle states"};
    if (count() > CPUIDLE_STATE_MAX)
        return Error{id, 0, "states",
                     "the table has " + std::to_string(count()) + " states; the kernel allows at most "
                         + std::to_string(CPUIDLE_STATE_MAX)};
    if (tickHz < 24 || tickHz > 10000)
        return Error{id, 0, "tick_hz", "tick rate " + std::to_string(tickHz) + " Hz is outside 24..10000 Hz"};
    for (int i = 0; i < count(); ++i) {
        const IdleState &s = states[static_cast<size_t>(i)];
        if (s.exitLatencyNs < 0)
            return stateError(*this, i, "exit_latency_ns", "negative exit latency");
        if (s.targetResidencyNs < 0)
            return stateError(*this, i, "target_residency_ns", "negative target residency");
        if (s.exitLatencyNs > MAX_STATE_TIME_NS)
            return stateError(*this, i, "exit_latency_ns", "exit latency above one hour (unit mistake?)");
        if (s.targetResidencyNs > MAX_STATE_TIME_NS)
            return stateError(*this, i, "target_residency_ns", "target residency above one hour (unit mistake?)");
        if (s.wakeDelayNs < NO_WAKE_DELAY)
            return stateError(*this, i, "wake_delay_ns", "negative wake delay");
        if (s.wakeDelayNs > MAX_STATE_TIME_NS)
            return stateError(*this, i, "wake_delay_ns", "wake delay above one hour (unit mistake?)");
        if (s.entryLatencyNs < 0)
            return stateError(*this, i, "entry_latency_ns", "negative entry latency");
        if (s.entryLatencyNs > MAX_STATE_TIME_NS)
            return stateError(*this, i, "entry_latency_ns", "entry latency above one hour (unit mistake?)");
        if (s.polling && i != 0)
            return stateError(*this, i, "polling", "only state 0 may be a polling state");
        if (i > 0 && s.targetResidencyNs < states[static_cast<size_t>(i - 1)].targetResidencyNs)
            return stateError(*this, i, "target_residency_ns",
                              "shorter than the state before it (states go shallow to deep)");
        // A state's name heads columns (usage_<name>) of the CSV and markdown tables and is
        // a cell of them: a newline or tab would split a header in two. The views show it
        // beside its numbers, which a bidirectional control would turn around, and a
        // zero-width character would make two states' names look alike.
        if (holdsControlCharacter(s.name))
            return stateError(
                *this, i, "name",
                "the name '" + printableText(s.name, PrintableMode::Name)
                    + "' holds a control character, a bidirectional control or an invisible character; a state's name is "
                      "shown in the views and is a field of the CSV and markdown tables");
        for (int j = 0; j < i; ++j) {
            const std::string &other = states[static_cast<size_t>(j)].name;
            if (!s.name.empty() && other == s.name)
                return stateError(*this, i, "name", "the name is used by state " + std::to_string(j) + " too");
            // Two names the tables' headers write alike ("a,b" and "a_b" both head usage_a_b).
            if (!s.name.empty() && columnSafe(other) == columnSafe(s.name))
                return stateError(*this, i, "name",
                                  "the tables would head its columns usage_" + columnSafe(s.name) + ", as state "
                                      + std::to_string(j) + "'s ('" + printableText(other, PrintableMode::Name)
                                      + "'): rename one of them");
        }
    }
    return Ok{};
}

Status IdleStateTable::addState(const IdleState &state, int position)
{
    return editValidated(*this, [&]() -> Status {
        if (position < 0 || position > count())
            return Error{id, 0, "index", "cannot insert at " + std::to_string(position)};
        states.insert(states.begin() + position, state);
        return Ok{};
    });
}

Status IdleStateTable::removeState(int index)
{
    return editValidated(*this, [&]() -> Status {
        if (Status s = checkIndex(*this, index); !s)
            return s;
        states.erase(states.begin() + index);
        return Ok{};
    });
}

Status IdleStateTable::moveState(int from, int to)
{
    return editValidated(*this, [&]() -> Status {
        if (Status s = checkIndex(*this, from); !s)
            return s;
        if (Status s = checkIndex(*this, to); !s)
            return s;
        IdleState moved = states[static_cast<size_t>(from)];
        states.erase(states.begin() + from);
        states.insert(states.begin() + to, moved);
        return Ok{};
    });
}

Status IdleStateTable::setDisabled(int index, bool disabled)
{
    return editStateValidated(*this, index, [&](IdleState &s) { s.disabled = disabled; });
}

Status IdleStateTable::setExitLatencyNs(int index, Ns value)
{
    return editStateValidated(*this, index, [&](IdleState &s) { s.exitLatencyNs = value; });
}

Status IdleStateTable::setTargetResidencyNs(int index, Ns value)
{
    return editStateValidated(*this, index, [&](IdleState &s) { s.targetResidencyNs = value; });
}

Status IdleStateTable::setTickHz(int hz)
{
    return editValidated(*this, [&]() -> Status {
        tickHz = hz;
        return Ok{};
    });
}

int IdleStateTable::firstEnabled() const
{
    for (int i = 0; i < count(); ++i)
        if (!states[static_cast<size_t>(i)].disabled)
            return i;
    return -1;
}

bool wakeAlike(const IdleStateTable &a, const IdleStateTable &b)
{
    if (a.count() != b.count())
        return false;
    for (int i = 0; i < a.count(); ++i)
        if (a[i].exitLatencyNs != b[i].exitLatencyNs || a[i].wakeDelayNs != b[i].wakeDelayNs
            || a[i].entryLatencyNs != b[i].entryLatencyNs)
            return false;
    return true;
}

bool decideAlike(const IdleStateTable &a, const IdleStateTable &b)
{
    if (a.tickHz != b.tickHz || a.count() != b.count())
        return false;
    for (int i = 0; i < a.count(); ++i) {
        const IdleState &x = a[i];
        const IdleState &y = b[i];
        if (x.exitLatencyNs != y.exitLatencyNs || x.targetResidencyNs != y.targetResidencyNs || x.polling != y.polling
            || x.disabled != y.disabled)
            return false;
    }
    return true;
}

} // namespace idlescope
