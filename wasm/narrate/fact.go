package narrate

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/session"
)

// What an event says, read back from the cluster's and the session's texts. The events carry
// the consumer and broker they concern but not the command or the cause, so those are
// recognised from the wording of core/cluster (apply.go describe, broker.go, producer.go,
// consumer.go, flow.go) and of wasm/session; a test runs a real cluster through every kind.
const (
	factUnknown = iota

	// Commands (EventAction).
	factJoin      // addConsumer
	factKill      // killConsumer
	factPartition // partitionConsumer
	factHeal      // healConsumer
	factStop      // stopConsumer
	factRestart   // restartConsumer
	factHang      // hangConsumer
	factResume    // resumeConsumer
	factSlow      // slowBroker (n = latency ms)
	factBrokerDown
	factBrokerBack
	factBrokerAdd
	factSetQueues   // n = queues
	factStrategy    // arg = strategy
	factRate        // n = messages/s
	factFaultOn     // latency fault tolerance on
	factFaultOff    // and off
	factFaultTable  // arg = table
	factModel       // arg = CLUSTERING or BROADCASTING
	factPaused      // session: pause
	factPlaying     // session: play, arg = speed ("2×")
	factSpeed       // session: setSpeed, arg = speed
	factReset       // session: reset, arg = title
	factLoaded      // session: load, arg = title
	factOpenedLink  // session: a share link, arg = title, clock = its moment
	factMoved       // session: a seek, clock = the moment now shown
	factContinued   // session: the future discarded, clock = from when, n = steps, arg = the action that asked ("" for continue)
	factRebalance   // EventRebalance: queues = the consumer's new set
	factRegister    // a broker registers a consumer (heartbeat)
	factUnregister  // a broker unregisters a stopping consumer
	factDropClosed  // a broker drops a consumer whose connection closed
	factDropIdle    // a broker closes an idle channel (arg = the idle time's words)
	factExpire      // a broker's scan expires a consumer (notify says whether CHANGE fires)
	factIsolation   // a producer avoids a broker (n = tier seconds, latency or failed)
	factOverlap     // a queue pulled by several consumers (owners)
	factExpiryAhead // info after a partition: when brokers will expire it (clock)
	factThrew       // info: the strategy threw (arg = strategy)
	factError       // session: a refused command
)

// fact is an event's meaning.
type fact struct {
	kind     int
	consumer string
	broker   string
	producer string
	queues   []string
	owners   []string
	arg      string
	clock    string
	n        int
	latency  int  // factIsolation: the slow send's ms; 0 when a send failed
	notify   bool // factExpire
	text     string
}

var (
	reIsolation = regexp.MustCompile(`^(\S+) avoids (\S+) until (\S+): (?:a send took (\d+) ms|a send failed), tier (\d+) s$`)
	reOverlap   = regexp.MustCompile(`^(\S+) is pulled by (.+) at once$`)
	reThrew     = regexp.MustCompile(`^(\S+): (\S+) threw .*; it keeps its queues and retries$`)
	reAhead     = regexp.MustCompile(`^nobody is told: brokers will expire (\S+) around (\S+),`)
	reDrops     = regexp.MustCompile(`^(\S+) drops (\S+) \((.+)\); it notifies the group$`)
	reIdle      = regexp.MustCompile(`^idle for (\d+) s$`)
	reExpires   = regexp.MustCompile(`^(\S+) expires (\S+): no heartbeat for (\d+)s; (.*)$`)
	reLink      = regexp.MustCompile(`^opened a shared link: (.*) at (\S+)$`)
	reReset     = regexp.MustCompile(`^reset: (.*) from 00:00$`)
	reMoved     = regexp.MustCompile(`^moved to (\S+)$`)
	reContinued = regexp.MustCompile(`^(?:(.+) behind the end of the timeline: )?continuing from (\S+); (\d+) later actions? discarded$`)
)

