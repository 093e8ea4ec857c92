#!/usr/bin/env bash
# Debian packages Skiff needs: a C++ toolchain for the native addon, and python3 (node-gyp).
# python3-onnx provides onnx.checker for the export tests. Installs only what is missing.
set -euo pipefail
missing=()
command -v g++ >/dev/null || missing+=(g++)
command -v make >/dev/null || missing+=(make)
command -v python3 >/dev/null || missing+=(python3)
command -v flock >/dev/null || missing+=(util-linux)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  else
    echo "skiff: missing system packages: ${missing[*]} (install them with apt-get)" >&2
    exit 1
  fi
fi
# Optional: python3-onnx (onnx.checker in test/export/onnx.test.ts, which skips without it). It
# goes into the system interpreter, /usr/bin/python3; installed only as root, never required.
if ! { [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import onnx' >/dev/null 2>&1; }; then
  if [ "$(id -u)" = 0 ]; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-onnx; } ||
      echo "skiff: could not install python3-onnx; the onnx.checker checks will be skipped" >&2
  else
    echo "skiff: python3-onnx is not installed; the onnx.checker checks will be skipped" >&2
  fi
fi
