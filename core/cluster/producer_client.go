package cluster

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/fault"
	"github.com/lbscope/lbscope/core/profile"
	"github.com/lbscope/lbscope/core/profile/goclient"
	"github.com/lbscope/lbscope/core/profile/java49"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
)

// A producer process runs one client SDK too (spec §9). The current Java client's send path
// is producer.go's, with the core's MQFaultStrategy; the others reuse their profile's code:
//   - java-4.9 (spec §9.2): the 4.9 latency table, a fault item's deadline overwritten on
//     every update, isolation for every retried exception (10 minutes), selection ignoring
//     the last broker in latency mode and falling back to pickOneAtLeast, no index reset.
//   - go-2.1.2 (spec §9.1.8): the publish list in name-server order after the position
//     sort's passes, the round-robin selector's per-topic counter (first pick index 1,
//     surviving route changes), no fault tolerance at all, up to 4 SYNC attempts that never
//     avoid the previous broker, each with its own 3 s timeout and no overall budget, and
//     async sends with one selection and no retry.

// producerClient is the profile-specific state of a producer.
type producerClient struct {
	prof     *profile.Profile
	j49      *java49.Strategy           // java-4.9: its MQFaultStrategy
	j49TP    []*java49.TopicPublishInfo // java-4.9: each thread's (its own ThreadLocalIndex)
	j49Worst []*java49.ThreadLocalIndex // java-4.9: each thread's whichItemWorst index
	goRR     *goclient.RoundRobin       // go-2.1.2: the default selector, shared by the threads
	goList   []route.MessageQueue       // go-2.1.2: the publish list
}

// initClient sets up the producer's profile from its config.
func (c *Cluster) initClient(p *producer, pc ProducerConfig) {
	prof, err := profile.Lookup(pc.Client)
	if err != nil {
		prof, _ = profile.Lookup("") // checkProducer refused it before
	}
	p.prof = prof
	switch prof.Name {
	case profile.Java49:
		p.j49 = java49.NewStrategy(p.rnd)
		p.j49.SendLatencyFaultEnable = c.latencyFault
		if pc.LatencyMax != nil {
			p.j49.Table.LatencyMax = slices.Clone(pc.LatencyMax)
		}
		if pc.NotAvailableDuration != nil {
			p.j49.Table.NotAvailableDuration = slices.Clone(pc.NotAvailableDuration)
		}
	case profile.Go212:
		p.goRR = goclient.NewRoundRobin()
	}
}

// checkProducerClient checks a producer's client name.
func checkProducerClient(pc ProducerConfig) error {
	if pc.Client == "" {
		return nil
	}
	if len(pc.Client) > MaxNameLen {
		return fmt.Errorf("client: %d characters; the limit is %d", len(pc.Client), MaxNameLen)
	}
	prof, err := profile.Lookup(pc.Client)
	if err != nil {
		return fmt.Errorf("client: %w", err)
	}
	if prof.Producer.Fault == nil && (pc.LatencyMax != nil || pc.NotAvailableDuration != nil) {
		return fmt.Errorf("latencyMax/notAvailableDuration: a %s producer has no latency fault tolerance (spec §9.1.8)", prof.Name)
	}
	return nil
}

// nameServerRoute is the topic's route as the name server answers it: one queue data per
// live broker in the order the brokers registered (the name server's own order is its
// table's; registration order is the simulation's choice, *inferred*), read-write, with a
// master address.
func (c *Cluster) nameServerRoute(t *topicState) *route.TopicRouteData {
	rd := &route.TopicRouteData{}
	for _, b := range c.brokers {
		bt := b.topicOf(t)
		if b.down || b.removed || bt == nil {
			continue
		}
		rd.QueueDatas = append(rd.QueueDatas, route.QueueData{BrokerName: b.name, ReadQueueNums: int32(bt.readQ),
			WriteQueueNums: int32(bt.writeQ), Perm: b.permOf(bt)})
		rd.BrokerDatas = append(rd.BrokerDatas, route.BrokerData{BrokerName: b.name,
			BrokerAddrs: map[int64]string{route.MasterID: "10.0.0." + strconv.Itoa(100+b.idx) + ":10911"}})
	}
	return rd
}

// refreshClientRoute builds the profile's publish lists after a route change.
func (c *Cluster) refreshClientRoute(p *producer) {
	switch p.prof.Name {
	case profile.Java49:
		rd := c.nameServerRoute(p.t)
		n := max(len(p.threads), 1)
		p.j49TP = p.j49TP[:0]
		for range n {
			p.j49TP = append(p.j49TP, &java49.TopicPublishInfo{Queues: slices.Clone(c.publishQueues(p.t)), Route: rd,
				SendWhichQueue: java49.NewThreadLocalIndex(p.rnd)})
		}
		for len(p.j49Worst) < n {
			p.j49Worst = append(p.j49Worst, java49.NewThreadLocalIndex(p.rnd)) // per thread, kept
		}
	case profile.Go212:
		// A standalone producer's list comes from two passes, on its first send and on every
		// changed route (spec §9.1.8).
		passes, _ := goclient.FirstSend.Passes()
		p.goList = goclient.PublishList(p.t.name, c.nameServerRoute(p.t), passes)
	}
}

