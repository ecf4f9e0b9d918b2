package main

import (
	"encoding/json"
	"fmt"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/lesson"
	"github.com/lbscope/lbscope/wasm/view"
	"github.com/lbscope/lbscope/wasm/words"
)

// posterShape is what the embed's poster draws of a scenario before any wasm: its title in
// both languages, its brokers with their queue counts, its consumers and its producers.
type posterShape struct {
	Title     scenario.Words   `json:"title"`
	Brokers   []posterBroker   `json:"brokers"`
	Consumers []posterConsumer `json:"consumers"`
	Producers []posterProducer `json:"producers"`
}

type posterBroker struct {
	Name   string `json:"name"`
	Queues int    `json:"queues"`
}

type posterConsumer struct {
	ID string `json:"id"`
}

type posterProducer struct {
	ID   string `json:"id"`
	Rate int    `json:"rate"`
}

// posterText is the canvas's font as web/poster.mjs lays text out with it, in layout units:
// the advance of each printable ASCII rune (from ' '), of an ideograph, and, in each
// language, the widest status word (what a tall consumer box makes room for), a broker's
// widest latency label (what its title makes room for beside the name) and the header's
// legend button's word, each measured by wasm/view itself.
type posterText struct {
	ASCII   []float64          `json:"ascii"`
	Other   float64            `json:"other"`
	Status  map[string]float64 `json:"status"`
	Latency map[string]float64 `json:"latency"`
	Legend  map[string]float64 `json:"legend"`
}

func posterFont() posterText {
	t := posterText{Other: view.TextWidth("中"), Status: map[string]float64{}, Latency: map[string]float64{}, Legend: map[string]float64{}}
	for r := rune(32); r < 127; r++ {
		t.ASCII = append(t.ASCII, view.TextWidth(string(r)))
	}
	for _, lang := range words.Langs {
		w := view.TextWidth("stopped") // view's layoutConsumers makes room for it in any language
		for _, st := range []string{cluster.StatusAlive, cluster.StatusIdle, cluster.StatusKilled, cluster.StatusPartitioned, cluster.StatusStopped, cluster.StatusHung} {
			w = max(w, view.TextWidth(view.StatusTextIn(lang, st)))
		}
		t.Status[lang] = w
		t.Latency[lang] = view.TextWidth("+" + view.Word(lang, "canvas.ms", 6000)) // view's layoutBrokers
		t.Legend[lang] = view.TextWidth(view.Word(lang, "canvas.legend.button"))   // view's legendButtonW
	}
	return t
}

// postersJSON is {"presets": {name: posterShape}, "lessons": {id: posterShape}, "text":
// posterText}: every scenario the embed can be asked for by name (?preset=, the incidents
// among them, and ?lesson=), from the scenarios themselves, so that the poster shows the
// cluster that plays, and the font the poster lays it out with as the canvas does.
func postersJSON() []byte {
	out := struct {
		Presets map[string]posterShape `json:"presets"`
		Lessons map[string]posterShape `json:"lessons"`
		Text    posterText             `json:"text"`
	}{map[string]posterShape{}, map[string]posterShape{}, posterFont()}
	titles := map[string]scenario.Words{}
	for _, inc := range scenario.Registry() {
		titles[inc.Name] = inc.Title
	}
	for name, s := range scenario.Presets() {
		title, ok := titles[name]
		if !ok { // small, default, large: the panel's words for them
			title = scenario.Words{En: words.Word(words.EN, "panel.title."+name), Zh: words.Word(words.ZH, "panel.title."+name)}
		}
		out.Presets[name] = shapeOf(s, title)
	}
	for _, l := range lesson.All() {
		out.Lessons[l.ID] = shapeOf(l.Scenario(), scenario.Words{En: l.Title.En, Zh: l.Title.Zh})
	}
	data, err := json.Marshal(out)
	if err != nil {
		panic(err) // strings and numbers only
	}
	return data
}

// shapeOf is the scenario at 00:00 as the canvas's snapshot shows it (a broker's queue count
// is the snapshot's, read and write counts taken together); of a run with several topics or
// groups, its first group's members over its first topic's queues (the poster draws no
// bands).
func shapeOf(s scenario.Scenario, title scenario.Words) posterShape {
	c, err := cluster.New(s.Config)
	if err != nil {
		panic(fmt.Sprintf("the built-in scenario %q: %v", s.Title, err)) // tests build every one
	}
	all := c.Snapshot()
	snap := view.Project(&all, "")
	p := posterShape{Title: title, Brokers: []posterBroker{}, Consumers: []posterConsumer{}, Producers: []posterProducer{}}
	for _, b := range snap.Brokers {
		p.Brokers = append(p.Brokers, posterBroker{Name: b.Name, Queues: b.Queues})
	}
	for _, c := range snap.Consumers {
		p.Consumers = append(p.Consumers, posterConsumer{ID: c.ID})
	}
	for _, pr := range snap.Producers {
		p.Producers = append(p.Producers, posterProducer{ID: pr.ID, Rate: pr.Rate})
	}
	return p
}
