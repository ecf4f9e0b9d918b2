package view

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// TestRenderGroupsPNG rasterises each group of the scenario files with several topics or
// groups, for looking at them without a browser:
// LBSCOPE_VIEW_PNG=/tmp/view go test -run RenderGroupsPNG ./wasm/view
func TestRenderGroupsPNG(t *testing.T) {
	dir := os.Getenv("LBSCOPE_VIEW_PNG")
	if dir == "" {
		t.Skip("set LBSCOPE_VIEW_PNG to a directory to write PNGs")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"two-groups", "several-topics", "retry-topic", "different-tags", "retry-ladder", "autoscale-storm", "rolling-strategy", "drain-broker", "orderly-owner-killed", "pop-fourth-consumer", "pop-share-queue-num", "large"} {
		var sc scenario.Scenario
		if name == "large" {
			sc = largeGroups()
		} else {
			data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "scenarios", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if sc, err = scenario.Parse(data); err != nil {
				t.Fatal(err)
			}
		}
		c, err := cluster.New(sc.Config)
		if err != nil {
			t.Fatal(err)
		}
		at := int64(30000)
		switch name {
		case "retry-ladder":
			at = 5 * 3600 * 1000
		case "orderly-owner-killed":
			at = 60000 // c2's locks outlive it until 81 s: its queues are paused
		case "pop-fourth-consumer":
			at = 90000 // c2 killed, its popped messages still invisible
		}
		for _, st := range sc.Timeline {
			if int64(st.At) <= at {
				c.Advance(int64(st.At))
				_ = c.Apply(st.Command)
			}
		}
		c.Advance(at)
		all := c.Snapshot()
		for _, g := range all.Groups {
			for _, v := range []struct {
				name string
				size Rect
				lang string
				k    float64
			}{{"960-en", Rect{0, 0, 960, 720}, EN, 1}, {"375-zh", Rect{0, 0, 375, 560}, ZH, 2}, {"375-en", Rect{0, 0, 375, 560}, EN, 1}} {
				var p Pick
				s := p.Of(&all, g.Name)
				l := ComputeShown(s, &all, v.size, v.lang, 1)
				hx, hy := 0.0, 0.0
				if len(l.Consumers) > 0 {
					hx, hy = l.Consumers[len(l.Consumers)-1].Center()
				}
				img := render(Frame{Snap: s, All: &all, Layout: l, Speed: 1, HoverX: hx, HoverY: hy, HoverOK: true, Lang: v.lang, Paused: true, Legend: os.Getenv("LEGEND") != ""}, v.k)
				f, err := os.Create(filepath.Join(dir, name+"-"+g.Name+"-"+v.name+".png"))
				if err != nil {
					t.Fatal(err)
				}
				if err := png.Encode(f, img); err != nil {
					t.Fatal(err)
				}
				f.Close()
			}
		}
	}
}

// largeGroups is the large preset's sixteen brokers with two topics (16 and 8 queues on each)
// and two groups of 40 members, 8 of them in both.
func largeGroups() scenario.Scenario {
	both := []cluster.SubscriptionConfig{{Topic: "TopicA"}, {Topic: "TopicB"}}
	b := []cluster.SubscriptionConfig{{Topic: "TopicB"}}
	var cs []cluster.ConsumerConfig
	for i := 1; i <= 72; i++ {
		c := cluster.ConsumerConfig{ID: "c" + itoa(i)[1:]}
		if i < 10 {
			c.ID = "c" + itoa(i)[2:]
		}
		if i <= 40 {
			c.Groups = append(c.Groups, cluster.MembershipConfig{Group: "G1", Subscriptions: both})
		}
		if i > 32 {
			c.Groups = append(c.Groups, cluster.MembershipConfig{Group: "G2", Subscriptions: b})
		}
		cs = append(cs, c)
	}
	sc := scenario.Presets()["large"]
	sc.Version, sc.Config = scenario.Version2, cluster.Config{Seed: 1,
		Topics:    []cluster.TopicConfig{{Name: "TopicA", Queues: 16}, {Name: "TopicB", Queues: 8}},
		Groups:    []cluster.GroupConfig{{Name: "G1"}, {Name: "G2"}},
		Brokers:   sc.Brokers,
		Consumers: cs,
		Producers: []cluster.ProducerConfig{{ID: "p1", Rate: 2000, Threads: 16, Topic: "TopicA"}, {ID: "p2", Rate: 1000, Threads: 8, Topic: "TopicB"}},
	}
	return sc
}
