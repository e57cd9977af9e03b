#!/usr/bin/env bash
# The release check (CI: .ci/run; docs/RELEASING.md): builds the release (`npm run release`) and
# checks the .deb on this machine: lintian without errors, installed with dpkg -i, `tablegw
# --version`, `tablegw check-config`, a start against a real Mosquitto on the journal written by
# the current sources, a newer journal refused, then dpkg -r (config kept) and dpkg -P
# (dev/release/release-check.ts). Needs root; refuses to run where tablegw is installed.
# RELEASE_CHECK_SKIP_BUILD=1 checks the .deb already in release/.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/sbin:/sbin"
export DEBIAN_FRONTEND=noninteractive

if [ "$(id -u)" != 0 ]; then echo "release-check: run as root (it installs the package)" >&2; exit 1; fi
if ! command -v lintian >/dev/null 2>&1; then
  apt-get update
  apt-get install -y --no-install-recommends lintian
fi
version="$(node -p 'require("./package.json").version')"
deb="release/tablegw_${version}_amd64.deb"
if [ "${RELEASE_CHECK_SKIP_BUILD:-0}" != 1 ] || [ ! -f "$deb" ]; then
  npm run -s release
fi
node --import tsx dev/release/release-check.ts "$deb"
