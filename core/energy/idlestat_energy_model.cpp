// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * A reader of idlestat's energy-model text, written from the format its
 * example files show (see the header), strict where idlestat's sscanf() is
 * lenient: every number is checked, every count is held to, and each error
 * names the line and the field.
 */
#include "core/energy/idlestat_energy_model.h"

#include "core/common/input_file.h"

#include <cstdlib>
#include <sstream>

namespace idlescope {

namespace {

constexpr std::size_t MAX_ENERGY_MODEL_BYTES = 4 << 20;
constexpr std::int64_t MAX_CLUSTERS = 26; // clusterA .. clusterZ
constexpr std::int64_t MAX_STATES = 4096;

std::vector<std::string> words(const std::string &line)
{
    std::istringstream in(line);
    std::vector<std::string> w;
    for (std::string s; in >> s;)
        w.push_back(s);
    return w;
}

bool wholeNumber(const std::string &s, std::int64_t &out)
{
    if (s.empty() || s.size() > 12)
        return false;
    out = 0;
    for (char c : s) {
        if (c < '0' || c > '9')
            return false;
        out = out * 10 + (c - '0');
    }
    return true;
}

class Reader {
public:
    explicit Reader(const std::string &file) : m_file(file) { m_model.file = file; }

    Result<IdlestatEnergyModel> run(std::string_view text)
    {
        std::istringstream in{std::string(text)};
        std::string raw;
        while (std::getline(in, raw)) {
            ++m_line;
            if (!raw.empty() && raw.back() == '\r')
                raw.pop_back();
            const std::vector<std::string> w = words(raw);
            if (w.empty() || w.front().front() == '#')
                continue;
            if (Status s = line(w); !s)
                return s.error();
        }
        if (Status s = closeCluster(); !s)
            return s.error();
        if (m_model.clustersLine == 0)
            return fail(0, "clusters", "no 'clusters N' line");
        if (static_cast<std::int64_t>(m_model.clusters.size()) != m_clusters)
            return fail(m_model.clustersLine, "clusters",
                        "says " + std::to_string(m_clusters) + " clusters, the file describes "
                            + std::to_string(m_model.clusters.size()));
        return std::move(m_model);
    }

private:
    enum class Block { None, PStates, CStates };

    Status line(const std::vector<std::string> &w)
    {
        const std::string &key = w.front();
        if (key == "clusters")
            return clustersLine(w);
        if (key.rfind("cluster", 0) == 0 && key.back() == ':')
            return clusterLine(w);
        if (key == "P-states:" || key == "C-states:") {
            if (!m_current)
                return fail(m_line, key.substr(0, 8), "outside a cluster: a 'clusterA: ...' line comes first");
            if (w.size() != 1)
                return fail(m_line, key.substr(0, 8), "expected nothing after '" + key + "'");
            m_block = key == "P-states:" ? Block::PStates : Block::CStates;
            return Ok{};
        }
        if (key == "wakeup") {
            if (!m_current)
                return fail(m_line, "wakeup", "outside a cluster: a 'clusterA: ...' line comes first");
            if (w.size() != 3)
                return fail(m_line, "wakeup", "expected 'wakeup CLUSTER_ENERGY CORE_ENERGY'");
            m_block = Block::None;
            if (Status s = number(w[1], "cluster_energy", m_current->wakeupCluster); !s)
                return s;
            return number(w[2], "core_energy", m_current->wakeupCore);
        }
        if (m_block == Block::PStates)
            return pStateLine(w);
        if (m_block == Block::CStates)
            return cStateLine(w);
        return fail(m_line, key,
                    "not a line of an idlestat energy model (expected clusters, clusterX:, "
                    "P-states:, C-states: or wakeup)");
    }

    Status clustersLine(const std::vector<std::string> &w)
    {
        if (m_model.clustersLine != 0)
            return fail(m_line, "clusters", "given twice (first on line " + std::to_string(m_model.clustersLine) + ")");
        if (w.size() != 2 || !wholeNumber(w[1], m_clusters) || m_clusters < 1 || m_clusters > MAX_CLUSTERS)
            return fail(m_line, "clusters", "expected 'clusters N' with N from 1 to 26");
        m_model.clustersLine = m_line;
        return Ok{};
    }

    // clusterX: P cap states C C states
    Status clusterLine(const std::vector<std::string> &w)
    {
        const std::string name = w[0].substr(0, w[0].size() - 1);
        if (m_model.clustersLine == 0)
            return fail(m_line, name, "before the 'clusters N' line");
        if (Status s = closeCluster(); !s)
            return s;
        const std::int64_t index = name.size() == 8 ? name[7] - 'A' : -1;
        if (index != static_cast<std::int64_t>(m_model.clusters.size()))
            return fail(m_line, name,
                        "expected cluster" + std::string(1, char('A' + m_model.clusters.size()))
                            + ": clusters come in order, A first");
        if (index >= m_clusters)
            return fail(m_line, name, "beyond the " + std::to_string(m_clusters) + " clusters the file announces");
        if (w.size() != 7 || w[2] != "cap" || w[3] != "states" || w[5] != "C" || w[6] != "states"
            || !wholeNumber(w[1], m_wantP) || !wholeNumber(w[4], m_wantC) || m_wantP > MAX_STATES || m_wantC < 1
            || m_wantC > MAX_STATES)
            return fail(m_line, name, "expected '" + name + ": P cap states C C states' (whole numbers, C >= 1)");
        m_model.clusters.emplace_back();
        m_current = &m_model.clusters.back();
        m_current->line = m_line;
        m_currentName = name;
        m_block = Block::None;
        return Ok{};
    }

