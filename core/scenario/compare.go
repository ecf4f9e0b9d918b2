package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/profile"
)

// Bounds of a comparison: two variants side by side, or a few more on a wide screen.
const (
	MinVariants = 2
	MaxVariants = 4
)

// Variant is one alternative initial configuration of a scenario. It changes the allocation
// strategy (Strategy with its Params), the producers' fault settings (FaultTable and/or
// LatencyFault) or the client profile every consumer runs (Client), one of the three, so
// that a row of the comparison has one cause.
type Variant struct {
	Label        string           `json:"label,omitempty"` // "" takes Name()
	Strategy     string           `json:"strategy,omitempty"`
	Params       *allocate.Params `json:"params,omitempty"`
	FaultTable   string           `json:"faultTable,omitempty"`
	LatencyFault *bool            `json:"latencyFault,omitempty"`
	// Client is the profile (java, java-4.9, go-2.1.2 or an alias) of every consumer of the
	// run: those of the scenario and those its timeline adds or restarts (spec §9).
	Client string `json:"client,omitempty"`
	// ConsumeMode is the brokers' message request mode (PULL or POP) of every group of the
	// run, every member letting the brokers allocate (clientRebalance false), so that PULL
	// against POP is queue-level against message-level balancing (spec §8.1).
	ConsumeMode string `json:"consumeMode,omitempty"`
	// Source is the strategy's Starlark source when the variant is the user's own strategy,
	// Strategy its name and Steps its step budget per call (0: the default). In JSON the
	// variant's strategy is then {"name", "source", "steps"}, as a scenario gives one.
	Source string `json:"-"`
	Steps  int    `json:"-"`
}

// variantJSON is Variant's JSON form: its strategy a name, or a Choice with its source.
type variantJSON struct {
	Label        string           `json:"label,omitempty"`
	Strategy     allocate.Choice  `json:"strategy,omitzero"`
	Params       *allocate.Params `json:"params,omitempty"`
	FaultTable   string           `json:"faultTable,omitempty"`
	LatencyFault *bool            `json:"latencyFault,omitempty"`
	Client       string           `json:"client,omitempty"`
	ConsumeMode  string           `json:"consumeMode,omitempty"`
}

func (v Variant) MarshalJSON() ([]byte, error) {
	return json.Marshal(variantJSON{Label: v.Label, Strategy: v.Choice(), Params: v.Params, FaultTable: v.FaultTable,
		LatencyFault: v.LatencyFault, Client: v.Client, ConsumeMode: v.ConsumeMode})
}

func (v *Variant) UnmarshalJSON(b []byte) error {
	var j variantJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return err
	}
	*v = Variant{Label: j.Label, Strategy: j.Strategy.Name, Source: j.Strategy.Source, Steps: j.Strategy.Steps,
		Params: j.Params, FaultTable: j.FaultTable, LatencyFault: j.LatencyFault, Client: j.Client, ConsumeMode: j.ConsumeMode}
	return nil
}

// Choice is the variant's strategy: its name, with its source when it is the user's own.
func (v Variant) Choice() allocate.Choice {
	return allocate.Choice{Name: v.Strategy, Source: v.Source, Steps: v.Steps}
}

// Fault reports whether v changes the producers' fault settings (rather than the strategy).
func (v Variant) Fault() bool { return v.FaultTable != "" || v.LatencyFault != nil }

