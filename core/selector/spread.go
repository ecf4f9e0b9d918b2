package selector

import (
	"strconv"

	"github.com/lbscope/lbscope/core/route"
)

// KeyMix is the keys a producer's messages carry, as a scenario's producers[].keys gives
// them: Prefix + 0 … Count−1, drawn uniformly, except that HotShare percent of the messages
// carry key 0.
type KeyMix struct {
	Count    int    `json:"count"`
	HotShare int    `json:"hotShare"`
	Prefix   string `json:"prefix"`
	Tags     string `json:"tags,omitempty"` // the tag each message carries
}

// Spread is where a producer's keyed messages go under SelectMessageQueueByHash and under a
// selector of the user's, over one publish list: what the playground's Check of a selector
// and `lbscope select` show.
type Spread struct {
	Queues   []string `json:"queues"`    // the publish list, "broker-a:0"
	Hash     []int64  `json:"hash"`      // messages per queue under SelectMessageQueueByHash
	Custom   []int64  `json:"custom"`    // under the selector; a failed send counts nowhere
	HotKey   string   `json:"hotKey"`    // key 0, the hot key when HotShare > 0
	HotHash  []int64  `json:"hotHash"`   // the hot key's messages per queue, under the hash
	HotCust  []int64  `json:"hotCustom"` // and under the selector
	Messages int64    `json:"messages"`
	Failed   int64    `json:"failed"`          // sends the selector failed (it threw)
	Error    string   `json:"error,omitempty"` // the first failure's message, with its file and line
}

// MaxSpreadMessages bounds the messages a Spread places.
const MaxSpreadMessages = 100_000

// SpreadOf places n messages (at most MaxSpreadMessages) with keys drawn from mix by rnd, the
// way a keyed producer draws them, once by the hash and once by s, whose calls see the
// message's key, tags and sequence number and the key as arg (spec §2.11). A selector that
// fails stops counting at its tenth failure: the report then says what failed.
func SpreadOf(s Custom, mqs []route.MessageQueue, mix KeyMix, n int, rnd Source) Spread {
	n = min(max(n, 0), MaxSpreadMessages)
	out := Spread{Queues: make([]string, len(mqs)), Hash: make([]int64, len(mqs)), Custom: make([]int64, len(mqs)),
		HotHash: make([]int64, len(mqs)), HotCust: make([]int64, len(mqs))}
	for i, q := range mqs {
		out.Queues[i] = q.Short()
	}
	if len(mqs) == 0 || mix.Count < 1 {
		return out
	}
	prefix := mix.Prefix
	if prefix == "" {
		prefix = "key-"
	}
	out.HotKey = prefix + "0"
	at := make(map[route.MessageQueue]int, len(mqs))
	for i := len(mqs) - 1; i >= 0; i-- {
		at[mqs[i]] = i
	}
	for seq := range int64(n) {
		k := 0
		if mix.HotShare == 0 || int(rnd.NextIntn(100)) >= mix.HotShare {
			k = int(rnd.NextIntn(int32(mix.Count)))
		}
		key := prefix + strconv.Itoa(k)
		out.Messages++
		h := HashIndex(StringHashCode(key), len(mqs))
		out.Hash[h]++
		if k == 0 {
			out.HotHash[h]++
		}
		mq, err := SelectChecked(s, mqs, Message{Key: key, Tags: mix.Tags, Seq: seq}, key)
		if err != nil {
			out.Failed++
			if out.Error == "" {
				out.Error = err.Error()
			}
			if out.Failed >= 10 {
				break
			}
			continue
		}
		i := at[mq]
		out.Custom[i]++
		if k == 0 {
			out.HotCust[i]++
		}
	}
	return out
}
