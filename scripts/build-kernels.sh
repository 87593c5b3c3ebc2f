#!/usr/bin/env bash
# Rebuilds the generated files of the real-kernel corpus, corpus/kernels/NAME/,
# from each NAME.cu, with the commands given in corpus/kernels/README.md:
#
#   NAME.ptx          clang-14 --cuda-gpu-arch=sm_70 --cuda-device-only -S -O2 NAME.cu
#   NAME.O0.ptx       the same at -O0 (built for every kernel)
#   NAME.nvcc.ptx     nvcc -ccbin clang-14 -ptx -arch=sm_70 -fmad=false NAME.cu
#   NAME.sm_XX.sass   ptxas -arch=sm_XX NAME.ptx -o x.cubin && cuobjdump -sass x.cubin
#                     for XX in 70 75 80 86 89 90
#   NAME.sm_XX.banks.json  what the SASS text uses but does not show, from
#                     cuobjdump -elf x.cubin: the constant banks 2 (ptxas's
#                     jump tables and literal pool) and 3 (the module's .const
#                     data), read as `LDC R2, c[0x2][R9]`; the module's .global
#                     variables (libdevice's __cudart_i2opi_f table); and the
#                     code relocations that put their addresses into the
#                     instructions (cuobjdump prints `UMOV UR6, 0x0`, nvdisasm
#                     `UMOV UR6, 32@lo(__cudart_i2opi_f)`). Written only when
#                     there is any of these; each key only when non-empty:
#                       {"banks": {"2": "<hex bytes>", "3": "<hex bytes>"},
#                        "globals": [{"name": "G", "size": N, "align": A,
#                                     "init": "<hex bytes, or empty for a
#                                              zero-initialised .nv.global>"}],
#                        "relocs": [{"function": "F", "offset": O,
#                                    "symbol": "G", "kind": "R_CUDA_...",
#                                    "addend": A}],
#                        "refs": [{"function": "F", "offset": O,
#                                  "symbol": "T", "kind": "R_CUDA_TEX_HEADER_INDEX"}]}
#                     Hex bytes are in address order. "offset" is the byte
#                     offset (decimal) of the patched instruction in F's .text
#                     (16 bytes an instruction); "kind" is the relocation type
#                     as cuobjdump prints it; "addend" is present only for a
#                     RELA section (sm_90), a REL entry's addend being the
#                     value already in the patched field. See banks_json.
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
# has no bank 2 or 3, no module .global, no code relocation and no
# .texref/.surfref word). Every dump
# of section bytes is 32-bit words, each little-endian in memory. Sources:
#   banks    the `.nv.constant2.*` / `.nv.constant3` dumps
#   globals  the symbol table's objects (type STT_OBJECT: info & 0xf == 1)
#            defined in `.nv.global` (NOBITS: zero-initialised, "init" is
#            "") or `.nv.global.init` (bytes [value, value + size) of its
#            dump), in symbol-table order; "align" is the section's
#            alignment reduced to what the symbol's offset in it guarantees
#   refs     the entries of `.rel[a].nv.constant0.F` of kind
#            R_CUDA_TEX_HEADER_INDEX / R_CUDA_SURF_HEADER_INDEX: the bank-0
#            words of module .texref/.surfref variables, in cuobjdump order
#   relocs   the entries of `.rel.text.F` (REL: the addend is the value
#            already in the patched field) and `.rela.text.F` (RELA: the
#            4th column, written as "addend"), sorted by function and offset;
#            `.rel[a].debug_frame` is ignored, an entry in any other
#            relocation section (e.g. a relocated jump table in bank 2) is an
#            error, since the banks would then be wrong.
# The output is deterministic: it depends only on the cuobjdump text.
banks_json() {
  awk '
    function hexval(s,   i, c, v) {
      s = tolower(s); sub(/^0x/, "", s); v = 0
      for (i = 1; i <= length(s); i++) {
        c = index("0123456789abcdef", substr(s, i, 1)) - 1
        if (c < 0) { printf "build-kernels: bad hex number %s\n", s > "/dev/stderr"; bad = 1; exit 1 }
        v = v * 16 + c
      }
      return v
    }
    function le_words(   i, w, out) {
      out = ""
      for (i = 1; i <= NF; i++) {
        w = substr($i, 3)
        out = out substr(w, 7, 2) substr(w, 5, 2) substr(w, 3, 2) substr(w, 1, 2)
      }
      return out
    }
    # Blank lines end every table and dump.
    /^[ \t]*$/ { mode = ""; bank = ""; next }
    /^Sections:/ { mode = "shdr"; next }
    mode == "shdr" && $1 == "Index" { next }
    mode == "shdr" && NF >= 10 {
      i = hexval($1); sname[i] = $NF; ssize[i] = hexval($3); salign[i] = hexval($5); next
    }
    /^\.section \.symtab/ { mode = "sym"; next }
    mode == "sym" && $1 == "index" { next }
    mode == "sym" && NF == 7 {
      nsym++; yvalue[nsym] = hexval($2); ysize[nsym] = hexval($3); yinfo[nsym] = hexval($4)
      yshndx[nsym] = hexval($6); yname[nsym] = $7; next
    }
    /^\.section \.rela?\./ {
      mode = "rel"; rela = ($1 == ".section" && $3 == "RELA")
      target = $2; sub(/^\.rela?/, "", target); next
    }
    mode == "rel" && /^0x/ {
      if (target == ".debug_frame") next
      if (target ~ /^\.nv\.constant0\./ && ($3 == "R_CUDA_TEX_HEADER_INDEX" || $3 == "R_CUDA_SURF_HEADER_INDEX")) {
        nref++; ffunc[nref] = substr(target, 15); foff[nref] = hexval($1); fsym[nref] = $2; fkind[nref] = $3
        next
      }
      if (target !~ /^\.text\./) {
        printf "build-kernels: relocation in %s is not supported: %s\n", target, $0 > "/dev/stderr"
        bad = 1; exit 1
      }
      nrel++; rfunc[nrel] = substr(target, 7); roff[nrel] = hexval($1); rsym[nrel] = $2
      rkind[nrel] = $3; raddend[nrel] = (rela ? $4 : "")
      next
    }
    /^\.nv\.global\.init$/ { mode = "init"; next }
    mode == "init" && /^0x/ { inithex = inithex le_words(); next }
    /^\.nv\.constant[23](\.|$)/ { bank = substr($1, 13, 1); order[++n] = bank; next }
    bank != "" && /^0x/ { hex[bank] = hex[bank] le_words(); next }
    bank != "" && !/^0x/ { bank = "" }
    END {
      if (bad) exit 1
      np = 0
      if (n > 0) {
        s = "\"banks\": {"
        for (i = 1; i <= n; i++) s = s sprintf("%s\"%s\": \"%s\"", (i > 1 ? ", " : ""), order[i], hex[order[i]])
        part[++np] = s "}"
      }
      ng = 0; s = ""
      for (k = 1; k <= nsym; k++) {
        sec = sname[yshndx[k]]
        if (yinfo[k] % 16 != 1 || (sec != ".nv.global" && sec != ".nv.global.init")) continue
        a = salign[yshndx[k]]; if (a < 1) a = 1
        while (yvalue[k] % a != 0) a = a / 2
        init = ""
        if (sec == ".nv.global.init") {
          if (2 * (yvalue[k] + ysize[k]) > length(inithex)) {
            printf "build-kernels: %s lies outside the .nv.global.init dump\n", yname[k] > "/dev/stderr"
            exit 1
          }
          init = substr(inithex, 2 * yvalue[k] + 1, 2 * ysize[k])
        }
        s = s sprintf("%s{\"name\": \"%s\", \"size\": %d, \"align\": %d, \"init\": \"%s\"}",
                      (ng++ > 0 ? ",\n  " : ""), yname[k], ysize[k], a, init)
      }
      if (ng > 0) part[++np] = "\"globals\": [\n  " s "]"
      # Insertion sort of the relocations by (function, offset).
      for (i = 2; i <= nrel; i++)
        for (j = i; j > 1 && (rfunc[j-1] > rfunc[j] || (rfunc[j-1] == rfunc[j] && roff[j-1] > roff[j])); j--) {
          t = rfunc[j]; rfunc[j] = rfunc[j-1]; rfunc[j-1] = t
          t = roff[j]; roff[j] = roff[j-1]; roff[j-1] = t
          t = rsym[j]; rsym[j] = rsym[j-1]; rsym[j-1] = t
          t = rkind[j]; rkind[j] = rkind[j-1]; rkind[j-1] = t
          t = raddend[j]; raddend[j] = raddend[j-1]; raddend[j-1] = t
        }
      s = ""
      for (i = 1; i <= nrel; i++) {
        ad = (raddend[i] == "" ? "" : sprintf(", \"addend\": %d", hexval(raddend[i])))
        s = s sprintf("%s{\"function\": \"%s\", \"offset\": %d, \"symbol\": \"%s\", \"kind\": \"%s\"%s}",
                      (i > 1 ? ",\n  " : ""), rfunc[i], roff[i], rsym[i], rkind[i], ad)
      }
      if (nrel > 0) part[++np] = "\"relocs\": [\n  " s "]"
      s = ""
      for (i = 1; i <= nref; i++)
        s = s sprintf("%s{\"function\": \"%s\", \"offset\": %d, \"symbol\": \"%s\", \"kind\": \"%s\"}",
                      (i > 1 ? ",\n  " : ""), ffunc[i], foff[i], fsym[i], fkind[i])
      if (nref > 0) part[++np] = "\"refs\": [\n  " s "]"
      if (np == 0) exit
      printf "{"
      for (i = 1; i <= np; i++) printf "%s%s", (i > 1 ? ",\n " : ""), part[i]
      printf "}\n"
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
