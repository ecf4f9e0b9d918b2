#!/usr/bin/env bash
# ensure-tools.sh: installs, from Debian's packages, what the tests need beyond Go itself —
# Chromium for the real-browser tests and Node.js to run the core compiled to js/wasm — when
# they are missing. Needs root (or sudo) only when something is missing.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || { echo "ensure-tools: need root to install ${missing[*]}" >&2; exit 1; }
	sudo=sudo
fi
echo "ensure-tools: installing ${missing[*]} from Debian's packages"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
for tool in "${missing[@]}"; do
	[ "$tool" = nodejs ] && tool=node
	command -v "$tool" >/dev/null 2>&1 || { echo "ensure-tools: $tool still missing after install" >&2; exit 1; }
done
