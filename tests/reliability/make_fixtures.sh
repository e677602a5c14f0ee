#!/usr/bin/env bash
# Writes the hostile input files of hostile_inputs.tsv into WORK (usage: make_fixtures.sh SRC WORK).
# Each is one small edit of a valid file of the repository, so that the case exercises one fault.
set -euo pipefail
src=$1 work=$2
rm -rf "$work" && mkdir -p "$work/dir.yaml"
sweep=$src/tests/data/sweep/tiny.yaml
map=$src/tests/data/mapping
abs() { sed -e "s#network: \.\./mapping#network: $map#" -e "s#network: \.\./\.\./\.\./inputs#network: $src/inputs#" "$sweep"; }
edit() { abs | sed -e "$1" > "$work/$2"; }
hw() { printf 'constraints:\n%b\nhardware:\n  node_array: [4, 4]\n  pe_array: [32, 32]\n  buffers_kib: {input: %s, weight: 128, output: 128}\n' "$1" "$2" > "$work/$3"; }

/usr/bin/python3 - "$work" <<'PY'
import sys
w = sys.argv[1]
open(f"{w}/deep_flow.yaml", "w").write("a: " + "[" * 600 + "]" * 600 + "\n")
open(f"{w}/deep_flow_huge.yaml", "w").write("a: " + "[" * 100000 + "]" * 100000 + "\n")
open(f"{w}/deep_block.yaml", "w").write("".join(" " * i + "k:\n" for i in range(100)))
open(f"{w}/deep_block_600.yaml", "w").write("".join(" " * i + "k:\n" for i in range(600)))
open(f"{w}/secret.txt", "w").write("root:$6$SECRETHASH:19000:0:99999:7:::\n")
open(f"{w}/plain.txt", "w").write("SECRETHASH is plain text, no YAML mapping\n")
open(f"{w}/big.yaml", "w").write("# " + "x" * (17 << 20) + "\n")
open(f"{w}/laughs.yaml", "w").write(
    "a: &a [x, x, x, x, x, x, x, x, x, x]\n" +
    "".join(f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 10) + "]\n" for i in range(6)))
PY
mkfifo "$work/fifo.yaml"
edit 's/budget: 12/budget: !foo 12/' tag.yaml
edit 's/budget: 12/budget: !!int 12/' std_tag.yaml
edit 's#path: tiny.h5#path: "ab\\0cd.h5"#' nul_output.yaml
edit '/^sweep:/i cost: {alpha: 1e308, beta: 1}' alpha_huge.yaml
edit '/^sweep:/i cost: {alpha: 1, beta: .inf}' beta_inf.yaml
edit '/^sweep:/i cost: {alpha: nan, beta: 1}' alpha_nan.yaml
edit 's/weight: 1}/weight: 1e-320}/' weight_tiny.yaml
edit 's/weight: 1, batch: 1}/weight: 1e7, batch: 1}/' weight_huge.yaml
edit '/^sweep:/i constraints: {clock_mhz: 1e308}' clock_huge.yaml
edit '/^sweep:/i constraints: {area_budget_mm2: 1e-300}' area_tiny.yaml
edit '/^sweep:/i technology: {mac_energy_pj: 1e300}' tech_huge.yaml
edit '/^sweep:/i schedule: {time_limit: 1e-9}' sched_tiny.yaml
edit '/^sweep:/i engine: {reference: [1e300, 1, 1]}' reference_huge.yaml
edit 's#network: [^,]*tiny.yaml#network: /dev/zero#' net_dev_zero.yaml
edit "s#network: [^,]*tiny.yaml#network: $work/fifo.yaml#" net_fifo.yaml
edit 's/budget: 12/budget: 99999999999999999999/' budget_overflow.yaml
edit 's/seed: 7/seed: -1/' seed_negative.yaml
edit 's/batch_size: 4/batch_size: 0x10/' batch_hex.yaml
hw '  bank_array: [1024, 1024]\n  bank_width_bits: 65536' 128 hw_port_overflow.yaml
hw '  bank_array: [16, 16]' 1099511627776 hw_buffer_huge.yaml
hw '  bank_array: [16, 16]' -1 hw_buffer_negative.yaml
hw '  clock_mhz: 1e308' 128 hw_clock_huge.yaml
printf 'hardware:\n  node_array: [2, 2]\n  pe_array: [128, 64]\n  buffers_kib: {input: 1, weight: 1, output: 1}\n' > "$work/hw_unmappable.yaml"
# A legal 256 x 256 node array (`map` of a 4-layer network on it once ran over a minute).
printf 'constraints:\n  bank_array: [256, 256]\n  node_rows: {min: 1, max: 256}\n  node_cols: {min: 1, max: 256}\n  pe_rows: {min: 1, max: 256}\n  pe_cols: {min: 1, max: 256}\n  area_budget_mm2: 100000\nhardware:\n  node_array: [256, 256]\n  pe_array: [2, 2]\n  buffers_kib: {input: 4, weight: 4, output: 4}\n' > "$work/hw_256x256.yaml"
sed 's/^network: tiny/network: "."/' "$map/tiny.yaml" > "$work/net_dot.yaml"
sed 's/^network: tiny/network: ".."/' "$map/tiny.yaml" > "$work/net_dotdot.yaml"
sed 's/^network: tiny/network: "a\\0b"/' "$map/tiny.yaml" > "$work/net_nul.yaml"
sed 's/^network: tiny/network: !secret tiny/' "$map/tiny.yaml" > "$work/net_tag.yaml"
sed 's/out: "BCHW\[C8\]"/out: "BCHW[C1073741824]"/' "$map/tiny_2x4.yaml" > "$work/map_group_huge.yaml"
sed 's/out: "BCHW\[C8\]"/out: "BCHW[C6]"/' "$map/tiny_2x4.yaml" > "$work/map_group_odd.yaml"
: > "$work/empty.yaml"
ln -sf /dev/urandom "$work/link_urandom.yaml"

