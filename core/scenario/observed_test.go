package scenario

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// observedFile is a small scenario with a logged history, as a file.
const observedFile = `{
  "version": 1,
  "brokers": [{"name": "broker-a", "queues": 2}],
  "consumers": [{"id": "10.0.0.1@1"}, {"id": "10.0.0.2@2"}],
  "until": "2m",
  "timeline": [{"at": "30s", "type": "addBroker", "broker": "broker-b", "queues": 2}],
  "observed": {
    "source": "rocketmq_client.log of 2 members", "zone": "+08:00", "start": "2026-11-30 10:15:02.120",
    "holdings": [
      {"topic": "TopicTest", "broker": "broker-a", "queue": 0, "owner": "10.0.0.1@1", "from": "1s", "to": "40s", "fromKnown": true, "toKnown": true, "ref": "m1.log:10"},
      {"broker": "broker-a", "queue": 0, "owner": "10.0.0.2@2", "from": "35s", "ref": "m2.log:20"},
      {"broker": "broker-b", "queue": 1, "owner": "10.0.0.2@2", "from": 31000}
    ],
    "rounds": [{"at": "1s", "client": "10.0.0.1@1", "ref": "m1.log:9"}, {"at": "35s", "client": "10.0.0.2@2"}]
  }
}`

func TestObservedParsesAndReadsBack(t *testing.T) {
	s, err := Parse([]byte(observedFile))
	if err != nil {
		t.Fatal(err)
	}
	o := s.Observed
	if o == nil || o.Source != "rocketmq_client.log of 2 members" || o.Zone != "+08:00" || len(o.Holdings) != 3 || len(o.Rounds) != 2 {
		t.Fatalf("observed = %+v", o)
	}
	h := o.Holdings[0]
	if h.From != Second || h.To == nil || *h.To != 40*Second || !h.FromKnown || !h.ToKnown || h.Ref != "m1.log:10" {
		t.Errorf("holdings[0] = %+v", h)
	}
	if o.Holdings[1].To != nil || o.Holdings[2].From != 31*Second {
		t.Errorf("an absent to is until the end, a number is milliseconds: %+v", o.Holdings[1:])
	}
	out, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(out)
	if err != nil {
		t.Fatalf("written back: %v\n%s", err, out)
	}
	again, _ := back.Marshal()
	if !bytes.Equal(out, again) {
		t.Errorf("a round trip changes it:\n%s\n%s", out, again)
	}
	if !strings.Contains(string(out), `"to": "40s"`) || strings.Count(string(out), `"to"`) != 1 {
		t.Errorf("an absent to must stay absent:\n%s", out)
	}
}

func TestObservedOwnersAt(t *testing.T) {
	s, err := Parse([]byte(observedFile))
	if err != nil {
		t.Fatal(err)
	}
	o := s.Observed
	for _, c := range []struct {
		t    int64
		want map[string][]string
	}{
		{0, map[string][]string{}}, // before the logs show anybody
		{1000, map[string][]string{"broker-a:0": {"10.0.0.1@1"}}},
		{35000, map[string][]string{"broker-a:0": {"10.0.0.1@1", "10.0.0.2@2"}, "broker-b:1": {"10.0.0.2@2"}}}, // held twice
		{40000, map[string][]string{"broker-a:0": {"10.0.0.2@2"}, "broker-b:1": {"10.0.0.2@2"}}},               // to is the first moment without
		{120000, map[string][]string{"broker-a:0": {"10.0.0.2@2"}, "broker-b:1": {"10.0.0.2@2"}}},
	} {
		got := o.OwnersAt(c.t)
		if len(got) != len(c.want) {
			t.Errorf("at %d: %v; want %v", c.t, got, c.want)
			continue
		}
		for q, ids := range c.want {
			if !slices.Equal(got[q], ids) {
				t.Errorf("at %d: %s held by %v; want %v", c.t, q, got[q], ids)
			}
		}
	}
	for _, c := range []struct{ t, from, to int64 }{
		{0, -1 << 62, 1000}, {1000, 1000, 31000}, {34999, 31000, 35000}, {35000, 35000, 40000}, {50000, 40000, 1 << 62},
	} {
		if from, to := o.Stretch(c.t); from != c.from || to != c.to {
			t.Errorf("stretch around %d: [%d, %d); want [%d, %d)", c.t, from, to, c.from, c.to)
		}
	}
}

