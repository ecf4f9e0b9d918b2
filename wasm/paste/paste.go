// Package paste is the reader of what a user pastes into the playground's Import dialog — the
// output of mqadmin or the Dashboard, clients' logs — behind lbscope.diagnose and
// lbscope.diagnoseStage. It runs in a wasm of its own (wasm/diagnose, diagnose.wasm), which the
// page loads when the dialog first reads (web/lazy.js): the reader (core/admin) is large, and
// the playground's first load has no room for it.
//
// lbscope.diagnose({inputs: [{name, text}], queues?, topic?, strategy?, sdk?, group?, logZone?})
// reads the pastes and returns the report of `lbscope diagnose --json`, plus, in the page's
// language, a headline and a fix per finding, and the group as a scenario the page can load
// ({type: "load", scenario}). The pasted text is read here, in the page: it is never sent
// anywhere. The page must show everything from the paste as text, never as markup.
package paste

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/lbscope/lbscope/core/admin"
	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/args"
	"github.com/lbscope/lbscope/wasm/words"
)

// Methods are the page's calls a Reader answers, lbscope.<name>.
var Methods = []string{"diagnose", "diagnoseStage"}

// Reader answers one page's calls: it holds what diagnoseStage handed over.
type Reader struct {
	mu    sync.Mutex
	stage stageState
}

// Call runs method name with arg (its JSON; empty means none) in lang, the page's language
// ("en" or "zh"), and returns its result as JSON. Errors name the method as the page's own
// calls do: "lbscope.diagnose: …".
func (r *Reader) Call(name, lang string, arg []byte) ([]byte, error) {
	m, ok := methods[name]
	if !ok {
		return nil, fmt.Errorf("lbscope.%s: no such method of the reader (methods: %s)", name, strings.Join(Methods, ", "))
	}
	if !slices.Contains(words.Langs, lang) {
		return nil, fmt.Errorf("lbscope.%s: language %q: want \"en\" or \"zh\"", name, lang)
	}
	raw, err := args.Check(name, arg)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	v, err := m(r, lang, raw)
	r.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("lbscope.%s: %w", name, err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("lbscope.%s: %w", name, err)
	}
	return out, nil
}

var methods = map[string]func(r *Reader, lang string, arg json.RawMessage) (any, error){
	"diagnose":      (*Reader).diagnose,
	"diagnoseStage": (*Reader).diagnoseStage,
}

type diagnoseInput struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

type diagnoseArgs struct {
	Inputs   []diagnoseInput `json:"inputs"`
	Queues   string          `json:"queues"`
	Topic    string          `json:"topic"`
	Strategy string          `json:"strategy"`
	SDK      string          `json:"sdk"`
	Group    string          `json:"group"`
	LogZone  string          `json:"logZone"` // the zone of log stamps without one ("+08:00")
	// Staged: read the inputs handed over by diagnoseStage first, then these.
	Staged bool `json:"staged"`
}

// stageState holds the inputs a page hands over in slices (lbscope.diagnoseStage), larger
// together than one call may carry, up to the command line's limits for logs; a diagnose with
// staged reads them, as often as it is called (a change of language reads them again), until
// the page clears them.
type stageState struct {
	inputs []admin.Input
	bytes  int
}

// The stage's limits are the command line's for logs: one input, all together
// (lbscope.limits().stage tells them).
const (
	MaxStageInput = admin.MaxLogBytes
	MaxStageTotal = admin.MaxLogTotal
)

type stageArgs struct {
	Name  string `json:"name"`
	Text  string `json:"text"`
	Clear bool   `json:"clear"`
}

// DiagnoseResult is what lbscope.diagnose returns.
type DiagnoseResult struct {
	admin.Export
	Lang string `json:"lang"`
	// Headlines holds, per finding (same order), its headline and fix in the page's language.
	Headlines []Headline `json:"headlines"`
	// Scenario is the group as a playground scenario; ScenarioError says why there is none.
	Scenario      *scenario.Scenario `json:"scenario,omitempty"`
	ScenarioLeft  []string           `json:"scenarioLeft,omitempty"`
	ScenarioError string             `json:"scenarioError,omitempty"`
	// Said holds what the report says besides its findings in the page's language and terms.
	Said Said `json:"said"`
}