# --- outputs: never replace a device, a FIFO, a link or one of the command's inputs ---
cp "$map/tiny.yaml" "$work/own_net.yaml"
cp "$map/hardware_2x4.yaml" "$work/own_hw.yaml"
abs | sed -e '/resnet18/d' -e "s#network: [^,]*tiny.yaml#network: $work/own_net.yaml#" -e 's/budget: 12/budget: 4/' \
  > "$work/own_sweep.yaml"
ln "$work/own_sweep.yaml" "$work/own_sweep_hardlink.yaml"
mkfifo "$work/fifo_out"
# Device nodes of our own, so that a pimdse that replaces devices never touches /dev.
mknod "$work/dev_null" c 1 3 2>/dev/null || ln -s /dev/null "$work/dev_null"
mknod "$work/dev_full" c 1 7 2>/dev/null || ln -s /dev/full "$work/dev_full"
echo "not pimdse's" > "$work/victim.txt"
ln -s "$work/victim.txt" "$work/link_out.yaml"
mkdir "$work/csv_link" "$work/csv_fifo"
ln -s "$work/victim.txt" "$work/csv_link/candidates.csv"
mkfifo "$work/csv_fifo/candidates.csv"
# --- inputs the importer must check before ONNX's shape inference divides by them ---
/usr/bin/python3 - "$work" <<'PY'
import sys
from onnx import TensorProto, helper, save
w = sys.argv[1]
def model(nodes, dims=(1, 4, 8, 8), opset=17, inits=()):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, list(dims))
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    y.type.tensor_type.shape.SetInParent()
    g = helper.make_graph(nodes, "hostile", [x], [y], initializer=list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
relu = [helper.make_node("Relu", ["x"], ["y"], name="r")]
save(model(relu), f"{w}/own_model.onnx")
save(model(relu, dims=(1 << 40, 4, 8, 8)), f"{w}/onnx_batch_2e40.onnx")
save(model(relu, opset=99), f"{w}/onnx_opset99.onnx")
save(model([helper.make_node("MaxPool", ["x"], ["y"], name="p", kernel_shape=[2, 2], strides=[0, 0])]),
     f"{w}/onnx_pool_strides0.onnx")
weights = helper.make_tensor("c.w", TensorProto.FLOAT, [4, 4, 3, 3], [0.0] * 144)
save(model([helper.make_node("Conv", ["x", "c.w"], ["y"], name="c", kernel_shape=[3, 3], strides=[0, 0])],
           inits=[weights]), f"{w}/onnx_conv_strides0.onnx")
PY
# --- hardware: a bank's port moves whole bytes and fills a row with whole accesses ---
hw '  bank_width_bits: 1' 128 hw_width1.yaml
hw '  bank_width_bits: 12' 128 hw_width12.yaml
hw '  bank_width_bits: 24' 128 hw_width24.yaml
hw '  bank_width_bits: 64' 128 hw_row_odd.yaml
printf 'technology:\n  dram_row_buffer_bytes: 12\n' >> "$work/hw_row_odd.yaml"
# --- configuration: a long values list (checked in linear time) and files over 2 MiB ---
/usr/bin/python3 - "$work" <<'PY'
import sys
w = sys.argv[1]
base = open(f"{w}/own_sweep.yaml").read().replace("space:", "constraints:\n  buffer_kib: {min: 1, max: 1048576}\nspace:")
old = "  ibuf_kib: {min: 8, max: 64, spacing: linear, step: 8}"
for name, n in (("values_250k", 250000), ("values_900k", 900000)):
    values = "  ibuf_kib: {values: [" + ", ".join(str(i) for i in range(1, n + 1)) + "]}"
    open(f"{w}/{name}.yaml", "w").write(base.replace(old, values))
open(f"{w}/big_config.yaml", "w").write(base + "# " + "x" * (3 << 20) + "\n")
PY
