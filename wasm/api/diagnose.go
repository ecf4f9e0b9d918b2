package api

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lbscope/lbscope/core/admin"
	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/words"
)

// lbscope.diagnose({inputs: [{name, text}], queues?, topic?, strategy?, sdk?, group?}) reads
// what the user pasted from mqadmin or the Dashboard and returns the report of
// `lbscope diagnose --json`, plus, in the page's language, a headline and a fix per finding,
// and the group as a scenario the page can load ({type: "load", scenario}). The pasted text is
// read here, in the page: it is never sent anywhere. The page must show everything from the
// paste as text, never as markup.

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
	h.Title = admin.FormatWords(words.Word(lang, "api.finding."+f.Words+".title"), f.Args, and)
	h.Fix = admin.FormatWords(words.Word(lang, "api.finding."+f.Words+".fix"), f.Args, and)
	return h
}

// Headline is one finding in the page's language.
type Headline struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Title    string `json:"title"`
	Fix      string `json:"fix"`
}

func init() {
	register("diagnose", func(a *API, args json.RawMessage) (any, error) {
		const want = `{inputs: [{name: "connection.txt", text: "…what mqadmin printed…"}], queues?: "broker-a:8", topic?, strategy?, sdk?, group?}`
		var in diagnoseArgs
		if err := decode(args, &in, want); err != nil {
			return nil, err
		}
		if len(in.Inputs) == 0 {
			return nil, errors.New("needs inputs: " + want)
		}
		inputs := make([]admin.Input, len(in.Inputs))
		for i, x := range in.Inputs {
			name := x.Name
			if name == "" {
				name = fmt.Sprintf("paste %d", i+1)
			}
			inputs[i] = admin.Input{Name: name, Data: []byte(x.Text)}
		}
		rep, err := admin.Diagnose(inputs, admin.Options{Queues: in.Queues, Topic: in.Topic, Strategy: in.Strategy, SDK: in.SDK, Group: in.Group})
		if err != nil {
			return nil, err
		}
		lang := a.Lang()
		if !rep.Read.Recognised() {
			for _, x := range rep.Read.Inputs {
				if x.Error != "" {
					return nil, errors.New(x.Error)
				}
			}
			return nil, errors.New(words.Word(lang, "api.diagnose.nothing"))
		}
		out := DiagnoseResult{Export: rep.Export(), Lang: lang, Headlines: []Headline{}}
		for _, f := range rep.Findings {
			out.Headlines = append(out.Headlines, headline(lang, f))
		}
		if s, left, err := rep.Group.Scenario(); err != nil {
			out.ScenarioError = err.Error()
		} else {
			out.Scenario, out.ScenarioLeft = &s, left
		}
		return out, nil
	})
}
