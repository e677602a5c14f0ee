#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

TEST(Mpi, AllReduceSumsRanks) {
    boost::mpi::communicator world;
    int sum = 0;
    boost::mpi::all_reduce(world, world.rank(), sum, std::plus<int>());
    EXPECT_EQ(sum, world.size() * (world.size() - 1) / 2);
}
