package narrate

import (
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
)

// A producer's selector that throws is told in both languages, its own message (the file and
// line of the user's code) kept as it is.
func TestSelectorThrewInBothLanguages(t *testing.T) {
	e := cluster.Event{T: 1000, Kind: cluster.EventInfo, Cause: cluster.CauseSelectorThrew, Arg: "p1",
		Error: "composite.star:3:5: fail: no queue",
		Text:  "producer p1: its selector COMPOSITE threw composite.star:3:5: fail: no queue; the send fails (MQClientException: select message queue threw exception.)"}
	if got := Event(e, EN); got != e.Text {
		t.Errorf("Event(en) = %q; want the engine's text", got)
	}
	zh := Event(e, ZH)
	if !strings.Contains(zh, "生产者 p1") || !strings.Contains(zh, e.Error) {
		t.Errorf("Event(zh) = %q; want the producer and the selector's message", zh)
	}
	for _, lang := range []string{EN, ZH} {
		lines := Frame([]cluster.Event{e}, lang)
		if len(lines) != 1 || !strings.Contains(lines[0], "p1") || !strings.Contains(lines[0], e.Error) {
			t.Errorf("Frame(%s) = %q; want one line naming p1 and the message", lang, lines)
		}
	}
	if bad := untranslated(strings.NewReplacer(e.Error, "", "MQClientException", "").Replace(zh)); len(bad) > 0 {
		t.Errorf("Event(zh) = %q keeps %q", zh, bad)
	}
}
