package cluster

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/fault"
	"github.com/lbscope/lbscope/core/profile"
)

// Apply carries out a command at the current virtual time. An error means nothing changed: a
// missing target, an impossible transition (killing a dead consumer) or a bad argument.
func (c *Cluster) Apply(cmd Command) error {
	// What the action sets off is told after the action itself.
	c.held = []Event{}
	c.actionText = ""
	err := c.apply(cmd)
	held := c.held
	c.held = nil
	if err != nil {
		return fmt.Errorf("%s: %w", cmd.Type, err)
	}
	e := actionEvent(cmd)
	if c.actionText != "" {
		e.Text = c.actionText // what the command did differs by client (spec §9)
	}
	c.emit(e)
	for _, e := range held {
		c.emit(e)
	}
	c.noteOwnership()
	return nil
}

func (c *Cluster) apply(cmd Command) error {
	if cmd.Type == "" {
		return errors.New("command has no type")
	}
	spec, ok := Lookup(cmd.Type)
	if !ok || spec.Apply == nil {
		return fmt.Errorf("unknown command (commands: %s)", strings.Join(CommandNames(), ", "))
	}
	// The table's limits hold here too, so that a page's dispatch cannot take the cluster
	// where no scenario file could (and a session can always be shared).
	if err := checkCommand("", cmd, true); err != nil {
		return err
	}
	return spec.Apply(c, cmd)
}

func applyAddConsumer(c *Cluster, cmd Command) error {
	if cmd.ID == "" {
		return errors.New("needs id, the new consumer's client id")
	}
	prev := c.process(cmd.ID)
	if len(prev) > 0 && !prev[0].dead {
		return fmt.Errorf("consumer %q is already running (restartConsumer starts a stopped one)", cmd.ID)
	}
	if n := len(c.consumerIDs()); len(prev) == 0 && n >= MaxConsumers {
		return fmt.Errorf("the group would have %d consumers; the limit is %d", n+1, MaxConsumers)
	}
	if len(c.consumers)+max(len(prev), 1) > maxProcesses {
		return fmt.Errorf("too many consumer processes (%d)", maxProcesses)
	}
	rate := 0
	if cmd.ConsumeRate != nil {
		rate = *cmd.ConsumeRate
	}
	var p *profile.Profile // nil: the client the id's previous process ran, or the default
	if cmd.Client != "" {
		var err error
		if p, err = lookupClient(cmd.Client); err != nil {
			return err
		}
	} else if len(prev) == 0 {
		p, _ = profile.Lookup("")
	} else {
		p = prev[0].prof
	}
	var from string
	if cmd.ConsumeFromWhere != "" {
		var err error
		if from, err = ParseConsumeFromWhere(strings.ToUpper(cmd.ConsumeFromWhere)); err != nil {
			return err
		}
	}
	// A new id joins the first group; a stopped one starts again with its memberships.
	groups := []*groupState{c.groups[0]}
	if len(prev) > 0 {
		groups = groups[:0]
		for _, cs := range prev {
			groups = append(groups, cs.g)
		}
	}
	for _, g := range groups {
		if err := checkClientStrategy(p, g.choice, g.params); err != nil {
			return fmt.Errorf("client: %w", err)
		}
	}
	for _, g := range groups {
		// Deployed as the group's first member is, unless told (a restart: as it was).
		brokerSide := false
		if i := slices.IndexFunc(c.consumers, func(o *consumer) bool { return o.g == g }); i >= 0 {
			brokerSide = c.consumers[i].brokerSide
		}
		for _, o := range prev {
			if o.g == g {
				brokerSide = o.brokerSide
			}
		}
		if cmd.ClientRebalance != nil {
			brokerSide = !*cmd.ClientRebalance
		}
		// Its kind: as told, else as the group's first member's (a restart: as it was).
		var px *proxyState
		simple := false
		if i := slices.IndexFunc(c.consumers, func(o *consumer) bool { return o.g == g }); i >= 0 && len(prev) == 0 && c.consumers[i].grpc {
			px, simple = c.proxies[c.consumers[i].px], c.consumers[i].simple.on
		}
		for _, o := range prev {
			if o.g == g && o.grpc {
				simple = o.simple.on
			}
		}
		switch cmd.Kind {
		case KindGrpcPush, KindGrpcSimple:
			simple = cmd.Kind == KindGrpcSimple
			if px == nil {
				var err error
				if px, err = c.proxyFor(""); err != nil {
					return err
				}
			}
		case KindPush:
			px = nil
		}
		viaProxy := 0
		if cmd.Proxy != "" && px == nil {
			// A classic client through the proxy's remoting port (assignment.go): modelled
			// with clientRebalance false only.
			if !brokerSide {
				return fmt.Errorf("proxy: %s would start as a push consumer (the classic client) computing its own queues, which is not modelled behind a proxy; say clientRebalance off, or kind grpc-push or grpc-simple", cmd.ID)
			}
			vp, err := c.proxyFor(cmd.Proxy)
			if err != nil {
				return err
			}
			if vp.local() {
				return fmt.Errorf("proxy: %s is inside the brokers (mode local): a classic consumer reaches them directly", vp.name)
			}
			viaProxy = vp.idx + 1
		} else if cmd.Proxy != "" {
			var err error
			if px, err = c.proxyFor(cmd.Proxy); err != nil {
				return err
			}
		}
		if px != nil {
			if err := checkGrpcGroup(g, simple); err != nil {
				return err
			}
		}
		c.nextViaProxy = viaProxy
		cs := c.startConsumer(cmd.ID, rate, p, g, nil, px)
		cs.brokerSide = brokerSide
		switch {
		case px == nil || !simple:
			cs.simple = simpleClient{}
		case !cs.simple.on: // a restart keeps its settings
			cs.simple = newSimpleClient(0, 0, 0)
		}
		if from != "" {
			cs.from = from // its first rebalance comes a second later at the earliest (spec §3.1)
		}
	}
	return nil
}

