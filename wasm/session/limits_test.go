package session

import (
	"encoding/json"
	"strings"
	"testing"
)

// The page's dispatch is a door like a scenario file: what the limits refuse there is refused
// here, with the limit in the message, and afterwards the session can still be shared
// (share() validates the record as a scenario, so a step past the limits would lock it).
func TestDispatchEnforcesTheLimitsAndShareStillWorks(t *testing.T) {
	s := NewDefault()
	str := func(v string) string { b, _ := json.Marshal(v); return string(b) }
	for _, tt := range []struct{ cmd, want string }{
		{`{"type":"addConsumer","id":"a<b"}`, `has '<'`},
		{`{"type":"addConsumer","id":"a\u0000b"}`, `has '\x00'`},
		{`{"type":"addConsumer","id":"a\nb"}`, `has '\n'`},
		{`{"type":"addConsumer","id":"c\u202e9"}`, `has '\u202e'`},
		{`{"type":"addConsumer","id":` + str(strings.Repeat("c", 1000000)) + `}`, "the limit is 64 characters"},
		{`{"type":"addConsumer","id":"c9","consumeRate":2000000000}`, "consumeRate: 2000000000; want 0…1000000"},
		{`{"type":"addBroker","broker":"b<"}`, `has '<'`},
		{`{"type":"setStrategy","strategy":"CONSISTENT_HASH","params":{"virtualNodeCnt":2000000000}}`, "virtualNodeCnt: 2000000000; want 0…1000"},
	} {
		rs := run(t, s, frame, tt.cmd)
		if len(rs) != 1 || rs[0].Err == nil || !strings.Contains(rs[0].Err.Error(), tt.want) {
			t.Errorf("%.60s: %+v; want an error containing %q", tt.cmd, rs, tt.want)
		}
	}
	// More consumers than a group may have, and 60 brokers of 4096 queues: refused past the
	// limits, not applied.
	refused := 0
	for i := range 520 {
		rs := run(t, s, 0, `{"type":"addConsumer","id":"x`+strings.Repeat("y", i%3)+itoa(int64(i))+`"}`)
		if rs[0].Err != nil {
			refused++
		}
	}
	if refused == 0 || len(s.Snapshot().Consumers) > 512 {
		t.Errorf("%d consumers, %d refused", len(s.Snapshot().Consumers), refused)
	}
	refused = 0
	for i := range 60 {
		if rs := run(t, s, 0, `{"type":"addBroker","broker":"big-`+itoa(int64(i))+`","queues":4096}`); rs[0].Err != nil {
			refused++
		}
	}
	if refused < 59 {
		t.Errorf("only %d of 60 brokers of 4096 queues refused", refused)
	}
	if _, err := s.Share(); err != nil {
		t.Fatalf("share after the refused and accepted commands: %v", err)
	}
}

// A session refuses the action past what a share link holds, so that share() never refuses.
func TestDispatchStopsWhereShareWould(t *testing.T) {
	s := NewDefault()
	var last Result
	for i := 0; i <= 2000; i++ {
		on := "true"
		if i%2 == 1 {
			on = "false"
		}
		rs := run(t, s, 0, `{"type":"setLatencyFault","on":`+on+`}`)
		last = rs[0]
	}
	if last.Err == nil || !strings.Contains(last.Err.Error(), "2000 actions recorded, the most a share link holds") {
		t.Errorf("the 2001st action: %v", last.Err)
	}
	if _, err := s.Share(); err != nil {
		t.Fatalf("share after 2000 actions: %v", err)
	}
}
