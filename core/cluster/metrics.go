package cluster

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
)

// The metrics store: what a strategy's view (allocate.Viewpoint) reads of the other members. It
// is a model, kept simple and deterministic:
//
//   - every IntervalMs of virtual time (metrics.intervalMs; DefaultMetricsIntervalMs), at
//     00:10, 00:20…, every running member publishes to the group's shared store, all at once;
//   - what it publishes: its consume rate (messages it consumed since it last published, per
//     second), its CPU load (that rate over the consume rate it can sustain, at most 1), and
//     its pull latency to each broker that is up (the broker's base latency plus what
//     slowBroker added);
//   - a member reading at its rebalance sees every other member's last publication (a member
//     that died keeps its last one there, as a real store keeps a stale entry) and its own
//     numbers as of now.
//
// So members that rebalance at different moments, or see each other's numbers of different
// intervals, compute different weights: the point of the view. Publishing adds no event to
// the run: it happens as time passes a boundary, before the events of that moment.

// DefaultMetricsIntervalMs is how often members publish when the scenario does not say.
const DefaultMetricsIntervalMs = 10_000

// MetricsConfig is the shared metrics store's setting.
type MetricsConfig struct {
	IntervalMs int64 `json:"intervalMs,omitempty"` // how often every member publishes; 0: DefaultMetricsIntervalMs
}

// publisher is the store and when members next publish.
type publisher struct {
	every, next int64
	store       map[string]allocate.Metrics // by storeKey: a member of a group
}

func newPublisher(cfg *MetricsConfig) publisher {
	every := int64(DefaultMetricsIntervalMs)
	if cfg != nil && cfg.IntervalMs > 0 {
		every = cfg.IntervalMs
	}
	return publisher{every: every, next: every, store: map[string]allocate.Metrics{}}
}

func (p publisher) clone() publisher { return p } // the store is copied before it is written

// publishUpTo publishes at every boundary up to at (before the events of at).
func (c *Cluster) publishUpTo(at int64) {
	for c.pub.next <= at {
		// A new map each time: snapshots hold the last one, which is never written again.
		c.pub.store = maps.Clone(c.pub.store)
		for _, cs := range c.consumers {
			if cs.running() {
				c.pub.store[storeKey(cs.g.name, cs.cid)] = c.metricsOf(cs, c.pub.next)
				cs.pubConsumed, cs.pubAt = cs.consumed, c.pub.next
			}
		}
		c.pub.next += c.pub.every
	}
}

// metricsOf is cs's numbers over the time since it last published, as of at.
func (c *Cluster) metricsOf(cs *consumer, at int64) allocate.Metrics {
	m := metricsOver(cs.consumed-cs.pubConsumed, at-cs.pubAt, cs.rate, at, c.pub.store[storeKey(cs.g.name, cs.cid)])
	m.LatencyMs = map[string]int64{}
	for _, b := range c.brokers {
		if !b.down {
			m.LatencyMs[b.name] = c.t.BrokerBaseLatency + int64(b.latencyMs)
		}
	}
	return m
}

// metricsOver is the model: consumed messages over dt ms, by a member that sustains rate a
// second, as of at; with no time passed, its last publication's numbers.
func metricsOver(consumed, dt int64, rate int, at int64, last allocate.Metrics) allocate.Metrics {
	m := allocate.Metrics{AtMs: at}
	if dt > 0 {
		m.ConsumeRate = float64(consumed) * 1000 / float64(dt)
		m.CPU = min(1, m.ConsumeRate/float64(max(rate, 1)))
	} else {
		m.ConsumeRate, m.CPU = last.ConsumeRate, last.CPU
	}
	return m
}