// process is the latest members of a consumer process (its client id) in every group it is a
// member of, in the groups' order; none for an id never started.
func (c *Cluster) process(id string) []*consumer {
	var out []*consumer
	for _, g := range c.groups {
		if cs := c.current[memberKey{id, g.idx}]; cs != nil {
			out = append(out, cs)
		}
	}
	return out
}

// onConsumer is the apply function of a command on an existing consumer process (its id): it
// acts on the process's member in every group, the first refusal stopping it (the members of
// one process live and die together, so they refuse alike).
func onConsumer(f func(c *Cluster, cs *consumer) error) func(*Cluster, Command) error {
	return func(c *Cluster, cmd Command) error {
		members := c.process(cmd.ID)
		if len(members) == 0 {
			return fmt.Errorf("no consumer %q (consumers: %s)", cmd.ID, strings.Join(c.consumerIDs(), ", "))
		}
		for _, cs := range members {
			if err := f(c, cs); err != nil {
				return err
			}
		}
		return nil
	}
}

// onBroker is the apply function of a command on an existing broker.
func onBroker(f func(c *Cluster, b *broker, cmd Command) error) func(*Cluster, Command) error {
	return func(c *Cluster, cmd Command) error {
		b := c.brokerBy[cmd.Broker]
		if b == nil {
			return fmt.Errorf("no broker %q (brokers: %s)", cmd.Broker, strings.Join(c.brokerNames(), ", "))
		}
		return f(c, b, cmd)
	}
}

// everywhereTopics counts the topics with queues on every broker.
func (c *Cluster) everywhereTopics() int {
	n := 0
	for _, t := range c.topics {
		if t.everywhere && !t.unsimulated {
			n++
		}
	}
	return n
}

// totalQueues is the queue count of every topic over all brokers.
func (c *Cluster) totalQueues() int {
	n := 0
	for _, b := range c.brokers {
		for _, bt := range b.topics {
			if bt != nil {
				n += bt.queues
			}
		}
	}
	return n
}

