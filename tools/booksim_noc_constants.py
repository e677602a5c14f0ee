#!/usr/bin/python3
"""The crossbar preset's NoC energy per bit and hop and its router area (the `mnsim2` preset,
src/sim/crossbar_technology.cpp; docs/model.md, "ReRAM crossbars: the inter-tile network").

MNSIM 2.0 costs its NoC, when asked to (NoC_enable 1), with BookSim's power model on the
network of its NoC/mesh_config (32-bit channels, one virtual channel of a one-flit buffer,
routers with one local port) and the technology of its techfile.txt (the 2007 ITRS 32 nm
library: Vdd 0.9 V, wire capacitances, 2 mm links). BookSim reports power for a whole
simulation; this script evaluates the same model per event instead, so that an energy per
bit and hop results: one flit-bit written into and read from an input buffer, through a
5 x 5 switch (averaged over its input and output pairs), its output register, and along one
repeated 2 mm link with its register. Leakage and clock power are static and left out.

  tools/booksim_noc_constants.py        (prints each part, the sum and the router area)
"""

# techfile.txt of MNSIM 2.0 (capacitances in F/um for devices, F/mm for wires; mm; ohm; V)
VDD, R_INV = 0.9, 606.321
CG_PWR, CD_PWR, CGDL, CG, CD = 5.34e-16, 2.67e-16, 1.068e-16, 5.34e-16, 2.67e-16
LAMBDA, METAL_PITCH, RW = 0.016, 8e-5, 0.720044
CW_GND = CW_CPL = 2.67339e-13
WIRE_MM = 2.0
H_INVD2, W_INVD2, H_DFQD1, W_DFQD1, H_SRAM, W_SRAM = 8, 3, 8, 16, 8, 6
# NoC/mesh_config of MNSIM 2.0: channel width, VCs x buffer depth; a 2-D mesh router's ports
WIDTH, DEPTH, PORTS = 32, 1, 5

CW = 2 * CW_CPL + 2 * CW_GND                      # wire, both neighbours and both planes
CI_DELAY, CO_DELAY = 3 * (CG + CGDL), 3 * CD      # 1 um inverter (P 2 um, N 1 um)
CI, CO = 3 * CG_PWR, 3 * CD_PWR
T_CLK = 20 * R_INV * (3 * CD + 12 * CG + 12 * CGDL)   # 20 FO4
PITCH = 2 * METAL_PITCH                           # channel and switch pitch
V2 = VDD * VDD


def repeated_wire(length, k, m, n):
    """Switched capacitance of one bit of a link with m x n repeaters of size k, F."""
    return 0.5 * (k * (CI + CO) * m * n + CW * length)


def register(m, alpha):
    """Switched capacitance of m flip-flops of one bit at activity alpha, F."""
    c_din = 2 * 0.8 * (CI + CO) + 2 * (2 / 3 * 0.8 * CO)
    c_clk = 2 * 0.8 * (CI + CO) + 2 * (2 / 3 * 0.8 * CG_PWR)
    return (alpha * 0.5 * c_din + alpha * c_clk) * m


def best_repeaters(length):
    """BookSim's choice of repeater size k and stages m x n for a link (64-bit reference)."""
    best, choice = None, None
    for ki in range(10, 100):
        k = ki / 10
        for n in range(1, 40):
            for m in range(1, 40):
                seg = length / (n * m)
                t = (R_INV * (CO_DELAY + CI_DELAY) + (R_INV / k * CW + k * RW * CI_DELAY) * seg +
                     0.5 * RW * CW * seg * seg)
                metric = m ** 4 * (0.2 * 64 * repeated_wire(length, k, m, n) + register(m, 0.2) * 64)
                if n * t < 0.8 * T_CLK and (best is None or metric < best):
                    best, choice = metric, (k, m, n)
    return choice


