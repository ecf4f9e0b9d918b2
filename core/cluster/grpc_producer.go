package cluster

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
	"github.com/lbscope/lbscope/core/sim"
)

// The gRPC producer of RocketMQ 5's clients through a cluster-mode proxy (spec §8.4.8): the
// client's own choice only picks an endpoint, and every broker sits behind the proxy's, so
// the proxy decides the queue. It ignores the queue the client chose and takes one from its
// write view of the topic, every writable queue of every broker with a master sorted by
// broker name and queue id: round robin from a random start for a message without a message
// group (sendLatencyEnable off, the default), and Guava's consistentHash of the group's
// String.hashCode for a single message with one. A failed attempt is sent again at once, up
// to maxAttempts 3 (the proxy's settings), to whatever queue the proxy takes next. Isolating
// the endpoint isolates every broker at once, so it changes nothing here.
//
// The proxy's write view comes from its route cache (§8.4.5, Caffeine's refreshAfterWrite 20 s,
// expireAfterAccess 300 s): the first send 20 s or more after the view was written still gets
// the old view and starts a reload from the name server, which the sends after it see one
// round trip later; each reload restarts the round robin at a new random index. So a dead
// broker's queues stay in the view for 20 s or more after the name server dropped it, and a
// send the proxy puts there fails, with its retries, which the round robin puts on the next
// queues, of the same broker.
//
// The model's choices: a producer's keys (producers[].keys) are its messages' message
// groups; each attempt waits for the broker's latency and the round trip, with the client's
// 3 s request timeout per attempt; every producer of a proxy shares its view and index, as the
// proxy's one cache does, and its gRPC consumers' assignment queries and receives are accesses
// to the same cache (grpc.go).

// ProducerGrpc is a gRPC producer's kind (scenario producers[].kind).
const ProducerGrpc = "grpc"

// ProducerKinds are the kinds a producer may have.
var ProducerKinds = []string{"remoting", ProducerGrpc}

// grpcMaxAttempts is the gRPC producer's maxAttempts, from the proxy's settings (§8.4.9).
const grpcMaxAttempts = 3

// grpcRequestTimeoutMs is the gRPC clients' request timeout (3 s): a producer's per attempt, and
// what a SimpleConsumer's receive deadline adds to its awaitDuration (spec §8.4.5).
const grpcRequestTimeoutMs = 3000

// checkGrpcProducer refuses the settings a gRPC producer does not have.
func checkGrpcProducer(pc ProducerConfig) error {
	switch {
	case pc.Kind == "" || pc.Kind == "remoting":
		if pc.Proxy != "" {
			return fmt.Errorf("proxy: only a gRPC producer (kind grpc) sends through a proxy")
		}
		return nil
	case pc.Kind != ProducerGrpc:
		return fmt.Errorf("kind %q: want remoting or grpc", pc.Kind)
	case pc.Mode == SendAsync:
		return fmt.Errorf("mode async: a gRPC producer's sends are modelled synchronous (mode sync)")
	case pc.Selector != nil:
		return fmt.Errorf("selector: a gRPC producer has no MessageQueueSelector; its keys are message groups, which the proxy hashes")
	case pc.Client != "":
		return fmt.Errorf("client %q: the SDKs of client are remoting clients; a gRPC producer is RocketMQ 5's client", pc.Client)
	case pc.LatencyMax != nil || pc.NotAvailableDuration != nil:
		return fmt.Errorf("latencyMax/notAvailableDuration: a gRPC producer has no latency fault tolerance (the proxy's sendLatencyEnable is off)")
	}
	return nil
}

// proxySendQueue is the queue the proxy stores p's next attempt on (spec §8.4.8), with its
// broker; false when the topic has no writable queue of a broker with a master.
func (c *Cluster) proxySendQueue(p *producer, th *sendThread) (route.MessageQueue, *broker, bool) {
	px := c.proxies[p.px]
	if px.local() {
		return c.localSendQueue(p, th)
	}
	if px.down {
		return route.MessageQueue{}, nil, false // UNAVAILABLE, at every attempt
	}
	qs := c.proxyView(px, p.t).queues
	if len(qs) == 0 {
		return route.MessageQueue{}, nil, false
	}
	var i int
	if p.keys != nil {
		// A single message with a message group: consistentHash(group.hashCode()).
		k := p.drawKey()
		p.keyBuf = strconv.AppendInt(append(p.keyBuf[:0], p.keys.Prefix...), k, 10)
		i = consistentHash(int64(selector.StringHashCode(string(p.keyBuf))), len(qs))
	} else {
		if px.sendIndex == nil {
			px.sendIndex = map[int]int64{}
		}
		n, ok := px.sendIndex[p.t.idx]
		if !ok {
			n = int64(px.rnd.NextIntn(1<<31 - 1)) // a new selector's random start
		}
		px.sendIndex[p.t.idx] = n + 1
		i = int(n % int64(len(qs)))
	}
	mq := qs[i]
	return mq, c.brokerBy[mq.BrokerName], true
}

// Caffeine's refreshAfterWrite and expireAfterAccess of the proxy's route cache (§8.4.5).
const (
	proxyRefreshMs = 20_000
	proxyExpireMs  = 300_000
)

