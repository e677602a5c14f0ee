#!/usr/bin/env bash
# explore's progress lines (docs/cli.md, "Progress"): as JSON lines, every line an object with
# a timestamp, start and end messages around batch events in order, evaluations that never go
# back, and lines within a batch when the interval is short; as text, each batch line starts
# with a UTC timestamp; --quiet prints nothing.
# Usage: progress_test.sh PIMDSE WORKDIR
set -euo pipefail
pimdse=$1 dir=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dir" && mkdir -p "$dir"
cfg=$root/tests/data/sweep/synthetic.yaml
"$pimdse" explore "$cfg" -o "$dir/json.h5" --json --progress-interval 0.01 > "$dir/json.txt"
/usr/bin/python3 - "$dir/json.txt" <<'PY'
import json, re, sys
events = [json.loads(line) for line in open(sys.argv[1])]
kinds = [e["event"] for e in events]
assert kinds[0] == "start" and kinds[-1] == "end", kinds
assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", e["time"]) for e in events)
batches = [e for e in events if e["event"] == "batch"]
assert [e["batch"] for e in batches] == list(range(8)), batches
assert batches[-1]["evaluations"] == 32 and batches[-1]["budget"] == 32
assert "running" in kinds, "no line within a batch at a 0.01 s interval"
done = [e["evaluations"] for e in events if "evaluations" in e]
assert done == sorted(done), done
assert all(e["front"] >= 1 and e["best_candidate"] >= 0 for e in batches)
PY
"$pimdse" explore "$cfg" -o "$dir/text.h5" > "$dir/text.txt"
grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z batch 7: 32/32 evaluations, .* eval/s, best cost .*front [0-9]+, ETA' "$dir/text.txt" \
  || { cat "$dir/text.txt" >&2; exit 1; }
"$pimdse" explore "$cfg" -o "$dir/quiet.h5" --quiet > "$dir/quiet.txt"
[[ ! -s $dir/quiet.txt ]] || { echo "--quiet printed:" >&2; cat "$dir/quiet.txt" >&2; exit 1; }
[[ -s $dir/quiet.h5 ]] || { echo "--quiet wrote no file" >&2; exit 1; }
echo "progress ok"