def buffer_access():
    """Switched capacitance of one flit written and read (word line twice, bit lines), F."""
    c_cell = 2 * 4 * LAMBDA * CG_PWR + 6 * METAL_PITCH * CW
    x = 1 + 5 / 16 * (1 + CO / CI)
    y = 1.25 * (1 + CO / CI)
    h = 6 * WIDTH * METAL_PITCH
    word_line = (y * (CW * h + 3 * WIDTH * CI) + y * (CW * h + 2 * WIDTH * CI) +
                 2 * x * CW * (8 * METAL_PITCH + DEPTH) * CI + x * WIDTH * c_cell)
    bit_line = DEPTH * (4 * LAMBDA * CD_PWR + 8 * METAL_PITCH * CW)
    # BookSim's write adds 0.5 (2 (Co + Ci)) Vdd^2 as a power without the clock, about
    # 1e-13 pJ per bit as an energy: left out.
    return 2 * word_line + 2 * WIDTH * bit_line


def switch_bit():
    """Switched capacitance of one bit through the switch, averaged over port pairs, F."""
    w_in, w_out = WIDTH * PORTS * PITCH, WIDTH * PORTS * PITCH
    cw_in, cw_out = w_in * CW, w_out * CW
    cxi, cti = cw_out / 16, cw_in / 16
    cxo, cto = 4 * cxi * CO_DELAY / CI_DELAY, 4 * cti * CO_DELAY / CI_DELAY
    driver = 5 / 16 * (1 + CO_DELAY / CI_DELAY) * (0.5 * CW * w_in + cti)
    total = 0.0
    for src in range(PORTS):
        for dst in range(PORTS):
            c_in = driver + cw_in + cti + PORTS * cxi - ((0.5 * cw_in + PORTS / 2 * cxi) if dst < PORTS / 2 else 0)
            c_out = cw_out + cto + PORTS * cxo - ((0.5 * cw_out + PORTS / 2 * cxo) if src < PORTS / 2 else 0)
            total += 0.5 * (c_in + c_out)
    return total / PORTS ** 2


def switch_control():
    """Switched capacitance of the switch's control for one flit, F."""
    w = WIDTH * PORTS * PITCH
    c_ctrl = WIDTH * (5 / 16 * w * CW) + (w + w) * CW
    return c_ctrl * (1 + 5 / 16 * (1 + CO_DELAY / CI_DELAY))


def output_control():
    """Switched capacitance of the output module's enable for one flit, F."""
    return (1 + 5 / 16) * (1 + CO / CI) * (WIDTH * PITCH * CW + WIDTH * CI)


def main():
    k, m, n = best_repeaters(WIRE_MM)
    parts = {  # energy of one bit, pJ
        "link wire": repeated_wire(WIRE_MM, k, m, n) * V2,
        "link register": register(m, 1.0) * V2,
        "input buffer (write + read)": buffer_access() * V2 / WIDTH,
        "switch": switch_bit() * V2,
        "switch control": switch_control() * V2 / WIDTH,
        "output register and enable": (register(1, 1.0) * WIDTH + output_control()) * V2 / WIDTH,
    }
    for name, joules in parts.items():
        print(f"{name:28s} {joules * 1e12:.4f} pJ/bit")
    print(f"{'per bit and hop':28s} {sum(parts.values()) * 1e12:.4f} pJ")
    link = WIDTH * (m * W_DFQD1 * H_DFQD1 + m * n * (W_INVD2 + 3 * k) * H_INVD2) * METAL_PITCH ** 2
    router = ((PORTS * WIDTH * PITCH) ** 2 + PORTS * (WIDTH * H_SRAM) * (DEPTH * W_SRAM) * METAL_PITCH ** 2 +
              PORTS * W_DFQD1 * H_DFQD1 * WIDTH * METAL_PITCH ** 2)
    print(f"repeaters: k {k:.1f}, {m} x {n} stages; router {router:.6f} mm2, link {link:.6f} mm2")
    print(f"{'router and 4 links':28s} {router + 4 * link:.6f} mm2")


if __name__ == "__main__":
    main()
