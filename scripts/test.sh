#!/usr/bin/env bash
# The project's test command (README "Run the tests"): installs what the tests need on a fresh machine, then
# runs every test. `.ci/run` calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d ../shared/corpus ]; then
  echo "error: ../shared (corpus and libvmaf reference outputs) must sit beside the repository" >&2
  exit 1
fi

# The wgpu tests need a Vulkan driver; on a machine without a GPU that is Mesa's lavapipe (a CPU device).
if ! ls /usr/share/vulkan/icd.d/*.json >/dev/null 2>&1 || ! ldconfig -p | grep -q libvulkan.so.1; then
  echo "installing a Vulkan driver for the wgpu tests (mesa-vulkan-drivers, libvulkan1)" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q mesa-vulkan-drivers libvulkan1
fi

# Release mode: the conformance tests run every corpus pair through the CPU reference. One build with the
# wgpu backend runs everything: the CPU tests, the kernel-vs-CPU tests and the wgpu-vs-CPU gate (tests
# print the adapter they ran on).
cargo test --release --workspace --features wgpu

# Brief fuzzing of the input readers and the model loader (docs/fuzzing.md): 20 s per target, fails on a crash.
scripts/fuzz.sh 20
