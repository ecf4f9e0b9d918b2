package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"strconv"

	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/view"
)

// lbscope.compare({variants: [{strategy: "AVG"}, {strategy: "CONSISTENT_HASH", params:
// {virtualNodeCnt: 10}}]}) runs the session's recorded scenario — the loaded one with
// everything done so far, up to the published time — once per variant and returns
// scenario.Comparison's JSON plus, per variant, the final assignment as a grid to draw.
//
// The call runs on the page's thread, so its work is bounded: MaxCompareWork, in units of
// one simulated second of one message per second or of one queue ×10 (the two costs of the
// engine: about 50 ns a unit natively, 0.5 µs in headless Chromium on the 2-core CI machine;
// the large preset is 16.4 million units an hour). The bound keeps the page's pause under
// about 6 s there: two variants of the large preset can cover about 20 minutes of virtual
// time (10 minutes took 2.6 s), of the default preset about 3 hours (30 minutes took 0.8 s);
// beyond it the call refuses with the numbers and points to the command line.

// MaxCompareWork bounds one comparison (all variants together).
const MaxCompareWork = 12_000_000

// queueWork is what one queue costs per simulated second, in message units: pulls, long
// polls and the flow steps of spec §3.8 run per queue whether or not messages flow.
const queueWork = 10

type compareArgs struct {
	Variants []scenario.Variant `json:"variants"`
}

// CompareResult is what lbscope.compare returns.
type CompareResult struct {
	*scenario.Comparison
	// TimeMs is the published time the recorded scenario ran to.
	TimeMs int64 `json:"timeMs"`
	// Grids is each variant's final assignment, in row order, to draw like the canvas.
	Grids []Grid `json:"grids"`
}

// Grid is one variant's allocation at the end: brokers as columns of queue cells, and the
// consumers' colours as the canvas gives them (wasm/view's marks).
type Grid struct {
	Brokers   []GridBroker   `json:"brokers"`
	Consumers []GridConsumer `json:"consumers"`
}

// GridBroker is one broker's column.
type GridBroker struct {
	Name   string      `json:"name"`
	Down   bool        `json:"down"`
	Queues []GridQueue `json:"queues"`
}

// GridQueue is one queue cell; Owners is empty for a queue nobody pulls, longer than one for
// an overlap.
type GridQueue struct {
	Queue  string   `json:"queue"`
	ID     int      `json:"id"`
	Owners []string `json:"owners"`
}

// GridConsumer is a consumer's legend entry.
type GridConsumer struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Queues int    `json:"queues"`
	Color  string `json:"color"` // "#rrggbb"
	Ink    string `json:"ink"`   // text colour on Color
	Label  string `json:"label"`
}

func init() {
	register("compare", func(a *API, args json.RawMessage) (any, error) {
		const want = `{variants: [{strategy: "AVG"}, {strategy: "CONSISTENT_HASH", params: {virtualNodeCnt: 10}}]} or faultTable/latencyFault variants`
		var in compareArgs
		if err := decode(args, &in, want); err != nil {
			return nil, err
		}
		if in.Variants == nil {
			return nil, errors.New("needs variants: " + want)
		}
		sc, now, err := a.Sess.Recorded()
		if err != nil {
			return nil, err
		}
		return compareUpTo(sc, now, in.Variants)
	})
}

// compareUpTo compares sc as it ran up to now: the steps taken so far, ending then.
func compareUpTo(sc scenario.Scenario, now int64, variants []scenario.Variant) (*CompareResult, error) {
	if now <= 0 {
		return nil, errors.New("nothing to compare yet: the simulation is at 00:00; let time pass first")
	}
	kept := sc.Timeline[:0:0]
	for _, st := range sc.Timeline {
		if st.At.Ms() <= now {
			kept = append(kept, st)
		}
	}
	sc.Timeline, sc.Until = kept, scenario.Duration(now)
	if n := len(variants); n >= scenario.MinVariants && n <= scenario.MaxVariants {
		if w := work(sc) * int64(n); w > MaxCompareWork {
			return nil, fmt.Errorf("comparing %d variants over %s of this cluster is about %s units of work; the page does at most %s (about %s of it): reset, or compare on the command line (lbscope compare with lbscope.share()'s scenario)",
				n, scenario.Clock(now), millions(w), millions(MaxCompareWork), scenario.Clock(now*MaxCompareWork/w))
		}
	}
	c, err := scenario.Compare(sc, variants)
	if err != nil {
		return nil, err
	}
	out := &CompareResult{Comparison: c, TimeMs: now}
	for _, r := range c.Rows {
		out.Grids = append(out.Grids, grid(r))
	}
	return out, nil
}

// work estimates one run of sc in the units of MaxCompareWork, from its busiest rates and
// largest topic.
func work(sc scenario.Scenario) int64 {
	rate := 0
	for _, p := range sc.Producers {
		rate += p.Rate
	}
	queues := 0
	for _, b := range sc.Brokers {
		queues += b.Queues
	}
	peakRate, producers := rate, max(len(sc.Producers), 1)
	for _, st := range sc.Timeline {
		switch st.Type {
		case "setProducerRate":
			if st.Rate != nil {
				n := producers
				if st.ID != "" {
					n = 1
				}
				rate = max(rate, *st.Rate*n) // an upper estimate: the others may be slower
				peakRate = max(peakRate, rate)
			}
		case "addBroker", "setQueues":
			if st.Queues != nil {
				queues += *st.Queues
			}
		}
	}
	seconds := (sc.Until.Ms() + 999) / 1000
	return seconds * int64(peakRate+queueWork*queues)
}

func millions(n int64) string {
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " million"
}

func grid(r scenario.Row) Grid {
	snap := r.Result.Snapshot
	g := Grid{Brokers: []GridBroker{}, Consumers: []GridConsumer{}}
	byBroker := map[string]int{}
	for _, b := range snap.Brokers {
		byBroker[b.Name] = len(g.Brokers)
		g.Brokers = append(g.Brokers, GridBroker{Name: b.Name, Down: b.Down, Queues: []GridQueue{}})
	}
	for _, q := range snap.Queues {
		i, ok := byBroker[q.Broker]
		if !ok {
			continue
		}
		owners := append([]string{}, q.Owners...)
		g.Brokers[i].Queues = append(g.Brokers[i].Queues, GridQueue{Queue: q.Queue, ID: q.ID, Owners: owners})
	}
	marks := view.Marks(snap.Consumers)
	status := map[string]string{}
	held := map[string]int{}
	for _, k := range snap.Consumers {
		status[k.ID], held[k.ID] = k.Status, len(k.Queues)
	}
	for _, id := range view.ConsumerOrder(snap.Consumers) {
		m := marks[id]
		g.Consumers = append(g.Consumers, GridConsumer{
			ID: id, Status: status[id], Queues: held[id],
			Color: compareColor(m.Color), Ink: compareColor(m.Ink), Label: m.Label,
		})
	}
	return g
}

// compareColor is a colour's CSS form, #rrggbb.
func compareColor(c view.Color) string {
	rgba := color.NRGBA{R: uint8(c.R*255 + 0.5), G: uint8(c.G*255 + 0.5), B: uint8(c.B*255 + 0.5), A: 255}
	return fmt.Sprintf("#%02x%02x%02x", rgba.R, rgba.G, rgba.B)
}
