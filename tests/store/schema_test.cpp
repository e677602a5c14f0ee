// The sweep file's declared schema (include/pimdse/store/schema.hpp) against
// docs/output.md's field tables: the same tables, fields in the same order, with the same
// types, units and meanings. A field added to a row without its documentation, or
// documentation left behind by a change, fails here.

#include "pimdse/store/schema.hpp"
#include "dram_pim_columns.hpp"
#include "pimdse/sim/intra_node.hpp"
#include "pimdse/sim/intra_node_tiling.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace pimdse::store {
namespace {

struct DocTable {
    std::string meaning;                         // the line under the heading
    std::vector<std::vector<std::string>> rows;  // field, type, meaning [unit]
};

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t");
    const auto b = s.find_last_not_of(" \t");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::string unquote(const std::string& s) {
    return s.size() >= 2 && s.front() == '`' && s.back() == '`' ? s.substr(1, s.size() - 2) : s;
}

// "| a | b | c |" -> {"a", "b", "c"}
std::vector<std::string> cells(const std::string& line) {
    std::vector<std::string> out;
    std::size_t at = 1;
    for (std::size_t bar; (bar = line.find('|', at)) != std::string::npos; at = bar + 1) {
        out.push_back(trim(line.substr(at, bar - at)));
    }
    return out;
}

// Every "### `/path`" section of docs/output.md with a "| field | type | meaning [unit] |" table.
std::map<std::string, DocTable> doc_tables() {
    std::ifstream in(std::string(PIMDSE_SOURCE_DIR) + "/docs/output.md");
    EXPECT_TRUE(in.good()) << "docs/output.md not found";
    std::map<std::string, DocTable> out;
    std::string line;
    std::string current;
    bool in_table = false;
    while (std::getline(in, line)) {
        if (line.rfind("### `/", 0) == 0) {
            current = unquote(trim(line.substr(4)));
            out[current] = {};
            in_table = false;
            continue;
        }
        if (current.empty()) continue;
        DocTable& t = out[current];
        if (t.meaning.empty() && !line.empty() && line[0] != '|' && line[0] != '`') {
            t.meaning = trim(line);
        } else if (line.rfind("| field | type | meaning [unit] |", 0) == 0) {
            in_table = true;
        } else if (in_table && line.rfind("|---", 0) == 0) {
            continue;
        } else if (in_table && !line.empty() && line[0] == '|') {
            std::vector<std::string> c = cells(line);
            if (!c.empty()) c[0] = unquote(c[0]);
            t.rows.push_back(c);
        } else if (in_table) {
            in_table = false;
            current.clear();
        }
    }
    return out;
}

TEST(Schema, DocsOutputMdAgreesWithTheDeclaredTables) {
    const std::map<std::string, DocTable> docs = doc_tables();
    for (const TableSchema& t : dram_pim_tables()) {
        const std::string path(t.path);
        const auto it = docs.find(path);
        ASSERT_NE(it, docs.end()) << "docs/output.md has no section ### `" << path << "`";
        const DocTable& d = it->second;
        EXPECT_EQ(d.meaning, std::string(t.meaning) + ".") << path << ": the line under the heading";
        ASSERT_EQ(d.rows.size(), t.fields.size()) << path << ": fields documented vs declared";
        for (std::size_t i = 0; i < t.fields.size(); ++i) {
            const Field& f = t.fields[i];
            ASSERT_EQ(d.rows[i].size(), 3u) << path << " row " << i;
            EXPECT_EQ(d.rows[i][0], f.name) << path << " field " << i;
            EXPECT_EQ(d.rows[i][1], f.type_name()) << path << "." << f.name << ": type";
            EXPECT_EQ(d.rows[i][2], f.description()) << path << "." << f.name << ": meaning [unit]";
        }
    }
}

TEST(Schema, EveryDocumentedTableIsDeclared) {
    std::set<std::string> declared;
    for (const TableSchema& t : dram_pim_tables()) declared.insert(std::string(t.path));
    for (const auto& [path, table] : doc_tables()) {
        if (!table.rows.empty()) {
            EXPECT_TRUE(declared.count(path)) << path << " is documented, not declared";
        }
    }
}

// The fields lie inside the row, in declared order, without overlapping: a field declared
// at the wrong member or a member left out of a row's middle shows here.
TEST(Schema, FieldsTileTheirRow) {
    for (const TableSchema& t : dram_pim_tables()) {
        std::set<std::string_view> names;
        std::vector<std::pair<std::size_t, std::size_t>> spans;
        for (const Field& f : t.fields) {
            EXPECT_TRUE(names.insert(f.name).second) << t.path << "." << f.name << " twice";
            EXPECT_LE(f.offset + f.size(), t.row_size) << t.path << "." << f.name;
            spans.emplace_back(f.offset, f.offset + f.size());
        }
        std::sort(spans.begin(), spans.end());
        std::size_t used = 0;
        for (std::size_t i = 0; i < spans.size(); ++i) {
            if (i > 0) {
                EXPECT_LE(spans[i - 1].second, spans[i].first) << t.path << ": overlapping fields";
            }
            used += spans[i].second - spans[i].first;
        }
        // Only alignment padding is left over (less than 8 bytes between or after fields).
        EXPECT_LT(t.row_size - used, 8 * t.fields.size()) << t.path;
    }
}

TEST(Schema, UnitsAreNotPartOfTheMeaning) {
    for (const TableSchema& t : dram_pim_tables()) {
        for (const Field& f : t.fields) {
            // "[unit]" after a space is the unit's place (BCHW[Cn] is a name, not a unit).
            EXPECT_EQ(std::string(f.meaning).find(" ["), std::string::npos) << t.path << "." << f.name;
            if (!f.unit.empty()) {
                EXPECT_EQ(f.description(), std::string(f.meaning) + " [" + std::string(f.unit) + "]");
            }
        }
    }
}

TEST(Schema, EveryEnergyIsInJoules) {
    for (const TableSchema& t : dram_pim_tables()) {
        for (const Field& f : t.fields) {
            if (f.name.starts_with("energy")) {
                EXPECT_TRUE(f.name.ends_with("_j")) << t.path << "." << f.name;
                EXPECT_EQ(f.unit, "J") << t.path << "." << f.name;
            }
        }
    }
}

// The units a configuration decides reach the fields they belong to; the hypervolume's is
// the product of the objectives'.
TEST(Schema, ConfiguredUnitsReachTheirFields) {
    EXPECT_EQ(hypervolume_unit({"s", "J", "mm2"}), "s J mm2");
    EXPECT_EQ(hypervolume_unit({"J s", "mm2"}), "(J s) mm2");
    FamilyColumns c = dram_pim_columns();
    c.cost_unit = "J^2 s";
    c.objective_units = {"J s", "W"};
    c.hypervolume_unit = hypervolume_unit(c.objective_units);
    std::map<std::string, std::string> units;
    for (const TableSchema& t : declared_tables(c)) {
        for (const Field& f : t.fields) units[std::string(t.path) + "." + std::string(f.name)] = f.unit;
    }
    for (const char* cost :
         {"/candidates.cost", "/metrics.cost", "/pareto.cost", "/tuner/batches.best_cost"}) {
        EXPECT_EQ(units[cost], "J^2 s") << cost;
    }
    EXPECT_EQ(units["/tuner/batches.hv_reference_1"], "J s");
    EXPECT_EQ(units["/tuner/batches.hv_reference_2"], "W");
    EXPECT_EQ(units["/tuner/batches.hv_reference_3"], "") << "no third objective, no unit";
    EXPECT_EQ(units["/tuner/batches.hypervolume"], "(J s) W");
    // The default configuration's, as docs/output.md shows them.
    const FamilyColumns& d = dram_pim_columns();
    EXPECT_EQ(d.cost_unit, "J s");
    EXPECT_EQ(d.objective_units, (std::vector<std::string>{"s", "J", "mm2"}));
    EXPECT_EQ(d.hypervolume_unit, "s J mm2");
}

// The tiling enums of /mappings/layers are sim's names, shifted by a leading `none`; the loop
// order, any permutation of the five tile loops, is their five letters as text.
TEST(Schema, TilingEnumsFollowTheModelsNames) {
    std::map<std::string, const Field*> fields;
    for (const Field& f : dram_pim_tables()[static_cast<std::size_t>(TableId::layers)].fields)
        fields[std::string(f.name)] = &f;
    std::vector<std::string_view> dims{"none"}, flows{"none"};
    for (std::size_t d = 0; d < sim::kFastLoopDims; ++d)  // R and S are never unrolled
        dims.push_back(sim::to_string(static_cast<sim::LoopDim>(d)));
    for (std::size_t f = 0; f < sim::kPeDataflows; ++f)
        flows.push_back(sim::to_string(static_cast<sim::PeDataflow>(f)));
    EXPECT_EQ(fields["unroll_row"]->enum_names, dims);
    EXPECT_EQ(fields["unroll_col"]->enum_names, dims);
    EXPECT_EQ(fields["dataflow"]->enum_names, flows);
    EXPECT_EQ(fields["loop_order"]->kind, FieldKind::text);
    EXPECT_EQ(fields["loop_order"]->length, sim::kLoopDims);
    EXPECT_TRUE(fields["loop_order"]->enum_names.empty());
}

}  // namespace
}  // namespace pimdse::store
