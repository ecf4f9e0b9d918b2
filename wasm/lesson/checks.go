package lesson

import (
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/fault"
	"github.com/lbscope/lbscope/core/scenario"
)

// build is a lesson's scenario: named brokers with their queue counts, consumers started at
// time 0, one producer at rate messages per second, AVG unless change says otherwise.
func build(title string, brokers []cluster.BrokerConfig, consumers []string, rate int, change func(*scenario.Scenario)) func() scenario.Scenario {
	return func() scenario.Scenario {
		s := scenario.Scenario{
			Version: scenario.Version,
			Title:   title,
			Config: cluster.Config{
				Seed:         1,
				Topic:        scenario.DefaultTopic,
				Group:        scenario.DefaultGroup,
				Brokers:      slices.Clone(brokers),
				Producers:    []cluster.ProducerConfig{{ID: "p1", Rate: rate}},
				Strategy:     allocate.Named("AVG"),
				MessageModel: cluster.Clustering,
				FaultTable:   fault.TableCurrent,
			},
			Until: scenario.DefaultUntil,
		}
		for _, id := range consumers {
			s.Consumers = append(s.Consumers, cluster.ConsumerConfig{ID: id})
		}
		if change != nil {
			change(&s)
		}
		return s
	}
}

func brokers(queues int, names ...string) []cluster.BrokerConfig {
	out := make([]cluster.BrokerConfig, len(names))
	for i, n := range names {
		out[i] = cluster.BrokerConfig{Name: n, Queues: queues}
	}
	return out
}

// consumer returns the view of consumer id, or nil.
func consumer(s cluster.Snapshot, id string) *cluster.ConsumerView {
	for i := range s.Consumers {
		if s.Consumers[i].ID == id {
			return &s.Consumers[i]
		}
	}
	return nil
}

func broker(s cluster.Snapshot, name string) *cluster.BrokerView {
	for i := range s.Brokers {
		if s.Brokers[i].Name == name {
			return &s.Brokers[i]
		}
	}
	return nil
}

// running says consumer id is up (consuming or idle).
func running(s cluster.Snapshot, id string) bool {
	c := consumer(s, id)
	return c != nil && (c.Status == cluster.StatusAlive || c.Status == cluster.StatusIdle)
}

func hasStatus(s cluster.Snapshot, id string, status ...string) bool {
	c := consumer(s, id)
	return c != nil && slices.Contains(status, c.Status)
}