// publishOK is the publish list's ok(): not empty.
func (p *producer) publishOK() bool {
	if p.prof.Name == profile.Go212 {
		return len(p.goList) > 0
	}
	return p.tp.Ok()
}

// faultOn reports whether the producer's latency fault tolerance is on (Go has none).
func (p *producer) faultOn() bool {
	switch p.prof.Name {
	case profile.Java49:
		return p.j49.SendLatencyFaultEnable
	case profile.Go212:
		return false
	}
	return p.fs.SendLatencyFaultEnable()
}

// setFaultOn switches it.
func (p *producer) setFaultOn(on bool) {
	p.fs.SetSendLatencyFaultEnable(on)
	if p.j49 != nil {
		p.j49.SendLatencyFaultEnable = on
	}
}

// retries is a SYNC send's retries (attempts = 1 + retries).
func (c *Cluster) retries(p *producer) int {
	if p.grpc {
		return grpcMaxAttempts - 1
	}
	if p.prof.Name == profile.Go212 {
		return p.prof.Producer.RetryTimes
	}
	return c.t.RetryTimesWhenSendFail
}

// pickQueue is the selection of thread j's attempt (thread 0 for async sends): last is the
// previous attempt's broker, retry says the attempt is not the first.
func (c *Cluster) pickQueue(p *producer, j int, last selector.LastBroker, retry bool, t int64) (route.MessageQueue, error) {
	switch p.prof.Name {
	case profile.Java49:
		var lb *string
		if last.Valid {
			name := last.Name
			lb = &name
		}
		p.j49.Tolerance.WhichItemWorst = p.j49Worst[j] // a ThreadLocalIndex: the thread's own
		mq, sel, err := p.j49.SelectOneMessageQueue(p.j49TP[j], lb, t)
		if sel.Removed && sel.PickedOK {
			c.isolationEnded(p, sel.RemovedName, t) // pickOneAtLeast forgot it
		}
		return mq, err
	case profile.Go212:
		// v2.1.2's SYNC loop shadows the picked queue: every attempt passes "" (spec §9.1.8).
		return p.goRR.Select(p.t.name, "", p.goList, "")
	}
	return p.fs.SelectOneMessageQueue(p.tpFor(j), last, retry, t)
}

// keyedQueue is a selector send's queue for the key with hash h (Java) or text key (Go).
func (p *producer) keyedQueue(h int32, key []byte) (route.MessageQueue, bool) {
	if p.prof.Name == profile.Go212 {
		// NewHashQueueSelector: FNV-1a of the sharding key (spec §9.1.8).
		if len(p.goList) == 0 {
			return route.MessageQueue{}, false
		}
		return p.goList[goclient.HashIndex(string(key), len(p.goList))], true
	}
	mqs := p.tp.MessageQueueList()
	if len(mqs) == 0 {
		return route.MessageQueue{}, false
	}
	return mqs[selector.HashIndex(h, len(mqs))], true
}

// customQueue is a keyed send's queue from the producer's own selector: select(list, msg,
// key) over the list the client passes, the publish list (spec §2.11). When the selector
// throws (an error, a budget run out, a queue not in the list) sendSelectImpl throws
// MQClientException("select message queue threw exception.") to the caller before sending:
// the send fails, and the log says why, at most once a second per producer unless the
// message changes.
func (c *Cluster) customQueue(p *producer, key string, t int64) (route.MessageQueue, bool) {
	var mqs []route.MessageQueue
	if p.prof.Name == profile.Go212 {
		mqs = p.goList // Go's selectors get the producer's own list (spec §9.1.8)
	} else {
		mqs = p.tp.MessageQueueList()
	}
	if len(mqs) == 0 {
		return route.MessageQueue{}, false
	}
	msg := selector.Message{Key: key, Tags: p.customTags, Seq: p.customSeq}
	p.customSeq++
	mq, err := selector.SelectChecked(p.custom, mqs, msg, key)
	if err == nil {
		return mq, true
	}
	if msg := err.Error(); msg != p.customErr || t >= p.customErrAt+1000 {
		p.customErr, p.customErrAt = msg, t
		c.emit(Event{T: t, Kind: EventInfo, Cause: CauseSelectorThrew, Arg: p.id, Error: msg,
			Text: fmt.Sprintf("producer %s: its selector %s threw %s; the send fails (MQClientException: select message queue threw exception.)", p.id, p.customName, msg)})
	}
	return route.MessageQueue{}, false
}

