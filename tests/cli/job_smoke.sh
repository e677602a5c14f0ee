# Shared by the job smokes (sourced after `pimdse=... hw=... net=... dir=...` are set and
# `set -euo pipefail`): `job_smoke_run JOB` runs the repository's JOB (a path under jobs/) on
# the one hardware file and network into a fresh $dir, its output in $dir/out.txt;
# `job_smoke_figures NAME STEM` fails unless $dir/STEM.png, .pdf and .svg were drawn.
job_smoke_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

job_smoke_run() {
  rm -rf "$dir" && mkdir -p "$dir"
  PIMDSE=$pimdse SYSTEMS=$hw NETWORKS=$net "$job_smoke_root/$1" "$dir" > "$dir/out.txt"
}

job_smoke_figures() {
  local name=$1 stem=$2 ext
  for ext in png pdf svg; do
    [[ -s $dir/$stem.$ext ]] || { echo "$name: $stem.$ext is missing" >&2; exit 1; }
  done
}