// Said is what the diagnosis says besides its findings, worded for the page: in its
// language, pointing at the Import dialog's fields where the command line names its flags.
type Said struct {
	// Missing is group.missing entry by entry.
	Missing []SaidMissing `json:"missing"`
	Assumed []string      `json:"assumed"`
	LeftOut []string      `json:"leftOut"`
	// Allocations is each allocation's note ("" when it was computed), in allocations' order.
	Allocations   []string `json:"allocations"`
	ScenarioError string   `json:"scenarioError,omitempty"`
	// ScenarioLeft is scenarioLeft and Notes the read's notes, entry by entry.
	ScenarioLeft []string `json:"scenarioLeft"`
	Notes        []string `json:"notes"`
	// Evidence is each finding's evidence, line by line, and Sees what the user sees.
	Evidence [][]string `json:"evidence"`
	Sees     []string   `json:"sees"`
}

// SaidMissing is one thing no paste gave and the command that prints it ("" when none does).
type SaidMissing struct {
	What    string `json:"what"`
	Command string `json:"command"`
	Read    string `json:"read,omitempty"` // the line of the command's output to read
}

// pageTerms words the diagnosis's fields as the Import dialog's.
func pageTerms(lang string) admin.Terms {
	return admin.Terms{
		Hint: func(f admin.Field) string { return words.Word(lang, "api.field."+string(f)+".hint") },
		Name: func(f admin.FieldName) string { return words.Word(lang, "api.field."+string(f)+".name") },
		Said: func(s admin.Said) string { return said(lang, s) },
	}
}

// said words a sentence of the diagnosis in lang, in the page's terms.
func said(lang string, s admin.Said) string {
	return s.Word(words.Word(lang, "api.said."+s.Key), words.Word(lang, "api.finding.and"), pageTerms(lang))
}

// saidErr words err in lang when it is a sentence of the diagnosis, else as it is.
func saidErr(lang string, err error) string {
	if s, ok := admin.Sentence(err); ok {
		return said(lang, s)
	}
	return err.Error()
}

func sayAll(lang string, rep *admin.Report, left []admin.Said, scenarioErr error) Said {
	g := rep.Group
	out := Said{Missing: []SaidMissing{}, Assumed: []string{}, LeftOut: []string{}, Allocations: []string{}, ScenarioLeft: []string{}, Notes: []string{}, Evidence: [][]string{}, Sees: []string{}}
	for _, f := range rep.Findings {
		sees := ""
		for _, s := range f.SeesSaid {
			sees += said(lang, s)
		}
		out.Sees = append(out.Sees, sees)
		ev := []string{}
		for _, e := range f.Evidence {
			ev = append(ev, said(lang, e.Said))
		}
		out.Evidence = append(out.Evidence, ev)
	}
	for _, s := range left {
		out.ScenarioLeft = append(out.ScenarioLeft, said(lang, s))
	}
	for _, n := range rep.Read.Notes {
		out.Notes = append(out.Notes, said(lang, n.Said))
	}
	for _, m := range g.Missing {
		out.Missing = append(out.Missing, SaidMissing{What: said(lang, m.Said), Command: m.Command, Read: m.Read})
	}
	for _, s := range g.AssumedSaid {
		out.Assumed = append(out.Assumed, said(lang, s))
	}
	for _, s := range g.LeftOutSaid {
		out.LeftOut = append(out.LeftOut, said(lang, s))
	}
	for _, a := range rep.Allocations {
		n := ""
		if a.Note != "" {
			n = said(lang, a.NoteSaid)
		}
		out.Allocations = append(out.Allocations, n)
	}
	if scenarioErr != nil {
		out.ScenarioError = saidErr(lang, scenarioErr)
	}
	return out
}

// headline is a finding's title and fix in lang: the dictionary's words of its variant
// ("api.finding.<variant>.title" and ".fix", the English being core/admin's FindingWords),
// filled with the finding's values.
func headline(lang string, f admin.Finding) Headline {
	h := Headline{Code: f.Code, Severity: f.Severity, Title: f.Title, Fix: f.Fix}
	if f.Words == "" {
		return h
	}
	and := words.Word(lang, "api.finding.and")
	args := make([]any, len(f.Args))
	for i, a := range f.Args {
		if s, ok := a.(admin.Said); ok {
			a = said(lang, s) // a value that is itself a sentence (where the members were read)
		}
		args[i] = a
	}
	h.Title = admin.FormatWords(words.Word(lang, "api.finding."+f.Words+".title"), args, and)
	h.Fix = admin.FormatWords(words.Word(lang, "api.finding."+f.Words+".fix"), args, and)
	return h
}

