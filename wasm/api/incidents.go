package api

import (
	"encoding/json"
	"errors"

	"github.com/lbscope/lbscope/core/scenario"
)

// incidents() → [{name, title: {en, zh}, text: {en, zh}, cites: [{label, url}]}]: the
// incident gallery, every entry of the registry (core/scenario) in its order. Each name is a
// preset, loaded with dispatch({type: "load", preset: name}). The page builds the gallery with
// the DOM from these strings; none of them is markup.

type incidentJSON struct {
	Name  string         `json:"name"`
	Title scenario.Words `json:"title"`
	Text  scenario.Words `json:"text"`
	Cites []incidentCite `json:"cites"`
}

type incidentCite struct {
	Label string `json:"label"` // apache/rocketmq#2760
	URL   string `json:"url"`
}

func init() {
	register("incidents", func(a *API, args json.RawMessage) (any, error) {
		if string(args) != "null" {
			return nil, errors.New("takes no argument")
		}
		out := []incidentJSON{}
		for _, inc := range scenario.Registry() {
			j := incidentJSON{Name: inc.Name, Title: inc.Title, Text: inc.Text, Cites: []incidentCite{}}
			for _, c := range inc.Cites {
				j.Cites = append(j.Cites, incidentCite{Label: c.Label(), URL: c.URL()})
			}
			out = append(out, j)
		}
		return out, nil
	})
}
