#!/usr/bin/env bash
# Behaviour fingerprint of the compiler and the oracle, for refactors that must
# change nothing: generated programs (the generator's output itself included),
# ptxc listings under several configurations (targets, -O levels, register
# budget, nvopt, a disabled peephole, resource lines), nvopt's PTX, the
# interpreter's output dumps, and the differential engine's verdicts on the
# corpus kernels and the generated programs.
#
#   scripts/golden-check.sh save DIR [BINDIR]      write the fingerprint to DIR
#   scripts/golden-check.sh compare DIR [BINDIR]   write it again and diff with DIR
#
# BINDIR holds ptxc, nvopt and ptxdiff (default target/release, built first).
# COUNT (default 200) generated programs, seeds 1..COUNT.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:?usage: golden-check.sh save|compare DIR [BINDIR]}
dir=${2:?usage: golden-check.sh save|compare DIR [BINDIR]}
bin=${3:-target/release}
count=${COUNT:-200}
if [ "$bin" = target/release ]; then
  cargo build --release -q -p ptxc -p oracle
fi
out=$dir
if [ "$mode" = compare ]; then out=$(mktemp -d); fi
mkdir -p "$out/progs" "$out/sass" "$out/interp" "$out/nvopt" "$out/diff"

"$bin/ptxdiff" gen --seed 1 --count "$count" --out "$out/progs" >/dev/null

configs=(
  "sm70_O0|-arch=sm_70 -O0"
  "sm75_O3|-arch=sm_75 -O3"
  "sm80_O3|-arch=sm_80 -O3 -v"
  "sm86_r24|-arch=sm_86 -O3 --maxrregcount 24"
  "sm89_nvopt|-arch=sm_89 -O3 --nvopt=O3"
  "sm90_O3|-arch=sm_90 -O3"
  "sm90_O1|-arch=sm_90 -O1"
  "sm80_nonan|-arch=sm_80 -O3 --disable-phase OptimizeNaNOrZero --knob ori=shuffle"
)
ptx_files=("$out"/progs/*.ptx corpus/kernels/*/*.ptx)
for f in "${ptx_files[@]}"; do
  name=$(basename "$f" .ptx)
  case "$f" in corpus/*) name="corpus_$name" ;; esac
  for c in "${configs[@]}"; do
    # shellcheck disable=SC2086
    timeout 60 "$bin/ptxc" "$f" ${c#*|} >"$out/sass/$name.${c%%|*}" 2>&1 || echo "exit $?" >>"$out/sass/$name.${c%%|*}"
  done
  timeout 60 "$bin/nvopt" -O3 "$f" >"$out/nvopt/$name.ptx" 2>&1 || echo "exit $?" >>"$out/nvopt/$name.ptx"
done
for spec in "$out"/progs/*.launch.json corpus/kernels/*/*.launch.json; do
  name=$(basename "$spec" .launch.json)
  case "$spec" in corpus/*) name="corpus_$name" ;; esac
  timeout 120 "$bin/ptxdiff" interp "$spec" --dump "$out/interp/$name.json" >"$out/interp/$name.txt" 2>&1 || echo "exit $?" >>"$out/interp/$name.txt"
done
# Verdicts (no vendor: ptxas may be absent): the smoke matrix on every
# generated program, the default matrix on the first 30 and the corpus.
for spec in "$out"/progs/*.launch.json; do
  name=$(basename "$spec" .launch.json)
  matrix=smoke
  [ "${name#gen_}" -le 30 ] && matrix=default
  timeout 300 "$bin/ptxdiff" diff --launch "$spec" --matrix $matrix --no-vendor --jobs 1 --findings "$out/findings" 2>&1 \
    | grep -v 'programs/s\|runs/s\| ms\b\|[0-9]\.[0-9]* s\b' >"$out/diff/$name.txt" || true
done
timeout 1200 "$bin/ptxdiff" diff --corpus corpus/kernels --matrix default --no-vendor --jobs 2 --findings "$out/findings" 2>&1 \
  | grep -v 'programs/s\|runs/s\| ms\b\|[0-9]\.[0-9]* s\b' >"$out/diff/corpus.txt" || true
# Paths of the temporary directory must not count as differences.
grep -rl "$out" "$out" 2>/dev/null | xargs -r sed -i "s#$out#GOLDEN#g"

if [ "$mode" = compare ]; then
  if diff -r -q "$dir" "$out" >"$out.diff" 2>&1; then
    echo "golden-check: identical ($(find "$dir" -type f | wc -l) files)"
    rm -rf "$out" "$out.diff"
  else
    echo "golden-check: DIFFERENT ($(wc -l <"$out.diff") files; new output kept in $out):"
    head -n 40 "$out.diff"
    exit 1
  fi
else
  echo "golden-check: saved $(find "$out" -type f | wc -l) files to $out"
fi
