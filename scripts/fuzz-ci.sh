#!/usr/bin/env bash
# The short fuzz run of CI (docs/FUZZING.md): installs what it needs (the nightly toolchain
# if missing, cargo-fuzz at a pinned version into ~/.cache/shorn-tools like scripts/tools.js),
# seeds the corpora from the golden vectors (fuzz/seed.js), builds the five targets and
# runs each for FUZZ_SECONDS (default 60) from its seed corpus (text twice, once per
# transcoder), FUZZ_JOBS (default 2) at a time. Any crash fails the run;
# its input is in fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO_FUZZ=0.13.2
SECONDS_PER_TARGET=${FUZZ_SECONDS:-60}
# libFuzzer's seed: fixed, so that a CI run explores the same inputs for the same code (a
# random one found finding 003, which predated the change under test, in one run of
# several). FUZZ_SEED=0 asks libFuzzer for a random seed, for runs that hunt.
SEED=${FUZZ_SEED:-1}
TOOLS=${SHORN_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/shorn-tools}
started=$SECONDS

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal
fi
bin="$TOOLS/cargo-fuzz-$CARGO_FUZZ/bin"
if ! "$bin/cargo-fuzz" --version >/dev/null 2>&1; then
  tmp="$TOOLS/cargo-fuzz-$CARGO_FUZZ.tmp-$$"
  rm -rf "$tmp"
  cargo install --quiet --locked --root "$tmp" cargo-fuzz --version "$CARGO_FUZZ"
  rm -rf "$TOOLS/cargo-fuzz-$CARGO_FUZZ"
  mv "$tmp" "$TOOLS/cargo-fuzz-$CARGO_FUZZ"
fi
export PATH="$bin:$PATH"
echo "fuzz-ci: $(cargo-fuzz --version), $(rustup run nightly rustc --version), tools ready in $((SECONDS - started)) s"

node fuzz/seed.js
build=$SECONDS
cargo +nightly fuzz build
echo "fuzz-ci: targets built in $((SECONDS - build)) s"
failed=0
# text-ssse3: the text target with the AVX-512 transcoder turned off (SHORN_NO_AVX512), so
# that on a CPU with AVX-512 the SSSE3 one is fuzzed too.
targets=(decode compile roundtrip text text-ssse3 frames)
# FUZZ_JOBS targets at a time (default 2, the cores of the project's machine; libFuzzer runs
# one process each), in waves in the order above; each is reported when its wave ends. At
# the default, text and text-ssse3 (one corpus) fall in different waves; with more jobs
# they may share one, as libFuzzer's own -jobs workers share a corpus directory.
JOBS=${FUZZ_JOBS:-2}
fuzz_one() {
  local run=$1 target=${1%-ssse3} no_avx512=
  [ "$run" != "$target" ] && no_avx512=1
  SHORN_NO_AVX512=$no_avx512 cargo +nightly fuzz run "$target" "fuzz/corpus/$target" -- \
    -seed="$SEED" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    >"fuzz/$run.log" 2>&1
}
for ((first = 0; first < ${#targets[@]}; first += JOBS)); do
  wave=("${targets[@]:first:JOBS}")
  pids=()
  for run in "${wave[@]}"; do
    fuzz_one "$run" &
    pids+=($!)
  done
  for k in "${!wave[@]}"; do
    run=${wave[$k]}
    if wait "${pids[$k]}"; then
      runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "fuzz/$run.log" | grep -o '[0-9]*$' || true)
      echo "fuzz-ci: $run passed ($runs executions in ${SECONDS_PER_TARGET} s)"
    else
      failed=1
      echo "fuzz-ci: $run FAILED; the last lines of fuzz/$run.log:"
      tail -n 40 "fuzz/$run.log"
    fi
  done
done
echo "fuzz-ci: ${#targets[@]} targets run in $((SECONDS - started)) s"
if [ "$failed" -ne 0 ]; then
  echo "0 passed, 1 failed"
  exit 1
fi