// applySetSelector sets the producers' (or one producer's) selector of their keyed sends:
// the user's, compiled from its source, or the hash again. A producer without keys makes no
// keyed sends: naming one is an error, and so is a run where none has keys.
func applySetSelector(c *Cluster, cmd Command) error {
	ps, err := c.producersFor(cmd.ID)
	if err != nil {
		return err
	}
	var set []*producer
	for _, p := range ps {
		if p.keys != nil {
			set = append(set, p)
		} else if cmd.ID != "" {
			return fmt.Errorf("%s sends without keys, so no send of it calls a selector (give it keys in the scenario)", p.id)
		}
	}
	if len(set) == 0 {
		return fmt.Errorf("no producer sends with keys, so no send calls a selector (give a producer keys in the scenario)")
	}
	var custom selector.Custom
	ch := cmd.SelectorChoice()
	if ch != nil {
		if custom, err = selector.New(*ch); err != nil {
			return fmt.Errorf("source: %v", err)
		}
	}
	for _, p := range set {
		p.custom, p.customErr = custom, ""
		p.customName = ""
		if ch != nil {
			p.customName = ch.Name
		}
	}
	return nil
}

// faultItem is the producer's fault item for a broker: its deadline and the latency it
// recorded.
func (p *producer) faultItem(broker string) (until, latency int64, ok bool) {
	switch p.prof.Name {
	case profile.Java49:
		it, ok := p.j49.Tolerance.Item(broker)
		return it.StartTimestamp, it.CurrentLatency, ok
	case profile.Go212:
		return 0, 0, false
	}
	it, ok := p.fs.FaultItem(broker)
	return it.StartTimestamp, it.CurrentLatency, ok
}

// faultUpdate49 is 4.9's updateFaultItem (spec §9.2): the deadline is overwritten, so a fast
// answer lifts an isolation at once. It returns false where a custom table's lookup throws.
func (c *Cluster) faultUpdate49(p *producer, broker string, latency int64, isolation bool, at int64) bool {
	if !p.j49.SendLatencyFaultEnable {
		return true
	}
	if err := p.j49.UpdateFaultItem(broker, latency, isolation, at); err != nil {
		return false
	}
	it, _ := p.j49.Tolerance.Item(broker)
	was := p.isolatedTill[broker]
	switch {
	case it.StartTimestamp <= at:
		if was > at {
			c.isolationEnded(p, broker, at)
		}
	case was > at:
		// The isolation goes on with the new deadline, later or earlier.
		p.isolatedTill[broker] = it.StartTimestamp
		p.isolatedFor[broker] = it.StartTimestamp - at
		if i := p.isolation[broker]; i >= 0 && i < len(c.isolations) {
			c.isolations[i].Until = it.StartTimestamp
		}
	default:
		c.isolationStarted(p, broker, latency, isolation, at, it.StartTimestamp)
	}
	return true
}

// isolationEnded ends the producer's isolation of broker at t, before its deadline.
func (c *Cluster) isolationEnded(p *producer, broker string, t int64) {
	if p.isolatedTill[broker] <= t {
		return
	}
	p.isolatedTill[broker] = t
	if i := p.isolation[broker]; i >= 0 && i < len(c.isolations) {
		c.isolations[i].Until = t
	}
}

// dropRetired ends the retiring threads once none of them is in a send.
func (p *producer) dropRetired() {
	for j := p.active; j < len(p.threads); j++ {
		if p.threads[j].busy {
			return
		}
	}
	p.threads = p.threads[:p.active]
	if len(p.threadTP) > max(p.active-1, 0) {
		p.threadTP = p.threadTP[:max(p.active-1, 0)]
	}
	if n := max(p.active, 1); len(p.j49TP) > n {
		p.j49TP, p.j49Worst = p.j49TP[:n], p.j49Worst[:n]
	}
	p.closed = true
}

// setThreads gives a sync producer n sending threads from now on: new threads start idle,
// threads beyond n finish the send they are in and stop, and the due times restart from now
// (as a rate change does).
func (c *Cluster) setThreads(p *producer, n int) {
	p.unsettleAfter(p.flowedAt)
	for len(p.threads) < n {
		p.threads = append(p.threads, sendThread{})
	}
	for j := range p.threads {
		p.threads[j].retire = j >= n
	}
	p.active = n
	// Each new thread's ThreadLocalIndex over the producer's current list (spec §2.1).
	switch p.prof.Name {
	case profile.Java:
		for len(p.threadTP) < len(p.threads)-1 {
			p.threadTP = append(p.threadTP, selector.NewTopicPublishInfo(p.tp.MessageQueueList(), p.rnd))
		}
	case profile.Java49:
		for len(p.j49TP) < len(p.threads) {
			tp := *p.j49TP[0]
			tp.SendWhichQueue = java49.NewThreadLocalIndex(p.rnd)
			p.j49TP = append(p.j49TP, &tp)
		}
		for len(p.j49Worst) < len(p.j49TP) {
			p.j49Worst = append(p.j49Worst, java49.NewThreadLocalIndex(p.rnd))
		}
	}
	p.setRate(p.rate, c.now)
}