func applyAddBroker(c *Cluster, cmd Command) error {
	if cmd.Broker == "" {
		return errors.New("needs broker, the new broker's name")
	}
	if c.brokerBy[cmd.Broker] != nil {
		return fmt.Errorf("broker %q exists already", cmd.Broker)
	}
	n := addBrokerQueues
	if cmd.Queues != nil {
		n = *cmd.Queues
	}
	if len(c.brokers) >= MaxBrokers {
		return fmt.Errorf("%d brokers at most", MaxBrokers)
	}
	if t := c.totalQueues() + n*c.everywhereTopics(); t > MaxQueues {
		return fmt.Errorf("the topic would have %d queues in all; the limit is %d", t, MaxQueues)
	}
	var only *topicState
	if cmd.Topic != "" {
		var err error
		if only, err = c.declaredTopic(cmd.Topic); err != nil {
			return err
		}
	}
	b := c.addBroker(cmd.Broker, 0, 0)
	// Every topic that lives on every broker (or the one named) gets its queues there; the
	// name server serves them at once, clients see them at their next route poll (spec §1.3).
	for _, t := range c.topics {
		if t == only || only == nil && t.everywhere {
			q := n
			if t.unsimulated {
				q = 0
			}
			c.setQueueNums(b, t, q, q)
		}
	}
	return nil
}

// applyAddTopic creates a topic on every broker, as mqadmin updateTopic with a cluster does:
// the name server serves it at once, clients see it at their next route poll (spec §1.3);
// with a rate, a producer starts sending to it.
func applyAddTopic(c *Cluster, cmd Command) error {
	if cmd.Topic == "" {
		return errors.New("needs topic, the new topic's name")
	}
	if c.topicBy[cmd.Topic] != nil {
		return fmt.Errorf("topic %q exists already", cmd.Topic)
	}
	declared := 0
	for _, t := range c.topics {
		if t.group == nil && !t.unsimulated {
			declared++
		}
	}
	if declared >= MaxTopics {
		return fmt.Errorf("%d topics at most", MaxTopics)
	}
	n := addBrokerQueues
	if cmd.Queues != nil {
		n = *cmd.Queues
	}
	if t := c.totalQueues() + n*len(c.brokers); t > MaxQueues {
		return fmt.Errorf("the topics would have %d queues in all; the limit is %d", t, MaxQueues)
	}
	var id string
	if cmd.Rate != nil && *cmd.Rate > 0 {
		if len(c.producers) >= MaxProducers {
			return fmt.Errorf("%d producers at most", MaxProducers)
		}
		id = c.nextProducerID()
	}
	t := c.addTopic(cmd.Topic)
	t.everywhere = true
	for _, b := range c.brokers {
		c.setQueueNums(b, t, n, n)
	}
	if id != "" {
		c.startProducer(ProducerConfig{ID: id, Rate: *cmd.Rate, Topic: t.name})
	}
	return nil
}

// nextProducerID is p1, p2, …: the first no producer has.
func (c *Cluster) nextProducerID() string {
	for i := 1; ; i++ {
		id := "p" + strconv.Itoa(i)
		if !slices.ContainsFunc(c.producers, func(p *producer) bool { return p.id == id }) {
			return id
		}
	}
}

func applySetStrategy(c *Cluster, cmd Command) error {
	p := allocate.Params{}
	if cmd.Params != nil {
		p = *cmd.Params
	}
	s, err := allocate.NewChoice(cmd.Choice(), p)
	if err != nil {
		return err
	}
	g, err := c.commandGroup(cmd.Group)
	if err != nil {
		return err
	}
	if cmd.ID != "" {
		// One member is redeployed with it: the rolling deploy's step (the others keep
		// theirs, and the group disagrees until the last member has it).
		cs := c.current[memberKey{cmd.ID, g.idx}]
		if cs == nil {
			return fmt.Errorf("no member %q of %s (members: %s)", cmd.ID, g.name, strings.Join(c.memberIDs(g), ", "))
		}
		if err := checkClientStrategy(cs.prof, cmd.Choice(), p); err != nil {
			return fmt.Errorf("%s: %w", cs.id, err)
		}
		cs.own = &groupState{name: g.name, strategy: s, params: cloneParams(p), choice: cmd.Choice()}
		return nil
	}
	// Every running member builds it under its own client's rules (spec §9): one that cannot
	// run it refuses the command.
	for _, cs := range c.consumers {
		if !cs.dead && cs.g == g {
			if err := checkClientStrategy(cs.prof, cmd.Choice(), p); err != nil {
				return fmt.Errorf("%s: %w", cs.id, err)
			}
		}
	}
	g.strategy, g.params, g.goStrategy, g.choice = s, cloneParams(p), nil, cmd.Choice() // each consumer uses it from its next round on
	for _, cs := range c.consumers {
		if cs.g == g {
			cs.own = nil // the whole group is set alike
		}
	}
	return nil
}

