#!/usr/bin/env bash
# Rebuilds the generated files of the real-kernel corpus, corpus/kernels/NAME/,
# from each NAME.cu, with the commands given in corpus/kernels/README.md:
#
#   NAME.ptx          clang-14 --cuda-gpu-arch=sm_70 --cuda-device-only -S -O2 NAME.cu
#   NAME.O0.ptx       the same at -O0 (built for every kernel)
#   NAME.nvcc.ptx     nvcc -ccbin clang-14 -ptx -arch=sm_70 -fmad=false NAME.cu
#   NAME.sm_XX.sass   ptxas -arch=sm_XX NAME.ptx -o x.cubin && cuobjdump -sass x.cubin
#                     for XX in 70 75 80 86 89 90
#   NAME.sm_XX.banks.json  the cubin's constant banks 2 (ptxas's jump tables)
#                     and 3 (the module's .const data), which the SASS text
#                     reads (`LDC R2, c[0x2][R9]`) but does not show, from
#                     cuobjdump -elf x.cubin; written only when the cubin has
#                     either bank. Format: {"banks": {"2": "<hex bytes>", ...}}
#   NAME.sm_XX.nvdisasm  nvdisasm -c -hex x.cubin, for the kernels in
#                     NVDISASM_KERNELS only (the SASS parser's second dialect)
#
# clang is also given --cuda-path (libdevice is linked in from there) and
# -Wno-unknown-cuda-version (clang 14 knows CUDA up to 11.5 and warns about
# 11.8); neither changes the PTX. Every NAME.O0.ptx built is also checked to be
# accepted by ptxas for all six targets (the cubins are thrown away).
#
# NAME.launch.json and NAME.expected.json are not built here: they come from
# the host programs described in corpus/kernels/README.md.
#
# Usage: scripts/build-kernels.sh [--out DIR] [--check] [--diff] [--only KINDS] [NAME...]
#   (no option)   overwrite the files in each corpus/kernels/NAME/
#   --out DIR     write DIR/NAME/NAME.* instead
#   --check       build into a temporary directory (or into --out DIR, kept) and
#                 compare every built file with the committed one; exit 1 if
#                 any differs or is missing from the corpus
#   --diff        with --check: also print a unified diff of each differing file
#   --only KINDS  comma-separated subset of: ptx,O0,nvcc,sass (default: all).
#                 Without ptx, the SASS is assembled from the corpus's NAME.ptx.
#   NAME...       only these kernels (default: every corpus/kernels/*/*.cu)
# Environment: CUDA_PATH (default /usr/lib/cuda, Debian's nvidia-cuda-toolkit).
set -euo pipefail

say() { printf 'build-kernels: %s\n' "$*"; }
die() { printf 'build-kernels: error: %s\n' "$*" >&2; exit 2; }

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CORPUS="$ROOT/corpus/kernels"
ARCHS=(70 75 80 86 89 90)
# Kernels whose nvdisasm listing is kept too: jump tables, calls, warp sync.
NVDISASM_KERNELS="switch_local double_noinline warp_vote_xor"
CUDA_PATH="${CUDA_PATH:-/usr/lib/cuda}"

out=""
check=0
show_diff=0
only="ptx,O0,nvcc,sass"
names=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || die "--out needs a directory"; out="$2"; shift 2 ;;
    --out=*) out="${1#--out=}"; shift ;;
    --check) check=1; shift ;;
    --diff) show_diff=1; shift ;;
    --only) [ $# -ge 2 ] || die "--only needs a list"; only="$2"; shift 2 ;;
    --only=*) only="${1#--only=}"; shift ;;
    -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) names+=("$1"); shift ;;
  esac
done

want_ptx=0 want_o0=0 want_nvcc=0 want_sass=0
IFS=',' read -r -a kinds <<<"$only"
for k in "${kinds[@]}"; do
  case "$k" in
    ptx) want_ptx=1 ;; O0) want_o0=1 ;; nvcc) want_nvcc=1 ;; sass) want_sass=1 ;;
    *) die "unknown kind '$k' in --only (use ptx,O0,nvcc,sass)" ;;
  esac
done

# --- tools -------------------------------------------------------------------
need=()
if [ $((want_ptx + want_o0 + want_nvcc)) -gt 0 ]; then need+=(clang-14); fi
if [ "$want_nvcc" = 1 ]; then need+=(nvcc); fi
if [ $((want_sass + want_o0)) -gt 0 ]; then need+=(ptxas); fi
if [ "$want_sass" = 1 ]; then need+=(cuobjdump nvdisasm); fi
missing=()
for t in "${need[@]}"; do command -v "$t" >/dev/null 2>&1 || missing+=("$t"); done
if [ $((want_ptx + want_o0)) -gt 0 ] && [ ! -f "$CUDA_PATH/nvvm/libdevice/libdevice.10.bc" ]; then
  missing+=("libdevice ($CUDA_PATH/nvvm/libdevice/libdevice.10.bc; set CUDA_PATH)")