    Status pStateLine(const std::vector<std::string> &w)
    {
        if (w.size() != 3)
            return fail(m_line, "P-states", "expected 'SPEED CLUSTER_POWER CORE_POWER'");
        IdlestatPState p;
        if (!wholeNumber(w[0], p.speedMhz))
            return fail(m_line, "speed", "'" + quoteField(w[0], 40) + "' is not a speed in MHz (a whole number)");
        if (Status s = powers(w, p.clusterPower, p.corePower); !s)
            return s;
        if (static_cast<std::int64_t>(m_current->pStates.size()) >= m_wantP)
            return fail(m_line, "P-states",
                        "more than the " + std::to_string(m_wantP) + " cap states " + m_currentName + " announces");
        m_current->pStates.push_back(p);
        return Ok{};
    }

    Status cStateLine(const std::vector<std::string> &w)
    {
        if (w.size() != 3)
            return fail(m_line, "C-states", "expected 'NAME CLUSTER_POWER CORE_POWER'");
        IdlestatCState c;
        c.name = w[0];
        c.line = m_line;
        for (const IdlestatCState &other : m_current->cStates)
            if (other.name == c.name)
                return fail(m_line, "C-states",
                            "state " + c.name + " given twice (first on line " + std::to_string(other.line) + ")");
        if (Status s = powers(w, c.clusterPower, c.corePower); !s)
            return s;
        if (static_cast<std::int64_t>(m_current->cStates.size()) >= m_wantC)
            return fail(m_line, "C-states",
                        "more than the " + std::to_string(m_wantC) + " C states " + m_currentName + " announces");
        m_current->cStates.push_back(std::move(c));
        return Ok{};
    }

    /// The counts of the cluster just read against its header.
    Status closeCluster()
    {
        if (!m_current)
            return Ok{};
        if (static_cast<std::int64_t>(m_current->pStates.size()) != m_wantP)
            return fail(m_current->line, m_currentName,
                        "announces " + std::to_string(m_wantP) + " cap states, "
                            + std::to_string(m_current->pStates.size()) + " P-state lines follow");
        if (static_cast<std::int64_t>(m_current->cStates.size()) != m_wantC)
            return fail(m_current->line, m_currentName,
                        "announces " + std::to_string(m_wantC) + " C states, "
                            + std::to_string(m_current->cStates.size()) + " C-state lines follow");
        m_current = nullptr;
        return Ok{};
    }

    /// The cluster and core power columns of a P-state or C-state line (words 1 and 2).
    Status powers(const std::vector<std::string> &w, double &cluster, double &core)
    {
        if (Status s = number(w[1], "cluster_power", cluster); !s)
            return s;
        return number(w[2], "core_power", core);
    }

    Status number(const std::string &text, const std::string &field, double &out)
    {
        if (text == "?")
            return fail(m_line, field, "'?' is idlestat's template placeholder: write the value");
        char *end = nullptr;
        out = std::strtod(text.c_str(), &end);
        if (end != text.c_str() + text.size())
            return fail(m_line, field, "'" + quoteField(text, 40) + "' is not a number");
        return checkPowerValue(out, m_file, m_line, field);
    }

    Error fail(std::int64_t line, const std::string &field, const std::string &what) const
    {
        return Error{m_file, line, field, what};
    }

    std::string m_file;
    IdlestatEnergyModel m_model;
    std::int64_t m_line = 0, m_clusters = 0, m_wantP = 0, m_wantC = 0;
    IdlestatCluster *m_current = nullptr;
    std::string m_currentName;
    Block m_block = Block::None;
};

} // namespace

Result<IdlestatEnergyModel> parseIdlestatEnergyModel(std::string_view text, const std::string &file)
{
    return Reader(file).run(text);
}

Result<IdlestatEnergyModel> readIdlestatEnergyModel(const std::string &path)
{
    Result<std::string> text = readInputFile(path, MAX_ENERGY_MODEL_BYTES, "an idlestat energy model");
    if (!text)
        return text.error();
    return parseIdlestatEnergyModel(*text, path);
}

Status applyIdlestatEnergyModel(const IdlestatEnergyModel &model, std::span<Cluster> clusters)
{
    if (model.clusters.size() != clusters.size())
        return Error{model.file, model.clustersLine, "clusters",
                     std::to_string(model.clusters.size()) + " clusters, the machine has "
                         + std::to_string(clusters.size())
                         + " (cluster A of the file is the machine's first cluster, B its second ...)"};
    for (size_t k = 0; k < clusters.size(); ++k) {
        const IdlestatCluster &em = model.clusters[k];
        Cluster &c = clusters[k];
        const auto states = static_cast<size_t>(c.table.count());
        c.power.states.resize(states);
        c.clusterIdlePowerMw.resize(states, NO_POWER_DATA);
        for (const IdlestatCState &cs : em.cStates) {
            int index = -1;
            for (int i = 0; i < c.table.count(); ++i)
                if (c.table[i].name == cs.name)
                    index = i;
            if (index < 0) {
                std::string names;
                for (const IdleState &s : c.table.states)
                    names += (names.empty() ? "" : ", ") + s.name;
                return Error{model.file, cs.line, "C-states",
                             "no state " + cs.name + " in table " + c.table.id + " (states: " + names + ")"};
            }
            c.power.states[static_cast<size_t>(index)].powerMw = cs.corePower;
            c.clusterIdlePowerMw[static_cast<size_t>(index)] = cs.clusterPower;
        }
        const IdlestatPState *fastest = nullptr;
        for (const IdlestatPState &p : em.pStates)
            if (!fastest || p.speedMhz > fastest->speedMhz)
                fastest = &p;
        if (fastest)
            c.power.activeMw = fastest->corePower;
        c.power.source = "idlestat energy model " + model.file;
    }
    return Ok{};
}

} // namespace idlescope