// commandGroup is the group a command names ("": the first).
func (c *Cluster) commandGroup(name string) (*groupState, error) {
	if name == "" {
		return c.groups[0], nil
	}
	if g := c.groupBy[name]; g != nil {
		return g, nil
	}
	var names []string
	for _, g := range c.groups {
		names = append(names, g.name)
	}
	return nil, fmt.Errorf("no group %q (groups: %s)", name, strings.Join(names, ", "))
}

// memberIDs lists g's members' ids in start order.
func (c *Cluster) memberIDs(g *groupState) []string {
	var ids []string
	for _, cs := range c.consumers {
		if cs.g == g && cs.first {
			ids = append(ids, cs.id)
		}
	}
	return ids
}

// applySetSubscription changes one member's subscriptions (spec §3.14, §5.7): subscribe and
// unsubscribe send a heartbeat at once, and fetch a new topic's route; the next round
// rebalances the new set and drops the process queues of the topics it left
// (truncateMessageQueueNotMyTopic).
func applySetSubscription(c *Cluster, cmd Command) error {
	subs, err := ParseSubscriptions(cmd.Subscription)
	if err != nil {
		return err
	}
	cs, err := c.commandMember(cmd)
	if err != nil {
		return err
	}
	var next []subscription
	for _, sc := range subs {
		t := c.topicBy[sc.Topic]
		if t == nil || t.group != nil {
			_, err := c.declaredTopic(sc.Topic)
			return err
		}
		next = append(next, subscription{t: t, tags: sc.Tags})
	}
	if cs.g.retry != nil {
		next = append(next, subscription{t: cs.g.retry})
	}
	cs.subscribe(next, c.now) // subscribe() stamps the subscriptions with the time (spec §5.7)
	c.refreshConsumerRoute(cs)
	c.heartbeatAll(cs, 0)
	return nil
}

// applySetFailRate sets the share of deliveries a member's listener fails from now on; its
// failures already on their way keep theirs (spec §3.15).
func applySetFailRate(c *Cluster, cmd Command) error {
	cs, err := c.commandMember(cmd)
	if err != nil {
		return err
	}
	cs.failPPM = int64(*cmd.FailPercent) * 10000
	return nil
}

// applySetAutoscale arms, replaces or turns off a group's autoscaler: a new rule starts from
// its first reading, one period from now.
func applySetAutoscale(c *Cluster, cmd Command) error {
	g, err := c.commandGroup(cmd.Group)
	if err != nil {
		return err
	}
	a := cmd.Autoscale()
	if a == nil {
		g.scaler = nil // its pending reading finds it off
		return nil
	}
	c.startAutoscaler(g, a)
	return nil
}

// commandMember is the running membership a consumer command names: the process's
// membership of the command's group, or its only one.
func (c *Cluster) commandMember(cmd Command) (*consumer, error) {
	members := c.process(cmd.ID)
	if len(members) == 0 {
		return nil, fmt.Errorf("no consumer %q (consumers: %s)", cmd.ID, strings.Join(c.consumerIDs(), ", "))
	}
	cs := members[0]
	if cmd.Group != "" {
		g, err := c.commandGroup(cmd.Group)
		if err != nil {
			return nil, err
		}
		if cs = c.current[memberKey{cmd.ID, g.idx}]; cs == nil {
			return nil, fmt.Errorf("%s is no member of %s", cmd.ID, g.name)
		}
	} else if len(members) > 1 {
		return nil, fmt.Errorf("%s is a member of %d groups: name the group", cmd.ID, len(members))
	}
	if cs.dead {
		return nil, fmt.Errorf("consumer %q is not running", cs.id)
	}
	return cs, nil
}