// Every rule of the history, broken once: the error names the field's path and what is wrong.
func TestObservedErrors(t *testing.T) {
	long := strings.Repeat("x", MaxObservedText+1)
	if _, err := Parse([]byte(observedFile)); err != nil {
		t.Fatalf("the base file: %v", err)
	}
	for _, c := range []struct{ edit, want string }{
		{`"zone": "+08:00"`, `"zone": "UTC+8"`},
		{`"zone": "+08:00"`, `"zone": "+15:00"`},
		{`"zone": "+08:00"`, `"zone": "+0-:30"`},
		{`"source": "rocketmq_client.log of 2 members"`, `"source": "` + long + `"`},
		{`"start": "2026-11-30 10:15:02.120"`, `"start": "a\u0007b"`},
		{`"topic": "TopicTest"`, `"topic": "%RETRY%GroupTest"`},
		{`"broker": "broker-b", "queue": 1`, `"broker": "broker-c", "queue": 1`},
		{`"broker": "broker-b", "queue": 1`, `"broker": "broker b", "queue": 1`},
		{`"queue": 0, "owner": "10.0.0.2@2"`, `"queue": -1, "owner": "10.0.0.2@2"`},
		{`"queue": 0, "owner": "10.0.0.2@2"`, `"queue": 4096, "owner": "10.0.0.2@2"`},
		{`"owner": "10.0.0.2@2", "from": "35s"`, `"owner": "", "from": "35s"`},
		{`"owner": "10.0.0.2@2", "from": "35s"`, `"owner": "10.0.0.2 2", "from": "35s"`},
		{`"from": "35s"`, `"from": "3m"`},
		{`"from": "35s"`, `"from": "-1s"`},
		{`"to": "40s"`, `"to": "1s"`},
		{`"to": "40s"`, `"to": "3m"`},
		{`"ref": "m2.log:20"`, `"ref": "` + long + `"`},
		{`"ref": "m2.log:20"`, `"line": 20`},
		{`{"at": "35s", "client": "10.0.0.2@2"}`, `{"at": "35s", "client": "10.0.0.2@2", "ref": 7}`},
		{`{"at": "35s", "client": "10.0.0.2@2"}`, `{"at": "130s", "client": "10.0.0.2@2"}`},
		{`{"at": "35s", "client": "10.0.0.2@2"}`, `{"at": "35s"}`},
		{`"holdings": [`, `"holding": [`},
	} {
		want := c.want
		if !strings.Contains(observedFile, c.edit) {
			t.Fatalf("the file has no %s", c.edit)
		}
		_, err := Parse([]byte(strings.Replace(observedFile, c.edit, want, 1)))
		if err == nil {
			t.Errorf("%s: accepted", want)
			continue
		}
		if !strings.HasPrefix(err.Error(), "observed") {
			t.Errorf("%s: %v; want an error naming its path under observed", want, err)
		}
	}
}

func TestObservedErrorsSayWhat(t *testing.T) {
	for edit, want := range map[[2]string]string{
		{`"topic": "TopicTest"`, `"topic": "Other"`}:          `observed.holdings[0].topic: "Other" is not the scenario's topic "TopicTest"`,
		{`"broker": "broker-b", "queue": 1`, `"broker": "x"`}: `observed.holdings[2].broker: "x" is none of the scenario's brokers`,
		{`"to": "40s"`, `"to": "1s"`}:                         `observed.holdings[0].to: 1s; want after from (1s) and at most until (2m)`,
		{`"zone": "+08:00"`, `"zone": "CST"`}:                 `observed.zone: "CST"; want an offset from UTC such as +08:00`,
		{`"ref": "m2.log:20"`, `"line": 20`}:                  `observed.holdings[1]: unknown field "line"`,
	} {
		_, err := Parse([]byte(strings.Replace(observedFile, edit[0], edit[1], 1)))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %q", edit[1], err, want)
		}
	}
}

func TestObservedBounds(t *testing.T) {
	s, err := Parse([]byte(observedFile))
	if err != nil {
		t.Fatal(err)
	}
	h := s.Observed.Holdings[2]
	s.Observed.Holdings = slices.Repeat([]Holding{h}, MaxHoldings)
	s.Observed.Rounds = slices.Repeat(s.Observed.Rounds[:1], MaxRounds)
	if err := s.Validate(); err != nil {
		t.Fatalf("at the limits: %v", err)
	}
	s.Observed.Holdings = append(s.Observed.Holdings, h)
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "observed.holdings: "+strconv.Itoa(MaxHoldings+1)+" holdings; the limit is") {
		t.Errorf("one holding too many: %v", err)
	}
	s.Observed.Holdings = s.Observed.Holdings[:1]
	s.Observed.Rounds = append(s.Observed.Rounds, s.Observed.Rounds[0])
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "observed.rounds: "+strconv.Itoa(MaxRounds+1)+" rounds; the limit is") {
		t.Errorf("one round too many: %v", err)
	}
}

// Without an observed section a scenario file reads and writes as before: no field appears.
func TestObservedAbsentChangesNothing(t *testing.T) {
	data, err := os.ReadFile("../../testdata/scenarios/kill.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := s.Marshal()
	if s.Observed != nil || strings.Contains(string(out), "observed") {
		t.Errorf("observed appeared:\n%s", out)
	}
	if ds, err := Disagreements(s); ds != nil || err != nil {
		t.Errorf("disagreements without a history: %v, %v", ds, err)
	}
	if ObservedText(s, nil) != "" {
		t.Error("text without a history")
	}
}
