package script

import (
	"fmt"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
)

// BenchmarkAVG is one rebalance of a group, every member's allocate, over 1,024 queues and
// 128 consumers: the built-in AVG against its Starlark port.
//
//	go test -run - -bench AVG ./wasm/script
func BenchmarkAVG(b *testing.B) {
	mqs := make([]route.MessageQueue, 0, 1024)
	for br := range 8 {
		for q := range 128 {
			mqs = append(mqs, route.MessageQueue{Topic: "T", BrokerName: fmt.Sprintf("broker-%c", 'a'+br), QueueID: int32(q)})
		}
	}
	ids := make([]string, 128)
	for i := range ids {
		ids[i] = fmt.Sprintf("10.0.%d.%d@4012", i/100, i%100)
	}
	route.SortQueues(mqs)
	route.SortClientIDs(ids)
	builtin, _ := allocate.New("AVG", allocate.Params{})
	for name, s := range map[string]allocate.Strategy{"builtin": builtin, "starlark": loadFile(b, "../../testdata/strategies/avg_port.star")} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				for _, id := range ids {
					if _, err := s.Allocate("g", id, mqs, ids); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