func applySetProducerRate(c *Cluster, cmd Command) error {
	found := false
	for _, p := range c.producers {
		if cmd.ID == "" || p.id == cmd.ID {
			p.setRate(*cmd.Rate, c.now)
			found = true
		}
	}
	if !found {
		if cmd.ID == "" {
			c.startProducer(ProducerConfig{ID: "p1", Rate: *cmd.Rate})
			return nil
		}
		return fmt.Errorf("no producer %q", cmd.ID)
	}
	return nil
}

func applySetLatencyFault(c *Cluster, cmd Command) error {
	c.latencyFault = *cmd.On
	for _, p := range c.producers {
		p.unsettleAfter(p.flowedAt) // their responses will report to the table
		if !p.grpc {                // a gRPC producer has none (grpc_producer.go)
			p.setFaultOn(*cmd.On)
		}
	}
	return nil
}

func applySetFaultTable(c *Cluster, cmd Command) error {
	t, err := fault.TableByName(cmd.Table)
	if err != nil {
		return err
	}
	c.faultTable = t
	for _, p := range c.producers {
		if !p.customTable && p.prof.Name == profile.Java { // a producer's own tiers stay (spec §2.12); 4.9 and Go keep their client's
			p.fs.SetTable(t)
		}
	}
	return nil
}

// applySetConsumeMode is mqadmin setConsumeMode -c for the group's topics (spec §8.1 item 2):
// read by each QUERY_ASSIGNMENT from then on.
func applySetConsumeMode(c *Cluster, cmd Command) error {
	g, err := c.commandGroup(cmd.Group)
	if err != nil {
		return err
	}
	g.mode, g.popShare = strings.ToUpper(cmd.ConsumeMode), 0
	if cmd.PopShareQueueNum != nil {
		g.popShare = *cmd.PopShareQueueNum
	}
	return nil
}

func applySetMessageModel(c *Cluster, cmd Command) error {
	g, err := c.commandGroup(cmd.Group)
	if err != nil {
		return err
	}
	g.model = cmd.Model
	return nil
}

// addBrokerQueues is the queue count of a broker added without one.
const addBrokerQueues = 4

// maxProcesses bounds consumer processes ever started (restarts included).
const maxProcesses = 4096

func applyKill(c *Cluster, cs *consumer) error {
	if cs.dead {
		return fmt.Errorf("consumer %q is not running", cs.id)
	}
	c.kill(cs)
	return nil
}

func applyStop(c *Cluster, cs *consumer) error {
	if cs.dead {
		return fmt.Errorf("consumer %q is not running", cs.id)
	}
	if cs.partitioned {
		return fmt.Errorf("consumer %q is cut off: a graceful shutdown could reach no broker (kill it, or heal it first)", cs.id)
	}
	c.stop(cs)
	return nil
}

func applyPartition(c *Cluster, cs *consumer) error {
	if cs.dead || cs.partitioned {
		return fmt.Errorf("consumer %q is not running connected", cs.id)
	}
	cs.partitioned = true
	for _, b := range c.brokers {
		c.scheduleIdle(b, cs)
	}
	if at, ok := c.expectedExpiry(cs); ok {
		c.emit(Event{Kind: EventInfo, Cause: CauseExpiryAhead, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Until: at,
			Text: fmt.Sprintf("nobody is told: brokers will expire %s around %s, 120 s after its last heartbeat, without notifying anyone; until then every rebalance still gives it queues", cs.id, clock(at))})
	}
	return nil
}

func applyHeal(c *Cluster, cs *consumer) error {
	if !cs.partitioned || cs.dead {
		return fmt.Errorf("consumer %q is not cut off", cs.id)
	}
	cs.partitioned = false
	for _, pq := range cs.pqList {
		pq.pullResumeAt = c.now // its pulls go out again
	}
	c.reconnect(cs)
	return nil
}

