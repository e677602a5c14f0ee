// The pimdse executable: parse the command line, run one subcommand, map errors to exit
// codes. Library code never exits; this is the only place that decides the exit status.

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>

#include "pimdse/build_info.hpp"
#include "pimdse/cli/commands.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/core/heap.hpp"
#include "pimdse/store/hdf5.hpp"

namespace {

int code(pimdse::ExitCode c) {
    return static_cast<int>(c);
}

std::string version_text() {
    return std::string("pimdse ") + pimdse::build_info::version + " (revision " +
           pimdse::build_info::git_revision + ", " + pimdse::build_info::build_type + ")";
}

}  // namespace

int main(int argc, char** argv) {
    pimdse::keep_freed_memory();
    pimdse::store::h5::start_library_before_mpi();
    CLI::App app{
        "pimdse: design-space exploration of processing-in-memory DNN accelerators "
        "on 3-D-stacked DRAM"};
    app.set_version_flag("--version", version_text());
    // At most one command; an unknown word is then reported as such (CLI11 2.1 says only
    // "A subcommand is required" when one is required and the word matches none).
    app.require_subcommand(0, 1);
    app.footer(
        "Exit codes: 0 success, 1 internal error, 2 bad command line, 3 malformed input file,\n"
        "4 file I/O error, 5 solver failure, 6 stopped by SIGTERM/SIGINT (the sweep file resumes),\n"
        "7 stopped cleanly before the wall time (explore --wall-time; the sweep file resumes),\n"
        "8 out of memory (every rank stops; the sweep file resumes).\n"
        "See docs/cli.md.");

    pimdse::cli::Action action;
    pimdse::cli::add_network_command(app, action);
    pimdse::cli::add_config_command(app, action);
    pimdse::cli::add_evaluate_command(app, action);
    pimdse::cli::add_map_command(app, action);
    pimdse::cli::add_schedule_command(app, action);
    pimdse::cli::add_explore_command(app, action);
    pimdse::cli::add_summary_command(app, action);
    pimdse::cli::add_export_command(app, action);
    pimdse::cli::add_compare_command(app, action);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return code(pimdse::ExitCode::usage);
    }

    if (!action) {
        std::cerr << app.help() << "pimdse: error: a command is required\n";
        return code(pimdse::ExitCode::usage);
    }
    try {
        return action();
    } catch (const std::exception& e) {
        // core/error.hpp maps every error to its exit code; main only reports it.
        const pimdse::ExitCode c = pimdse::exit_code_of(e);
        std::cerr << "pimdse: " << pimdse::error_label(c) << ": " << pimdse::message_of(e) << '\n';
        return code(c);
    }
}
