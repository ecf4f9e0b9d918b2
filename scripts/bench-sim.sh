#!/usr/bin/env bash
# bench-sim.sh: the simulation's speed and memory, against its targets.
#   scripts/bench-sim.sh            (COUNT=N runs per benchmark, default 3)
# - BenchmarkHour: one hour of virtual time, 8 brokers x 16 queues, 64 consumers, 2000 msg/s;
#   x-realtime is virtual time / wall time (target >= 3600 on one core).
# - BenchmarkFrame: one browser frame's step of the large preset (16 x 16 queues, 64
#   consumers, 2000 msg/s): 16 ms virtual (1x), 1600 ms (100x, the playground's top speed) and
#   60 s (a minute per frame); target < 2 ms per frame at the playground's speeds.
# - BenchmarkRetainedHeap: live heap after 10 and 60 virtual minutes (must not grow).
# - BenchmarkPluralHour: the hour on three topics and three groups (retry topics, a failing
#   listener, tags), reported beside BenchmarkHour as a ratio measured in the same run.
# - BenchmarkPopHour: BenchmarkHour's hour with the group consuming by POP (setConsumeMode -m
#   POP, every member clientRebalance false: message-level pops from shared queues), reported
#   beside BenchmarkHour as a ratio measured in the same run.
# - BenchmarkBigGroupHour: one virtual hour of 1000 members on 64 brokers x 64 queues, once
#   (target <= 60 s on one core).
# - BenchmarkSimulation (wasm/script): two virtual minutes of 16 members on 8 x 16 queues with
#   the built-in AVG and with its Starlark port given as the scenario's source, reported as a
#   ratio measured in the same run (target >= 0.1 of the built-in's speed).
set -euo pipefail
cd "$(dirname "$0")/.."
count="${COUNT:-3}"
cmd="go test -run '^\$' -bench '^Benchmark(Hour|PluralHour|PopHour|Frame|RetainedHeap)\$' -benchmem -count $count -cpu 1 ./core/cluster"
big="go test -run '^\$' -bench '^BenchmarkBigGroupHour\$' -benchtime 1x -count 1 -cpu 1 -timeout 30m ./core/cluster"
star="go test -run '^\$' -bench '^BenchmarkSimulation\$' -count $count -cpu 1 ./wasm/script"
echo "reproduce: $cmd"
echo "reproduce: $big"
echo "reproduce: $star"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
eval "$cmd" | tee "$out" >&2
eval "$big" | tee -a "$out" >&2
eval "$star" | tee -a "$out" >&2
echo
awk '/^cpu:/ { sub(/[ \t]+$/, ""); print; exit }' "$out"
echo "go:  $(go env GOVERSION)"
awk '
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j+1] = a[j]; a[j+1] = t }
	return (n % 2) ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
/^BenchmarkHour/ { for (i = 1; i <= NF; i++) if ($(i+1) == "x-realtime") xr[++nx] = $i }
/^BenchmarkPluralHour/ { for (i = 1; i <= NF; i++) if ($(i+1) == "x-realtime") pr[++np] = $i }
/^BenchmarkPopHour/ { for (i = 1; i <= NF; i++) if ($(i+1) == "x-realtime") po[++npo] = $i }
/^BenchmarkBigGroupHour/ { for (i = 1; i <= NF; i++) if ($(i+1) == "s/hour") bigs = $i }
/^BenchmarkSimulation\/builtin/ { for (i = 1; i <= NF; i++) if ($(i+1) == "x-realtime") sb[++nsb] = $i }
/^BenchmarkSimulation\/starlark/ { for (i = 1; i <= NF; i++) if ($(i+1) == "x-realtime") ss[++nss] = $i }
/^BenchmarkFrame/ { name = $1; sub(/^BenchmarkFrame\//, "", name); sub(/-[0-9]+$/, "", name); fr[name, ++fn[name]] = $3; names[name] = 1 }
/^BenchmarkRetainedHeap/ { for (i = 1; i <= NF; i++) { if ($(i+1) == "heapMB@10m") h10 = $i; if ($(i+1) == "heapMB@60m") h60 = $i } }
END {
	printf "\n%-34s %12s  %s\n", "measure", "median", "target"
	for (i = 1; i <= nx; i++) a[i] = xr[i]
	m = median(a, nx)
	printf "%-34s %11.0fx  >= 3600x %s\n", "one virtual hour, x real time", m, (m >= 3600 ? "met" : "MISSED")
	delete a; for (i = 1; i <= np; i++) a[i] = pr[i]
	pm = median(a, np)
	printf "%-34s %11.0fx  (%.2f of the hour above)\n", "three topics, three groups, x real", pm, (m > 0 ? pm / m : 0)
	delete a; for (i = 1; i <= npo; i++) a[i] = po[i]
	om = median(a, npo)
	printf "%-34s %11.0fx  (%.2f of the hour above)\n", "POP (message-level), x real", om, (m > 0 ? om / m : 0)
	printf "%-34s %10.1f s  <= 60 s %s\n", "1000 members, 64 x 64 queues, 1 h", bigs, (bigs <= 60 ? "met" : "MISSED")
	delete a; for (i = 1; i <= nsb; i++) a[i] = sb[i]
	bm = median(a, nsb)
	delete a; for (i = 1; i <= nss; i++) a[i] = ss[i]
	sm = median(a, nss)
	r = (bm > 0 ? sm / bm : 0)
	printf "%-34s %11.2fx  >= 0.1x %s (%.0fx and %.0fx real time)\n", "Starlark AVG against the built-in", r, (r >= 0.1 ? "met" : "MISSED"), sm, bm
	split("virtual=16ms virtual=1600ms virtual=60000ms", order, " ")
	for (k = 1; k <= 3; k++) {
		n = order[k]; if (!(n in names)) continue
		delete a; for (i = 1; i <= fn[n]; i++) a[i] = fr[n, i]
		ms = median(a, fn[n]) / 1e6
		target = (n == "virtual=60000ms") ? "(beyond the playground'"'"'s 100x)" : ((ms < 2) ? "< 2 ms met" : "< 2 ms MISSED")
		printf "%-34s %9.3f ms  %s\n", "frame step of large preset, " n, ms, target
	}
	printf "%-34s %6.2f / %.2f MB  must not grow\n", "live heap after 10 / 60 min", h10, h60
}' "$out"
