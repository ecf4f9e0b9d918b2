package narrate

import (
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
)

// A command registered in the table alone is narrated, in both languages, from its words.
func TestATableEntryIsNarrated(t *testing.T) {
	cluster.Register(cluster.CommandSpec{Name: "testPoke", Target: cluster.TargetConsumer,
		Args:     []cluster.Arg{{Name: "id", Type: cluster.ArgString, Charset: &cluster.ClientIDName, Example: "c1"}},
		Apply:    func(c *cluster.Cluster, cmd cluster.Command) error { return nil },
		Describe: func(cmd cluster.Command) string { return cmd.ID + " is poked" },
		Words: map[string]cluster.Words{
			"en": {Label: "Poke", Description: "Pokes a consumer.", Done: "{id} poked"},
			"zh": {Label: "戳", Description: "戳一下消费者。", Done: "消费者 {id} 被戳"},
		},
	})
	defer cluster.Unregister("testPoke")
	w := newWorld(t)
	w.apply(cluster.Command{Type: "testPoke", ID: "c2"})
	events := w.run(0)
	if got := strings.Join(Frame(events, EN), " | "); !strings.Contains(got, "c2 poked") {
		t.Errorf("English narration %q", got)
	}
	if got := strings.Join(Frame(events, ZH), " | "); !strings.Contains(got, "消费者 c2 被戳") {
		t.Errorf("Chinese narration %q", got)
	}
	if got := Event(events[0], ZH); got != "消费者 c2 被戳" {
		t.Errorf("Chinese log line %q", got)
	}
	if got := commandIn(ZH, "testPoke c2"); got != "戳 c2" {
		t.Errorf("commandIn(zh) = %q", got)
	}
}
