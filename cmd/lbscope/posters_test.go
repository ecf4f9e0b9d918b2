package main

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/lesson"
	"github.com/lbscope/lbscope/wasm/view"
	"github.com/lbscope/lbscope/wasm/words"
)

// The embed's poster knows every scenario it can be asked for by name, in both languages, with
// the brokers, queues and consumers that will play, and the canvas's font to lay them out.
func TestPostersNameEveryPresetAndLesson(t *testing.T) {
	var got struct {
		Presets map[string]posterShape `json:"presets"`
		Lessons map[string]posterShape `json:"lessons"`
		Text    posterText             `json:"text"`
	}
	require.NoError(t, json.Unmarshal(postersJSON(), &got))
	for name, s := range scenario.Presets() {
		p, ok := got.Presets[name]
		if !assert.True(t, ok, "preset %s has no poster", name) {
			continue
		}
		assert.NotEmpty(t, p.Title.En, name)
		assert.NotEmpty(t, p.Title.Zh, name)
		assert.Len(t, p.Brokers, len(s.Brokers), name)
		// A run with several groups: the first group's members, as the canvas first shows it.
		members := len(s.Consumers)
		if len(s.Groups) > 1 {
			members = 0
			for _, c := range s.Consumers {
				if len(c.Groups) == 0 || slices.ContainsFunc(c.Groups, func(m cluster.MembershipConfig) bool { return m.Group == s.Groups[0].Name }) {
					members++
				}
			}
		}
		assert.Len(t, p.Consumers, members, name)
	}
	assert.Equal(t, "Small cluster", got.Presets["small"].Title.En)
	assert.Equal(t, "小型集群", got.Presets["small"].Title.Zh)
	assert.Len(t, got.Lessons, len(lesson.All()))
	kvp := got.Lessons["kill-vs-partition"]
	assert.Equal(t, lesson.ByID("kill-vs-partition").Title.Zh, kvp.Title.Zh)
	assert.Equal(t, []posterBroker{{"broker-a", 4}, {"broker-b", 4}}, kvp.Brokers, "the lesson's own cluster")
	require.Len(t, got.Text.ASCII, 95)
	assert.Equal(t, view.TextWidth("broker-a"), textWidth(got.Text, "broker-a"))
	assert.Positive(t, got.Text.Status["zh"])
	for _, lang := range words.Langs {
		assert.Positive(t, got.Text.Latency[lang], "%s: the width a broker's title keeps for its latency", lang)
		assert.Positive(t, got.Text.Legend[lang], "%s: the header's legend button", lang)
	}
}

func textWidth(t posterText, s string) float64 {
	w := 0.0
	for _, r := range s {
		w += t.ASCII[r-32]
	}
	return w
}

// The header over the stage describes a preset in the page's words: in English, the
// scenario's own description.
func TestPresetDescriptionsAreTheScenarios(t *testing.T) {
	for name, s := range scenario.Presets() {
		key := "panel.desc." + name
		if !words.Has(key) {
			continue // the incidents describe themselves in both languages (incidents())
		}
		assert.Equal(t, s.Description, words.Word(words.EN, key), key)
	}
	for _, name := range []string{"small", "default", "large", "groups", "autoscale"} {
		assert.True(t, words.Has("panel.desc."+name), name)
	}
}
