package goclient

import (
	"errors"
	"hash/fnv"
	"maps"

	"github.com/lbscope/lbscope/core/route"
)

// Selector is producer.QueueSelector: the queue of queues a message of topic goes to.
// lastBrokerName is "" for "no previous attempt". A selector called with an empty list
// panics, as the client's do; the producer never calls it so.
type Selector interface {
	Select(topic, shardingKey string, queues []route.MessageQueue, lastBrokerName string) (route.MessageQueue, error)
}

// RoundRobin is the default selector, roundRobinQueueSelector (spec §9.1.8): one uint32
// counter per message topic, created at 0 on first use and kept across route changes; each
// pick increments it first, so a fresh producer's first pick is index 1.
type RoundRobin struct {
	counters map[string]uint32
}

// NewRoundRobin is producer.NewRoundRobinQueueSelector().
func NewRoundRobin() *RoundRobin { return &RoundRobin{counters: map[string]uint32{}} }

// Counter returns the topic's counter; ok is false while it has none (it behaves as 0).
func (r *RoundRobin) Counter(topic string) (v uint32, ok bool) {
	v, ok = r.counters[topic]
	return v, ok
}

// SetCounter sets a topic's counter, as a test placing a start value does.
func (r *RoundRobin) SetCounter(topic string, v uint32) { r.counters[topic] = v }

func (r *RoundRobin) next(topic string, n int) (int, error) {
	c := r.counters[topic] + 1 // uint32: 4294967295 wraps to 0
	r.counters[topic] = c
	if n == 0 {
		return 0, errDivideByZero
	}
	return int(c % uint32(n)), nil
}

// Select: with a last broker, up to n picks looking for another broker, then (all on that
// broker) one more plain pick; without, one plain pick.
func (r *RoundRobin) Select(topic, _ string, queues []route.MessageQueue, lastBrokerName string) (route.MessageQueue, error) {
	if lastBrokerName != "" {
		for range queues {
			i, _ := r.next(topic, len(queues))
			if queues[i].BrokerName != lastBrokerName {
				return queues[i], nil
			}
		}
	}
	i, err := r.next(topic, len(queues))
	if err != nil {
		return route.MessageQueue{}, err
	}
	return queues[i], nil
}

// IntnSource is the random source of the random selector: math/rand's *Rand satisfies it.
// The client seeds one with the time; the core never does, the driver injects it.
type IntnSource interface {
	Intn(n int) int
}

var errNoSource = errors.New("goclient: a random selector needs a random source")

// Random is randomQueueSelector: Intn(len(queues)); the last broker is ignored.
type Random struct {
	Src IntnSource
}

func (r Random) Select(_, _ string, queues []route.MessageQueue, _ string) (route.MessageQueue, error) {
	if len(queues) == 0 {
		return route.MessageQueue{}, &Panic{Value: "invalid argument to Intn"}
	}
	if r.Src == nil {
		return route.MessageQueue{}, errNoSource
	}
	return queues[r.Src.Intn(len(queues))], nil
}

// Hash is hashQueueSelector: FNV-1a 32 of the sharding key, int(sum) % n; an empty key goes
// to its own random selector. The last broker is ignored.
type Hash struct {
	Random Random
}

func (h Hash) Select(topic, shardingKey string, queues []route.MessageQueue, last string) (route.MessageQueue, error) {
	if shardingKey == "" {
		return h.Random.Select(topic, shardingKey, queues, last)
	}
	if len(queues) == 0 {
		return route.MessageQueue{}, errDivideByZero
	}
	return queues[HashIndex(shardingKey, len(queues))], nil
}

// HashIndex is the hash selector's index for a non-empty key among n queues.
func HashIndex(shardingKey string, n int) int {
	f := fnv.New32a()
	f.Write([]byte(shardingKey))
	return int(f.Sum32()) % n // non-negative: int is 64-bit on the platforms the client runs on
}

// SendMode is the producer's send call.
type SendMode string

const (
	SendSync   SendMode = "SYNC"
	SendOneway SendMode = "ONEWAY"
	SendAsync  SendMode = "ASYNC"
)

// DefaultRetryTimes is the producer's RetryTimes option: 3, so up to 4 attempts (SYNC and
// ONEWAY; ASYNC never retries).
const DefaultRetryTimes = 3

// SendTimeoutPerAttempt is the fixed timeout of each attempt, with no overall budget.
const SendTimeoutPerAttempt = 3000

// RetriedResponseCodes are the broker answers SYNC retries while attempts remain
// (SYSTEM_ERROR, SERVICE_NOT_AVAILABLE, NO_PERMISSION, TOPIC_NOT_EXIST); Java also retries
// SYSTEM_BUSY, 204, 205 and 1500.
var RetriedResponseCodes = []int32{1, 14, 16, 17}

// AttemptOutcome is how an attempt ended, as the send loop sees it.
type AttemptOutcome int

const (
	AttemptOK             AttemptOutcome = iota // a response the loop processes as the result
	AttemptTransportError                       // the request could not be sent or timed out
	AttemptRetriedCode                          // a response code of RetriedResponseCodes
)

// Send is the send loop of one message (spec §9.1.8, producer/producer.go): the attempts'
// count and the last broker name each selection is given. v2.1.2's SYNC loop shadows the
// picked queue, so it always passes "" and retries may hit the same broker; ONEWAY passes
// the previous broker; ASYNC selects once.
type Send struct {
	mode       SendMode
	attempts   int // the most attempts
	made       int
	lastBroker string
	done       bool
}

// NewSend starts the loop for one message.
func NewSend(mode SendMode, retryTimes int) *Send {
	n := 1 + max(retryTimes, 0)
	if mode == SendAsync {
		n = 1
	}
	return &Send{mode: mode, attempts: n}
}

// Next reports whether another attempt is made, the attempt's 0-based number and the last
// broker name its selection is given.
func (s *Send) Next() (attempt int, lastBrokerName string, ok bool) {
	if s.done || s.made >= s.attempts {
		return s.made, "", false
	}
	last := ""
	if s.mode == SendOneway {
		last = s.lastBroker
	}
	return s.made, last, true
}

// Report records the attempt made on broker and how it ended.
func (s *Send) Report(broker string, o AttemptOutcome) {
	s.made++
	s.lastBroker = broker
	switch {
	case o == AttemptOK:
		s.done = true
	case o == AttemptRetriedCode && s.mode != SendSync:
		s.done = true // ONEWAY has no response; only SYNC looks at codes
	}
}

// Clone returns an independent copy of the selector's counters.
func (r *RoundRobin) Clone() *RoundRobin { return &RoundRobin{counters: maps.Clone(r.counters)} }
