// The sweep's output file as one run holds it (src/engine/sweep_output.hpp).

#include "sweep_output.hpp"

#include <unistd.h>

#include <string>
#include <vector>

#include "collective.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/engine/signals.hpp"
#include "pimdse/engine/write_failure.hpp"
#include "pimdse/io/output_file.hpp"

namespace pimdse::engine::detail {

namespace fs = std::filesystem;

namespace {

// Open MPI's MPI-IO aborts the process (a buffer overflow in its shared-file-pointer
// component) on file names past about 245 characters, with the .part suffix included.
constexpr std::size_t kMaxOutputPathChars = 230;

fs::path directory_of(const fs::path& out) {
    return out.parent_path().empty() ? fs::path(".") : out.parent_path();
}

fs::path part_of(const fs::path& out) {
    fs::path part = out;
    part += ".part";
    return part;
}

void check_output_directory(const fs::path& out) {
    std::error_code ec;
    const fs::path dir = directory_of(out);
    if (!fs::is_directory(dir, ec))
        throw IoError(out.string() + ": the directory " + dir.string() + " does not exist");
}

void check_output_for_fresh_run(const fs::path& out, bool force) {
    std::error_code ec;
    if (fs::exists(out, ec)) {
        if (fs::is_directory(out, ec))
            throw IoError(out.string() + ": is a directory, expected an HDF5 file path");
        if (!force) {
            throw IoError(
                out.string() +
                ": exists already; pass --resume to continue the sweep it holds or --force to overwrite it");
        }
    }
    const fs::path dir = directory_of(out);  // exists: create() checked it first
    if (::access(dir.c_str(), W_OK) != 0) {
        throw IoError(out.string() + ": the directory " + dir.string() + " is not writable");
    }
}

store::OutputLock lock_output(const fs::path& out) {
    return store::OutputLock::acquire(out, !store::OutputLock::locking_disabled_by_environment());
}

}  // namespace

void check_output_name(const fs::path& out) {
    const std::string name = out.string();
    if (name.size() > kMaxOutputPathChars) {
        throw IoError(name.substr(0, 60) + "...: the output path is " + std::to_string(name.size()) +
                      " characters long, at most " + std::to_string(kMaxOutputPathChars) +
                      " are supported (Open MPI's MPI-IO fails on longer names); choose a shorter path");
    }
    const std::string base = out.filename().string();
    if (base.empty() || base == "." || base == "..")
        throw IoError(name + ": expected an HDF5 file path, got a directory name");
}

SweepOutput::SweepOutput(const ExploreOptions& options, const io::Config& config,
                         const family::Family& family, const eval::EvalContext& ctx, const fs::path& out,
                         const boost::mpi::communicator& world)
    : out_(out), resume_(options.resume), root_(world.rank() == 0) {
    install_stop_handlers(out_, root_, resume_);
    try {
        if (resume_) {
            agree(world, true, [&] { open_for_resume(config, family, options.config); });
        } else {
            agree(world, true, [&] { create(options, config, family, ctx); });
            install_stop_handlers(out_, root_, true);
        }
        agree(world, true, [&] { store_->note_run(world.size()); });
    } catch (const CollectiveError&) {
        discard_fresh();
        throw;
    }
}

void SweepOutput::open_for_resume(const io::Config& config, const family::Family& family,
                                  const fs::path& config_file) {
    std::error_code ec;
    if (!fs::exists(out_, ec))
        throw IoError(out_.string() + ": no such file to resume (start the sweep without --resume)");
    lock_ = lock_output(out_);
    if (!fs::is_regular_file(out_, ec)) throw IoError(out_.string() + ": not a regular file");
    {
        // Refused before anything is repaired: the file stays byte for byte.
        const store::Store file = store::Store::open_read_only(out_, MPI_COMM_SELF);
        const store::StoredSweep committed = file.read();
        check_resumable(committed, config, config_file, out_);
        check_pareto_replay(committed, file.columns(), config, out_);
    }
    store::Store::repair_for_resume(out_);
    store_.emplace(store::Store::open_for_resume(out_, MPI_COMM_SELF));
    if (store_->columns() != family_columns(family, config)) {
        throw IoError(out_.string() + ": its /candidates and /metrics columns are not those of the " +
                      std::string(family.name()) + " family as configured (a file of another family)");
    }
    stored_ = store_->read();
    // The file keeps a point's values; its family is the configuration's.
    for (store::CandidateRecord& c : stored_.candidates) c.params.family = family.space().family();
}

void SweepOutput::create(const ExploreOptions& options, const io::Config& config,
                         const family::Family& family, const eval::EvalContext& ctx) {
    check_output_directory(out_);  // the clearest message, before the lock file is made
    // Never a device, a FIFO, a link or one of this sweep's own input files, even with --force;
    // before the lock, so that a refusal makes no lock file beside /dev/null.
    std::vector<fs::path> inputs{options.config};
    for (const io::Workload& w : config.workloads) inputs.push_back(w.network);
    io::check_output_path(out_, inputs);
    lock_ = lock_output(out_);
    check_output_for_fresh_run(out_, options.force);
    const fs::path part = part_of(out_);
    part_file_ = store::PartFile::create(part);
    const HoldStopSignals hold;  // no half-made .part: a signal waits for the whole file
    try {
        store_.emplace(
            store::Store::create(out_, config, family_columns(family, config), ctx.workloads, MPI_COMM_SELF));
    } catch (const IoError& e) {
        // errno is often gone by the time HDF5 gives up: ask the file system.
        throw IoError(explain_write_failure(e.what(), part));
    }
    part_file_.check_same_file(out_);
}

void SweepOutput::discard_fresh() {
    if (resume_ || !root_) return;
    const bool made = store_.has_value();
    store_.reset();
    if (!made && !part_file_.held()) return;  // never remove a .part this run did not create
    std::error_code ec;
    fs::remove(part_of(out_), ec);
    if (made) fs::remove(out_, ec);
}

void SweepOutput::close() {
    if (!store_) return;
    store_->close_and_trim();
    store_.reset();
}

}  // namespace pimdse::engine::detail
