#!/usr/bin/env bash
# Packages only the test suite needs, installed by .ci/run (not by npm install, whose time has a
# budget): Debian's chromium for the graph viewer's browser tests (test/profiler/browser*.ts,
# driven by playwright-core; a downloaded browser is never used). Installs only what is missing.
set -euo pipefail
if ! command -v chromium >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } ||
      echo "skiff: could not install chromium; the browser tests will be skipped" >&2
  else
    echo "skiff: chromium is not installed (apt-get install chromium); the browser tests will be skipped" >&2
  fi
fi
