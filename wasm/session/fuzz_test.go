package session

import (
	"strings"
	"testing"
)

// FuzzDispatch feeds the page's dispatch decoder whatever JSON text comes: a command it
// accepts is applied to a running session, which must neither panic nor become unshareable
// (a refused command changes nothing; an applied one stays within the limits a link holds).
func FuzzDispatch(f *testing.F) {
	for _, seed := range []string{
		`{"type":"pause"}`, `{"type":"step","ms":5000}`, `{"type":"killConsumer","id":"c1"}`,
		`{"type":"addConsumer","id":"c9","consumeRate":500}`, `{"type":"addBroker","broker":"broker-z","queues":4096}`,
		`{"type":"setStrategy","strategy":"CONSISTENT_HASH","params":{"virtualNodeCnt":2000000000}}`,
		`{"type":"addConsumer","id":"<img>\u202e\u0000"}`, `{"type":"slowBroker","broker":"broker-a","latencyMs":2000}`,
		`{"type":"setSpeed","x":1e308}`, `{"type":"seek","ms":-1}`, `{"type":"load","preset":"large"}`,
		`{"type":"continue"}`, `[]`, `null`, `{"type":"pause","extra":1}`, `{"type":"step","ms":10n}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, js string) {
		if len(js) > 4096 {
			return // the bridge's own size limit is tested elsewhere; keep each case quick
		}
		cmd, err := Decode([]byte(js))
		if err != nil {
			if strings.Contains(err.Error(), "goroutine") {
				t.Fatalf("Decode(%q): an error with a stack: %v", js, err)
			}
			return
		}
		s := NewDefault()
		if _, err := s.Enqueue(cmd); err != nil {
			return
		}
		s.Tick(16)
		s.Tick(16)
		if _, err := s.Share(); err != nil {
			t.Fatalf("after %s the session cannot be shared: %v", js, err)
		}
	})
}
