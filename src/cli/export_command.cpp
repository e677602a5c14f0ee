// `pimdse export OUT.h5 --csv DIR`: every table of a sweep file as a CSV file, its committed
// rows, units in the headers (docs/cli.md). The work is store::export_csv.

#include <CLI/CLI.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "pimdse/cli/commands.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/store/store_export.hpp"

#include "option_checks.hpp"

namespace pimdse::cli {

namespace {

int run_export(const std::string& path, const std::string& dir) {
    boost::mpi::environment env(false);
    boost::mpi::communicator world;
    if (world.rank() != 0) return 0;
    io::check_input_file(path);
    for (const store::ExportedTable& t : store::export_csv(path, dir)) {
        std::cout << t.file.string() << ": /" << t.table << ", " << t.rows << " rows, " << t.columns
                  << " columns\n";
    }
    return static_cast<int>(ExitCode::ok);
}

}  // namespace

void add_export_command(CLI::App& app, Action& action) {
    CLI::App* cmd = app.add_subcommand("export", "Write a sweep file's tables as CSV files (docs/cli.md)");
    auto path = std::make_shared<std::string>();
    auto dir = std::make_shared<std::string>();
    cmd->add_option("file", *path, "the HDF5 file of `pimdse explore`")->required();
    cmd->add_option("--csv", *dir, "directory for the CSV files, one per table (created if missing)")
        ->required()
        ->check(output_path("a directory name"));
    cmd->callback([&action, path, dir] { action = [path, dir] { return run_export(*path, *dir); }; });
}

}  // namespace pimdse::cli
