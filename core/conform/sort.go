package conform

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/route"
)

type sortFile struct {
	Cases []struct {
		Kind   string          `json:"kind"`
		Input  json.RawMessage `json:"input"`
		Sorted json.RawMessage `json:"sorted"`
	} `json:"cases"`
}

func runSort(data []byte) (Result, error) {
	var f sortFile
	if err := json.Unmarshal(data, &f); err != nil {
		return Result{}, fmt.Errorf("sort vectors: %w", err)
	}
	var r Result
	for i, c := range f.Cases {
		id := fmt.Sprintf("cases[%d] (%s)", i, c.Kind)
		switch c.Kind {
		case "messageQueue":
			var in, want []jsonQueue
			if err := json.Unmarshal(c.Input, &in); err != nil {
				return Result{}, fmt.Errorf("sort %s input: %w", id, err)
			}
			if err := json.Unmarshal(c.Sorted, &want); err != nil {
				return Result{}, fmt.Errorf("sort %s sorted: %w", id, err)
			}
			got := queues(in)
			route.SortQueues(got)
			r.check(id, formatQueues(queues(want)), formatQueues(got))
		case "clientId":
			var in, want []string
			if err := json.Unmarshal(c.Input, &in); err != nil {
				return Result{}, fmt.Errorf("sort %s input: %w", id, err)
			}
			if err := json.Unmarshal(c.Sorted, &want); err != nil {
				return Result{}, fmt.Errorf("sort %s sorted: %w", id, err)
			}
			got := slices.Clone(in)
			route.SortClientIDs(got)
			r.check(id, strings.Join(want, " "), strings.Join(got, " "))
		default:
			return Result{}, fmt.Errorf("sort %s: unknown kind %q (want messageQueue or clientId)", id, c.Kind)
		}
	}
	return r, nil
}
