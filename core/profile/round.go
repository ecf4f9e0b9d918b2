package profile

import (
	"errors"
	"slices"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/profile/goclient"
	"github.com/lbscope/lbscope/core/route"
)

// Answer is how a GET_CONSUMER_LIST_BY_GROUP call ended.
type Answer int

const (
	AnswerOK        Answer = iota // SUCCESS with the broker's list
	AnswerError                   // an error code without a body, e.g. SYSTEM_ERROR "no consumer for this group"
	AnswerTransport               // no answer: timeout, refused, closed
)

// ConsumerList is the list the client goes on with after the call: Java treats every
// failure as null (nothing happens, spec §3.3); Go does not check the code, so an error
// answer is an empty list (every queue dropped, spec §9.1.4 step 3), and only a transport
// error is nil.
func (p *Profile) ConsumerList(a Answer, ids []string) []string {
	switch {
	case a == AnswerOK:
		if ids == nil {
			return []string{}
		}
		return slices.Clone(ids)
	case a == AnswerError && p.IsGo():
		return []string{}
	}
	return nil
}

// Round is what one rebalance round decides for one clustering topic of one consumer.
type Round struct {
	// Decided: the consumer's process-queue table for the topic becomes Target (queues not
	// in it are dropped, new ones added). False: the table is left as it is.
	Decided bool
	Target  []route.MessageQueue
	// Unbalanced: the next timed round comes after Timing.UnbalancedRetry (current Java,
	// after a strategy exception); the updates of the table can make a round unbalanced too.
	Unbalanced bool
	// Err is the strategy's failure: a Java exception or a Go panic.
	Err error
	// Crash: the failure was a Go panic nobody recovers — the consumer process exits now,
	// as a crash (its connections close; nothing is uploaded, no UNREGISTER_CLIENT).
	Crash bool
}

// Rebalance runs the allocation step of one round under the profile (spec §3.3 for Java,
// §9.1.4 for Go): mqSet is the topic's queue list as the consumer holds it (nil: the route
// is unknown), cidAll the result of ConsumerList. It sorts copies of both as the client does
// and calls s, which must come from p.Strategy.
func (p *Profile) Rebalance(s allocate.Strategy, consumerGroup, currentCID string, mqSet []route.MessageQueue, cidAll []string) Round {
	return p.rebalance(s, consumerGroup, currentCID, mqSet, cidAll, false)
}

// RebalanceSorted is Rebalance for inputs the caller already holds in this client's order
// (MessageQueue order and its client id order): the sort, which would leave them as they are,
// is skipped. A simulated route's subscribe set and a broker's cached sorted ids are such.
func (p *Profile) RebalanceSorted(s allocate.Strategy, consumerGroup, currentCID string, mqSet []route.MessageQueue, cidAll []string) Round {
	return p.rebalance(s, consumerGroup, currentCID, mqSet, cidAll, true)
}

func (p *Profile) rebalance(s allocate.Strategy, consumerGroup, currentCID string, mqSet []route.MessageQueue, cidAll []string, sorted bool) Round {
	if p.IsGo() {
		gs, ok := s.(goclient.Strategy)
		if !ok {
			return Round{Err: errors.New("profile: the strategy was not built by the Go profile")}
		}
		r := goclient.DoBalance(gs, consumerGroup, currentCID, mqSet, cidAll)
		switch {
		case r.Skipped:
			return Round{}
		case r.Panic != nil:
			return Round{Err: r.Panic, Crash: true}
		}
		target := r.Result
		if target == nil {
			target = []route.MessageQueue{} // nil and [] both own nothing
		}
		return Round{Decided: true, Target: target}
	}
	if mqSet == nil || cidAll == nil {
		return Round{}
	}
	mq, ids := mqSet, cidAll
	if !sorted {
		mq, ids = p.SortInputs(mqSet, cidAll)
	}
	res, err := s.Allocate(consumerGroup, currentCID, mq, ids)
	if err != nil {
		// Current: caught, retried in 1 s. 4.9: the topic's round ends, nothing is retried
		// until the next wake-up or 20 s (spec §9.2).
		return Round{Err: err, Unbalanced: p.Timing.UnbalancedRetry > 0}
	}
	if res == nil {
		res = []route.MessageQueue{} // CONFIG's null
	}
	return Round{Decided: true, Target: res}
}
