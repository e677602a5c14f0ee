#pragma once
// The sweep's output file as one run holds it (docs/engine.md, "One writer"; docs/cli.md,
// "Exclusive output"): rank 0 alone opens it, holds its lock for the whole run, creates a
// fresh run's `.part` exclusively, and checks a resumed file read-only before anything
// repairs it, so that a refused run changes nothing. A fresh run that fails before its first
// batch leaves no file behind (discard_fresh).

#include <boost/mpi/communicator.hpp>

#include <filesystem>
#include <optional>

#include "pimdse/engine/explore.hpp"
#include "pimdse/eval/evaluate.hpp"
#include "pimdse/family/family.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/store/output_lock.hpp"
#include "pimdse/store/store.hpp"

namespace pimdse::engine::detail {

/// Throws IoError if `out` cannot name a sweep file (too long for Open MPI's MPI-IO, or a
/// directory name); checked on every rank before anything is opened.
void check_output_name(const std::filesystem::path& out);

/// Throws ConfigError (naming the configuration file) listing what differs between the stored
/// sweep and this configuration, its network files included; a resume is refused on any.
void check_resumable(const store::StoredSweep& stored, const io::Config& config,
                     const std::filesystem::path& config_file, const std::filesystem::path& out);

/// Throws IoError (naming `out` and the row) unless the committed /pareto rows are the history
/// that replaying the committed candidates rebuilds: checked before the file is touched, as a
/// resume rewrites /pareto from the replay. `columns`: the file's (its family metrics).
void check_pareto_replay(const store::StoredSweep& stored, const store::FamilyColumns& columns,
                         const io::Config& config, const std::filesystem::path& out);

class SweepOutput {
public:
    /// Creates (fresh, --force) or opens (--resume) `out` on rank 0 and records this run in it;
    /// collective: a failure on rank 0 is a CollectiveError on every rank, after which a
    /// fresh run's partial file is gone.
    SweepOutput(const ExploreOptions& options, const io::Config& config, const family::Family& family,
                const eval::EvalContext& ctx, const std::filesystem::path& out,
                const boost::mpi::communicator& world);

    [[nodiscard]] store::Store& store() { return *store_; }  ///< rank 0 only
    /// The committed sweep a resumed run continues (empty for a fresh run); rank 0 only.
    [[nodiscard]] store::StoredSweep& stored() { return stored_; }
    /// Removes the file of a fresh run (rank 0; nothing for a resumed run or another rank).
    void discard_fresh();
    /// Cuts the tables back to their rows and closes the file (rank 0).
    void close();

private:
    void open_for_resume(const io::Config& config, const family::Family& family,
                         const std::filesystem::path& config_file);
    void create(const ExploreOptions& options, const io::Config& config, const family::Family& family,
                const eval::EvalContext& ctx);

    std::filesystem::path out_;
    bool resume_ = false;
    bool root_ = false;
    store::OutputLock lock_;
    store::PartFile part_file_;
    std::optional<store::Store> store_;
    store::StoredSweep stored_;
};

}  // namespace pimdse::engine::detail
