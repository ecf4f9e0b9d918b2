package cluster

import (
	"errors"
	"fmt"
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
	if cs := c.current[cmd.ID]; cs != nil && !cs.dead {
		return fmt.Errorf("consumer %q is already running (restartConsumer starts a stopped one)", cmd.ID)
	}
	if c.current[cmd.ID] == nil && len(c.current) >= MaxConsumers {
		return fmt.Errorf("the group would have %d consumers; the limit is %d", len(c.current)+1, MaxConsumers)
	}
	if len(c.consumers) >= maxProcesses {
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
	} else if c.current[cmd.ID] == nil {
		p, _ = profile.Lookup("")
	} else {
		p = c.current[cmd.ID].prof
	}
	if err := checkClientStrategy(p, c.group.choice, c.group.params); err != nil {
		return fmt.Errorf("client: %w", err)
	}
	cs := c.startConsumer(cmd.ID, rate, p, "")
	if cmd.ConsumeFromWhere != "" {
		from, err := ParseConsumeFromWhere(strings.ToUpper(cmd.ConsumeFromWhere))
		if err != nil {
			return err
		}
		cs.from = from // its first rebalance comes a second later at the earliest (spec §3.1)
	}
	return nil
}

// onConsumer is the apply function of a command on an existing consumer (its id).
func onConsumer(f func(c *Cluster, cs *consumer) error) func(*Cluster, Command) error {
	return func(c *Cluster, cmd Command) error {
		cs := c.current[cmd.ID]
		if cs == nil {
			return fmt.Errorf("no consumer %q (consumers: %s)", cmd.ID, strings.Join(c.consumerIDs(), ", "))
		}
		return f(c, cs)
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

// totalQueues is the topic's queue count over all brokers.
func (c *Cluster) totalQueues() int {
	n := 0
	for _, b := range c.brokers {
		n += b.topic.queues
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
	if t := c.totalQueues() + n; t > MaxQueues {
		return fmt.Errorf("the topic would have %d queues in all; the limit is %d", t, MaxQueues)
	}
	c.addBroker(cmd.Broker, n, 0, 0)
	return nil
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
	// Every running member builds it under its own client's rules (spec §9): one that cannot
	// run it refuses the command.
	for _, cs := range c.consumers {
		if !cs.dead {
			if err := checkClientStrategy(cs.prof, cmd.Choice(), p); err != nil {
				return fmt.Errorf("%s: %w", cs.id, err)
			}
		}
	}
	c.group.strategy, c.group.params, c.group.goStrategy, c.group.choice = s, cloneParams(p), nil, cmd.Choice() // each consumer uses it from its next round on
	return nil
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
		p.setFaultOn(*cmd.On)
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

func applySetMessageModel(c *Cluster, cmd Command) error {
	c.group.model = cmd.Model
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
		c.emit(Event{Kind: EventInfo, Cause: CauseExpiryAhead, Consumer: cs.id, Until: at,
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
	if err := checkClientStrategy(p, c.group.choice, c.group.params); err != nil {
		return fmt.Errorf("client: %w", err)
	}
	if cs.partitioned && !cs.dead {
		// The host came back with a new process: the old one is gone, but brokers still
		// hold its silent channel, so the id is listed twice until it goes (spec §5.1).
		cs.dead = true
		cs.clearQueues()
	}
	n := c.startConsumer(cs.id, cs.rate, p, "")
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
	if cs.partitioned {
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
	for _, pq := range cs.pqList {
		c.finishRunning(cs, pq)
	}
	c.persistAll(cs)
	cs.dead = true
	if !cs.prof.Timing.UnregisterOnShutdown {
		c.actionText = cs.cid + " shuts down: offsets uploaded, then its connections closed (a Go client sends no UNREGISTER_CLIENT)"
	}
	for _, b := range c.brokers {
		if b.down {
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
	for _, inst := range b.channelOrder() {
		b.dropChannel(inst)
	}
	b.group.subTopic = "" // the group's table goes with its connections (spec §5.7)
	c.topic.routeVersion++
	return nil
}

func applyBrokerBack(c *Cluster, b *broker, cmd Command) error {
	if !b.down {
		return fmt.Errorf("broker %q is up", b.name)
	}
	b.down = false
	c.scheduleFlush(b, c.now+10000)
	c.topic.routeVersion++
	return nil
}

func applySetQueues(c *Cluster, b *broker, cmd Command) error {
	if t := c.totalQueues() - b.topic.queues + *cmd.Queues; t > MaxQueues {
		return fmt.Errorf("the topic would have %d queues in all; the limit is %d", t, MaxQueues)
	}
	c.setBrokerQueues(b, *cmd.Queues)
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
