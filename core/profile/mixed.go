package profile

import (
	"errors"
	"fmt"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/profile/goclient"
	"github.com/lbscope/lbscope/core/route"
)

// Member is one consumer process of a group and the client it runs.
type Member struct {
	ClientID string
	Profile  Name
}

// MemberResult is what one member computes for itself.
type MemberResult struct {
	Member
	// Queues is the member's own result; nil for Java's null (CONFIG) and Go's nil (the
	// guard), which own nothing, like an empty list.
	Queues []route.MessageQueue
	// Err is set when the strategy failed: a Java exception (*allocate.Error: caught, the
	// member's table is left as it was) or a Go panic (*goclient.Panic: the process exits).
	Err error
}

// Crashed reports whether the member's strategy panicked, which ends a Go process.
func (m MemberResult) Crashed() bool {
	var p *goclient.Panic
	return errors.As(m.Err, &p)
}

// SharedQueue is a queue more than one member pulls.
type SharedQueue struct {
	Queue  route.MessageQueue
	Owners []string // in member order
}

// MixedView is a group whose members may run different clients: each sorts the same
// inputs and runs the same strategy under its own client's rules (spec §9, the mixed groups
// of rocketmq-client-go#419), so their results need not fit together.
type MixedView struct {
	Strategy string
	Members  []MemberResult // in the order given
	Shared   []SharedQueue  // pulled by more than one member, in mqAll order
	Orphans  []route.MessageQueue
}

// MixedGroup computes every member's own allocation for one topic: mqAll is the topic's
// queue list, the broker's consumer list is the members' ids in the order given. With sorted
// false each member's strategy gets the inputs as written (a raw strategy call). Members that
// failed own nothing in the coverage (a Java member whose strategy threw keeps its old queues
// in a real group; here it has none).
func MixedGroup(strategy string, params allocate.Params, consumerGroup string, mqAll []route.MessageQueue, members []Member, sorted bool) (MixedView, error) {
	cidAll := make([]string, len(members))
	for i, m := range members {
		cidAll[i] = m.ClientID
	}
	v := MixedView{Members: make([]MemberResult, len(members))}
	byProfile := map[Name]map[string]allocate.Assignment{}
	for i, m := range members {
		p, err := Lookup(string(m.Profile))
		if err != nil {
			return MixedView{}, err
		}
		got, ok := byProfile[p.Name]
		if !ok {
			s, err := p.Strategy(strategy, params)
			if err != nil {
				return MixedView{}, fmt.Errorf("%s: %w", p.Name, err)
			}
			v.Strategy = s.Name()
			mq, ids := mqAll, cidAll
			if sorted {
				mq, ids = p.SortInputs(mqAll, cidAll)
			}
			got = map[string]allocate.Assignment{}
			for _, a := range p.Group(s, consumerGroup, mq, ids).Assignments {
				got[a.ClientID] = a
			}
			byProfile[p.Name] = got
		}
		a := got[m.ClientID]
		v.Members[i] = MemberResult{Member: Member{ClientID: m.ClientID, Profile: p.Name}, Queues: a.Queues, Err: a.Err}
	}
	owners := map[route.MessageQueue][]string{}
	for _, m := range v.Members {
		if m.Err != nil {
			continue
		}
		seen := map[route.MessageQueue]bool{}
		for _, q := range m.Queues {
			if !seen[q] { // a member listing a queue twice pulls it once
				seen[q] = true
				owners[q] = append(owners[q], m.ClientID)
			}
		}
	}
	listed := map[route.MessageQueue]bool{}
	for _, q := range mqAll {
		if listed[q] {
			continue
		}
		listed[q] = true
		switch o := owners[q]; {
		case len(o) == 0:
			v.Orphans = append(v.Orphans, q)
		case len(o) > 1:
			v.Shared = append(v.Shared, SharedQueue{Queue: q, Owners: o})
		}
	}
	return v, nil
}
