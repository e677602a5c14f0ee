#pragma once
// The systems of the repository's own hardware files (inputs/hardware/), as tests build them:
// read the file, then sim::make_system on its constraints, parameters and technology.

#include <string>

#include "pimdse/io/config.hpp"
#include "pimdse/sim/system.hpp"

namespace pimdse::testing {

/// The system of inputs/hardware/`file` (e.g. "nicepim_4x4.yaml").
inline sim::System library_system(const std::string& file) {
    const io::HardwareFile h =
        io::read_hardware_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/hardware/" + file);
    return sim::make_system(h.constraints, h.params, h.technology);
}

}  // namespace pimdse::testing
