package api

import (
	"encoding/json"
	"fmt"

	"github.com/lbscope/lbscope/wasm/view"
)

// The charts' methods: the metrics the session records over virtual time (wasm/series), their
// exports, and the consumers' colours so that chart lines match the canvas.
//
//	lbscope.series()                 every sample
//	lbscope.series({fromMs: 60000})  the samples at 60 s or later, and the marks from then on
//
// answers, every series aligned with t (one entry per sample, null where there is no value:
// a consumer or queue that did not exist yet, or a rate at the first sample):
//
//	{epoch,        changes when samples already read were rewritten (time travelled back,
//	               thinned to a longer interval): read again from 0 when it differs
//	 intervalMs,   the sampling interval (doubles as samples accumulate)
//	 fromMs, lastMs (the last sample's time; -1 when there is none),
//	 t: [ms…],
//	 consumers: [{id, queues: [n…], consumed: [n…], msgsPerS: [x…]}],  (natural order of ids)
//	 queues:    [{queue: "broker-a:0", broker, backlog: [n…]}],
//	 brokers:   [{name, sends: [n…], failures: [n…], share: [0…1…]}],  (share of the sends
//	            made since the previous sample; the shares at one time sum to 1)
//	 produced: [n…], consumed: [n…], backlog: [n…], duplicates: [n…],  (run totals)
//	 marks: [{t, text}]}  (the actions taken, for the markers)
//
//	lbscope.exportMetrics({format: "csv"|"json"}) → {filename, mime, text}
//	lbscope.palette() → {consumers: {c1: "#e69f00", …}, labels: {c1: "c1", …}, palette: ["#e69f00", …]}
//
// palette's consumers are the canvas's colours of the consumers it shows now and labels what
// their boxes read ("3 ~@4012" for 127.0.0.1@4012 in an imported group); palette is the
// colour cycle, for a consumer the canvas no longer shows.
func init() {
	register("series", func(a *API, args json.RawMessage) (any, error) {
		var opt struct {
			FromMs *int64 `json:"fromMs"`
		}
		if string(args) != "null" {
			if err := decode(args, &opt, "{fromMs: virtual ms} or nothing"); err != nil {
				return nil, err
			}
		}
		from := int64(0)
		if opt.FromMs != nil {
			if *opt.FromMs < 0 {
				return nil, fmt.Errorf("fromMs %d: want 0 or more virtual milliseconds", *opt.FromMs)
			}
			from = *opt.FromMs
		}
		return rawJSON(a.Sess.Series().AppendJSON(nil, from)), nil
	})
	register("exportMetrics", func(a *API, args json.RawMessage) (any, error) {
		var opt struct {
			Format string `json:"format"`
		}
		if err := decode(args, &opt, `{format: "csv" or "json"}`); err != nil {
			return nil, err
		}
		rec := a.Sess.Series()
		base := fmt.Sprintf("lbscope-metrics-%ds", max(rec.LastMs(), 0)/1000)
		switch opt.Format {
		case "csv":
			return export{Filename: base + ".csv", MIME: "text/csv", Text: string(rec.CSV())}, nil
		case "json":
			return export{Filename: base + ".json", MIME: "application/json", Text: string(rec.JSON())}, nil
		}
		return nil, fmt.Errorf(`format %q: want "csv" or "json"`, opt.Format)
	})
	register("palette", func(a *API, _ json.RawMessage) (any, error) {
		snap := a.Sess.Snapshot()
		out := struct {
			Consumers map[string]string `json:"consumers"`
			Labels    map[string]string `json:"labels"`
			Palette   []string          `json:"palette"`
		}{Consumers: map[string]string{}, Labels: map[string]string{}}
		for id, m := range view.Marks(snap.Consumers) {
			out.Consumers[id] = m.Color.Hex()
			out.Labels[id] = view.ConsumerLabel(id, m)
		}
		for _, c := range view.Palette {
			out.Palette = append(out.Palette, c.Hex())
		}
		return out, nil
	})
}

type export struct {
	Filename string `json:"filename"`
	MIME     string `json:"mime"`
	Text     string `json:"text"`
}
