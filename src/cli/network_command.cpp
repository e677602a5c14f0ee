// Placeholder: replaced by the network subcommand implementation.
#include "pimdse/cli/commands.hpp"

namespace pimdse::cli {
void add_network_command(CLI::App&, Action&) {}
}  // namespace pimdse::cli
