#!/usr/bin/env bash
# Runs every cargo-fuzz target (fuzz/fuzz_targets: y4m_reader, raw_reader, model_loader) for SECONDS each
# (default 20) and fails if any of them finds a crash, a hang or a runaway allocation. Installs cargo-fuzz if it
# is missing. CI runs it briefly from scripts/test.sh; docs/fuzzing.md records a longer run.
#
#   scripts/fuzz.sh [SECONDS]
#
# Crashing inputs land in fuzz/artifacts/<target>/ (replay: RUSTC_BOOTSTRAP=1 cargo fuzz run <target> <file>);
# the corpus grows in fuzz/corpus/<target>/, seeded from the committed fuzz/seeds/<target>/; the libFuzzer log
# of each target is fuzz/logs/<target>.log.
set -euo pipefail
cd "$(dirname "$0")/.."

secs="${1:-20}"
# cargo-fuzz passes nightly-only flags (-Zsanitizer=address, -Cpasses=sancov-module); the project builds on a
# stable toolchain, and RUSTC_BOOTSTRAP=1 lets stable rustc accept them.
export RUSTC_BOOTSTRAP=1
# Pinned so that a CI run does not change with a new cargo-fuzz release.
cargo_fuzz_version=0.13.2

if ! cargo fuzz --version 2>/dev/null | grep -q "$cargo_fuzz_version"; then
  echo "fuzz: installing cargo-fuzz $cargo_fuzz_version" >&2
  cargo install cargo-fuzz --locked --version "$cargo_fuzz_version"
fi

# One build for all targets (release, debug assertions and overflow checks on, AddressSanitizer), in fuzz/target.
cargo fuzz build

mkdir -p fuzz/logs
failed=()
for target in y4m_reader raw_reader model_loader; do
  mkdir -p "fuzz/corpus/$target"
  dirs=("fuzz/corpus/$target" "fuzz/seeds/$target")
  # -timeout: an input running this long is reported as a hang (libFuzzer's default is 20 minutes).
  # -rss_limit_mb (also the per-allocation limit under ASan): a bad header must not make us allocate gigabytes.
  opts=(-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
  if [ "$target" = model_loader ]; then
    # The real model files seed the loader. -max_len keeps inputs to the size of a single model (~20 KB):
    # without it libFuzzer mutates up to the 400 KB bootstrap file and runs ~25x slower; the small collection
    # in fuzz/seeds covers the bootstrap path.
    dirs+=(models/data)
    opts+=(-max_len=32768)
  fi
  echo "fuzz: $target for ${secs}s" >&2
  if cargo fuzz run "$target" "${dirs[@]}" -- "${opts[@]}" >"fuzz/logs/$target.log" 2>&1; then
    # The last occurrence: a second fuzz.sh run at the same time (e.g. CI's brief run beside a long run on a
    # shared machine) writes into the same log.
    stat() { grep -a -E "$1" "fuzz/logs/$target.log" | tail -n 1 | sed -E "$2" || true; }
    runs=$(stat '^stat::number_of_executed_units:' 's/.*: *//')
    rate=$(stat '^stat::average_exec_per_sec:' 's/.*: *//')
    rss=$(stat '^stat::peak_rss_mb:' 's/.*: *//')
    cov=$(stat '^#[0-9]+[[:space:]]+DONE' 's/.*(cov: [0-9]+ ft: [0-9]+ corp: [^ ]+).*/\1/')
    echo "fuzz: $target ok: ${runs:-?} executions in ${secs}s (${rate:-?}/s, peak RSS ${rss:-?} MB; $cov)" >&2
  else
    failed+=("$target")
    # The crash report: what failed and where the reproducer was saved.
    grep -E -A25 'panicked|ERROR: libFuzzer|ERROR: AddressSanitizer' "fuzz/logs/$target.log" | head -60 >&2 || true
    grep -E 'Test unit written to' "fuzz/logs/$target.log" >&2 || true
    echo "fuzz: $target FAILED (full log: fuzz/logs/$target.log)" >&2
  fi
done

if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzz: crashes in: ${failed[*]}" >&2
  exit 1
fi