// read recognises an event.
func read(e cluster.Event) fact {
	f := fact{consumer: e.Consumer, broker: e.Broker, queues: e.Queues, text: e.Text}
	t := e.Text
	switch e.Kind {
	case session.EventError:
		f.kind = factError
	case cluster.EventRebalance:
		f.kind = factRebalance
	case cluster.EventAction:
		f.kind = readAction(e, &f)
	case cluster.EventChange:
		switch {
		case strings.HasSuffix(t, " (heartbeat); it notifies the group"):
			f.kind = factRegister
		case strings.HasSuffix(t, " (graceful shutdown); it notifies the group"):
			f.kind = factUnregister
		case reDrops.MatchString(t):
			why := reDrops.FindStringSubmatch(t)[3]
			f.kind = factDropClosed
			if m := reIdle.FindStringSubmatch(why); m != nil {
				f.kind, f.n = factDropIdle, atoi(m[1])
			}
		case reExpires.MatchString(t):
			m := reExpires.FindStringSubmatch(t)
			f.kind, f.n = factExpire, atoi(m[3])
			f.notify = !strings.HasPrefix(m[4], "nobody is notified")
		}
	case cluster.EventIsolation:
		if m := reIsolation.FindStringSubmatch(t); m != nil {
			f.kind, f.producer, f.broker, f.clock = factIsolation, m[1], m[2], m[3]
			f.latency, f.n = atoi(m[4]), atoi(m[5])
		}
	case cluster.EventAnomaly:
		if m := reOverlap.FindStringSubmatch(t); m != nil {
			f.kind, f.queues, f.owners = factOverlap, []string{m[1]}, strings.Split(m[2], ", ")
		}
	case cluster.EventInfo:
		if m := reAhead.FindStringSubmatch(t); m != nil {
			f.kind, f.consumer, f.clock = factExpiryAhead, m[1], m[2]
		} else if m := reThrew.FindStringSubmatch(t); m != nil {
			f.kind, f.consumer, f.arg = factThrew, m[1], m[2]
		}
	}
	return f
}

// consumerActions are the endings of describe's texts for consumer commands.
var consumerActions = map[string]int{
	" starts and joins the group":                                           factJoin,
	" is killed: its connections close":                                     factKill,
	" loses its network: brokers keep listing it until its channel expires": factPartition,
	"'s network is back":                                                    factHeal,
	" shuts down gracefully: offsets uploaded, then unregistered":           factStop,
	" restarts with the same client id":                                     factRestart,
	" hangs: it heartbeats but consumes nothing":                            factHang,
	" consumes again":                                                       factResume,
}

var brokerActions = map[string]int{
	" goes down":         factBrokerDown,
	" is back":           factBrokerBack,
	" joins the cluster": factBrokerAdd,
}

func readAction(e cluster.Event, f *fact) int {
	t := e.Text
	if e.Consumer != "" && strings.HasPrefix(t, e.Consumer) {
		if k, ok := consumerActions[t[len(e.Consumer):]]; ok {
			return k
		}
	}
	if e.Broker != "" && strings.HasPrefix(t, e.Broker) {
		rest := t[len(e.Broker):]
		if k, ok := brokerActions[rest]; ok {
			return k
		}
		if s, ok := cut(rest, " now answers sends in ", " ms more"); ok {
			f.n = atoi(s)
			return factSlow
		}
		if s, ok := cut(rest, " now has ", " queues for the topic"); ok {
			f.n = atoi(s)
			return factSetQueues
		}
	}
	if s, ok := cut(t, "strategy set to ", "; each consumer uses it from its next rebalance"); ok {
		f.arg = s
		return factStrategy
	}
	if s, ok := cut(t, "producers send ", " messages/s"); ok {
		f.n = atoi(s)
		return factRate
	}
	switch {
	case t == "latency fault tolerance on":
		return factFaultOn
	case t == "latency fault tolerance off":
		return factFaultOff
	case strings.HasPrefix(t, "fault table: "):
		f.arg = strings.TrimPrefix(t, "fault table: ")
		return factFaultTable
	case strings.HasPrefix(t, "message model: "):
		f.arg = strings.TrimPrefix(t, "message model: ")
		return factModel
	case t == "paused":
		return factPaused
	case strings.HasPrefix(t, "playing at "):
		f.arg = strings.TrimPrefix(t, "playing at ")
		return factPlaying
	case strings.HasPrefix(t, "speed "):
		f.arg = strings.TrimPrefix(t, "speed ")
		return factSpeed
	case strings.HasPrefix(t, "loaded "):
		f.arg = strings.TrimPrefix(t, "loaded ")
		return factLoaded
	}
	if m := reReset.FindStringSubmatch(t); m != nil {
		f.arg = m[1]
		return factReset
	}
	if m := reLink.FindStringSubmatch(t); m != nil {
		f.arg, f.clock = m[1], m[2]
		return factOpenedLink
	}
	if m := reMoved.FindStringSubmatch(t); m != nil {
		f.clock = m[1]
		return factMoved
	}
	if m := reContinued.FindStringSubmatch(t); m != nil {
		f.arg, f.clock, f.n = m[1], m[2], atoi(m[3])
		return factContinued
	}
	return factUnknown
}

// cut returns what lies between prefix and suffix when s is exactly prefix…suffix.
func cut(s, prefix, suffix string) (string, bool) {
	if !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, suffix) || len(s) < len(prefix)+len(suffix) {
		return "", false
	}
	return s[len(prefix) : len(s)-len(suffix)], true
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