fi
if [ ${#missing[@]} -gt 0 ]; then
  for t in "${missing[@]}"; do printf 'build-kernels: missing: %s\n' "$t" >&2; done
  die "install the toolchains with scripts/install-toolchains.sh"
fi

# --- kernels -----------------------------------------------------------------
if [ ${#names[@]} -eq 0 ]; then
  for cu in "$CORPUS"/*/*.cu; do
    n="$(basename "$cu" .cu)"
    [ "$(basename "$(dirname "$cu")")" = "$n" ] && names+=("$n")
  done
fi
[ ${#names[@]} -gt 0 ] || die "no kernels found under $CORPUS"
for n in "${names[@]}"; do
  [ -f "$CORPUS/$n/$n.cu" ] || die "no such kernel: $CORPUS/$n/$n.cu"
done

work="$(mktemp -d "${TMPDIR:-/tmp}/build-kernels.XXXXXX")"
trap 'rm -rf "$work"' EXIT
if [ "$check" = 1 ] && [ -z "$out" ]; then out="$work/out"; fi
if [ -n "$out" ]; then mkdir -p "$out"; out="$(cd "$out" && pwd)"; fi

CLANG=(clang-14 --cuda-path="$CUDA_PATH" -Wno-unknown-cuda-version
       --cuda-gpu-arch=sm_70 --cuda-device-only -S)

# Reads `cuobjdump -elf` and prints the banks file (nothing when the cubin
# has neither bank): each section's 32-bit words are little-endian bytes.
banks_json() {
  awk '
    /^\.nv\.constant[23](\.|$)/ { bank = substr($1, 13, 1); order[++n] = bank; next }
    bank != "" && /^0x/ {
      for (i = 1; i <= NF; i++) {
        w = substr($i, 3)
        hex[bank] = hex[bank] substr(w, 7, 2) substr(w, 5, 2) substr(w, 3, 2) substr(w, 1, 2)
      }
      next
    }
    bank != "" && !/^0x/ { bank = "" }
    END {
      if (n == 0) exit
      printf "{\"banks\": {"
      for (i = 1; i <= n; i++) printf "%s\"%s\": \"%s\"", (i > 1 ? ", " : ""), order[i], hex[order[i]]
      printf "}}\n"
    }'
}

built=()   # paths relative to the output root: NAME/NAME.ext
start=$(date +%s)
for n in "${names[@]}"; do
  src="$CORPUS/$n"
  dst="${out:+$out/$n}"; dst="${dst:-$src}"
  mkdir -p "$dst"
  # Compile from the kernel's directory with a relative NAME.cu, as the
  # reference files were made.
  if [ "$want_ptx" = 1 ]; then
    (cd "$src" && "${CLANG[@]}" -O2 "$n.cu" -o "$dst/$n.ptx")
    say "built $dst/$n.ptx"; built+=("$n/$n.ptx")
  fi
  if [ "$want_o0" = 1 ]; then
    (cd "$src" && "${CLANG[@]}" -O0 "$n.cu" -o "$dst/$n.O0.ptx")
    say "built $dst/$n.O0.ptx"; built+=("$n/$n.O0.ptx")
    for a in "${ARCHS[@]}"; do
      ptxas -arch="sm_$a" "$dst/$n.O0.ptx" -o "$work/o0.cubin" ||
        { printf 'build-kernels: error: ptxas rejects %s for sm_%s\n' "$dst/$n.O0.ptx" "$a" >&2; exit 1; }
    done
    say "checked $dst/$n.O0.ptx: ptxas accepts it for sm_${ARCHS[*]}"
  fi
  if [ "$want_nvcc" = 1 ]; then
    (cd "$src" && nvcc -ccbin clang-14 -ptx -arch=sm_70 -fmad=false "$n.cu" -o "$dst/$n.nvcc.ptx")
    say "built $dst/$n.nvcc.ptx"; built+=("$n/$n.nvcc.ptx")
  fi
  if [ "$want_sass" = 1 ]; then
    if [ "$want_ptx" = 1 ]; then ptx="$dst/$n.ptx"; else ptx="$src/$n.ptx"; fi
    for a in "${ARCHS[@]}"; do
      ptxas -arch="sm_$a" "$ptx" -o "$work/x.cubin"
      cuobjdump -sass "$work/x.cubin" >"$dst/$n.sm_$a.sass"
      say "built $dst/$n.sm_$a.sass (from $ptx)"; built+=("$n/$n.sm_$a.sass")
      if [[ " $NVDISASM_KERNELS " == *" $n "* ]]; then
        nvdisasm -c -hex "$work/x.cubin" >"$dst/$n.sm_$a.nvdisasm"
        say "built $dst/$n.sm_$a.nvdisasm"; built+=("$n/$n.sm_$a.nvdisasm")
      fi
      cuobjdump -elf "$work/x.cubin" | banks_json >"$work/banks.json"
      if [ -s "$work/banks.json" ]; then
        mv "$work/banks.json" "$dst/$n.sm_$a.banks.json"
        say "built $dst/$n.sm_$a.banks.json"; built+=("$n/$n.sm_$a.banks.json")
      fi
    done
  fi
done
say "built ${#built[@]} files for ${#names[@]} kernels in $(($(date +%s) - start)) s"

[ "$check" = 1 ] || exit 0

# --- check -------------------------------------------------------------------
same=0 differ=0 absent=0
for f in "${built[@]}"; do
  if [ ! -f "$CORPUS/$f" ]; then
    say "NOT IN CORPUS: corpus/kernels/$f"; absent=$((absent + 1))
  elif cmp -s "$out/$f" "$CORPUS/$f"; then
    same=$((same + 1))
  else
    lines=$(diff "$CORPUS/$f" "$out/$f" | grep -c '^[<>]' || true)
    say "DIFFERS: corpus/kernels/$f ($lines lines changed)"; differ=$((differ + 1))
    if [ "$show_diff" = 1 ]; then
      diff -u "$CORPUS/$f" "$out/$f" --label "corpus/kernels/$f" --label "rebuilt/$f" || true
    fi
  fi
done
say "check: $same identical, $differ differ, $absent not in the corpus (of ${#built[@]} built)"
if [ "$differ" -gt 0 ] || [ "$absent" -gt 0 ]; then exit 1; fi
