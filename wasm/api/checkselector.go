package api

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/jrand"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
)

// checkSelectorArgs is checkSelector's argument: a selector as setSelector takes it.
type checkSelectorArgs struct {
	Selector string `json:"selector"`
	Source   string `json:"source"`
	Steps    int    `json:"steps"`
}

// selectorCheck is checkSelector's report: where each keyed producer's messages go under the
// hash and under the selector (selector.Spread), over its publish list as the brokers are
// now. With no producer that sends with keys, one made-up mix shows it (NoKeys).
type selectorCheck struct {
	Selector  string           `json:"selector"`
	NoKeys    bool             `json:"noKeys,omitempty"`
	Producers []producerSpread `json:"producers"`
}

type producerSpread struct {
	ID       string          `json:"id"`
	Keys     selector.KeyMix `json:"keys"`
	HotQueue hotQueue        `json:"hot"` // the hottest queue under the hash, and under the selector
	selector.Spread
}

// hotQueue is the hottest queue before (the hash) and after (the selector), with its share.
type hotQueue struct {
	Before      string `json:"before"`
	BeforeShare int64  `json:"beforeShare"` // percent of the messages
	After       string `json:"after"`
	AfterShare  int64  `json:"afterShare"`
}

// spreadMessages is how many messages a check places for each producer.
const spreadMessages = 10_000

// defaultMix is the key mix a check shows when no producer sends with keys: a hot key.
var defaultMix = selector.KeyMix{Count: 1000, HotShare: 50, Prefix: "key-"}

// checkSelector({selector, source, steps?}) → the selector run over every keyed producer's
// messages as the brokers are now (a scenario's key mix, 10,000 messages each), beside
// SelectMessageQueueByHash: messages per queue, the hot key's, the hottest queue before and
// after; or {error} with the source's file and line.
func init() {
	register("checkSelector", func(a *API, args json.RawMessage) (any, error) {
		var in checkSelectorArgs
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, errors.New("takes {selector, source, steps?}")
		}
		cmd := cluster.Command{Type: "setSelector", Selector: strings.TrimSpace(in.Selector), Source: in.Source}
		if in.Steps != 0 {
			cmd.Steps = &in.Steps
		}
		if in.Source == "" {
			return nil, errors.New("source: missing; want the Starlark source of def select(queues, message, arg)")
		}
		ch := cmd.SelectorChoice()
		if err := cluster.CheckSelector("selector", cluster.ProducerConfig{Keys: &cluster.KeysConfig{Count: 1}, Selector: ch}); err != nil {
			return nil, err
		}
		s, err := selector.New(*ch)
		if err != nil {
			return nil, err
		}
		snap := a.Sess.Snapshot()
		sc, _, err := a.Sess.Recorded()
		if err != nil {
			return nil, err
		}
		out := selectorCheck{Selector: ch.Name, Producers: []producerSpread{}}
		for _, p := range sc.Producers {
			if p.Keys == nil {
				continue
			}
			mix := selector.KeyMix{Count: p.Keys.Count, HotShare: p.Keys.HotShare, Prefix: p.Keys.Prefix}
			if len(p.Tags) == 1 {
				for tag := range p.Tags {
					mix.Tags = tag
				}
			}
			topic := p.Topic
			if topic == "" {
				topic = snap.Topic
			}
			out.Producers = append(out.Producers, spreadOf(p.ID, s, publishList(snap, topic), mix))
		}
		if len(out.Producers) == 0 {
			out.NoKeys = true
			out.Producers = append(out.Producers, spreadOf("", s, publishList(snap, snap.Topic), defaultMix))
		}
		return out, nil
	})
}

func spreadOf(id string, s selector.Custom, mqs []route.MessageQueue, mix selector.KeyMix) producerSpread {
	sp := selector.SpreadOf(s, mqs, mix, spreadMessages, jrand.New(1))
	if mix.Prefix == "" {
		mix.Prefix = "key-"
	}
	ps := producerSpread{ID: id, Keys: mix, Spread: sp}
	if i := hottest(sp.Hash); i >= 0 {
		ps.HotQueue.Before, ps.HotQueue.BeforeShare = sp.Queues[i], sp.Hash[i]*100/max(sp.Messages, 1)
	}
	if i := hottest(sp.Custom); i >= 0 {
		ps.HotQueue.After, ps.HotQueue.AfterShare = sp.Queues[i], sp.Custom[i]*100/max(sp.Messages, 1)
	}
	return ps
}

// publishList is the topic's publish list as the brokers are now (spec §1.3): the writable
// queues of the brokers that are up and in the route, sorted by broker name, ids ascending.
func publishList(snap cluster.Snapshot, topic string) []route.MessageQueue {
	var mq []route.MessageQueue
	for _, b := range snap.Brokers {
		if b.Down || b.Removed || b.Perm == cluster.PermR || b.Perm == cluster.PermNone {
			continue
		}
		n := b.Queues
		if b.WriteQueues > 0 {
			n = b.WriteQueues
		}
		for q := range n {
			mq = append(mq, route.MessageQueue{Topic: topic, BrokerName: b.Name, QueueID: int32(q)})
		}
	}
	slices.SortStableFunc(mq, func(a, b route.MessageQueue) int { return strings.Compare(a.BrokerName, b.BrokerName) })
	return mq
}

// hottest is the index of the largest count (the first of equals), -1 for none.
func hottest(counts []int64) int {
	best := -1
	for i, n := range counts {
		if best < 0 || n > counts[best] {
			best = i
		}
	}
	return best
}