// Headline is one finding in the page's language.
type Headline struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Title    string `json:"title"`
	Fix      string `json:"fix"`
}

// diagnose is lbscope.diagnose({…, staged?}): with staged, the inputs diagnoseStage handed
// over are read first, then the call's own.
func (r *Reader) diagnose(lang string, arg json.RawMessage) (any, error) {
	const want = `{inputs: [{name: "connection.txt", text: "…what mqadmin printed…"}], queues?: "broker-a:8", topic?, strategy?, sdk?, group?, logZone?: "+08:00"}`
	var in diagnoseArgs
	if err := args.Decode(arg, &in, want); err != nil {
		return nil, err
	}
	var inputs []admin.Input
	if in.Staged {
		inputs = append(inputs, r.stage.inputs...)
	}
	if len(in.Inputs) == 0 && len(inputs) == 0 {
		return nil, errors.New("needs inputs: " + want)
	}
	for i, x := range in.Inputs {
		name := x.Name
		if name == "" {
			name = fmt.Sprintf("paste %d", i+1)
		}
		inputs = append(inputs, admin.Input{Name: name, Data: []byte(x.Text)})
	}
	rep, err := admin.Diagnose(inputs, admin.Options{Queues: in.Queues, Topic: in.Topic, Strategy: in.Strategy, SDK: in.SDK, Group: in.Group, LogZone: in.LogZone})
	if err != nil {
		return nil, errors.New(saidErr(lang, err))
	}
	if !rep.Read.Recognised() {
		for _, x := range rep.Read.Inputs {
			if x.Error != "" {
				return nil, errors.New(said(lang, x.ErrorSaid))
			}
		}
		return nil, errors.New(words.Word(lang, "api.diagnose.nothing"))
	}
	out := DiagnoseResult{Export: rep.Export(), Lang: lang, Headlines: []Headline{}}
	for _, f := range rep.Findings {
		out.Headlines = append(out.Headlines, headline(lang, f))
	}
	s, left, serr := rep.Group.ScenarioSaid()
	if serr != nil {
		out.ScenarioError, left = serr.Error(), nil
	} else {
		out.Scenario = &s
		for _, l := range left {
			out.ScenarioLeft = append(out.ScenarioLeft, l.String())
		}
	}
	out.Said = sayAll(lang, rep, left, serr)
	return out, nil
}

// lbscope.diagnoseStage({name, text}) appends text to the staged input name (a new one at the
// end when no input has that name yet); ({clear: true}) drops every staged input. It answers
// what the stage holds: {inputs, bytes}.
func (r *Reader) diagnoseStage(_ string, arg json.RawMessage) (any, error) {
	const want = `{name: "rocketmq_client.log", text: "…the next slice of the log…"} or {clear: true}`
	var in stageArgs
	if err := args.Decode(arg, &in, want); err != nil {
		return nil, err
	}
	st := &r.stage
	if in.Clear {
		*st = stageState{}
	} else {
		if in.Name == "" {
			return nil, errors.New("needs a name: " + want)
		}
		i := slices.IndexFunc(st.inputs, func(x admin.Input) bool { return x.Name == in.Name })
		have := 0
		if i >= 0 {
			have = len(st.inputs[i].Data)
		}
		switch {
		case have+len(in.Text) > MaxStageInput:
			return nil, fmt.Errorf("%s goes past %d MiB, the limit of one log; cut it to the window of interest", in.Name, MaxStageInput>>20)
		case st.bytes+len(in.Text) > MaxStageTotal:
			return nil, fmt.Errorf("the staged inputs go past %d MiB together, the limit of one reading; cut the logs to the window of interest", MaxStageTotal>>20)
		}
		if i < 0 {
			st.inputs = append(st.inputs, admin.Input{Name: in.Name})
			i = len(st.inputs) - 1
		}
		st.inputs[i].Data = append(st.inputs[i].Data, in.Text...)
		st.bytes += len(in.Text)
	}
	return map[string]int{"inputs": len(st.inputs), "bytes": st.bytes}, nil
}
