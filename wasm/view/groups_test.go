package view

import (
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// groupsSnap is the two-group preset at ms, whole.
func groupsSnap(t *testing.T, ms int64) cluster.Snapshot {
	t.Helper()
	return snapshot(t, scenario.Presets()["groups"].Config, ms)
}

// Each group of a run with several is shown alone: its members once each, every queue of its
// topics (its retry topic's too) once, named apart, and none of the other group's.
func TestProjectShowsOneGroup(t *testing.T) {
	all := groupsSnap(t, 30000)
	if len(all.Groups) != 2 {
		t.Fatalf("groups %+v; want GID_ORDER and GID_AUDIT", all.Groups)
	}
	for _, tc := range []struct {
		group   string
		members []string
		topics  []string
	}{
		{"GID_ORDER", []string{"c1", "c2", "c3"}, []string{"TopicOrder", "TopicPay", "%RETRY%GID_ORDER"}},
		{"GID_AUDIT", []string{"c3", "c4"}, []string{"TopicPay", "%RETRY%GID_AUDIT"}},
	} {
		s := Project(&all, tc.group)
		if s.Group != tc.group || s.Strategy != "AVG" {
			t.Errorf("%s: shows group %s, strategy %s", tc.group, s.Group, s.Strategy)
		}
		if got := ConsumerOrder(s.Consumers); !slices.Equal(got, tc.members) || len(s.Consumers) != len(tc.members) {
			t.Errorf("%s: members %v; want %v", tc.group, got, tc.members)
		}
		names := map[string]bool{}
		var topics []string
		for _, q := range s.Queues {
			if names[q.Queue] {
				t.Errorf("%s: queue %s listed twice", tc.group, q.Queue)
			}
			names[q.Queue] = true
			if q.Group != tc.group {
				t.Errorf("%s: queue %s is %s's", tc.group, q.Queue, q.Group)
			}
			if !slices.Contains(topics, q.Topic) {
				topics = append(topics, q.Topic)
			}
		}
		if !slices.Equal(topics, tc.topics) {
			t.Errorf("%s: topics %v; want %v", tc.group, topics, tc.topics)
		}
		// The brokers list the group's own members.
		for _, b := range s.Brokers {
			if !slices.Equal(b.Consumers, tc.members) {
				t.Errorf("%s: %s lists %v; want %v", tc.group, b.Name, b.Consumers, tc.members)
			}
		}
	}
	// The whole snapshot is left as it was.
	if len(all.Consumers) != 5 || all.Group != "GID_ORDER" {
		t.Errorf("Project changed its snapshot: %d consumers, group %s", len(all.Consumers), all.Group)
	}
	// A group the run has not falls back to its first; a run with one topic and one group is
	// shown whole.
	if s := Project(&all, "GID_NONE"); s.Group != "GID_ORDER" {
		t.Errorf("an unknown group shows %s; want the first", s.Group)
	}
	one := presetSnap(t, "small", 30000)
	if p := (&Pick{}).Of(&one, "GID_ORDER"); p != &one {
		t.Error("a run with one topic and one group is not shown whole")
	}
	if NextGroup(&all, "GID_ORDER") != "GID_AUDIT" || NextGroup(&all, "GID_AUDIT") != "GID_ORDER" || ShownGroup(&one, "x") != "" {
		t.Error("NextGroup or ShownGroup")
	}
}

// In the layout of a group: a tab per group, the shown one named; a band per topic in every
// broker's block, the retry topic's last, each topic at the same height in every block; a
// member of both groups in the same colour in each.
func TestGroupLayout(t *testing.T) {
	all := groupsSnap(t, 30000)
	marks := map[string]Mark{}
	for _, group := range []string{"GID_ORDER", "GID_AUDIT"} {
		var p Pick
		s := p.Of(&all, group)
		for _, size := range sizes {
			l := ComputeShown(s, &all, size, EN, 1)
			checkLayout(t, s, l)
			if l.Group != group || len(l.Groups) != 2 || l.Groups[0].ID != "GID_ORDER" {
				t.Fatalf("%s: tabs %+v, shown %s", group, l.Groups, l.Group)
			}
			if last := l.Bands[len(l.Bands)-1]; last.Kind != BandRetry || last.Topic != cluster.RetryTopic(group) {
				t.Errorf("%s: last band %+v; want the retry topic", group, last)
			}
			// Every cell sits in its topic's band: under the band's label in its block.
			for _, c := range l.Cells {
				b, _ := l.Broker(c.Broker)
				if l.Bands[c.band].Topic != c.Topic {
					t.Errorf("%s: cell %s of %s in band %s", group, c.Queue, c.Topic, l.Bands[c.band].Topic)
				}
				if label := b.Bands[c.band]; c.Y < label.Bottom() {
					t.Errorf("%s: cell %s at %g is over its band's label %+v", group, c.Queue, c.Y, label)
				}
			}
			for i := range l.Bands {
				if y0, y1 := l.Brokers[0].Bands[i].Y, l.Brokers[1].Bands[i].Y; y0 != y1 {
					t.Errorf("%s: band %s at %g in one block, %g in the other", group, l.Bands[i].Topic, y0, y1)
				}
			}
		}
		l := ComputeShown(s, &all, sizes[0], EN, 1)
		for id, m := range l.Marks {
			if prev, ok := marks[id]; ok && prev != m {
				t.Errorf("%s has mark %+v in one group, %+v in the other", id, prev, m)
			}
			marks[id] = m
		}
	}
	// The cached layouts tell the groups apart, though both have two brokers and a producer each.
	var ls Layouts
	a := ls.ComputeShown(ptr(Project(&all, "GID_ORDER")), &all, sizes[0], EN, 1)
	b := ls.ComputeShown(ptr(Project(&all, "GID_AUDIT")), &all, sizes[0], EN, 1)
	if a == b || b.Group != "GID_AUDIT" || ls.ComputeShown(ptr(Project(&all, "GID_AUDIT")), &all, sizes[0], EN, 1) != b {
		t.Error("Layouts: a layout of one group handed out for the other, or none kept")
	}
}

func ptr[T any](v T) *T { return &v }

// The hover cards of a group's queue and member say its topic and group, what the member
// subscribes and which other groups the process is a member of; the drawing marks the
// queues an owner filters by tag.
func TestGroupCards(t *testing.T) {
	all := groupsSnap(t, 30000)
	s := Project(&all, "GID_AUDIT")
	l := ComputeShown(&s, &all, sizes[0], EN, 1)
	f := Frame{Snap: &s, All: &all, Layout: l, Lang: EN}
	q := s.Queues[0]
	tip := strings.Join(TooltipLines(f, HitQueue, q.Queue), "\n")
	if !strings.Contains(tip, "topic TopicPay, group GID_AUDIT") {
		t.Errorf("queue card %q names no topic and group", tip)
	}
	card := strings.Join(TooltipLines(f, HitConsumer, "c3"), "\n")
	if !strings.Contains(card, "subscribes TopicPay, %RETRY%GID_AUDIT") || !strings.Contains(card, "also a member of GID_ORDER") {
		t.Errorf("member card %q", card)
	}
	zh := strings.Join(TooltipLines(Frame{Snap: &s, All: &all, Layout: l, Lang: ZH}, HitQueue, q.Queue), "\n")
	if !strings.Contains(zh, "主题 TopicPay，消费组 GID_AUDIT") {
		t.Errorf("Chinese queue card %q", zh)
	}
}

// A member that takes only some tags: its card and its queues' cards say so; the dead-letter
// topic's cell counts its messages and is no orphan.
func TestTagsAndDeadLetters(t *testing.T) {
	data := `{"version": 2, "seed": 1, "topics": [{"name": "TopicMall", "queues": 2}],
	  "groups": [{"name": "GID_MALL", "maxReconsumeTimes": 1}], "brokers": [{"name": "broker-a"}],
	  "consumers": [{"id": "c1", "groups": [{"group": "GID_MALL", "failRate": 1, "subscriptions": [{"topic": "TopicMall", "tags": ["TagA"]}]}]}],
	  "producers": [{"id": "p1", "rate": 10, "tags": {"TagA": 0.5, "TagB": 0.5}}]}`
	sc, err := scenario.Parse([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	all := snapshot(t, sc.Config, 120000)
	s := Project(&all, "")
	l := ComputeShown(&s, &all, sizes[0], EN, 1)
	f := Frame{Snap: &s, All: &all, Layout: l, Lang: EN}
	if card := strings.Join(TooltipLines(f, HitConsumer, "c1"), "\n"); !strings.Contains(card, "subscribes TopicMall:TagA") {
		t.Errorf("member card %q", card)
	}
	var dlq *cluster.QueueView
	for i := range s.Queues {
		if s.Queues[i].Topic == cluster.DLQTopic("GID_MALL") {
			dlq = &s.Queues[i]
		}
	}
	if dlq == nil || dlq.MaxOffset == 0 {
		t.Fatalf("no dead letters shown: %+v", s.Queues)
	}
	if tip := strings.Join(TooltipLines(f, HitQueue, dlq.Queue), "\n"); !strings.Contains(tip, "dead letters") || strings.Contains(tip, "orphan") {
		t.Errorf("dead-letter card %q", tip)
	}
	if tip := strings.Join(TooltipLines(f, HitQueue, "broker-a:0"), "\n"); !strings.Contains(tip, "c1 takes only TagA") {
		t.Errorf("queue card %q says nothing of the filter", tip)
	}
	if b := l.Bands[len(l.Bands)-1]; b.Kind != BandDLQ {
		t.Errorf("last band %+v; want the dead letters", b)
	}
	// Drawn: the filter's two strokes on c1's cell, in c1's ink; no warning frame on the dead letters.
	var c Canvas
	c.SetScale(1)
	Draw(&c, f)
	cell, _ := l.Cell("broker-a:0")
	if n := strokesIn(&c, LayerMarks, cell.Rect, l.Marks["c1"].Ink); n < 2 {
		t.Errorf("%d strokes of c1's ink in its filtered cell; want the filter's mark", n)
	}
	dc, _ := l.Cell(dlq.Queue)
	if n := strokesIn(&c, LayerCells, dc.Rect, Warn); n != 0 {
		t.Errorf("the dead letters' cell has a warning frame")
	}
}

// strokesIn counts the quads of layer in colour col whose vertices all lie in r (a line or
// a rectangle drawn there).
func strokesIn(c *Canvas, layer Layer, r Rect, col Color) int {
	n := 0
	for _, m := range c.Meshes(layer) {
		for i := 0; i+3 < len(m.Vertices); i += 4 {
			v := m.Vertices[i : i+4]
			in := true
			for _, x := range v {
				in = in && float64(x.X) >= r.X-1 && float64(x.X) <= r.Right()+1 && float64(x.Y) >= r.Y-1 && float64(x.Y) <= r.Bottom()+1
			}
			if in && v[0].R == col.R*col.A && v[0].G == col.G*col.A && v[0].B == col.B*col.A && v[0].SrcX == v[1].SrcX {
				n++
			}
		}
	}
	return n
}

// A broker's permission and its removal from the name server show in its title and card.
func TestBrokerPermAndRemoval(t *testing.T) {
	c, err := cluster.New(scenario.Presets()["small"].Config)
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(5000)
	for _, cmd := range []cluster.Command{{Type: "setPerm", Broker: "broker-a", Perm: cluster.PermR}, {Type: "removeBroker", Broker: "broker-b"}} {
		if err := c.Apply(cmd); err != nil {
			t.Fatal(err)
		}
	}
	s := c.Snapshot()
	f := Frame{Snap: &s, Layout: ComputeLang(&s, sizes[0], ZH), Lang: ZH}
	if a := strings.Join(TooltipLines(f, HitBroker, "broker-a"), "\n"); !strings.Contains(a, "权限：只读") {
		t.Errorf("broker-a's card %q says nothing of its permission", a)
	}
	f.Lang = EN
	if b := strings.Join(TooltipLines(f, HitBroker, "broker-b"), "\n"); !strings.Contains(b, "removed from the name server") {
		t.Errorf("broker-b's card %q says nothing of its removal", b)
	}
	if s.Brokers[0].Perm != cluster.PermR || s.Brokers[1].Perm != cluster.PermRW || !s.Brokers[1].Removed {
		t.Errorf("brokers %+v", s.Brokers)
	}
}

// A band's label in a narrow block keeps what tells it apart: a topic's end, the retry
// topic's and the dead letters' short word.
func TestBandLabelsInNarrowBlocks(t *testing.T) {
	topic := Band{Topic: "TopicOrder", Kind: BandTopic}
	if got := bandLabelIn(EN, topic, 200); got != "TopicOrder" {
		t.Errorf("wide: %q", got)
	}
	if got := bandLabelIn(EN, topic, TextWidth("~Order")); got != "~Order" {
		t.Errorf("narrow: %q; want ~Order", got)
	}
	retry := Band{Topic: "%RETRY%G", Kind: BandRetry}
	if got := bandLabelIn(ZH, retry, TextWidth("重试")); got != "重试" {
		t.Errorf("narrow retry band: %q; want 重试", got)
	}
	if got := bandLabelIn(EN, Band{Kind: BandDLQ}, TextWidth("DLQ")); got != "DLQ" {
		t.Errorf("narrow dead letters: %q; want DLQ", got)
	}
}

// An orderly group's queue card says who holds its lock and until when; a queue whose lock a
// killed member still holds is shown paused until the lock expires (spec §8.5.3).
func TestLockCards(t *testing.T) {
	cfg := cluster.Config{Seed: 1, Brokers: []cluster.BrokerConfig{{Name: "broker-a", Queues: 2}},
		Groups:    []cluster.GroupConfig{{Name: "G", Orderly: true}},
		Consumers: []cluster.ConsumerConfig{{ID: "c1"}, {ID: "c2"}},
		Producers: []cluster.ProducerConfig{{ID: "p1", Rate: 100}}}
	c, err := cluster.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(30000)
	if err := c.Apply(cluster.Command{Type: "killConsumer", ID: "c2"}); err != nil {
		t.Fatal(err)
	}
	c.Advance(40000)
	all := c.Snapshot()
	s := Project(&all, "G")
	l := ComputeShown(&s, &all, sizes[0], EN, 1)
	for _, tc := range []struct{ queue, lang, want string }{
		{"broker-a:0", EN, "locked by c1 on its broker until 01:21.0, renewed every 20 s"},
		{"broker-a:1", EN, "paused: c2 still holds its lock (until 01:21.0); no one pulls it before"},
		{"broker-a:1", ZH, "暂停：c2 仍持有它的锁（到 01:21.0 为止），此前无人拉取"},
	} {
		tip := strings.Join(TooltipLines(Frame{Snap: &s, All: &all, Layout: l, Lang: tc.lang}, HitQueue, tc.queue), "\n")
		if !strings.Contains(tip, tc.want) {
			t.Errorf("%s card (%s) %q; want %q", tc.queue, tc.lang, tip, tc.want)
		}
	}
}
