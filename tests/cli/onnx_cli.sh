#!/usr/bin/env bash
# ONNX models on the command line (docs/cli.md): `network import` writes a network file equal
# to the library's, and every command that reads a network takes the .onnx directly.
# Usage: onnx_cli.sh PIMDSE MODELS_DIR SOURCE_DIR WORKDIR
set -euo pipefail
pimdse=$1 models=$(cd "$2" && pwd) src=$3 dir=$4
mkdir -p "$dir"
fail() { echo "onnx_cli: $*" >&2; exit 1; }
summary() { "$pimdse" network info --summary "$@"; }

# network import: the YAML it writes describes the library network, layer table included.
"$pimdse" network import "$models/resnet50.onnx" -o "$dir/resnet50.yaml" 2> "$dir/import.txt"
grep -q "^imported resnet50: batch 1, 72 layers, 3.858 GMACs" "$dir/import.txt" || fail "import summary: $(cat "$dir/import.txt")"
[[ $(summary "$dir/resnet50.yaml") == $(summary "$src/inputs/networks/resnet50.yaml") ]] || fail "imported YAML differs"
diff <("$pimdse" network info "$dir/resnet50.yaml" | tail -n +2) \
     <("$pimdse" network info "$src/inputs/networks/resnet50.yaml" | tail -n +2) || fail "layer tables differ"

# network info on the model itself, and --seq-len for a symbolic sequence.
[[ $(summary "$models/resnet50.onnx") == $(summary "$src/inputs/networks/resnet50.yaml") ]] || fail "info on .onnx differs"
"$pimdse" network import "$models/bert_base_symbolic.onnx" --seq-len 128 -o "$dir/bert.yaml" 2> /dev/null
[[ $(summary "$dir/bert.yaml") == $(summary "$src/inputs/networks/bert_base.yaml") ]] || fail "bert --seq-len 128 differs"

# map: the same mapping and costs from the .onnx as from the .yaml (only the run time differs).
hw=$src/tests/data/mapping/hardware_2x4.yaml
"$pimdse" map --hardware "$hw" --network "$models/resnet50.onnx" | grep -v '^  mapper ' > "$dir/map_onnx.txt"
"$pimdse" map --hardware "$hw" --network "$src/inputs/networks/resnet50.yaml" | grep -v '^  mapper ' > "$dir/map_yaml.txt"
grep -q '^  status +ok' -E "$dir/map_onnx.txt" || fail "map status not ok"
diff "$dir/map_onnx.txt" "$dir/map_yaml.txt" || fail "map of the .onnx differs from map of the .yaml"

# A sweep configuration whose workloads are ONNX models.
sed -e "s|../mapping/tiny.yaml|$models/corner_branches.onnx|" \
    -e "s|../../../inputs/networks/resnet18.yaml|$models/resnet18.onnx|" \
    "$src/tests/data/sweep/tiny.yaml" > "$dir/sweep.yaml"
"$pimdse" config check "$dir/sweep.yaml" > "$dir/config.txt"
grep -q "resnet18, batch 1, 31 layers" "$dir/config.txt" || fail "config check: $(cat "$dir/config.txt")"
grep -q "corner_branches, batch 1, 12 layers" "$dir/config.txt" || fail "config check: $(cat "$dir/config.txt")"
# A model with its weights inside (18 MiB, above the 16 MiB bound of text input files): explore
# takes it as config check and map do, and the sweep file keeps its size and hash.
big=$models/user/big_weights.onnx
sed -e "s|../mapping/tiny.yaml|$big|" -e "/resnet18/d" -e "s|budget: 32|budget: 4|" \
    "$src/tests/data/sweep/synthetic.yaml" > "$dir/big.yaml"
"$pimdse" explore "$dir/big.yaml" -o "$dir/big.h5" --quiet --force || fail "explore refused the 18 MiB model"
/usr/bin/python3 - "$dir/big.h5" "$big" << 'EOF'
import os, sys, h5py
source = h5py.File(sys.argv[1])["workloads/big_weights/source"][0].decode()
size = os.path.getsize(sys.argv[2])
assert source.startswith("ONNX model big_weights.onnx: %d bytes, FNV-1a 64-bit hash " % size), source
EOF
"$pimdse" explore "$dir/big.yaml" -o "$dir/big.h5" --quiet --resume || fail "resume of the 18 MiB model"

# Models as users export them map on the NicePIM 4x4 system.
for m in unet_tiny vit_tiny mobilenet_v3_block; do
    "$pimdse" map --hardware "$src/inputs/hardware/nicepim_4x4.yaml" --network "$models/user/$m.onnx" \
        > "$dir/map_$m.txt" || fail "map of $m"
    grep -qE '^  status +ok' "$dir/map_$m.txt" || fail "map of $m: $(cat "$dir/map_$m.txt")"
done
# A 2-layer LSTM over 8 steps (a symbolic sequence: --seq-len), unrolled, maps on the 4x4 system.
"$pimdse" network import "$models/recurrent/lstm2_seq.onnx" --seq-len 8 -o "$dir/lstm2.yaml" 2> "$dir/lstm2.txt"
grep -q "^imported lstm2_seq: batch 1, 251 layers" "$dir/lstm2.txt" || fail "lstm import: $(cat "$dir/lstm2.txt")"
"$pimdse" map --hardware "$src/inputs/hardware/nicepim_4x4.yaml" --network "$dir/lstm2.yaml" > "$dir/map_lstm2.txt" ||
    fail "map of lstm2_seq"
grep -qE '^  status +ok' "$dir/map_lstm2.txt" || fail "map of lstm2_seq: $(cat "$dir/map_lstm2.txt")"
grep -qE '^lstm2\.t7\.h +mul .* ok$' "$dir/map_lstm2.txt" || fail "map of lstm2_seq lacks the last step"
echo "onnx cli ok"