// Viewpoint is what member (a client id) of the snapshot's group (the first) would read at
// its rebalance at this snapshot's moment, for the members of cidAll: the view the simulation
// gives its strategy then.
func (s Snapshot) Viewpoint(member string, cidAll []string) allocate.Viewpoint {
	v := allocate.Viewpoint{NowMs: s.TimeMs, Consumers: make(map[string]allocate.Member, len(cidAll))}
	byCID := map[string]*ConsumerView{}
	for i := range s.Consumers {
		byCID[s.Consumers[i].ClientID] = &s.Consumers[i]
	}
	for _, id := range cidAll {
		var m allocate.Member
		cv := byCID[id]
		if cv != nil {
			m.Attributes = cv.Attributes
		}
		if id == member && cv != nil && cv.Status != StatusKilled && cv.Status != StatusStopped {
			own := metricsOver(cv.Consumed-cv.pubConsumed, s.TimeMs-cv.pubAt, cv.ConsumeRate, s.TimeMs, s.published[storeKey(s.Group, id)])
			own.LatencyMs = map[string]int64{}
			for _, b := range s.Brokers {
				if !b.Down {
					own.LatencyMs[b.Name] = s.baseLatency + int64(b.LatencyMs)
				}
			}
			m.Metrics = &own
		} else if pm, ok := s.published[storeKey(s.Group, id)]; ok {
			m.Metrics = &pm
		}
		v.Consumers[id] = m
	}
	return v
}

// viewFor is what cs reads at its rebalance now, for the members of cidAll.
func (c *Cluster) viewFor(cs *consumer, cidAll []string) allocate.Viewpoint {
	byCID := make(map[string]*consumer, len(c.consumers))
	for _, o := range c.consumers {
		if o.g == cs.g && (o.running() || byCID[o.cid] == nil) {
			byCID[o.cid] = o
		}
	}
	v := allocate.Viewpoint{NowMs: c.now, Consumers: make(map[string]allocate.Member, len(cidAll))}
	for _, id := range cidAll {
		var m allocate.Member
		if o := byCID[id]; o != nil {
			m.Attributes = o.attrs
		}
		if id == cs.cid {
			own := c.metricsOf(cs, c.now)
			m.Metrics = &own
		} else if pm, ok := c.pub.store[storeKey(cs.g.name, id)]; ok {
			m.Metrics = &pm
		}
		v.Consumers[id] = m
	}
	return v
}

// storeKey is a member's key in the store: a process in two groups publishes in each.
func storeKey(group, cid string) string { return group + "\x00" + cid }

// Bounds of a member's attributes.
const (
	MaxAttributes     = 16
	MaxAttributeValue = 1_000_000_000
)

// CheckAttributes checks a member's attributes: at most MaxAttributes, names of letters,
// digits and _ that start with a letter, values strings of at most MaxNameLen bytes or whole
// numbers within ±MaxAttributeValue (JSON numbers arrive as float64 or json.Number).
func CheckAttributes(path string, attrs map[string]any) error {
	if len(attrs) > MaxAttributes {
		return fmt.Errorf("%s: %d entries; the limit is %d", path, len(attrs), MaxAttributes)
	}
	for _, k := range slices.Sorted(maps.Keys(attrs)) {
		if k == "" || len(k) > MaxNameLen || strings.Trim(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != "" || k[0] >= '0' && k[0] <= '9' || k[0] == '_' {
			return fmt.Errorf("%s: %s: want a name of letters, digits and _, starting with a letter, at most %d characters", path, Quote(k), MaxNameLen)
		}
		switch v := attrs[k].(type) {
		case string:
			if len(v) > MaxNameLen {
				return fmt.Errorf("%s.%s: %d bytes; the limit is %d", path, k, len(v), MaxNameLen)
			}
		case float64:
			if v != math.Trunc(v) || math.Abs(v) > MaxAttributeValue {
				return fmt.Errorf("%s.%s: %v; want a whole number within ±%d", path, k, v, MaxAttributeValue)
			}
		case json.Number:
			n, err := v.Int64()
			if err != nil || n < -MaxAttributeValue || n > MaxAttributeValue {
				return fmt.Errorf("%s.%s: %s; want a whole number within ±%d", path, k, v, MaxAttributeValue)
			}
		case int:
			if v < -MaxAttributeValue || v > MaxAttributeValue {
				return fmt.Errorf("%s.%s: %d; want a whole number within ±%d", path, k, v, MaxAttributeValue)
			}
		default:
			return fmt.Errorf("%s.%s: want a string or a whole number", path, k)
		}
	}
	return nil
}
