package scenario

import (
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/fault"
)

// Incidents are one-click reproductions of problems RocketMQ users reported, each citing its
// report. They are presets (Presets lists them too), named "incident-…".
//
// Two reports cannot be reproduced by the simulation as it stands, and are left out rather
// than approximated: read and write queue counts that differ (a broker has one queue count
// here) and members of one group with different subscriptions (the group has one
// subscription). Java and Go consumers under CONSISTENT_HASH (rocketmq-client-go#419) needs
// the simulation to run each member under its client profile, which it does not yet (the
// profiles are described in core/profile; `lbscope diagnose` already computes such a group).
func Incidents() map[string]Scenario {
	sameID := incident("Two containers, one client id",
		"apache/rocketmq#2760, #1547: containers with the same IP and PID build the same client id. "+
			"At 30 s the consumer 172.17.0.2@1 loses its network and a new process with the same id "+
			"starts at 31 s: the broker lists the id twice until the old connection expires (120 s after "+
			"its last heartbeat). Meanwhile both copies take the first block of queues and the next block "+
			"is pulled by nobody. (Containers that really share an id stay like this for ever; the "+
			"simulation keeps consumer ids unique, so it shows the duplicate for as long as the broker "+
			"lists it.)",
		2, 4, []string{"172.17.0.2@1", "172.17.0.3@1", "172.17.0.4@1"},
		[]Step{
			{At: 30 * Second, Command: cluster.Command{Type: "partitionConsumer", ID: "172.17.0.2@1"}},
			{At: 31 * Second, Command: cluster.Command{Type: "restartConsumer", ID: "172.17.0.2@1"}},
		})
	// A container's process is PID 1 every time, and a client before 4.9.0 adds no nanoTime
	// (spec §1.2, §7.1): the restarted process builds the very same id, as a fixed name does.
	for i := range sameID.Consumers {
		sameID.Consumers[i].FixedInstanceName = true
	}
	return map[string]Scenario{
		"incident-same-client-id": sameID,
		"incident-more-consumers-than-queues": incident("More consumers than queues",
			"apache/rocketmq#1812 and the most common question about AVG: six consumers share a topic "+
				"with four queues, so two consumers pull nothing and only stand by. Kill one of the busy "+
				"ones and watch a standby take its queue.",
			1, 4, []string{"c1", "c2", "c3", "c4", "c5", "c6"}, nil),
		"incident-broker-restart": incident("A broker restarts",
			"apache/rocketmq#9830: after a broker restart some queues had no consumer. broker-b goes "+
				"down at 60 s and comes back at 150 s: watch its queues leave the allocation and return, "+
				"and how long each consumer takes to notice (route polling every 30 s, rebalancing every "+
				"20 s).",
			2, 4, []string{"c1", "c2", "c3"},
			[]Step{
				{At: 60 * Second, Command: cluster.Command{Type: "killBroker", Broker: "broker-b"}},
				{At: 150 * Second, Command: cluster.Command{Type: "restoreBroker", Broker: "broker-b"}},
			}),
	}
}

func incident(title, description string, brokers, queues int, consumers []string, timeline []Step) Scenario {
	return Scenario{
		Version:     Version,
		Title:       title,
		Description: description,
		Config: cluster.Config{
			Seed:         1,
			Topic:        DefaultTopic,
			Group:        DefaultGroup,
			Brokers:      brokerConfigs(brokers, queues),
			Consumers:    consumerConfigs(consumers),
			Producers:    []cluster.ProducerConfig{{ID: "p1", Rate: 100}},
			Strategy:     "AVG",
			MessageModel: cluster.Clustering,
			FaultTable:   fault.TableCurrent,
		},
		Until:    DefaultUntil,
		Timeline: timeline,
	}
}