func applyRestart(c *Cluster, cs *consumer, client string) error {
	if !cs.dead && !cs.partitioned {
		return fmt.Errorf("consumer %q is running; kill or stop it first", cs.id)
	}
	p := cs.prof // the same program starts again, unless told otherwise
	if client != "" {
		var err error
		if p, err = lookupClient(client); err != nil {
			return err
		}
	}
	if err := checkClientStrategy(p, cs.g.choice, cs.g.params); err != nil {
		return fmt.Errorf("client: %w", err)
	}
	if cs.partitioned && !cs.dead {
		// The host came back with a new process: the old one is gone, but brokers still
		// hold its silent channel, so the id is listed twice until it goes (spec §5.1).
		cs.dead = true
		cs.clearQueues()
	}
	n := c.startConsumer(cs.id, cs.rate, p, cs.g, nil, nil)
	if p.RestartKeepsID() && !cs.fixedName {
		c.actionText = cs.id + " restarts: a new process, with the same client id " + n.cid + " (a Go client's IP@PID)"
	}
	return nil
}

func applyHang(c *Cluster, cs *consumer) error {
	if cs.dead || cs.hung {
		return fmt.Errorf("consumer %q is not running normally", cs.id)
	}
	cs.hung = true
	return nil
}

func applyResume(c *Cluster, cs *consumer) error {
	if !cs.hung || cs.dead {
		return fmt.Errorf("consumer %q is not hung", cs.id)
	}
	cs.hung = false
	return nil
}

// kill ends the process: the OS closes its connections, each broker drops it at once and
// notifies the group; nothing is uploaded (spec §3.11).
func (c *Cluster) kill(cs *consumer) {
	cs.dead, cs.killed = true, true
	cs.clearQueues()
	if cs.partitioned || cs.grpc {
		// A gRPC client is on no broker; its proxy notices when its channel expires.
		return // its FIN never reaches anyone: the brokers find out by expiry or idle close
	}
	for _, b := range c.brokers {
		if !b.down {
			c.closeChannel(b, cs, CauseConnectionClosed)
		}
	}
}

// stop is a graceful shutdown (spec §3.11): consumption stops (running listener calls finish
// unrecorded), offsets are uploaded, the client unregisters from every broker.
func (c *Cluster) stop(cs *consumer) {
	if cs.grpc {
		// NotifyClientTermination: the proxy unregisters it and clears what it held at once
		// (spec §8.4.6, §8.6.4 item 6; the client's drain before it, up to 23 s for its
		// receives in flight and 1 s of sleep, is not modelled: it stops consuming at once).
		cs.dead = true
		cs.clearQueues()
		c.actionText = cs.cid + " shuts down gracefully: it stops receiving and tells its proxy (NotifyClientTermination)"
		px := c.proxies[cs.px]
		if px.local() {
			// The proxy inside each broker unregisters it from its broker (a CHANGE there)
			// and clears the handles it holds.
			for _, b := range c.brokers {
				if ch := b.groupOf(cs).chans[cs.idx]; !b.down && ch != nil {
					c.unregister(b, cs)
				}
			}
			c.clearHandles(px, cs, -1, nil)
			return
		}
		if px.down {
			// The notice fails like every call to a dead proxy; nobody renews its messages
			// anyway, and they come back at the end of their invisible time (proxy.go).
			c.actionText = cs.cid + " shuts down gracefully: it stops receiving; its NotifyClientTermination fails, " + px.name + " is down"
			return
		}
		px.chans = slices.DeleteFunc(px.chans, func(ch proxyChan) bool { return ch.cons == cs.idx })
		c.clearHandles(px, cs, -1, nil)
		return
	}
	for _, pq := range cs.pqList {
		c.finishRunning(cs, pq)
	}
	c.persistAll(cs)
	if cs.locks() {
		c.unlockAll(cs) // after the offsets, synchronously (spec §8.5.2)
	}
	cs.dead = true
	if !cs.prof.Timing.UnregisterOnShutdown {
		c.actionText = cs.cid + " shuts down: offsets uploaded, then its connections closed (a Go client sends no UNREGISTER_CLIENT)"
	}
	for _, b := range c.brokers {
		if b.down || cs.viaProxy != 0 { // one behind a proxy unregisters there
			continue
		}
		if cs.prof.Timing.UnregisterOnShutdown {
			c.unregister(b, cs)
		} else {
			// Go sends no UNREGISTER_CLIENT: it closes its connections, and each broker's
			// close handler notifies the group (spec §9.1.9).
			c.closeChannel(b, cs, CauseConnectionClosed)
		}
	}
	cs.clearQueues()
}

