#!/usr/bin/env bash
# jobs/paper/gibbon/run.sh into a temporary directory: the ratio table flags the text's
# "4.6 %" (its Table III gives 4.8) and agrees on the "5.96x", the trends table has a row per
# claim with numbers of ours (Table IV over its four networks, Figs. 5-7 with their verdicts),
# and the figure is drawn.
# Usage: gibbon_smoke.sh PIMDSE WORKDIR
set -euo pipefail
pimdse=$1 dir=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dir" && mkdir -p "$dir"
PIMDSE=$pimdse "$root/jobs/paper/gibbon/run.sh" "$dir" > "$dir/out.txt"
fail() { echo "gibbon_smoke: $*" >&2; cat "$dir"/*.md >&2; exit 1; }
grep -Eq '^\| VII-B \| accuracy gain over other PIM NAS, low end \(%\) \| 4\.6 \| 4\.8 .*\*\*no\*\*' "$dir/gibbon_ratios.md" || fail "4.6 % not flagged"
grep -Eq '^\| VII-B \| EDP reduction of edp opt\. over NACIM \(x\) \| 5\.96 \| 5\.96 .*\| yes \|' "$dir/gibbon_ratios.md" || fail "5.96x not recomputed"
grep -Eq '^\| VGG16: energy of 256x256 vs 128x128 crossbars \(Insight 6\) \| -68 % \| [+-][0-9.]+ % \|' "$dir/gibbon_trends.md" || fail "no 256 vs 128 row"
grep -Eq '^\| ResNet-18 \(CIFAR\): ADC share of energy .* \| about 70 % \| [0-9.]+ % \|' "$dir/gibbon_trends.md" || fail "no ADC share row"
grep -Eq '^\| Table IV ordering of area \| AlexNet < VGGM < ResNet18 < VGG16 \| [A-Za-z0-9 <]+ \| (holds|differs)' "$dir/gibbon_trends.md" || fail "no Table IV area ordering over four networks"
grep -Eq '^\| Fig\. 6: 2x2 \(SEP\) vs 3x3 kernels: area \| -40 % \| [+-][0-9.]+ % \((within 15 points|off by [+-][0-9]+ points)\) \|' "$dir/gibbon_trends.md" || fail "no Fig. 6 area row"
[[ -s $dir/gibbon_trends.png ]] || fail "no gibbon_trends.png"
echo "gibbon run.sh ok"
