package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/route"
)

// checkArgs is checkStrategy's argument: a strategy as setStrategy takes it.
type checkArgs struct {
	Strategy string `json:"strategy"`
	Source   string `json:"source"`
	Steps    int    `json:"steps"`
}

// checkStrategy({strategy, source?, steps?}) → the report of allocate.Check: the strategy run
// as every member of the current group would run it (the queues of the brokers that are up,
// the members the brokers list), the queues pulled twice and by nobody, the spread, and the
// moves against AVG when the last member leaves and when one joins; or {error} with the
// source's file and line.
func init() {
	register("checkStrategy", func(a *API, args json.RawMessage) (any, error) {
		var in checkArgs
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, errors.New("takes {strategy, source?, steps?}")
		}
		c := allocate.Choice{Name: strings.TrimSpace(in.Strategy), Source: in.Source, Steps: in.Steps}
		if err := cluster.CheckChoice("strategy", "params", c, allocate.Params{}); err != nil {
			return nil, err
		}
		s, err := allocate.NewChoice(c, allocate.Params{})
		if err != nil {
			return nil, err
		}
		snap := a.Sess.Snapshot()
		mq, ids := groupOf(snap)
		return allocate.Check(s, snap.Group, mq, ids, joiner(ids), snap.Viewpoint), nil
	})
}

// groupOf is what a member's rebalance sees in snap: the read queues of the brokers that are
// up, and the members the brokers list (every process not killed or stopped).
func groupOf(snap cluster.Snapshot) ([]route.MessageQueue, []string) {
	var mq []route.MessageQueue
	for _, b := range snap.Brokers {
		if b.Down {
			continue
		}
		n := b.Queues
		if b.ReadQueues > 0 {
			n = b.ReadQueues
		}
		for q := range n {
			mq = append(mq, route.MessageQueue{Topic: snap.Topic, BrokerName: b.Name, QueueID: int32(q)})
		}
	}
	var ids []string
	for _, c := range snap.Consumers {
		if c.Status != cluster.StatusKilled && c.Status != cluster.StatusStopped {
			ids = append(ids, c.ClientID)
		}
	}
	return mq, ids
}

// joiner is an id for a member that joins: c<n>, the first such id the group lacks.
func joiner(ids []string) string {
	taken := map[string]bool{}
	for _, id := range ids {
		taken[id] = true
	}
	for n := len(ids) + 1; ; n++ {
		if id := fmt.Sprintf("c%d", n); !taken[id] {
			return id
		}
	}
}