// runningIDs lists the consumers that are up.
func runningIDs(s cluster.Snapshot) []string {
	var ids []string
	for _, c := range s.Consumers {
		if running(s, c.ID) {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// newConsumers lists the running consumers that did not exist in before.
func newConsumers(before, now cluster.Snapshot) []string {
	var ids []string
	for _, id := range runningIDs(now) {
		if consumer(before, id) == nil {
			ids = append(ids, id)
		}
	}
	return ids
}

// newcomer is the first consumer started since the lesson began, as it is now and as it was
// when the step began (nil: none yet, or not there then), and whether it consumed since.
func newcomer(c *Context) (now, then *cluster.ConsumerView, consumedSince bool) {
	added := newConsumers(c.First, c.Now)
	if len(added) == 0 {
		return nil, nil, false
	}
	now, then = consumer(c.Now, added[0]), consumer(c.StepStart, added[0])
	return now, then, now != nil && now.Consumed > 0 && (then == nil || now.Consumed > then.Consumed)
}

// gone lists the consumers running in before that are no longer running.
func gone(before, now cluster.Snapshot) []string {
	var ids []string
	for _, id := range runningIDs(before) {
		if !running(now, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// settled says the group agrees again (clustering): every queue of a live broker is pulled by
// exactly one consumer, a running one, and every running consumer's queues are those it owns.
func settled(s cluster.Snapshot) bool {
	down := map[string]bool{}
	for _, b := range s.Brokers {
		down[b.Name] = b.Down
	}
	owned := map[string][]string{}
	for _, q := range s.Queues {
		if down[q.Broker] {
			continue
		}
		if len(q.Owners) != 1 || !running(s, q.Owners[0]) {
			return false
		}
		owned[q.Owners[0]] = append(owned[q.Owners[0]], q.Queue)
	}
	for _, c := range s.Consumers {
		if !running(s, c.ID) {
			// A cut-off consumer still believes in its queues; what counts is that someone
			// else pulls them (Owners).
			if len(c.Queues) > 0 && c.Status != cluster.StatusPartitioned {
				return false
			}
			continue
		}
		for _, q := range c.Queues {
			if b, _, _ := strings.Cut(q, ":"); down[b] {
				return false
			}
		}
		if len(c.Queues) != len(owned[c.ID]) {
			return false
		}
	}
	return true
}

// owners maps each queue to its single owner ("" when none or several).
func owners(s cluster.Snapshot) map[string]string {
	m := map[string]string{}
	for _, q := range s.Queues {
		if len(q.Owners) == 1 {
			m[q.Queue] = q.Owners[0]
		} else {
			m[q.Queue] = ""
		}
	}
	return m
}

// moved counts the queues whose owner changed between before and now among those owned, in
// both, by consumers that run in both.
func movedBetweenStayers(before, now cluster.Snapshot) int {
	ob, on := owners(before), owners(now)
	n := 0
	for q, b := range ob {
		a := on[q]
		if b == "" || a == "" || !running(before, a) || !running(now, b) {
			continue
		}
		if a != b {
			n++
		}
	}
	return n
}

// brokersOf lists the brokers of a consumer's queues.
func brokersOf(c *cluster.ConsumerView) []string {
	var bs []string
	for _, q := range c.Queues {
		b, _, _ := strings.Cut(q, ":")
		if !slices.Contains(bs, b) {
			bs = append(bs, b)
		}
	}
	return bs
}

// room is the machine room of a broker name or client id as the nearby strategy's resolver
// reads it: the text before the first '-' (spec §4.5).
func room(name string) string {
	r, _, _ := strings.Cut(name, "-")
	return r
}

// listedBy lists the live brokers whose consumer manager lists id.
func listedBy(s cluster.Snapshot, id string) []string {
	var bs []string
	for _, b := range s.Brokers {
		if !b.Down && slices.Contains(b.Consumers, id) {
			bs = append(bs, b.Name)
		}
	}
	return bs
}

// listedTwice says a live broker lists client id cid on more than one connection (spec §5.1).
func listedTwice(s cluster.Snapshot, cid string) bool {
	for _, b := range s.Brokers {
		n := 0
		for _, id := range b.Consumers {
			if id == cid {
				n++
			}
		}
		if !b.Down && n > 1 {
			return true
		}
	}
	return false
}

// orphaned says a queue of a live broker is pulled by nobody.
func orphaned(s cluster.Snapshot) bool {
	down := map[string]bool{}
	for _, b := range s.Brokers {
		down[b.Name] = b.Down
	}
	for _, q := range s.Queues {
		if !down[q.Broker] && len(q.Owners) == 0 {
			return true
		}
	}
	return false
}

func liveBrokers(s cluster.Snapshot) int {
	n := 0
	for _, b := range s.Brokers {
		if !b.Down {
			n++
		}
	}
	return n
}

// find returns the first event about consumer id (any when "") and broker (any when "") whose
// cause is one of causes (cluster.Causes says what each means).
func find(events []cluster.Event, id, broker string, causes ...string) (cluster.Event, bool) {
	for _, e := range events {
		if slices.Contains(causes, e.Cause) && (id == "" || e.Consumer == id) && (broker == "" || e.Broker == broker) {
			return e, true
		}
	}
	return cluster.Event{}, false
}

// gained returns when consumer id's queue set first became non-empty in a rebalance event.
func gained(events []cluster.Event, id string) (int64, bool) {
	for _, e := range events {
		if e.Kind == cluster.EventRebalance && e.Consumer == id && len(e.Queues) > 0 {
			return e.T, true
		}
	}
	return 0, false
}

// isolationBy returns the latest isolation of broker by producer among events.
func isolationBy(events []cluster.Event, producer, broker string) (cluster.Event, bool) {
	for i := len(events) - 1; i >= 0; i-- {
		if e := events[i]; e.Kind == cluster.EventIsolation && e.Arg == producer && e.Broker == broker {
			return e, true
		}
	}
	return cluster.Event{}, false
}
