#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build: every cargo-fuzz target that
# fuzz/Cargo.toml declares (its [[bin]] names, read here, never listed by
# hand), built with `cargo fuzz build -O` and copied to $OUT, each with its
# committed seeds corpus/<target>/ zipped as $OUT/<target>_seed_corpus.zip.
#
#   build.sh --list-targets   prints the target names and exits (the test
#                             oracle/tests/fuzz_scale_out.rs checks them against
#                             fuzz/Cargo.toml and corpus/)

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The Docker image copies build.sh to $SRC/ beside the checkout.
if [ ! -f "$ROOT/fuzz/Cargo.toml" ] && [ -n "${SRC:-}" ]; then
  ROOT="$SRC/ptxdiff"
fi

targets() {
  # the `name = "..."` line of each [[bin]] table
  awk '/^\[\[bin\]\]/ { inbin = 1; next }
       /^\[/ { inbin = 0 }
       inbin && /^name[ \t]*=/ { gsub(/^name[ \t]*=[ \t]*"|".*$/, ""); print; inbin = 0 }' \
    "$ROOT/fuzz/Cargo.toml"
}

if [ "${1:-}" = "--list-targets" ]; then
  targets
  exit 0
fi

cd "$ROOT"
TARGET_DIR="$ROOT/fuzz/target/x86_64-unknown-linux-gnu/release"
for t in $(targets); do
  cargo fuzz build -O "$t"
  cp "$TARGET_DIR/$t" "$OUT/"
  if [ -d "corpus/$t" ]; then
    rm -f "$OUT/${t}_seed_corpus.zip"
    (cd "corpus/$t" && zip -q -r "$OUT/${t}_seed_corpus.zip" .)
  fi
done