// proxyRoute is the proxy's cached view of a topic: its write queues, and its answer to an
// assignment query (§8.4.3).
type proxyRoute struct {
	queues            []route.MessageQueue
	assign            []route.QueueData // the readable brokers an assignment lists
	written, accessed int64
	reloadAt          int64                // a reload under way ends then (0: none)
	reloaded          []route.MessageQueue // … with these write queues
	reassign          []route.QueueData    // … and these readable brokers
}

// proxyView is proxy px's view of topic t at a call now (a send, an assignment query, a
// receive), as its route cache gives it; every call is an access.
func (c *Cluster) proxyView(px *proxyState, t *topicState) *proxyRoute {
	if px.routes == nil {
		px.routes = map[int]*proxyRoute{}
	}
	r := px.routes[t.idx]
	if r != nil && r.reloadAt > 0 && c.now >= r.reloadAt {
		// The reload has ended: its view for every later access, a new selector.
		if !slices.Equal(r.queues, r.reloaded) {
			brokers := route.Compact(r.reloaded)
			if len(r.reloaded) == 0 {
				brokers = "no queue"
			}
			c.emit(Event{Kind: EventInfo, Cause: CauseProxyReload, Topic: t.name, Arg: px.name, Queues: c.queueNames(r.reloaded), Until: r.reloadAt,
				Text: fmt.Sprintf("%s's view of %s, reloaded from the name server at %s, holds %s: sends go there from now on", px.name, t.name, clockMs(r.reloadAt-c.t.NetworkRTT), brokers)})
		}
		r.queues, r.assign, r.written, r.reloadAt, r.reloaded, r.reassign = r.reloaded, r.reassign, r.reloadAt, 0, nil, nil
		delete(px.sendIndex, t.idx)
	}
	switch {
	case r == nil || c.now-r.accessed >= proxyExpireMs:
		// Not cached (or evicted): loaded before the call goes on.
		r = &proxyRoute{queues: c.proxyWriteQueues(t), assign: c.readableBrokers(t), written: c.now}
		px.routes[t.idx] = r
		delete(px.sendIndex, t.idx)
	case r.reloadAt == 0 && c.now-r.written >= proxyRefreshMs:
		// Stale: this access still gets the old view and starts a reload.
		r.reloadAt, r.reloaded, r.reassign = c.now+c.t.NetworkRTT, c.proxyWriteQueues(t), c.readableBrokers(t)
	}
	r.accessed = c.now
	return r
}

// tellProxySendFailed tells p's first attempt of the proxy's current view that failed on
// broker b, down or without the queue, which the view still lists (spec §8.4.5, §8.4.8).
func (c *Cluster) tellProxySendFailed(p *producer, mq route.MessageQueue, b *broker) {
	px := c.proxies[p.px]
	r := px.routes[p.t.idx]
	if r == nil || p.toldView == r.written+1 {
		return
	}
	p.toldView = r.written + 1
	why := "is down"
	if b != nil && !b.down {
		why = "no longer has it"
	}
	c.emit(Event{Kind: EventInfo, Cause: CauseProxySendFailed, Broker: mq.BrokerName, Arg: p.id, Queues: []string{c.queueName(mq)}, Until: r.written + proxyRefreshMs,
		Text: fmt.Sprintf("%s's send through %s fails on %s: %s %s, and %s's view of %s, loaded at %s, lists it until a send after %s starts a reload; retries take the next queues",
			p.id, px.name, c.queueName(mq), mq.BrokerName, why, px.name, p.t.name, clockMs(r.written), clockMs(r.written+proxyRefreshMs))})
}

// proxyWriteQueues is the proxy's write view of topic t: every writable queue of every broker
// of the route (each has a master here), sorted by broker name and queue id.
func (c *Cluster) proxyWriteQueues(t *topicState) []route.MessageQueue {
	var out []route.MessageQueue
	for _, qd := range c.nameServerRoute(t).QueueDatas {
		if qd.Perm&route.PermWrite == 0 {
			continue
		}
		for id := range qd.WriteQueueNums {
			out = append(out, route.MessageQueue{Topic: t.name, BrokerName: qd.BrokerName, QueueID: int32(id)})
		}
	}
	route.SortQueues(out)
	return out
}

// startGrpcProducer makes p a gRPC producer of proxy px: no latency fault tolerance.
func (c *Cluster) startGrpcProducer(p *producer, px *proxyState) {
	p.grpc, p.px = true, px.idx
	p.fs.SetSendLatencyFaultEnable(false)
	if px.rnd == nil {
		px.rnd = sim.Stream(c.cfg.Seed, "proxy/"+px.name)
	}
	if px.local() {
		c.startLocalProducer(p)
	}
}

// consistentHash is Guava's Hashing.consistentHash(long, int) (spec §8.4.8): a linear
// congruential generator seeded with input picks the bucket; buckets ≥ 1.
func consistentHash(input int64, buckets int) int {
	state := input
	candidate := int32(0)
	for {
		state = 2862933555777941757*state + 1
		r := int32(uint64(state)>>33) + 1 // int32 addition: 2³¹−1 + 1 wraps
		d := float64(r) / (1 << 31)
		next := javaIntOf(float64(candidate+1) / d)
		if next < 0 || int(next) >= buckets {
			return int(candidate)
		}
		candidate = next
	}
}

// javaIntOf is Java's (int) of a double: NaN is 0, and values beyond int's range saturate.
func javaIntOf(f float64) int32 {
	switch {
	case f != f:
		return 0
	case f >= 1<<31-1:
		return 1<<31 - 1
	case f <= -1<<31:
		return -1 << 31
	}
	return int32(f)
}