// Name is v's label, or a description of what it sets: "AVG", "CONSISTENT_HASH
// virtualNodeCnt=20", "faultTable=legacy-4x latencyFault=on".
func (v Variant) Name() string {
	if v.Label != "" {
		return v.Label
	}
	var parts []string
	if v.Strategy != "" {
		parts = append(parts, strings.ToUpper(v.Strategy))
	}
	if p := v.Params; p != nil {
		if p.VirtualNodeCnt != nil {
			parts = append(parts, "virtualNodeCnt="+strconv.Itoa(*p.VirtualNodeCnt))
		}
		if p.Inner != "" {
			parts = append(parts, "inner="+p.Inner)
		}
		if p.InnerVirtualNodeCnt != nil {
			parts = append(parts, "innerVirtualNodeCnt="+strconv.Itoa(*p.InnerVirtualNodeCnt))
		}
		if p.ConsumerIDCs != nil {
			parts = append(parts, "consumeridcs="+strings.Join(p.ConsumerIDCs, ","))
		}
		if p.MessageQueueList != nil {
			parts = append(parts, "messageQueueList="+strconv.Itoa(len(p.MessageQueueList)))
		}
		for _, k := range slices.Sorted(maps.Keys(p.Values)) { // a registered strategy's own
			parts = append(parts, k+"="+fmt.Sprint(p.Values[k]))
		}
	}
	if v.FaultTable != "" {
		parts = append(parts, "faultTable="+v.FaultTable)
	}
	if v.LatencyFault != nil {
		parts = append(parts, "latencyFault="+onOff(*v.LatencyFault))
	}
	if v.Client != "" {
		name := v.Client
		if p, err := profile.Lookup(v.Client); err == nil {
			name = string(p.Name) // "go" is go-2.1.2
		}
		parts = append(parts, name)
	}
	if v.ConsumeMode != "" {
		parts = append(parts, strings.ToUpper(v.ConsumeMode))
	}
	return strings.Join(parts, " ")
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// validateVariants checks the list; each error names the field, e.g.
// "variants[1].strategy: unknown strategy "AVGG" (want one of …)".
func validateVariants(vs []Variant) error {
	if n := len(vs); n < MinVariants || n > MaxVariants {
		return fmt.Errorf("variants: %d given; want %d to %d", n, MinVariants, MaxVariants)
	}
	for i, v := range vs {
		p := "variants[" + strconv.Itoa(i) + "]"
		if len(v.Label) > MaxNameLen {
			return fmt.Errorf("%s.label: %d characters long; the limit is %d", p, len(v.Label), MaxNameLen)
		}
		switch {
		case v.ConsumeMode != "" && (v.Client != "" || v.Strategy != "" || v.Fault()):
			return fmt.Errorf("%s: a variant changes the consume mode, the client, the strategy or the fault settings, one of them", p)
		case v.ConsumeMode != "":
			if m := strings.ToUpper(v.ConsumeMode); m != cluster.ModePull && m != cluster.ModePop {
				return fmt.Errorf("%s.consumeMode: %q; want PULL or POP", p, v.ConsumeMode)
			}
			continue
		case v.Client != "" && (v.Strategy != "" || v.Fault()):
			return fmt.Errorf("%s: a variant changes the client, the strategy or the fault settings, one of them", p)
		case v.Strategy != "" && v.Fault():
			return fmt.Errorf("%s: a variant changes the strategy or the fault settings, not both", p)
		case v.Strategy == "" && v.Params != nil:
			return fmt.Errorf("%s.params: given without strategy", p)
		case v.Strategy == "" && v.Source != "":
			return fmt.Errorf("%s.strategy: a source without a name", p)
		case v.Strategy != "":
			params := allocate.Params{}
			if v.Params != nil {
				params = *v.Params
			}
			if v.Source != "" {
				if err := cluster.CheckChoice(p+".strategy", p+".params", v.Choice(), params); err != nil {
					return err
				}
			} else if err := checkStrategy(p+".strategy", p+".params", v.Strategy, params); err != nil {
				return err
			}
		case v.FaultTable != "":
			if err := checkTable(p+".faultTable", v.FaultTable); err != nil {
				return err
			}
		case v.Client != "":
			if len(v.Client) > MaxNameLen {
				return fmt.Errorf("%s.client: %d characters long; the limit is %d", p, len(v.Client), MaxNameLen)
			}
			if _, err := profile.Lookup(v.Client); err != nil {
				return fmt.Errorf("%s.client: %w", p, err)
			}
		case v.LatencyFault == nil:
			return fmt.Errorf("%s: empty; set strategy (with params), faultTable, latencyFault, client or consumeMode", p)
		}
	}
	return nil
}

// apply returns s with v's initial configuration.
func (v Variant) apply(s Scenario) Scenario {
	if v.Strategy != "" {
		params := allocate.Params{}
		if v.Params != nil {
			params = *v.Params
		}
		if len(s.Groups) > 0 {
			// Several groups (format 2): the variant's strategy is every group's.
			s.Groups = slices.Clone(s.Groups)
			for i := range s.Groups {
				s.Groups[i].Strategy, s.Groups[i].Params = v.Choice(), params
			}
		} else {
			s.Strategy, s.Params = v.Choice(), params
		}
	}
	if v.FaultTable != "" {
		s.FaultTable = v.FaultTable
	}
	if v.LatencyFault != nil {
		s.LatencyFault = *v.LatencyFault
	}
	if v.ConsumeMode != "" {
		// The brokers serve every group in the variant's mode, and every member asks them:
		// the scenario's, and those its timeline adds (addConsumer copies the group's first).
		mode := strings.ToUpper(v.ConsumeMode)
		if len(s.Groups) > 0 {
			s.Groups = slices.Clone(s.Groups)
			for i := range s.Groups {
				s.Groups[i].ConsumeMode = mode
			}
		} else {
			s.ConsumeMode = mode
		}
		off := false
		s.Consumers = slices.Clone(s.Consumers)
		for i := range s.Consumers {
			s.Consumers[i].ClientRebalance = &off
		}
	}
	if v.Client != "" {
		// Every member runs the variant's client: the scenario's consumers and those its
		// timeline adds or restarts (a restart that names no client keeps the process's: the
		// commands' Overrides hooks say which set the client).
		s.Consumers = slices.Clone(s.Consumers)
		for i := range s.Consumers {
			s.Consumers[i].Client = v.Client
		}
		s.Timeline = slices.Clone(s.Timeline)
		for i, st := range s.Timeline {
			if o, ok := cluster.OverrideOf(st.Command); ok && o.Setting == cluster.SettingClient {
				s.Timeline[i].Client = v.Client
			}
		}
	}
	return s
}

// Comparison is one scenario, seed and timeline run under each variant.
type Comparison struct {
	Title   string `json:"title,omitempty"`
	Seed    int64  `json:"seed"`
	Until   int64  `json:"until"`
	Actions int    `json:"actions"` // timeline steps
	// Fault is set when a variant changes the fault settings: the producer-side metrics
	// (send failures, isolations, shares of sends) then belong in the table.
	Fault bool     `json:"fault"`
	Rows  []Row    `json:"rows"`
	Notes []Note   `json:"notes"`
	Table []Metric `json:"table"`
}

// Note is a remark about the comparison as a whole. Code names it for a translated text
// ("timelineSetsStrategy", "faultOff", "refused"); Text is the English.
type Note struct {
	Code  string `json:"code"`
	T     int64  `json:"t,omitempty"`
	Value string `json:"value,omitempty"`
	Text  string `json:"text"`
}

// Row is the cost of one variant. Every number is computed from the variant's run:
//
//   - Moved: for each action the engine accepted, the queues whose owners changed between
//     the assignment just before it and the assignment just before the next accepted action
//     (or the end of the run). A queue's owners are the consumers holding a live process queue
//     for it, as the engine counts them for overlaps and orphans: a killed, stopped or cut-off
//     consumer owns nothing. A queue present at only one of the two moments counts when it
//     had an owner at that moment. MovedTotal sums them; MovedMean divides by the actions.
//   - SpreadEnd: max − min of the number of queues held by each live consumer (alive, idle
//     or hung) at the end. SpreadWorst: the largest such spread at any moment the group had
//     settled (no queue pulled by two consumers or by none): just before each accepted action
//     and at the end.
//   - Duplicates and Lost: the run's message counts (cluster.Metrics).
//   - ConvergeMeanMs and ConvergeMaxMs: over the actions that moved a queue and then settled,
//     the time from the action to the last queue move (Action.ConvergedMs); Converged counts
//     them. Unsettled counts actions after which the group had not settled when the next
//     action came or the run ended.
//   - IdleEnd: consumers alive at the end (not hung) holding no queue.
//   - SendFailures, Isolations (intervals during which a producer avoided a broker) and
//     SendShare (each broker's sends ÷ all sends): the producers' side.
type Row struct {
	Label          string  `json:"label"`
	Variant        Variant `json:"variant"`
	Moved          []Moved `json:"moved"`
	MovedTotal     int     `json:"movedTotal"`
	MovedMean      float64 `json:"movedMean"`
	SpreadEnd      int     `json:"spreadEnd"`
	SpreadWorst    int     `json:"spreadWorst"`
	Duplicates     int64   `json:"duplicates"`
	Lost           int64   `json:"lost"`
	Converged      int     `json:"converged"`
	ConvergeMeanMs float64 `json:"convergeMeanMs"`
	ConvergeMaxMs  int64   `json:"convergeMaxMs"`
	Unsettled      int     `json:"unsettled"`
	IdleEnd        int     `json:"idleEnd"`
	// Retried, DeadLettered and Filtered are the consume failures and filters of the run
	// (spec §3.15, §5.7): shown when a variant has any.
	Retried      int64 `json:"retried"`
	DeadLettered int64 `json:"deadLettered"`
	Filtered     int64 `json:"filtered"`
	// Consumed, Backlog and Revived are the run's messages consumed (distinct), left to
	// consume at the end, and revived after their invisible time (POP, spec §8.3): shown when
	// a variant pops.
	Consumed     int64              `json:"consumed"`
	Backlog      int64              `json:"backlog"`
	Popped       int64              `json:"popped"`
	Revived      int64              `json:"revived"`
	SendFailures int64              `json:"sendFailures"`
	Isolations   int                `json:"isolations"`
	Sends        map[string]int64   `json:"sends"`
	SendShare    map[string]float64 `json:"sendShare"`
	// Assignment is each queue's owners at the end ("broker-a:0" → ["c2"]); a queue nobody
	// pulls has an empty list.
	Assignment map[string][]string `json:"assignment"`

	// Result is the variant's whole run, for callers that draw or tabulate more.
	Result *Result `json:"-"`
}

// Moved is the queues one action moved.
type Moved struct {
	T      int64  `json:"t"`
	Type   string `json:"type"`
	Target string `json:"target,omitempty"` // consumer or broker id
	Queues int    `json:"queues"`
}

// Metric is one line of the cost table: a value per variant, in row order. Better is
// "lower" when a smaller value is better, "" when neither is (isolations: more of them means
// a slow broker is avoided more; shares of sends; messages consumed, read with the backlog); Best lists the variants with the best
// value, empty when all are equal. Absent lists the variants the line has no value for
// (times to converge when no action moved a queue and settled); their Values are 0.
type Metric struct {
	Key    string    `json:"key"`
	Broker string    `json:"broker,omitempty"` // sendShare
	Values []float64 `json:"values"`
	Absent []int     `json:"absent,omitempty"`
	Better string    `json:"better,omitempty"`
	Best   []int     `json:"best"`
}

// Compare runs s once per variant (each variant's initial configuration, the same seed and
// timeline) and tabulates what each cost.
func Compare(s Scenario, variants []Variant) (*Comparison, error) {
	return CompareProgress(s, variants, nil)
}

// CompareProgress is Compare telling progress, when it is set, the variant running (from 0)
// and the virtual time it reached, every virtual second.
func CompareProgress(s Scenario, variants []Variant, progress func(variant int, ms int64)) (*Comparison, error) {
	return ComparePaused(s, variants, progress, nil)
}

// ComparePaused is CompareProgress calling pause, when it is set, between pieces of the
// engine's work (RunOptions.Pause): the same comparison, in pieces.
func ComparePaused(s Scenario, variants []Variant, progress func(variant int, ms int64), pause func()) (*Comparison, error) {
	if err := validateVariants(variants); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	cmp := &Comparison{Title: s.Title, Seed: s.Seed, Until: s.End().Ms(), Actions: len(s.Timeline), Notes: []Note{}}
	for _, v := range variants {
		cmp.Fault = cmp.Fault || v.Fault()
	}
	for i, v := range variants {
		if v.Client != "" {
			// A client may be unable to run the scenario's strategy (spec §9.1.3): say which.
			if err := v.apply(s).Validate(); err != nil {
				return nil, fmt.Errorf("variants[%d] (client %s): %w", i, v.Client, err)
			}
		}
	}
	for i, v := range variants {
		var p func(int64)
		if progress != nil {
			p = func(ms int64) { progress(i, ms) }
		}
		row, err := runVariant(v.apply(s), RunOptions{Progress: p, Pause: pause})
		if err != nil {
			return nil, fmt.Errorf("variants[%d]: %w", i, err)
		}
		row.Label, row.Variant = v.Name(), v
		cmp.Rows = append(cmp.Rows, *row)
	}
	cmp.Notes = notes(s, variants, cmp.Rows)
	cmp.Table = table(cmp)
	return cmp, nil
}

func notes(s Scenario, variants []Variant, rows []Row) []Note {
	out := []Note{}
	// The settings the variants differ in; a timeline step that sets one anew ends the
	// difference from then on (the commands' Overrides hooks).
	varies := map[string]bool{}
	for _, v := range variants {
		if v.Strategy != "" {
			varies[cluster.SettingStrategy] = true
		}
		if v.Fault() {
			varies[cluster.SettingFaultTable], varies[cluster.SettingLatencyFault] = true, true
		}
		if v.Client != "" {
			varies[cluster.SettingClient] = true
		}
	}
	for _, st := range s.Timeline {
		if o, ok := cluster.OverrideOf(st.Command); ok && o.Code != "" && varies[o.Setting] {
			out = append(out, Note{Code: o.Code, T: st.At.Ms(), Value: o.Value,
				Text: strings.NewReplacer("{value}", o.Value, "{t}", Clock(st.At.Ms())).Replace(o.Text)})
		}
	}
	// A fault table is read only while sendLatencyFaultEnable is on (spec §2.3).
	if varies[cluster.SettingFaultTable] {
		on := false
		for _, v := range variants {
			on = on || v.apply(s).LatencyFault
		}
		for _, st := range s.Timeline {
			o, ok := cluster.OverrideOf(st.Command)
			on = on || ok && o.Setting == cluster.SettingLatencyFault && o.Value == "on"
		}
		if !on {
			out = append(out, Note{Code: "faultOff",
				Text: "latency fault tolerance is off in every variant: the fault tables are never consulted (compare with latencyFault on)"})
		}
	}
	if len(rows) > 0 && rows[0].Result != nil {
		for _, a := range rows[0].Result.Actions {
			if a.Error != "" {
				out = append(out, Note{Code: "refused", T: a.T, Value: a.Type,
					Text: fmt.Sprintf("the engine refused the %s at %s (%s); it is left out of the queues moved", a.Type, Clock(a.T), a.Error)})
			}
		}
	}
	return out
}

// runVariant runs s and computes its row. The assignment before each action is the engine's
// own (each queue's owners in the snapshot taken just before the step is applied).
func runVariant(s Scenario, opts RunOptions) (*Row, error) {
	// Just before each action: the queues' owners and the spread, all the table reads of
	// the moment (not the whole snapshot: 2,000 of the largest cluster's would take GBs).
	type moment struct {
		owners map[string][]string
		spread int
	}
	before := make([]moment, len(s.Timeline))
	opts.BeforeStep = func(i int, snap cluster.Snapshot) { before[i] = moment{owners(snap), spreadOf(snap)} }
	r, err := Run(s, opts)
	if err != nil {
		return nil, err
	}

	// The accepted actions, in order.
	var accepted []int
	for i, a := range r.Actions {
		if a.Error == "" {
			accepted = append(accepted, i)
		}
	}

	row := &Row{Result: r, Moved: []Moved{}, Sends: map[string]int64{}, SendShare: map[string]float64{}}
	end := owners(r.Snapshot)
	for j, i := range accepted {
		next := end
		if j+1 < len(accepted) {
			next = before[accepted[j+1]].owners
		}
		a := r.Actions[i]
		target := a.ID
		if target == "" {
			target = a.Broker
		}
		m := Moved{T: a.T, Type: a.Type, Target: target, Queues: moved(before[i].owners, next)}
		row.Moved = append(row.Moved, m)
		row.MovedTotal += m.Queues
	}
	if len(row.Moved) > 0 {
		row.MovedMean = float64(row.MovedTotal) / float64(len(row.Moved))
	}

	// Settled moments: before each accepted action and the end, with no anomaly open.
	open := func(t int64) bool {
		for _, an := range r.Anomalies {
			if an.Start < t && (an.End == 0 || an.End > t) {
				return true
			}
		}
		return false
	}
	for _, i := range accepted {
		if !open(r.Actions[i].T) {
			row.SpreadWorst = max(row.SpreadWorst, before[i].spread)
		}
	}
	row.SpreadEnd = spreadOf(r.Snapshot)
	if !open(r.Until) {
		row.SpreadWorst = max(row.SpreadWorst, row.SpreadEnd)
	}

	row.Duplicates, row.Lost = r.Metrics.Duplicates, r.Metrics.Lost
	row.Retried, row.DeadLettered, row.Filtered = r.Metrics.Retried, r.Metrics.DeadLettered, r.Metrics.Filtered
	row.Consumed, row.Backlog, row.Popped, row.Revived = r.Metrics.Consumed, r.Metrics.Backlog+r.Metrics.Invisible, r.Metrics.Popped, r.Metrics.Revived
	var sum int64
	for _, a := range r.Actions {
		switch {
		case a.Unsettled:
			row.Unsettled++
		case a.ConvergedMs != nil:
			row.Converged++
			sum += *a.ConvergedMs
			row.ConvergeMaxMs = max(row.ConvergeMaxMs, *a.ConvergedMs)
		}
	}
	if row.Converged > 0 {
		row.ConvergeMeanMs = float64(sum) / float64(row.Converged)
	}
	for _, k := range r.Snapshot.Consumers {
		if (k.Status == cluster.StatusAlive || k.Status == cluster.StatusIdle) && len(k.Queues) == 0 {
			row.IdleEnd++
		}
	}

	row.SendFailures = r.Metrics.SendFailures
	row.Isolations = len(r.Isolations)
	var sends int64
	for _, b := range r.Snapshot.Brokers {
		row.Sends[b.Name] = r.Metrics.SendsPerBroker[b.Name]
		sends += row.Sends[b.Name]
	}
	for b, n := range row.Sends {
		if sends > 0 {
			row.SendShare[b] = float64(n) / float64(sends)
		} else {
			row.SendShare[b] = 0
		}
	}
	row.Assignment = map[string][]string{}
	for _, q := range r.Snapshot.Queues {
		row.Assignment[q.Queue] = append([]string{}, q.Owners...)
	}
	return row, nil
}

// owners is each queue's owners in snap: the consumers holding a live process queue for it.
func owners(snap cluster.Snapshot) map[string][]string {
	m := make(map[string][]string, len(snap.Queues))
	for _, q := range snap.Queues {
		m[q.Queue] = q.Owners
	}
	return m
}

// spreadOf is max − min queues per live consumer (alive, idle or hung) in snap.
func spreadOf(snap cluster.Snapshot) int {
	var counts []int
	for _, k := range snap.Consumers {
		switch k.Status {
		case cluster.StatusAlive, cluster.StatusIdle, cluster.StatusHung:
			counts = append(counts, len(k.Queues))
		}
	}
	return spreadCounts(counts)
}

func spreadCounts(counts []int) int {
	if len(counts) == 0 {
		return 0
	}
	return slices.Max(counts) - slices.Min(counts)
}

// moved counts the queues whose owners differ between a and b.
func moved(a, b map[string][]string) int {
	n := 0
	for q, owners := range a {
		if !slices.Equal(owners, b[q]) {
			n++
		}
	}
	for q, owners := range b {
		if _, ok := a[q]; !ok && len(owners) > 0 {
			n++
		}
	}
	return n
}

// table lays the rows out as the cost table, one metric a line.
func table(c *Comparison) []Metric {
	col := func(f func(Row) float64) []float64 {
		out := make([]float64, len(c.Rows))
		for i, r := range c.Rows {
			out[i] = f(r)
		}
		return out
	}
	lower := func(key string, f func(Row) float64) Metric {
		m := Metric{Key: key, Values: col(f), Better: "lower"}
		m.Best = best(m.Values, nil)
		return m
	}
	converge := func(key string, f func(Row) float64) Metric {
		m := Metric{Key: key, Values: col(f), Better: "lower"}
		for i, r := range c.Rows {
			if r.Converged == 0 {
				m.Absent = append(m.Absent, i)
			}
		}
		m.Best = best(m.Values, m.Absent)
		return m
	}
	info := func(key string, f func(Row) float64) Metric {
		return Metric{Key: key, Values: col(f), Best: []int{}}
	}
	t := []Metric{
		lower("movedTotal", func(r Row) float64 { return float64(r.MovedTotal) }),
		lower("movedMean", func(r Row) float64 { return r.MovedMean }),
		lower("spreadEnd", func(r Row) float64 { return float64(r.SpreadEnd) }),
		lower("spreadWorst", func(r Row) float64 { return float64(r.SpreadWorst) }),
		lower("duplicates", func(r Row) float64 { return float64(r.Duplicates) }),
		lower("lost", func(r Row) float64 { return float64(r.Lost) }),
		converge("convergeMeanMs", func(r Row) float64 { return r.ConvergeMeanMs }),
		converge("convergeMaxMs", func(r Row) float64 { return float64(r.ConvergeMaxMs) }),
		lower("unsettled", func(r Row) float64 { return float64(r.Unsettled) }),
		lower("idleEnd", func(r Row) float64 { return float64(r.IdleEnd) }),
	}
	if slices.ContainsFunc(c.Rows, func(r Row) bool { return r.Retried > 0 || r.DeadLettered > 0 || r.Filtered > 0 }) {
		t = append(t,
			lower("retried", func(r Row) float64 { return float64(r.Retried) }),
			lower("deadLettered", func(r Row) float64 { return float64(r.DeadLettered) }),
			lower("filtered", func(r Row) float64 { return float64(r.Filtered) }),
		)
	}
	if slices.ContainsFunc(c.Rows, func(r Row) bool { return r.Popped > 0 }) {
		t = append(t,
			info("consumed", func(r Row) float64 { return float64(r.Consumed) }), // read beside the backlog
			lower("backlog", func(r Row) float64 { return float64(r.Backlog) }),
			lower("revived", func(r Row) float64 { return float64(r.Revived) }),
		)
	}
	if c.Fault {
		t = append(t,
			lower("sendFailures", func(r Row) float64 { return float64(r.SendFailures) }),
			info("isolations", func(r Row) float64 { return float64(r.Isolations) }),
		)
		var brokers []string
		for _, r := range c.Rows {
			for b := range r.Sends {
				if !slices.Contains(brokers, b) {
					brokers = append(brokers, b)
				}
			}
		}
		slices.Sort(brokers)
		for _, b := range brokers {
			m := info("sendShare", func(r Row) float64 { return r.SendShare[b] })
			m.Broker = b
			t = append(t, m)
		}
	}
	return t
}

// best is the indices holding the smallest value, absent ones aside; none when every
// present value is the same.
func best(vs []float64, absent []int) []int {
	out := []int{}
	var present []float64
	for i, v := range vs {
		if !slices.Contains(absent, i) {
			present = append(present, v)
		}
	}
	if len(present) == 0 {
		return out
	}
	lo := slices.Min(present)
	if slices.Max(present)-lo < 1e-9 {
		return out
	}
	for i, v := range vs {
		if !slices.Contains(absent, i) && math.Abs(v-lo) < 1e-9 {
			out = append(out, i)
		}
	}
	return out
}

// ParseVariants reads the command line's --variants list. By "strategy" each item is a
// strategy name, optionally with CONSISTENT_HASH's virtual nodes after a slash
// ("CONSISTENT_HASH/20"); by "faultTable" each item is a table name; by "latencyFault" each
// item is on or off; by "client" each item is a client profile (java, java-4.9, go-2.1.2).
func ParseVariants(list, by string) ([]Variant, error) {
	var out []Variant
	items := strings.Split(list, ",")
	for _, it := range items {
		it = strings.TrimSpace(it)
		if it == "" {
			return nil, fmt.Errorf("--variants %q: an empty item; want a comma-separated list like AVG,CONSISTENT_HASH", list)
		}
		var v Variant
		switch by {
		case "", "strategy":
			name, nodes, ok := strings.Cut(it, "/")
			v.Strategy = name
			if ok {
				// N is the strategy's first whole-number parameter (its entry in the table).
				param, takes := allocate.NumberParam(name)
				if !takes {
					return nil, fmt.Errorf("--variants %q: /N gives CONSISTENT_HASH its virtual nodes; %s takes none", it, name)
				}
				n, err := strconv.Atoi(nodes)
				if err != nil {
					return nil, fmt.Errorf("--variants %q: %s %q is not a whole number", it, strings.ToLower(param.WordsIn("en").Label), nodes)
				}
				p := allocate.Params{}.WithInt(param.Name, n)
				v.Params = &p
			}
		case "faultTable":
			v.FaultTable = it
		case "latencyFault":
			switch strings.ToLower(it) {
			case "on", "true":
				v.LatencyFault = ptr(true)
			case "off", "false":
				v.LatencyFault = ptr(false)
			default:
				return nil, fmt.Errorf("--variants %q: want on or off", it)
			}
		case "client":
			v.Client = it
		case "consumeMode":
			v.ConsumeMode = strings.ToUpper(it)
		default:
			return nil, fmt.Errorf("--by %q: want strategy, faultTable, latencyFault, client or consumeMode", by)
		}
		out = append(out, v)
	}
	if err := validateVariants(out); err != nil {
		// "variants[1].strategy: …" becomes "--variants item 2 (AVGG): strategy: …".
		msg := err.Error()
		if rest, ok := strings.CutPrefix(msg, "variants["); ok {
			if n, after, ok := strings.Cut(rest, "]"); ok {
				i, _ := strconv.Atoi(n)
				after = strings.TrimPrefix(strings.TrimPrefix(after, "."), ":")
				return nil, fmt.Errorf("--variants item %d (%s): %s", i+1, strings.TrimSpace(items[i]), strings.TrimSpace(after))
			}
		}
		return nil, errors.New("--" + msg)
	}
	return out, nil
}

func ptr[T any](v T) *T { return &v }
