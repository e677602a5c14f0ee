#pragma once
// Each pimdse subcommand registers itself on the CLI11 application; main() runs the
// parsed one. A command's callback returns its process exit code.

#include <functional>

namespace CLI {
class App;
}

namespace pimdse::cli {

/// What a parsed subcommand will do once main() has finished parsing.
using Action = std::function<int()>;

/// `pimdse network info FILE...`
void add_network_command(CLI::App& app, Action& action);
/// `pimdse config check FILE`
void add_config_command(CLI::App& app, Action& action);
/// `pimdse evaluate --hardware H --network N (--mapping M | --uniform) [--write-mapping OUT]`
void add_evaluate_command(CLI::App& app, Action& action);
/// `pimdse map --hardware H --network N [--mapper nicepim|baseline] [-o OUT]`
void add_map_command(CLI::App& app, Action& action);
/// `pimdse schedule --mesh RxC --sets SPEC [--bytes B] [--flit-bits N] ...`
void add_schedule_command(CLI::App& app, Action& action);
/// `pimdse explore CONFIG [-o OUT.h5] [--resume] [--force] [--wall-time T]`
void add_explore_command(CLI::App& app, Action& action);
/// `pimdse summary OUT.h5`
void add_summary_command(CLI::App& app, Action& action);
/// `pimdse export OUT.h5 --csv DIR`
void add_export_command(CLI::App& app, Action& action);
/// `pimdse compare A.h5 B.h5 [--target COST]`
void add_compare_command(CLI::App& app, Action& action);

}  // namespace pimdse::cli
