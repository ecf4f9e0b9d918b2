package peerbench

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/profile"
	"github.com/lbscope/lbscope/core/profile/goclient"
	"github.com/lbscope/lbscope/core/route"
)

// casesPerStrategy random inputs are drawn per strategy (and parameter), from a fixed seed,
// so a failure names a case that reproduces.
const casesPerStrategy = 3000

// gen draws inputs shaped like the real ones and their traps: brokers with and without a
// room ("room1@broker-a", "room1@", "@b", "a@b@c"), non-ASCII names, duplicated and missing
// client ids, nil and empty lists, unsorted orders.
type gen struct{ r *rand.Rand }

var (
	genTopics  = []string{"TopicTest", "%RETRY%cg", "order_events", "\u8ba2\u5355"}
	genBrokers = []string{"broker-a", "broker-b", "broker-A", "broker-a-1", "room1@broker-a", "room2@broker-b",
		"room1@", "@broker-c", "room1@@", "a@b@c", "\uff21-broker", "\U0001F600-broker", "RaftNode00"}
	genRooms = []string{"room1", "room2", "room3", "", "broker-a"}
)

func (g gen) queues() []route.MessageQueue {
	switch g.r.Intn(24) {
	case 0:
		return nil
	case 1:
		return []route.MessageQueue{}
	}
	n := 1 + g.r.Intn(40)
	out := make([]route.MessageQueue, 0, n)
	for range n {
		out = append(out, route.MessageQueue{
			Topic:      genTopics[g.r.Intn(len(genTopics))],
			BrokerName: genBrokers[g.r.Intn(len(genBrokers))],
			QueueID:    int32(g.r.Intn(16)),
		})
	}
	if g.r.Intn(2) == 0 {
		goclient.SortQueues(out) // the order doBalance passes
	}
	return out
}

func (g gen) ids() []string {
	switch g.r.Intn(24) {
	case 0:
		return nil
	case 1:
		return []string{}
	}
	n := 1 + g.r.Intn(12)
	out := make([]string, 0, n)
	for range n {
		switch g.r.Intn(8) {
		case 0: // a short id space makes duplicates and concatenation collisions likely
			out = append(out, fmt.Sprintf("%d.168.1.10@1", 1+g.r.Intn(12)))
		case 1:
			out = append(out, fmt.Sprintf("10.0.0.%d@DEFAULT", g.r.Intn(4)))
		default:
			out = append(out, fmt.Sprintf("10.0.%d.%d@%d", g.r.Intn(3), g.r.Intn(255), 1+g.r.Intn(65535)))
		}
	}
	if g.r.Intn(2) == 0 {
		goclient.SortClientIDs(out)
	}
	return out
}

func (g gen) current(cidAll []string) string {
	if len(cidAll) > 0 && g.r.Intn(12) != 0 {
		return cidAll[g.r.Intn(len(cidAll))]
	}
	if g.r.Intn(2) == 0 {
		return ""
	}
	return "10.9.9.9@404"
}

func (g gen) rooms() []string {
	switch g.r.Intn(6) {
	case 0:
		return nil
	case 1, 2: // one room listed several times: duplicated queues, and past mqAll a panic
		return slices.Repeat([]string{"room1"}, 2+g.r.Intn(4))
	}
	n := g.r.Intn(5)
	out := make([]string, n)
	for i := range out {
		out[i] = genRooms[g.r.Intn(len(genRooms))] // duplicates on purpose: they can panic
	}
	return out
}

func toPeer(qs []route.MessageQueue) []*primitive.MessageQueue {
	if qs == nil {
		return nil
	}
	out := make([]*primitive.MessageQueue, len(qs))
	for i, q := range qs {
		out[i] = &primitive.MessageQueue{Topic: q.Topic, BrokerName: q.BrokerName, QueueId: int(q.QueueID)}
	}
	return out
}

