// One GoogleTest main for every MPI test program (the pattern of Ginkgo's
// ginkgo_mpi_main.cpp): each rank runs every test, failures are printed by the rank that
// saw them with a "[rank r/size]" prefix, and the exit status is non-zero on every rank if
// any rank failed, so mpirun reports the failure whichever rank it came from.

#include <gtest/gtest.h>
#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>

#include <functional>
#include <iostream>
#include <sstream>

namespace {

class RankPrefixedPrinter : public testing::EmptyTestEventListener {
public:
    RankPrefixedPrinter(int rank, int size) : rank_(rank), size_(size) {}

    void OnTestPartResult(const testing::TestPartResult& result) override {
        if (!result.failed()) return;
        std::ostringstream out;
        out << "[rank " << rank_ << '/' << size_ << "] " << (result.file_name() ? result.file_name() : "?")
            << ':' << result.line_number() << ": Failure\n"
            << result.summary() << '\n';
        std::cerr << out.str() << std::flush;
    }
    void OnTestEnd(const testing::TestInfo& info) override {
        if (info.result()->Failed()) {
            std::cerr << "[rank " << rank_ << '/' << size_ << "] FAILED " << info.test_suite_name() << '.'
                      << info.name() << '\n';
        }
    }

private:
    int rank_;
    int size_;
};

}  // namespace

int main(int argc, char** argv) {
    boost::mpi::environment env(argc, argv);
    boost::mpi::communicator world;
    testing::InitGoogleTest(&argc, argv);

    auto& listeners = testing::UnitTest::GetInstance()->listeners();
    if (world.rank() != 0) {
        // Only rank 0 prints the usual progress; the others print just their failures.
        delete listeners.Release(listeners.default_result_printer());
    }
    listeners.Append(new RankPrefixedPrinter(world.rank(), world.size()));

    const int local_failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
    int failed_ranks = 0;
    boost::mpi::all_reduce(world, local_failed, failed_ranks, std::plus<int>());
    if (world.rank() == 0 && failed_ranks > 0) {
        std::cerr << failed_ranks << " of " << world.size() << " ranks had failures\n";
    }
    return failed_ranks > 0 ? 1 : 0;
}
