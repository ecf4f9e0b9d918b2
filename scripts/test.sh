#!/usr/bin/env bash
# test.sh: every test LBScope has, as CI runs it (.ci/run calls exactly this).
#   scripts/test.sh
# Installs Debian's chromium and nodejs first when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

scripts/ensure-tools.sh

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

step "go.mod and go.sum tidy (both modules)"
go mod tidy -diff
(cd scripts/peerbench && go mod tidy -diff)

step "go vet (linux and js/wasm)"
go vet ./...
GOOS=js GOARCH=wasm go vet ./...

step "conformance: lbscope conform testdata/conformance"
go run ./cmd/lbscope conform testdata/conformance

step "core and the playground's Go packages compiled to js/wasm, run under Node (-short: 20 of the 200 property seeds)"
GOOS=js GOARCH=wasm go test -count=1 -short -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./core/... ./wasm/...

step "the page's pure JavaScript: node --test scripts/webtest/"
node --test scripts/webtest/

step "agreement with rocketmq-client-go (scripts/peerbench)"
(cd scripts/peerbench && go vet ./... && go test -count=1 ./...)

step "go test ./..."
# The browser tests of cmd/lbscope take several minutes on two cores; go test's default limit of
# ten minutes per package is too close for them. No test bounds the machine's speed: their
# wall-clock limits are coarse guards against a hang (a second for a main-thread task, a minute
# for a condition), and the speed targets are scripts/bench-*.sh's.
go test -count=1 -timeout 30m ./...

# fuzz PKG TARGET [TIME]: fuzz one target for TIME (default $FUZZTIME or 5s). Go 1.26's fuzz
# coordinator can report a bare "context deadline exceeded" when -fuzztime ends while a worker
# is mid-call on a busy machine (golang/go#75804, fixed in Go 1.27): no input fails and none is
# written. Such a stop is told apart from a finding — a finding always writes its input to
# testdata/fuzz — and the target's corpus is then replayed, deterministically, instead.
fuzz() {
	local log status=0 last
	log="$(mktemp)"
	go test -run '^$' -fuzz "^$2\$" -fuzztime "${3:-${FUZZTIME:-5s}}" "$1" 2>&1 | tee "$log" || status=$?
	if [ "$status" -ne 0 ] && grep -q 'context deadline exceeded' "$log" &&
		! grep -q -e 'Failing input written' -e 'panic:' -e '_test.go:[0-9]' "$log"; then
		echo "fuzz: $2 ended on the -fuzztime shutdown race, with no failing input written; replaying its corpus as well"
		status=0
		go test -count=1 -run "^$2\$" "$1" || status=$?
	elif [ "$status" -eq 0 ] && grep -q 'no fuzz tests to fuzz' "$log"; then
		echo "fuzz: $2 did not fuzz: $1 has no such target" >&2
		status=1
	elif [ "$status" -eq 0 ]; then
		# What the step did, in one line: a busy machine may spend the whole -fuzztime on the
		# seed corpus and generate nothing new, and that is said rather than passed in silence.
		last="$(grep -o 'execs: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)"
		if [ -z "$last" ] || [ "$last" -eq 0 ]; then
			echo "fuzz: $2 did not fuzz: no input was generated within -fuzztime (only its seed corpus ran)"
		else
			echo "fuzz: $2 ran $last inputs, none failing"
		fi
	fi
	rm -f "$log"
	return "$status"
}

step "fuzz the admin-output reader briefly (core/admin FuzzRead)"
fuzz ./core/admin FuzzRead 10s
fuzz ./core/admin FuzzTables 10s

step "fuzz the client-log reader briefly (core/admin FuzzLogs)"
fuzz ./core/admin FuzzLogs 10s
fuzz ./core/admin FuzzTablesAndLogs 10s

step "fuzz targets, a few seconds each, from their seed corpora (testdata/fuzz and f.Add)"
fuzz ./core/scenario FuzzDecodeShare
fuzz ./core/scenario FuzzParse
fuzz ./core/scenario FuzzParseAt
fuzz ./cmd/lbscope FuzzScenarioFlags
fuzz ./cmd/lbscope FuzzAllocateFlags
fuzz ./cmd/lbscope FuzzAllocateStdin
fuzz ./wasm/session FuzzDispatch
fuzz ./core/conform FuzzRun
