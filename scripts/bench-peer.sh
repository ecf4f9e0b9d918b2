#!/usr/bin/env bash
# bench-peer.sh: LBScope's whole-group allocation against github.com/apache/rocketmq-client-go/v2
# on the same input (scripts/peerbench), summarised as median ns/op, speed ratio and allocs/op.
#
#   COUNT=N scripts/bench-peer.sh     # N runs per benchmark, default 5
#
# The peer lives in its own module (scripts/peerbench) so the main module never depends on it.
set -euo pipefail

cd "$(dirname "$0")/.."
count="${COUNT:-5}"
dir=scripts/peerbench

echo "reproduce: (cd $dir && go test -run '^\$' -bench BenchmarkGroup -benchmem -count $count)"
echo

out="$(mktemp)"
trap 'rm -f "$out"' EXIT

# Raw lines go to stderr as they arrive, so a long run shows progress and stdout stays the
# report; pipefail makes a failing `go test` fail the script.
if ! (cd "$dir" && go test -run '^$' -bench BenchmarkGroup -benchmem -count "$count") 2>&1 |
	tee "$out" >&2; then
	echo "bench-peer: benchmark failed" >&2
	exit 1
fi
echo >&2

printf 'go:  %s\n' "$(cd "$dir" && go env GOVERSION)"
# Only the first cpu: line (every run prints it), without the padding it carries.
awk '/^cpu: / { sub(/[ \t]+$/, ""); print; exit }' "$out"
echo

awk -v want_ch=100 -v want_avg=1.0 '
# Median of the n values in a[1..n] (insertion sort; mawk has no asort).
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
		a[j + 1] = t
	}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
/^BenchmarkGroup\// {
	name = $1
	sub(/-[0-9]+$/, "", name)          # drop the GOMAXPROCS suffix
	split(name, part, "/")             # BenchmarkGroup / strategy / side
	key = part[2] SUBSEP part[3]
	if (!(part[2] in seen)) { seen[part[2]] = 1; order[++ns] = part[2] }
	for (i = 2; i < NF; i++) {
		if ($(i + 1) == "ns/op") ns_v[key, ++cnt[key]] = $i
		if ($(i + 1) == "allocs/op") al_v[key, cnt[key]] = $i
	}
}
END {
	if (ns == 0) { print "bench-peer: no BenchmarkGroup results" > "/dev/stderr"; exit 1 }
	printf "%-24s %16s %16s %10s %12s %12s  %s\n", "strategy", "lbscope ns/op", "peer ns/op", "peer/ours", "lbscope a/op", "peer a/op", "target"
	for (s = 1; s <= ns; s++) {
		st = order[s]
		for (side = 1; side <= 2; side++) {
			sd = side == 1 ? "lbscope" : "rocketmq-client-go"
			k = st SUBSEP sd
			n = cnt[k]
			if (n == 0) { print "bench-peer: missing " st "/" sd > "/dev/stderr"; exit 1 }
			for (i = 1; i <= n; i++) v[i] = ns_v[k, i]
			med[side] = median(v, n)
			# The peer'"'"'s count wobbles by a few between runs (map growth), so median it too.
			for (i = 1; i <= n; i++) v[i] = al_v[k, i]
			al[side] = median(v, n)
		}
		ratio = med[2] / med[1]
		want = st ~ /^CONSISTENT_HASH/ ? want_ch : want_avg
		verdict = ratio >= want ? "met" : "MISSED"
		# The ratio is padded as a number and the × appended after, so multi-byte × cannot
		# throw the columns off in awks that pad by bytes.
		printf "%-24s %16.0f %16.0f %8.1f×  %12.0f %12.0f  >=%s× %s\n", st, med[1], med[2], ratio, al[1], al[2], want, verdict
	}
	print ""
	print "peer/ours = rocketmq-client-go / lbscope, median ns/op of " cnt[order[1] SUBSEP "lbscope"] " runs; a/op = allocs/op"
}' "$out"
