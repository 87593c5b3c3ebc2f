#!/usr/bin/env bash
# The harness's own mutation score (issue 29): cargo-mutants over the
# peephole files, with the differential run as the only test
# (oracle/tests/diff_bias_clean.rs: PTXDIFF_BIAS_PROGRAMS programs of each
# biased mode through the oracle and ptxc at sm_80 -O3, default and
# NvOptLevel=5; a disagreement kills the mutant). The unit tests are not run.
#
#   scripts/mutants.sh [FILE...]        (default: the peephole files)
#
# Environment: PTXDIFF_BIAS_PROGRAMS (default 40), MUTANTS_TIMEOUT (seconds
# per mutant's test run, default 900),
# MUTANTS_ARGS (more cargo-mutants options, e.g. "--shard 0/4" or
# "--re fold_with"), MUTANTS_OUT (default mutants-out/), MUTANTS_TEST_FILTER
# (a test-name filter, e.g. "nan_or_zero" to run one mode's differential run).
#
# Needs cargo-mutants (`cargo install cargo-mutants`; not a workspace
# dependency). It mutates the tree in place (--in-place, one mutant at a
# time): run it in a
# scratch worktree, never with uncommitted work. Results: MUTANTS_OUT/
# mutants.out/{caught,missed,timeout,unviable}.txt; the score is
# caught / (caught + missed + timeout), equivalent mutants aside
# (README.md, "Mutation score of the peepholes").
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -eq 0 ]; then
    set -- compiler/src/phases/nan_or_zero.rs compiler/src/phases/tex_nodep.rs \
        'compiler/src/phases/tex_nodep/aoffi.rs' compiler/src/phases/hoist_invariants.rs \
        compiler/src/phases/hoist.rs
fi
files=()
for f in "$@"; do files+=(--file "$f"); done
export PTXDIFF_BIAS_PROGRAMS="${PTXDIFF_BIAS_PROGRAMS:-40}"
# shellcheck disable=SC2086
exec nice cargo mutants --in-place --baseline skip \
    --timeout "${MUTANTS_TIMEOUT:-900}" \
    --output "${MUTANTS_OUT:-mutants-out}" \
    "${files[@]}" --test-package oracle \
    --cargo-arg=--test --cargo-arg=diff_bias_clean ${MUTANTS_ARGS:-} \
    -- ${MUTANTS_TEST_FILTER:-}
