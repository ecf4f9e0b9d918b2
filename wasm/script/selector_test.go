package script

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
)

// select sees the message's key, tags and sequence number and the send's arg, and its answer
// is one of the queues passed in.
func TestSelectSeesTheMessage(t *testing.T) {
	p := load(t, `
def select(queues, message, arg):
    if message.key != arg or message.tags != "TagA":
        fail("key %s, tags %s, arg %s" % (message.key, message.tags, arg))
    return queues[message.seq % len(queues)]
`)
	mqs := queuesOf(t, "broker-a:2,broker-b:1")
	for seq, want := range []string{"broker-a:0", "broker-a:1", "broker-b:0", "broker-a:0"} {
		mq, err := p.Select(mqs, Message{Key: "k1", Tags: "TagA", Seq: int64(seq)}, "k1")
		require.NoError(t, err)
		assert.Equal(t, want, mq.Short())
	}
	_, err := p.Select(mqs, Message{Key: "k1"}, "k2")
	require.Error(t, err)
	assert.Equal(t, "test.star:4:13: fail: key k1, tags , arg k2", err.Error())
}

// The gallery's composite-key selector keeps every key but the hot ones where
// SelectMessageQueueByHash puts it, and spreads the hot one over four queues.
func TestCompositeSelectorAgainstTheHash(t *testing.T) {
	p := loadFile(t, "../../assets/strategies/composite.star")
	require.True(t, p.HasSelect())
	mqs := queuesOf(t, "broker-a:4,broker-b:4")
	for _, key := range []string{"key-1", "key-42", "order-1001", "user42", ""} {
		mq, err := p.Select(mqs, Message{Key: key}, key)
		require.NoError(t, err)
		want, _ := selector.SelectByHash(mqs, key)
		assert.Equal(t, want, mq, key)
	}
	seen := map[string]bool{}
	for seq := range int64(16) {
		mq, err := p.Select(mqs, Message{Key: "key-0", Seq: seq}, "key-0")
		require.NoError(t, err)
		seen[mq.Short()] = true
	}
	assert.Len(t, seen, 4, "the hot key's queues: %v", seen)
}

// In a cluster, a Starlark selector places the keyed sends; one that fails on the hot key
// fails those sends, and the log names its file and line.
func TestStarlarkSelectorInACluster(t *testing.T) {
	Enable()
	t.Cleanup(func() { selector.SetCompiler(nil) })
	cfg := func(src string) cluster.Config {
		return cluster.Config{Seed: 1,
			Brokers:   []cluster.BrokerConfig{{Name: "broker-a", Queues: 4}, {Name: "broker-b", Queues: 4}},
			Consumers: []cluster.ConsumerConfig{{ID: "c1"}, {ID: "c2"}},
			Producers: []cluster.ProducerConfig{{ID: "p1", Rate: 100, Keys: &cluster.KeysConfig{Count: 10, HotShare: 50},
				Selector: &selector.Choice{Name: "PICKY", Source: src}}}}
	}
	c, err := cluster.New(cfg("def select(queues, message, arg):\n    return queues[-1]\n"))
	require.NoError(t, err)
	c.Advance(10000)
	for _, q := range c.Snapshot().Queues {
		if q.Queue != "broker-b:3" {
			assert.Zero(t, q.MaxOffset, q.Queue)
		} else {
			assert.Greater(t, q.MaxOffset, int64(900))
		}
	}

	c, err = cluster.New(cfg("def select(queues, message, arg):\n    if message.key == 'key-0':\n        return queues[1 // 0]\n    return queues[0]\n"))
	require.NoError(t, err)
	var threw []cluster.Event
	c.SetObserver(func(e cluster.Event) {
		if e.Cause == cluster.CauseSelectorThrew {
			threw = append(threw, e)
		}
	})
	c.Advance(10000)
	m := c.Metrics()
	assert.Greater(t, m.SendFailures, int64(300))
	assert.Greater(t, m.Produced, int64(300))
	require.NotEmpty(t, threw)
	assert.Equal(t, "picky.star:3:25: floored division by zero", threw[0].Error)

	_, err = cluster.New(cfg("def allocate(g, c, q, cs):\n    return q\n"))
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "defines no select(queues, message, arg)"), err.Error())
}

func queuesOf(t *testing.T, spec string) []route.MessageQueue {
	t.Helper()
	mqs, err := route.ParseQueueCounts("T", spec)
	require.NoError(t, err)
	return mqs
}
