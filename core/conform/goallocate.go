package conform

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/profile"
	"github.com/lbscope/lbscope/core/profile/goclient"
	"github.com/lbscope/lbscope/core/route"
)

// runGoAllocate checks allocate-go.json (spec §9.3): "strategy" cases call the Go strategy
// on the inputs as given; "doBalance" cases sort them as the client's doBalance does, check
// the sorted arguments, then call it. nil and [] are told apart, a panic is compared by its
// text.
func runGoAllocate(data []byte, p *profile.Profile) (Result, error) {
	var f allocateFile
	if err := json.Unmarshal(data, &f); err != nil {
		return Result{}, fmt.Errorf("allocate vectors: %w", err)
	}
	var r Result
	var b budget
	for i, c := range f.Cases {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("cases[%d]", i)
		}
		if err := c.checkBounds(); err != nil {
			return r, fmt.Errorf("allocate case %s: %w", id, err)
		}
		if err := b.spend("allocate case "+id, c.work()); err != nil {
			return r, err
		}
		want, got, err := c.goRun(p)
		if err != nil {
			return r, fmt.Errorf("allocate case %s: %w", id, err)
		}
		r.check(id, want, got)
	}
	return r, nil
}

// CallGo is the case's call under a Go profile: the strategy on the inputs as given, or for a
// "doBalance" case the round with its sorting. A panic is the Outcome's Error text; a nil
// result stays nil.
func (c AllocateCase) CallGo(p *profile.Profile) (Outcome, error) {
	o, _, err := c.goCall(p)
	return o, err
}

func (c AllocateCase) goCall(p *profile.Profile) (Outcome, *goclient.Round, error) {
	if err := c.checkBounds(); err != nil {
		return Outcome{}, nil, err
	}
	if c.CurrentCID == nil {
		return Outcome{}, nil, errors.New("\"currentCID\" is null: Go ids are strings")
	}
	if c.Params.Resolver != "" && c.Params.Resolver != "NONE" {
		return Outcome{}, nil, fmt.Errorf("resolver %q: the Go nearby strategy has none (want NONE)", c.Params.Resolver)
	}
	s, err := p.Strategy(c.Strategy, allocate.Params{
		VirtualNodeCnt:   c.Params.VirtualNodeCnt,
		ConsumerIDCs:     c.Params.ConsumerIDCs,
		Inner:            c.Params.Inner,
		MessageQueueList: queues(c.Params.MessageQueueList),
	})
	if err != nil {
		return Outcome{}, nil, err
	}
	gs, ok := s.(goclient.Strategy)
	if !ok {
		return Outcome{}, nil, fmt.Errorf("%s is not a Go profile", p.Name)
	}
	var res []route.MessageQueue
	var callErr error
	var round *goclient.Round
	switch c.CallKind {
	case "", "strategy":
		res, callErr = gs.Allocate(c.ConsumerGroup, *c.CurrentCID, queues(c.MQAll), c.CIDAll)
	case "doBalance":
		var cidAll []string
		switch c.BrokerAnswer {
		case "SUCCESS":
			if c.CIDAll == nil {
				return Outcome{}, nil, errors.New("brokerAnswer SUCCESS with a null cidAll")
			}
			cidAll = goclient.ParseConsumerList(true, c.CIDAll)
		case "SYSTEM_ERROR":
			cidAll = goclient.ParseConsumerList(true, nil) // the code is not checked: []
		default:
			return Outcome{}, nil, fmt.Errorf("brokerAnswer %q: want SUCCESS or SYSTEM_ERROR", c.BrokerAnswer)
		}
		subscribe := queues(c.MQAll)
		if subscribe == nil {
			subscribe = []route.MessageQueue{}
		}
		r := goclient.DoBalance(gs, c.ConsumerGroup, *c.CurrentCID, subscribe, cidAll)
		round = &r
		res = r.Result
		if r.Panic != nil {
			callErr = r.Panic
		}
	default:
		return Outcome{}, nil, fmt.Errorf("call %q: want strategy or doBalance", c.CallKind)
	}
	if callErr != nil {
		return Outcome{Error: callErr.Error()}, round, nil
	}
	return Outcome{Result: res}, round, nil
}

// goRun is the case's call under the Go profile: the text of the recorded outcome and of
// the core's, equal when the case passes.
func (c AllocateCase) goRun(p *profile.Profile) (want, got string, err error) {
	o, round, err := c.goCall(p)
	if err != nil {
		return "", "", err
	}
	if round != nil {
		if w, g := "sortedMqAll "+formatQueues(queues(c.SortedMQAll)), "sortedMqAll "+formatQueues(round.SortedMQAll); w != g {
			return w, g, nil
		}
		if w, g := fmt.Sprintf("sortedCidAll %q", c.SortedCIDAll), fmt.Sprintf("sortedCidAll %q", round.SortedCIDAll); w != g {
			return w, g, nil
		}
	}
	got = "result " + formatQueues(o.Result)
	if o.Error != "" {
		got = "error " + o.Error
	}
	switch {
	case c.Error != nil:
		want = "error " + *c.Error
	case c.Result == nil:
		return "", "", errors.New("neither \"result\" nor \"error\" is present")
	default:
		var qs []jsonQueue
		if err := json.Unmarshal(c.Result, &qs); err != nil {
			return "", "", fmt.Errorf("\"result\": %w", err)
		}
		want = "result " + formatQueues(queues(qs)) // null stays null: nil and [] differ in Go
	}
	return want, got, nil
}
