#!/usr/bin/env bash
# bench-browser.sh: the playground's size and speed in headless Chromium (software WebGL).
#   scripts/bench-browser.sh          (RUNS=N page loads, default 6)
# Prints the wasm's brotli size (quality 11), the time from navigation to the first frame,
# and frames per second with the large preset at 10x, next to two baselines measured in the
# same browser (a bare WebGL2 canvas of the same size, and an Ebitengine game that only fills
# its screen), the simulation's share of a frame, and the main thread's script time per second
# of the full page (default and large preset, playing and paused). Needs Debian's chromium (scripts/ensure-tools.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${RUNS:-6}"
site="$(mktemp -d)"
out="$(mktemp)"
trap 'rm -rf "$site" "$out"' EXIT

scripts/ensure-tools.sh
echo "reproduce: go run ./cmd/lbscope build --out DIR --brotli-quality 11"
echo "           go test -run '^\$' -bench BrowserPlayground -benchtime ${runs}x ./cmd/lbscope"
echo "           go test -run '^\$' -bench BrowserMainThread -benchtime 2x ./cmd/lbscope"
rmdir "$site"
go run ./cmd/lbscope build --out "$site" --brotli-quality 11 >&2
wasm_br=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["files"]["lbscope.wasm"]["brotli"])' "$site/build.json" 2>/dev/null ||
	awk '/"lbscope.wasm"/ { f = 1 } f && /"brotli"/ { gsub(/[^0-9]/, ""); print; exit }' "$site/build.json")
go test -run '^$' -bench BrowserPlayground -benchtime "${runs}x" ./cmd/lbscope | tee "$out" >&2
go test -run '^$' -bench BrowserMainThread -benchtime 2x ./cmd/lbscope | tee -a "$out" >&2
echo
awk '/^cpu:/ { sub(/[ \t]+$/, ""); print; exit }' "$out"
echo "go:  $(go env GOVERSION) · $(chromium --version 2>/dev/null | head -1)"
awk -v br="$wasm_br" '
/^BenchmarkBrowser(Playground|MainThread)/ { for (i = 3; i < NF; i++) v[$(i+1)] = $i }
END {
	fps = v["fps-large-10x"]; base = v["fps-bare-webgl"]; frame = (fps > 0) ? 1000 / fps : 0
	printf "\n%-48s %14s  %s\n", "measure", "value", "target"
	printf "%-48s %11.2f MB  <= 2.6 MB %s\n", "wasm, brotli quality 11", br / 1e6, (br / 1e6 <= 2.6 ? "met" : "MISSED")
	printf "%-48s %11.0f ms  <= 1500 ms %s\n", "first frame after navigation (median of reloads)", v["first-frame-ms"], (v["first-frame-ms"] <= 1500 ? "met" : "MISSED")
	printf "%-48s %11.0f ms  (first load in a new browser)\n", "first frame, cold", v["first-frame-cold-ms"]
	printf "%-48s %11.1f fps >= 30 fps %s\n", "large preset at 10x", fps, (fps >= 30 ? "met" : "MISSED")
	empty = v["fps-empty-ebitengine"]
	printf "%-48s %11.1f fps (baseline, same browser)\n", "bare WebGL2 canvas clearing every frame", base
	printf "%-48s %11.1f fps (baseline, same browser)\n", "Ebitengine game that only fills its screen", empty
	if (base > 0) printf "%-48s %11.2f\n", "playground / bare WebGL2 frame rate", fps / base
	if (empty > 0) printf "%-48s %11.2f\n", "playground / empty Ebitengine frame rate", fps / empty
	printf "%-48s %11.2f ms  of a %.0f ms frame (%.0f%%); draw %.2f ms\n", "simulation + input (Update) per tick", v["update-ms"], frame, (frame > 0 ? 100 * v["update-ms"] / frame : 0), v["draw-ms"]
	printf "%-48s %11.1f     (10 requested)\n", "virtual ms per wall ms", v["virtual-ms/ms"]
	split("default-playing default-paused large-playing large-paused", cases, " ")
	for (i = 1; i <= 4; i++) printf "%-48s %11.1f ms  per second of wall time\n", "main thread in scripts and wasm, " cases[i], v[cases[i] "-script-ms/s"]
}' "$out"
