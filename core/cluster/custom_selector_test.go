package cluster

import (
	"errors"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
)

// fakeSelector is a selector written in Go: its source says what it does.
type fakeSelector struct {
	src   string
	calls *[]string // the keys it was asked about, and the list's length
}

func (f fakeSelector) Select(mqs []route.MessageQueue, msg selector.Message, arg any) (route.MessageQueue, error) {
	if f.calls != nil {
		*f.calls = append(*f.calls, msg.Key+"|"+msg.Tags+"|"+arg.(string))
	}
	switch f.src {
	case "last":
		return mqs[len(mqs)-1], nil
	case "stranger":
		return route.MessageQueue{Topic: mqs[0].Topic, BrokerName: "broker-z", QueueID: 9}, nil
	}
	return route.MessageQueue{}, errors.New("fake.star:3:5: select failed on purpose")
}

func withFakeSelectors(t *testing.T, calls *[]string) {
	selector.SetCompiler(func(name, file string, src []byte, steps int) (selector.Custom, error) {
		if string(src) == "syntax" {
			return nil, errors.New(file + ":1:1: syntax error")
		}
		return fakeSelector{src: string(src), calls: calls}, nil
	})
	t.Cleanup(func() { selector.SetCompiler(nil) })
}

func keyedConfig(src string) Config {
	cfg := smallConfig(200)
	cfg.Producers[0].Keys = &KeysConfig{Count: 50, HotShare: 20, Prefix: "order-"}
	cfg.Producers[0].Tags = map[string]float64{"TagA": 1}
	cfg.Producers[0].Selector = &selector.Choice{Name: "FAKE", Source: src}
	return cfg
}

// A producer's own selector places every keyed send: the one that always answers the last
// queue of the publish list fills that queue alone, called with the message's key and tag,
// the key as arg.
func TestCustomSelectorPlacesKeyedSends(t *testing.T) {
	var calls []string
	withFakeSelectors(t, &calls)
	c := mustNew(t, keyedConfig("last"))
	c.Advance(20000)
	s := c.Snapshot()
	total := int64(0)
	for _, q := range s.Queues {
		total += q.MaxOffset
		if q.Queue != "broker-b:3" && q.MaxOffset != 0 {
			t.Errorf("queue %s holds %d messages; the selector sends to broker-b:3 only", q.Queue, q.MaxOffset)
		}
	}
	if total < 3000 || c.Metrics().SendFailures != 0 {
		t.Fatalf("%d messages stored, %d failures; want about 4000 stored at 200/s, none failed", total, c.Metrics().SendFailures)
	}
	if len(calls) == 0 || !strings.HasPrefix(calls[0], "order-") || !strings.Contains(calls[0], "|TagA|order-") {
		t.Fatalf("calls %q; want key|TagA|key", calls[:min(len(calls), 3)])
	}
	for _, c := range calls {
		key, rest, _ := strings.Cut(c, "|")
		if !strings.HasSuffix(rest, "|"+key) {
			t.Fatalf("call %q: the arg is not the key", c)
		}
	}
}

// A selector that throws, or answers a queue not in the list, fails the send as the client's
// MQClientException does: counted as a failed send, nothing stored, and the log says why at
// most once a second.
func TestCustomSelectorThatThrowsFailsTheSend(t *testing.T) {
	withFakeSelectors(t, nil)
	for _, src := range []string{"fail", "stranger"} {
		c := mustNew(t, keyedConfig(src))
		var threw []Event
		c.SetObserver(func(e Event) {
			checkCause(t, e)
			if e.Cause == CauseSelectorThrew {
				threw = append(threw, e)
			}
		})
		c.Advance(10000)
		m := c.Metrics()
		if m.Produced != 0 || m.SendFailures < 1500 {
			t.Errorf("%s: produced %d, failed %d; want nothing stored, every send failed", src, m.Produced, m.SendFailures)
		}
		if len(threw) == 0 || len(threw) > 11 {
			t.Fatalf("%s: %d selectorThrew events in 10 s; want one a second at most", src, len(threw))
		}
		e := threw[0]
		want := "select failed on purpose"
		if src == "stranger" {
			want = "not one of the 8 queues"
		}
		if e.Arg != "p1" || !strings.Contains(e.Error, want) || !strings.Contains(e.Text, "FAKE") {
			t.Errorf("%s: event %+v; want producer p1, the selector's message and its name", src, e)
		}
	}
}

// A selector is checked when the producer starts: it needs keys to place, a compiler, and a
// source that compiles.
func TestCustomSelectorIsChecked(t *testing.T) {
	cfg := keyedConfig("last")
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "runs no selector sources") {
		t.Errorf("no compiler: %v", err)
	}
	withFakeSelectors(t, nil)
	cfg.Producers[0].Keys = nil
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "give the producer keys") {
		t.Errorf("no keys: %v", err)
	}
	cfg = keyedConfig("syntax")
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "fake.star:1:1: syntax error") {
		t.Errorf("a syntax error: %v", err)
	}
	cfg = keyedConfig("last")
	cfg.Producers[0].Selector.Name = ""
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "name") {
		t.Errorf("no name: %v", err)
	}
}

// A clone places keyed sends with the same selector, as the original does.
func TestCustomSelectorSurvivesAClone(t *testing.T) {
	withFakeSelectors(t, nil)
	c := mustNew(t, keyedConfig("last"))
	c.Advance(5000)
	n := c.Clone()
	c.Advance(10000)
	n.Advance(10000)
	if a, b := c.Metrics(), n.Metrics(); a.Produced != b.Produced || a.Produced == 0 {
		t.Errorf("produced %d and %d by the clone; want the same", a.Produced, b.Produced)
	}
}

// setSelector changes the selector of the keyed sends while the run goes on, and without a
// source brings the hash back; a producer without keys is refused.
func TestSetSelectorCommand(t *testing.T) {
	withFakeSelectors(t, nil)
	cfg := keyedConfig("fail")
	cfg.Producers = append(cfg.Producers, ProducerConfig{ID: "p2", Rate: 10})
	c := mustNew(t, cfg)
	c.Advance(5000)
	failed := c.Metrics().SendFailures
	if failed == 0 {
		t.Fatal("the failing selector failed no send")
	}
	mustApply(t, c, Command{Type: "setSelector", Selector: "LAST", Source: "last"})
	c.Advance(10000)
	if m := c.Metrics(); m.SendFailures != failed {
		t.Errorf("failures went from %d to %d under a selector that never fails", failed, m.SendFailures)
	}
	before := c.Snapshot()
	mustApply(t, c, Command{Type: "setSelector", Selector: "HASH"})
	c.Advance(20000)
	spread := 0
	for i, q := range c.Snapshot().Queues {
		if q.MaxOffset > before.Queues[i].MaxOffset {
			spread++
		}
	}
	if spread < 4 {
		t.Errorf("after the hash came back, %d queues grew; want the keys spread again", spread)
	}
	if err := c.Apply(Command{Type: "setSelector", Selector: "LAST", Source: "last", ID: "p2"}); err == nil || !strings.Contains(err.Error(), "p2 sends without keys") {
		t.Errorf("a producer without keys: %v", err)
	}
	if err := c.Apply(Command{Type: "setSelector", Selector: "BAD", Source: "syntax"}); err == nil || !strings.Contains(err.Error(), "source: bad.star:1:1: syntax error") {
		t.Errorf("a syntax error: %v", err)
	}
}
