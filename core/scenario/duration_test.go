package scenario

import (
	"encoding/json"
	"flag"
	"io"
	"strings"
	"testing"
)

func TestParseDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Duration
	}{
		{"0", 0}, {"0s", 0}, {"250ms", 250}, {"1s", 1000}, {"1.5s", 1500}, {"90s", 90000},
		{"5m", 300000}, {"1m30s", 90000}, {"1h", 3600000}, {"24h", 86400000}, {"1000us", 1},
		{" 2s ", 2000}, {"1h0m5s", 3605000},
	} {
		got, err := ParseDuration(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseDuration(%q) = %d, %v; want %d, nil", tc.in, got, err, tc.want)
		}
	}
}

func TestParseDurationErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "duration is empty"},
		{"-1s", "duration -1s is outside 0s…24h"},
		{"24h1ms", "duration 24h0.001s is outside 0s…24h"},
		{"1.5ms", `duration "1.5ms" is not a whole number of milliseconds`},
		{"soon", `duration "soon" is not a duration; want e.g. 250ms`},
		{"60000", `duration "60000" has no unit; write 60000ms, or the number 60000 without quotes`},
		{"9999999999h", `duration "9999999999h" is not a duration`},
	} {
		_, err := ParseDuration(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseDuration(%q) error = %v; want it to contain %q", tc.in, err, tc.want)
		}
	}
}

func TestDurationString(t *testing.T) {
	for _, tc := range []struct {
		d    Duration
		want string
	}{
		{0, "0s"}, {1, "1ms"}, {250, "250ms"}, {999, "999ms"}, {1000, "1s"}, {1500, "1.5s"},
		{1001, "1.001s"}, {1010, "1.01s"}, {60000, "1m"}, {90000, "1m30s"}, {90500, "1m30.5s"},
		{300000, "5m"}, {3600000, "1h"}, {3605000, "1h5s"}, {3660000, "1h1m"},
		{3600001, "1h0.001s"}, {86400000, "24h"}, {-1500, "-1.5s"},
	} {
		if got := tc.d.String(); got != tc.want {
			t.Errorf("Duration(%d).String() = %q; want %q", int64(tc.d), got, tc.want)
		}
	}
}

// Every value in range survives String → ParseDuration and a JSON round trip.
func TestDurationRoundTrip(t *testing.T) {
	values := []Duration{0, 1, 999, 1000, 1001, 59999, 60000, 60001, 3599999, 3600000, MaxDuration}
	for d := Duration(7); d < MaxDuration; d = d*3 + 11 {
		values = append(values, d)
	}
	for _, d := range values {
		got, err := ParseDuration(d.String())
		if err != nil || got != d {
			t.Errorf("ParseDuration(%q) = %d, %v; want %d", d.String(), got, err, int64(d))
		}
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var back Duration
		if err := json.Unmarshal(b, &back); err != nil || back != d {
			t.Errorf("JSON %s read back as %d, %v; want %d", b, back, err, int64(d))
		}
	}
}

func TestDurationJSON(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Duration
	}{
		{`60000`, 60000}, {`"60s"`, 60000}, {`"1m30s"`, 90000}, {`0`, 0}, {`"250ms"`, 250},
	} {
		var got Duration
		if err := json.Unmarshal([]byte(tc.in), &got); err != nil || got != tc.want {
			t.Errorf("Unmarshal(%s) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	got := Duration(42)
	if err := json.Unmarshal([]byte(`null`), &got); err != nil || got != 42 {
		t.Errorf("Unmarshal(null) = %d, %v; want 42 (unchanged), nil", got, err)
	}
	for _, tc := range []struct{ in, want string }{
		{`-5`, "duration -5ms is outside 0s…24h"},
		{`86400001`, "duration 24h0.001s is outside 0s…24h"},
		{`1.5`, "duration 1.5: want whole milliseconds"},
		{`1e99`, "duration 1e99: want whole milliseconds"},
		{`true`, "duration true: want a number of milliseconds or a string"},
		{`"x"`, `duration "x" is not a duration`},
		{`"-1m"`, "outside 0s…24h"},
	} {
		var d Duration
		err := json.Unmarshal([]byte(tc.in), &d)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Unmarshal(%s) error = %v; want it to contain %q", tc.in, err, tc.want)
		}
	}
	for _, tc := range []struct {
		d    Duration
		want string
	}{{90000, `"1m30s"`}, {250, `"250ms"`}, {300000, `"5m"`}, {0, `"0s"`}} {
		b, _ := json.Marshal(tc.d)
		if string(b) != tc.want {
			t.Errorf("Marshal(%d) = %s; want %s", int64(tc.d), b, tc.want)
		}
	}
}

func TestDurationIsAFlagValue(t *testing.T) {
	var d Duration
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(&d, "until", "")
	if err := fs.Parse([]string{"--until", "1m30s"}); err != nil || d != 90000 {
		t.Errorf("--until 1m30s: got %d, %v; want 90000, nil", d, err)
	}
	if err := fs.Parse([]string{"--until", "2d"}); err == nil {
		t.Errorf("--until 2d: got no error; want one")
	}
}
