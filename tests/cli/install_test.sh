#!/usr/bin/env bash
# `cmake --install` into a fresh prefix gives a working pimdse (README.md, "Install"): the
# installed binary runs, reads an installed input, and the installed Python reader and
# postprocess scripts import from where the documentation says.
# Usage: install_test.sh BUILD_DIR PREFIX PYTHON
set -euo pipefail
build=$1 prefix=$2 python=$3
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" > /dev/null
fail() { echo "install_test: $*" >&2; exit 1; }
[[ -x $prefix/bin/pimdse ]] || fail "no $prefix/bin/pimdse"
"$prefix/bin/pimdse" --help | grep -q "export" || fail "installed pimdse --help lacks the export command"
"$prefix/bin/pimdse" network info --summary "$prefix/share/pimdse/inputs/networks/resnet50.yaml" |
  grep -q "resnet50" || fail "network info on an installed network"
# A sweep configuration names its networks relative to itself: the installed tree keeps them.
# (grep reads it all: with -q it would stop at the match, and pipefail would then see SIGPIPE.)
"$prefix/bin/pimdse" config check "$prefix/share/pimdse/inputs/sweeps/default.yaml" |
  grep "bert_base" > /dev/null || fail "config check on the installed default sweep"
PYTHONPATH=$prefix/share/pimdse/python "$python" -c "import pimdse, sys; sys.exit(0 if pimdse.Sweep else 1)" ||
  fail "the installed Python package does not import"
"$python" "$prefix/share/pimdse/postprocess/sweep_plots.py" --help | grep -q "usage" ||
  fail "the installed sweep_plots.py does not run"
for f in LICENSE CITATION.cff; do [[ -s $prefix/share/doc/pimdse/$f ]] || fail "no $f installed"; done
# Every postprocess script, and every page the installed README links to.
source=$(cd "$(dirname "$0")/../.." && pwd)
for f in "$source"/postprocess/*.py; do
  [[ -s $prefix/share/pimdse/postprocess/$(basename "$f") ]] || fail "postprocess/$(basename "$f") not installed"
done
doc=$prefix/share/doc/pimdse
links=$(grep -o '](\([^)#]*\)' "$doc/README.md" | sed 's/^](//' | grep -v '^https\?:' | sort -u)
[[ -n $links ]] || fail "no relative links found in the installed README"
for link in $links; do [[ -s $doc/$link ]] || fail "the installed README links to $link, which is not installed"; done
for page in "$source"/docs/*.md; do
  [[ -s $doc/docs/$(basename "$page") ]] || fail "docs/$(basename "$page") not installed"
done
! find "$prefix" -name __pycache__ | grep -q . || fail "__pycache__ installed"
echo "installed into $prefix: ok"
