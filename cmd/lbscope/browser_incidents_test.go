//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/core/scenario"
)

// The incidents gallery under the lessons lists every incident of the registry, in the page's
// language, with links to the reports it cites; one click on an incident loads it and runs it.
func TestBrowserIncidentGalleryListsTheRegistryAndLoadsOnClick(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?lang=zh")
	openLessonsTab(t, ctx)
	reg := scenario.Registry()
	waitFor(t, ctx, fmt.Sprintf(`document.querySelectorAll("#tab-lessons .incident-open").length === %d`, len(reg)))
	assert.Equal(t, "真实故障", eval[string](t, ctx, `document.getElementById("incidents-heading").textContent`))

	type card struct {
		Name, Title, Text string
		Cites             []struct{ Label, Href, Target string }
		Elements          int
	}
	raw := eval[string](t, ctx, `JSON.stringify([...document.querySelectorAll("#tab-lessons .incident-item")].map((li) => ({
		Name: li.dataset.incident,
		Title: li.querySelector(".lesson-title").textContent,
		Text: li.querySelector(".lesson-goal").textContent,
		Cites: [...li.querySelectorAll(".incident-cite")].map((a) => ({Label: a.textContent, Href: a.getAttribute("href"), Target: a.target})),
		Elements: li.querySelectorAll("*").length,
	})))`)
	var cards []card
	require.NoError(t, json.Unmarshal([]byte(raw), &cards))
	require.Len(t, cards, len(reg))
	for i, inc := range reg {
		c := cards[i]
		assert.Equal(t, inc.Name, c.Name)
		assert.Equal(t, inc.Title.Zh, c.Title, inc.Name)
		assert.Equal(t, inc.Text.Zh, c.Text, inc.Name)
		require.Len(t, c.Cites, len(inc.Cites), inc.Name)
		for k, ct := range inc.Cites {
			assert.Equal(t, ct.Label(), c.Cites[k].Label, inc.Name)
			assert.Equal(t, ct.URL(), c.Cites[k].Href, inc.Name)
			assert.Equal(t, "_blank", c.Cites[k].Target, inc.Name)
		}
		// button, mark, title, text; the citations' paragraph and its links: nothing else.
		assert.Equal(t, 5+len(inc.Cites), c.Elements, "%s: elements in its card", inc.Name)
	}

	// One click loads each incident and starts it.
	for _, inc := range reg {
		eval[bool](t, ctx, `document.querySelector('.incident-open[data-incident="`+inc.Name+`"]').click(), true`)
		waitFor(t, ctx, `lbscope.state().title === `+jsString(inc.Title.En)+` && !lbscope.state().paused`)
		n := len(inc.Scenario().Consumers)
		assert.Len(t, state(t, ctx).Consumers, n, inc.Name)
		waitFor(t, ctx, `document.getElementById("lesson-announce").textContent.includes(`+jsString(inc.Title.Zh)+`)`)
	}

	// The last one loaded, in English: the gallery follows the language.
	eval[bool](t, ctx, `LB.i18n.set("en"), true`)
	last := reg[len(reg)-1]
	waitFor(t, ctx, `document.querySelector('.incident-open[data-incident="`+last.Name+`"] .lesson-title').textContent === `+jsString(last.Title.En))
	assert.Empty(t, con.Errors(), "console errors")
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