func applySlow(c *Cluster, b *broker, cmd Command) error {
	b.latencyMs = *cmd.LatencyMs
	return nil
}

func applyBrokerDown(c *Cluster, b *broker, cmd Command) error {
	if b.down {
		return fmt.Errorf("broker %q is down already", b.name)
	}
	// The process dies: clients see their connections close, the name server drops it
	// from the route at once; its consumer table is gone with it.
	b.down = true
	b.crashOffsets() // commits since the last flush are lost (spec §5.5)
	b.flushGen++     // its flush timer dies with it
	c.brokerKilled(b)
	c.localProxyDown(b)
	b.dropAll()
	c.routeChanged(b)
	return nil
}

func applyBrokerBack(c *Cluster, b *broker, cmd Command) error {
	if !b.down {
		return fmt.Errorf("broker %q is up", b.name)
	}
	b.down, b.startedAt, b.removed = false, c.now, false // a restarted broker registers again
	c.scheduleFlush(b, c.now+10000)
	c.routeChanged(b)
	return nil
}

func applySetQueues(c *Cluster, b *broker, cmd Command) error {
	t, err := c.declaredTopic(cmd.Topic)
	if err != nil {
		return err
	}
	old := 0
	if bt := b.topicOf(t); bt != nil {
		old = bt.queues
	}
	read, write := *cmd.Queues, *cmd.Queues
	if cmd.ReadQueueNums != nil && *cmd.ReadQueueNums > 0 {
		read = *cmd.ReadQueueNums
	}
	if cmd.WriteQueueNums != nil && *cmd.WriteQueueNums > 0 {
		write = *cmd.WriteQueueNums
	}
	if n := c.totalQueues() - old + max(read, write); n > MaxQueues {
		return fmt.Errorf("the topic would have %d queues in all; the limit is %d", n, MaxQueues)
	}
	c.setQueueNums(b, t, read, write)
	return nil
}

// declaredTopic is the topic a command names: one of the scenario's (not a retry or
// dead-letter topic); "" is the first.
func (c *Cluster) declaredTopic(name string) (*topicState, error) {
	if name == "" {
		return c.topics[0], nil
	}
	t := c.topicBy[name]
	if t == nil || t.group != nil || t.unsimulated {
		var names []string
		for _, x := range c.topics {
			if x.group == nil && !x.unsimulated {
				names = append(names, x.name)
			}
		}
		return nil, fmt.Errorf("no topic %q (topics: %s)", name, strings.Join(names, ", "))
	}
	return t, nil
}

// applySetPerm is updateBrokerConfig brokerPermission: every topic of the broker is read and
// written as the permission allows, in the routes the name server serves from now on (spec
// §1.3); clients see it at their next route refresh.
func applySetPerm(c *Cluster, b *broker, cmd Command) error {
	b.perm = cmd.Perm
	c.routeChanged(b)
	return nil
}

// applyRemoveBroker takes the broker out of the name server's routes; it keeps running and
// answers whoever still routes to it, until their next refresh.
func applyRemoveBroker(c *Cluster, b *broker, cmd Command) error {
	if b.removed {
		return fmt.Errorf("broker %q is removed already", b.name)
	}
	b.removed = true
	c.routeChanged(b)
	return nil
}

// consumerIDs lists client ids in the order they first started.
func (c *Cluster) consumerIDs() []string {
	var ids []string
	seen := map[string]bool{}
	for _, cs := range c.consumers {
		if !seen[cs.id] {
			seen[cs.id] = true
			ids = append(ids, cs.id)
		}
	}
	return ids
}

func (c *Cluster) brokerNames() []string {
	var names []string
	for _, b := range c.brokers {
		names = append(names, b.name)
	}
	return names
}

// actionEvent is an applied command's event: its type as the cause, with the values the
// command set (the table of Causes).
func actionEvent(cmd Command) Event {
	spec, _ := Lookup(cmd.Type)
	e := Event{Kind: EventAction, Cause: cmd.Type, Consumer: cmd.ID, Broker: cmd.Broker, Text: spec.Describe(cmd)}
	if spec.Event != nil {
		spec.Event(cmd, &e)
	}
	return e
}
