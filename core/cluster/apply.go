package cluster

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/fault"
)

// Apply carries out a command at the current virtual time. An error means nothing changed: a
// missing target, an impossible transition (killing a dead consumer) or a bad argument.
func (c *Cluster) Apply(cmd Command) error {
	// What the action sets off is told after the action itself.
	c.held = []Event{}
	err := c.apply(cmd)
	held := c.held
	c.held = nil
	if err != nil {
		return fmt.Errorf("%s: %w", cmd.Type, err)
	}
	c.emit(actionEvent(cmd))
	for _, e := range held {
		c.emit(e)
	}
	c.noteOwnership()
	return nil
}

func (c *Cluster) apply(cmd Command) error {
	switch cmd.Type {
	case "addConsumer":
		if cmd.ID == "" {
			return errors.New("needs id, the new consumer's client id")
		}
		if cs := c.current[cmd.ID]; cs != nil && !cs.dead {
			return fmt.Errorf("consumer %q is already running (restartConsumer starts a stopped one)", cmd.ID)
		}
		if len(c.consumers) >= maxProcesses {
			return fmt.Errorf("too many consumer processes (%d)", maxProcesses)
		}
		rate := 0
		if cmd.ConsumeRate != nil {
			if *cmd.ConsumeRate < 0 {
				return fmt.Errorf("consumeRate %d: want ≥ 0", *cmd.ConsumeRate)
			}
			rate = *cmd.ConsumeRate
		}
		c.startConsumer(cmd.ID, rate)
		return nil
	case "killConsumer", "stopConsumer", "partitionConsumer", "healConsumer", "restartConsumer", "hangConsumer", "resumeConsumer":
		cs := c.current[cmd.ID]
		if cs == nil {
			return fmt.Errorf("no consumer %q (consumers: %s)", cmd.ID, strings.Join(c.consumerIDs(), ", "))
		}
		return c.applyConsumer(cmd.Type, cs)
	case "slowBroker", "killBroker", "restoreBroker", "setQueues":
		b := c.brokerBy[cmd.Broker]
		if b == nil {
			return fmt.Errorf("no broker %q (brokers: %s)", cmd.Broker, strings.Join(c.brokerNames(), ", "))
		}
		return c.applyBroker(cmd, b)
	case "addBroker":
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
		if n < 0 || n > 4096 {
			return fmt.Errorf("queues %d: want 0…4096", n)
		}
		if len(c.brokers) >= 64 {
			return errors.New("64 brokers at most")
		}
		c.addBroker(cmd.Broker, n, 0)
		return nil
	case "setStrategy":
		p := allocate.Params{}
		if cmd.Params != nil {
			p = *cmd.Params
		}
		s, err := allocate.New(cmd.Strategy, p)
		if err != nil {
			return err
		}
		c.strategy = s // each consumer uses it from its next round on
		return nil
	case "setProducerRate":
		if cmd.Rate == nil || *cmd.Rate < 0 || *cmd.Rate > 100000 {
			return errors.New("needs rate, messages per second 0…100000")
		}
		found := false
		for _, p := range c.producers {
			if cmd.ID == "" || p.id == cmd.ID {
				p.setRate(*cmd.Rate, c.now)
				found = true
			}
		}
		if !found {
			if cmd.ID == "" {
				c.startProducer("p1", *cmd.Rate)
				return nil
			}
			return fmt.Errorf("no producer %q", cmd.ID)
		}
		return nil
	case "setLatencyFault":
		if cmd.On == nil {
			return errors.New("needs on, true or false")
		}
		c.latencyFault = *cmd.On
		for _, p := range c.producers {
			p.fs.SetSendLatencyFaultEnable(*cmd.On)
		}
		return nil
	case "setFaultTable":
		t, err := fault.TableByName(cmd.Table)
		if err != nil {
			return err
		}
		c.faultTable = t
		for _, p := range c.producers {
			p.fs.SetTable(t)
		}
		return nil
	case "setMessageModel":
		if cmd.Model != Clustering && cmd.Model != Broadcasting {
			return fmt.Errorf("model %q: want CLUSTERING or BROADCASTING", cmd.Model)
		}
		c.model = cmd.Model
		return nil
	case "":
		return errors.New("command has no type")
	}
	return fmt.Errorf("unknown command (commands: %s)", strings.Join(commandNames(), ", "))
}

// addBrokerQueues is the queue count of a broker added without one.
const addBrokerQueues = 4

// maxProcesses bounds consumer processes ever started (restarts included).
const maxProcesses = 4096