// outcome is one side's answer as text: nil, a list, or a panic's value.
func peerOutcome(s consumer.AllocateStrategy, group, cid string, mqAll []*primitive.MessageQueue, cidAll []string) (out string) {
	defer func() {
		if p := recover(); p != nil {
			out = "panic: " + fmt.Sprint(p)
		}
	}()
	res := s(group, cid, mqAll, cidAll)
	if res == nil {
		return "nil"
	}
	parts := make([]string, len(res))
	for i, q := range res {
		parts[i] = fmt.Sprintf("%s/%s/%d", q.Topic, q.BrokerName, q.QueueId)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func ourOutcome(s allocate.Strategy, group, cid string, mqAll []route.MessageQueue, cidAll []string) string {
	res, err := s.Allocate(group, cid, mqAll, cidAll)
	if err != nil {
		return err.Error()
	}
	if res == nil {
		return "nil"
	}
	parts := make([]string, len(res))
	for i, q := range res {
		parts[i] = fmt.Sprintf("%s/%s/%d", q.Topic, q.BrokerName, q.QueueID)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// TestDifferentialStrategies calls rocketmq-client-go's own strategies and the go-2.1.2
// profile's on the same random inputs and requires the same answer: the same list in the
// same order, nil where it returns nil, the same panic where it panics.
func TestDifferentialStrategies(t *testing.T) {
	gp, err := profile.Lookup("go-2.1.2")
	if err != nil {
		t.Fatal(err)
	}
	type subject struct {
		name   string
		params func(g gen) (allocate.Params, consumer.AllocateStrategy)
	}
	fixed := func(name string, peer consumer.AllocateStrategy) subject {
		return subject{name, func(gen) (allocate.Params, consumer.AllocateStrategy) { return allocate.Params{}, peer }}
	}
	subjects := []subject{
		fixed("AVG", consumer.AllocateByAveragely),
		fixed("AVG_BY_CIRCLE", consumer.AllocateByAveragelyCircle),
		fixed("MACHINE_ROOM_NEARBY", consumer.AllocateByMachineNearby),
		{"MACHINE_ROOM", func(g gen) (allocate.Params, consumer.AllocateStrategy) {
			rooms := g.rooms()
			return allocate.Params{ConsumerIDCs: rooms}, consumer.AllocateByMachineRoom(rooms)
		}},
		{"CONFIG", func(g gen) (allocate.Params, consumer.AllocateStrategy) {
			list := g.queues()
			return allocate.Params{MessageQueueList: list}, consumer.AllocateByConfig(toPeer(list))
		}},
	}
	for _, vn := range []int{-1, 0, 1, 2, 3, 10, 12, 20, 100} {
		subjects = append(subjects, subject{fmt.Sprintf("CONSISTENT_HASH(%d)", vn), func(gen) (allocate.Params, consumer.AllocateStrategy) {
			n := vn
			return allocate.Params{VirtualNodeCnt: &n}, consumer.AllocateByConsistentHash(n)
		}})
	}
	for si, sub := range subjects {
		name, _, _ := strings.Cut(sub.name, "(")
		g := gen{rand.New(rand.NewSource(int64(1000 + si)))}
		panics, nils := 0, 0
		for i := range casesPerStrategy {
			mqAll, cidAll := g.queues(), g.ids()
			cid := g.current(cidAll)
			params, peer := sub.params(g)
			ours, err := gp.Strategy(name, params)
			if err != nil {
				t.Fatalf("%s: %v", sub.name, err)
			}
			want := peerOutcome(peer, "cg", cid, toPeer(mqAll), slices.Clone(cidAll))
			got := ourOutcome(ours, "cg", cid, mqAll, cidAll)
			if want != got {
				t.Fatalf("%s case %d (seed %d): currentCID %q cidAll %q mqAll %v params %+v\n rocketmq-client-go: %s\n lbscope:            %s",
					sub.name, i, 1000+si, cid, cidAll, mqAll, params, want, got)
			}
			switch {
			case strings.HasPrefix(want, "panic"):
				panics++
			case want == "nil":
				nils++
			}
			// The whole-group view must agree with the member's own call.
			if i%10 == 0 && cid != "" && slices.Contains(cidAll, cid) {
				for _, a := range gp.Group(ours, "cg", mqAll, cidAll).Assignments {
					if a.ClientID != cid {
						continue
					}
					gotGroup := "nil"
					switch {
					case a.Err != nil:
						gotGroup = a.Err.Error()
					case a.Queues != nil:
						gotGroup = ourOutcome(goclient.ByConfig{List: a.Queues}, "", "", nil, nil)
					}
					if gotGroup != want {
						t.Fatalf("%s case %d: group view gives %s, the client %s", sub.name, i, gotGroup, want)
					}
				}
			}
		}
		t.Logf("%s: %d cases agree (%d nil, %d panics)", sub.name, casesPerStrategy, nils, panics)
	}
}

// TestDifferentialSelectors runs the client's round-robin and hash selectors and the
// profile's side by side on random pick sequences: topics, lists changing between picks,
// last-broker avoidance, sharding keys.
func TestDifferentialSelectors(t *testing.T) {
	g := gen{rand.New(rand.NewSource(7))}
	keys := []string{"order-1", "user:42", "A", "a", "\u8ba2\u5355-7", "\U0001F600", "9223372036854775807"}
	for c := range casesPerStrategy {
		peerRR, peerHash := producer.NewRoundRobinQueueSelector(), producer.NewHashQueueSelector()
		ourRR, ourHash := goclient.NewRoundRobin(), goclient.Hash{}
		qs := g.queues()
		for len(qs) == 0 {
			qs = g.queues()
		}
		for step := range 20 {
			if g.r.Intn(8) == 0 {
				if next := g.queues(); len(next) > 0 {
					qs = next
				}
			}
			topic := genTopics[g.r.Intn(2)]
			last := ""
			if g.r.Intn(2) == 0 {
				last = qs[g.r.Intn(len(qs))].BrokerName
			}
			msg := primitive.NewMessage(topic, nil)
			want := peerRR.Select(msg, toPeer(qs), last)
			got, err := ourRR.Select(topic, "", qs, last)
			if err != nil || want.BrokerName != got.BrokerName || want.QueueId != int(got.QueueID) {
				t.Fatalf("round robin case %d step %d (last %q): client %s:%d, lbscope %s (%v)", c, step, last, want.BrokerName, want.QueueId, got.Short(), err)
			}
			key := keys[g.r.Intn(len(keys))] + fmt.Sprint(g.r.Intn(1000))
			want = peerHash.Select(primitive.NewMessage(topic, nil).WithShardingKey(key), toPeer(qs), last)
			got, err = ourHash.Select(topic, key, qs, last)
			if err != nil || want.BrokerName != got.BrokerName || want.QueueId != int(got.QueueID) {
				t.Fatalf("hash case %d step %d (key %q): client %s:%d, lbscope %s (%v)", c, step, key, want.BrokerName, want.QueueId, got.Short(), err)
			}
		}
	}
}