// setMode switches a producer between sync and async sends from now on. Sends in progress
// finish as they began: the sync threads end after their send, async sends in flight keep
// their callbacks.
func (c *Cluster) setMode(p *producer, mode string, threads int) {
	if mode == SendSync {
		p.mode = SendSync
		c.setThreads(p, max(threads, 1))
		return
	}
	p.unsettleAfter(p.flowedAt)
	p.mode = SendAsync
	for j := range p.threads {
		p.threads[j].retire = true
	}
	p.active = 0
	p.setRate(p.rate, c.now) // async sends are due from now, idle threads stop
}

// tiersText is a tier array for the event log.
func tiersText(xs []int64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatInt(x, 10)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// producersFor are the producers a producer command with this id targets: one, or all when
// id is "".
func (c *Cluster) producersFor(id string) ([]*producer, error) {
	var out []*producer
	for _, p := range c.producers {
		if id == "" || p.id == id {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		if id == "" {
			return nil, errors.New("there is no producer")
		}
		var ids []string
		for _, p := range c.producers {
			ids = append(ids, p.id)
		}
		return nil, fmt.Errorf("no producer %q (producers: %s)", id, strings.Join(ids, ", "))
	}
	return out, nil
}

// applySetLatencyTiers is setLatencyMax / setNotAvailableDuration on the running producers:
// each replaces its array, the other stays (spec §2.12). A Go producer has none.
func applySetLatencyTiers(c *Cluster, cmd Command) error {
	ps, err := c.producersFor(cmd.ID)
	if err != nil {
		return err
	}
	var set []*producer
	for _, p := range ps {
		if p.prof.Name == profile.Go212 {
			if cmd.ID != "" {
				return fmt.Errorf("%s runs %s, which has no latency fault tolerance (spec §9.1.8)", p.id, p.prof.Name)
			}
			continue
		}
		set = append(set, p)
	}
	if len(set) == 0 {
		return fmt.Errorf("every producer runs %s, which has no latency fault tolerance (spec §9.1.8)", profile.Go212)
	}
	for _, p := range set {
		if p.j49 != nil {
			if cmd.LatencyMax != nil {
				p.j49.Table.LatencyMax = slices.Clone(cmd.LatencyMax)
			}
			if cmd.NotAvailableDuration != nil {
				p.j49.Table.NotAvailableDuration = slices.Clone(cmd.NotAvailableDuration)
			}
			continue
		}
		t := p.fs.Table()
		lm, nad := t.LatencyMax(), t.NotAvailableDuration()
		if cmd.LatencyMax != nil {
			lm = slices.Clone(cmd.LatencyMax)
		}
		if cmd.NotAvailableDuration != nil {
			nad = slices.Clone(cmd.NotAvailableDuration)
		}
		p.fs.SetTable(fault.NewCustomTable("custom", lm, nad, t.IsolationLatency()))
		p.customTable = true
	}
	return nil
}

func applySetProducerThreads(c *Cluster, cmd Command) error {
	ps, err := c.producersFor(cmd.ID)
	if err != nil {
		return err
	}
	for _, p := range ps {
		if p.mode == SendAsync {
			return fmt.Errorf("%s sends async: its sends do not block, so threads applies to mode %s (setSendMode %s first)", p.id, SendSync, SendSync)
		}
	}
	for _, p := range ps {
		c.setThreads(p, *cmd.Threads)
	}
	return nil
}

func applySetSendMode(c *Cluster, cmd Command) error {
	ps, err := c.producersFor(cmd.ID)
	if err != nil {
		return err
	}
	mode := strings.ToLower(cmd.Mode)
	threads := 0
	if cmd.Threads != nil {
		threads = *cmd.Threads
	}
	for _, p := range ps {
		if p.mode == mode && (mode == SendAsync || threads == 0 || threads == p.active) {
			continue // nothing changes
		}
		c.setMode(p, mode, threads)
	}
	return nil
}

// tiers are the latency tiers the producer uses (nil for Go).
func (p *producer) tiers() (latencyMax, notAvailableDuration []int64) {
	switch p.prof.Name {
	case profile.Java49:
		return slices.Clone(p.j49.Table.LatencyMax), slices.Clone(p.j49.Table.NotAvailableDuration)
	case profile.Go212:
		return nil, nil
	}
	t := p.fs.Table()
	return t.LatencyMax(), t.NotAvailableDuration()
}