func (c *Cluster) applyConsumer(kind string, cs *consumer) error {
	switch kind {
	case "killConsumer":
		if cs.dead {
			return fmt.Errorf("consumer %q is not running", cs.id)
		}
		c.kill(cs)
	case "stopConsumer":
		if cs.dead {
			return fmt.Errorf("consumer %q is not running", cs.id)
		}
		if cs.partitioned {
			return fmt.Errorf("consumer %q is cut off: a graceful shutdown could reach no broker (kill it, or heal it first)", cs.id)
		}
		c.stop(cs)
	case "partitionConsumer":
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
	case "healConsumer":
		if !cs.partitioned || cs.dead {
			return fmt.Errorf("consumer %q is not cut off", cs.id)
		}
		cs.partitioned = false
		for _, pq := range cs.pqList {
			pq.pullResumeAt = c.now // its pulls go out again
		}
	case "restartConsumer":
		if !cs.dead && !cs.partitioned {
			return fmt.Errorf("consumer %q is running; kill or stop it first", cs.id)
		}
		if cs.partitioned && !cs.dead {
			// The host came back with a new process: the old one is gone, but brokers still
			// hold its silent channel, so the id is listed twice until it goes (spec §5.1).
			cs.dead = true
			cs.clearQueues()
		}
		c.startConsumer(cs.id, cs.rate)
	case "hangConsumer":
		if cs.dead || cs.hung {
			return fmt.Errorf("consumer %q is not running normally", cs.id)
		}
		cs.hung = true
	case "resumeConsumer":
		if !cs.hung || cs.dead {
			return fmt.Errorf("consumer %q is not hung", cs.id)
		}
		cs.hung = false
	}
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
	for _, b := range c.brokers {
		if !b.down {
			c.unregister(b, cs)
		}
	}
	cs.clearQueues()
}

func (c *Cluster) applyBroker(cmd Command, b *broker) error {
	switch cmd.Type {
	case "slowBroker":
		if cmd.LatencyMs == nil || *cmd.LatencyMs < 0 || *cmd.LatencyMs > 600000 {
			return errors.New("needs latencyMs, 0…600000")
		}
		b.latencyMs = *cmd.LatencyMs
	case "killBroker":
		if b.down {
			return fmt.Errorf("broker %q is down already", b.name)
		}
		// The process dies: clients see their connections close, the name server drops it
		// from the route at once; its consumer table is gone with it.
		b.down = true
		for _, inst := range b.channelOrder() {
			b.dropChannel(inst)
		}
		c.routeVersion++
	case "restoreBroker":
		if !b.down {
			return fmt.Errorf("broker %q is up", b.name)
		}
		b.down = false
		c.routeVersion++
	case "setQueues":
		if cmd.Queues == nil || *cmd.Queues < 0 || *cmd.Queues > 4096 {
			return errors.New("needs queues, 0…4096")
		}
		c.setBrokerQueues(b, *cmd.Queues)
	}
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

func commandNames() []string {
	names := make([]string, 0, len(CommandTypes))
	for k := range CommandTypes {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// actionEvent is an applied command's event: its type as the cause, with the values the
// command set (the table of Causes).
func actionEvent(cmd Command) Event {
	e := Event{Kind: EventAction, Cause: cmd.Type, Consumer: cmd.ID, Broker: cmd.Broker, Text: describe(cmd)}
	switch cmd.Type {
	case "slowBroker":
		e.LatencyMs = int64(*cmd.LatencyMs)
	case "addBroker", "setQueues":
		e.N = addBrokerQueues
		if cmd.Queues != nil {
			e.N = int64(*cmd.Queues)
		}
	case "setProducerRate":
		e.N = int64(*cmd.Rate)
	case "setStrategy":
		e.Arg = strings.ToUpper(cmd.Strategy)
	case "setLatencyFault":
		e.Arg = "off"
		if *cmd.On {
			e.Arg = "on"
		}
	case "setFaultTable":
		e.Arg = cmd.Table
	case "setMessageModel":
		e.Arg = cmd.Model
	}
	return e
}

// describe words a command for the event log.
func describe(cmd Command) string {
	switch cmd.Type {
	case "addConsumer":
		return cmd.ID + " starts and joins the group"
	case "killConsumer":
		return cmd.ID + " is killed: its connections close"
	case "partitionConsumer":
		return cmd.ID + " loses its network: brokers keep listing it until its channel expires"
	case "healConsumer":
		return cmd.ID + "'s network is back"
	case "stopConsumer":
		return cmd.ID + " shuts down gracefully: offsets uploaded, then unregistered"
	case "restartConsumer":
		return cmd.ID + " restarts with the same client id"
	case "hangConsumer":
		return cmd.ID + " hangs: it heartbeats but consumes nothing"
	case "resumeConsumer":
		return cmd.ID + " consumes again"
	case "slowBroker":
		return fmt.Sprintf("%s now answers sends in %d ms more", cmd.Broker, *cmd.LatencyMs)
	case "killBroker":
		return cmd.Broker + " goes down"
	case "restoreBroker":
		return cmd.Broker + " is back"
	case "addBroker":
		return cmd.Broker + " joins the cluster"
	case "setQueues":
		return fmt.Sprintf("%s now has %d queues for the topic", cmd.Broker, *cmd.Queues)
	case "setStrategy":
		return "strategy set to " + strings.ToUpper(cmd.Strategy) + "; each consumer uses it from its next rebalance"
	case "setProducerRate":
		return fmt.Sprintf("producers send %d messages/s", *cmd.Rate)
	case "setLatencyFault":
		if *cmd.On {
			return "latency fault tolerance on"
		}
		return "latency fault tolerance off"
	case "setFaultTable":
		return "fault table: " + cmd.Table
	case "setMessageModel":
		return "message model: " + cmd.Model
	}
	return cmd.Type
}
