// Placeholder: replaced by the config subcommand implementation.
#include "pimdse/cli/commands.hpp"

namespace pimdse::cli {
void add_config_command(CLI::App&, Action&) {}
}  // namespace pimdse::cli
