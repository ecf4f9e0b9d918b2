package narrate

import (
	"strings"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/session"
)

// What an event says, read from its cause and the values the cause sets (cluster.Causes and
// session.Causes document them), never from its English text, which may be reworded.
const (
	factUnknown = iota

	// Actions (EventAction): the engine's commands, worded by the command table's Done words,
	// then the session's own.
	factCommand
	factPaused        // session: pause
	factPlaying       // session: play, arg = speed ("2×")
	factSpeed         // session: setSpeed, arg = speed
	factReset         // session: reset, arg = title
	factLoaded        // session: load, arg = title
	factOpenedLink    // session: a share link, arg = title, clock = its moment
	factMoved         // session: a seek, clock = the moment now shown
	factContinued     // session: the future discarded, clock = from when, n = steps, arg = the action that asked ("" for continue)
	factRebalance     // EventRebalance: queues = the consumer's new set
	factRegister      // a broker registers a consumer (heartbeat)
	factSubscribe     // a heartbeat replaces the group's subscription on a broker (arg = topic)
	factUnregister    // a broker unregisters a stopping consumer
	factDropClosed    // a broker drops a consumer whose connection closed
	factDropIdle      // a broker closes an idle channel (n = idle seconds)
	factExpire        // a broker's scan expires a consumer (n = seconds; notify says whether CHANGE fires)
	factIsolation     // a producer avoids a broker (n = tier seconds, latency or failed)
	factOverlap       // a queue pulled by several consumers (owners)
	factExpiryAhead   // info after a partition: when brokers will expire it (clock)
	factThrew         // info: the strategy threw (arg = strategy)
	factNotInCidAll   // info: a Go consumer missing from the asked broker's list takes nothing (n = ids listed)
	factSendBack      // info: a listener failed messages, a broker holds them (n = messages, clock = back, arg = how)
	factDeadLetter    // info: messages failed for the last time go to the DLQ (n = messages, arg = the DLQ)
	factSuspend       // info: an orderly queue waits after a failure (queues = [the queue], n = failures)
	factFiltered      // info: tags filter a member's pulls of a queue (queues = [the queue], arg = the tags that pass)
	factAutoscale     // action: an autoscaler starts or stops a member (arg = start or stop, n = members after)
	factLockRefused   // info: an orderly member cannot lock a queue (queues = [the queue], owners = [the holder])
	factLock          // info: … and locks it at last (queues = [the queue], n = seconds it waited)
	factAssignNull    // info: the brokers do not run a member's strategy (arg = the strategy)
	factAssignRefused // info: a proxy's remoting port refuses a member's assignment query (arg = the proxy)
	factChangeInvis   // info: a POP member's listener failed n messages (arg retry: invisible until clock; drop: dropped)
	factRevive        // info: a broker revived n messages a POP member left unacked (arg = the retry topic)
	factProxyClear    // info: a proxy cleared a gRPC client's n messages (arg = the proxy, clock = revived)
	factSelectorThrew // info: a producer's own selector threw, its keyed send fails (producer, err = the message)
	factRefused       // info: a proxy refuses every receive of a SimpleConsumer (arg = the code)
	factProxyFailed   // info: a gRPC producer's send fails on a broker its proxy's view lists (producer, queues = [the queue], clock = the reload's earliest start)
	factProxyReload   // info: a proxy's view of a topic changed (arg = the proxy, queues = the view)
	factProxyDown     // info: a killed proxy's memory is gone (arg = the proxy, n = messages no longer renewed, clock = the last revived)
	factProxyRegister // info: a client registers with its restarted proxy (arg = the proxy)
	factAckHeld       // info: a client's held acks reach its restarted proxy (arg = the proxy, n = acked)
	factGhost         // info: a killed gRPC client's parked receive pops n messages (arg = the proxy, clock = first revived)
	factPop           // detail: a pop of n messages (queues = those read), or an empty one held until clock
	factAck           // detail: n messages acked (queues = [the process queue])
	factError         // session: a refused command
)

// fact is an event's meaning.
type fact struct {
	kind     int
	cause    string
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
	err      string // what failed, in the failing code's words (a selector's message)
}

// causeFacts maps the engine's and the session's causes to the facts they tell; a command of
// the table (cluster.Commands) tells factCommand.
var causeFacts = map[string]int{
	session.CausePause:             factPaused,
	session.CausePlay:              factPlaying,
	session.CauseSetSpeed:          factSpeed,
	session.CauseReset:             factReset,
	session.CauseLoad:              factLoaded,
	session.CauseOpenLink:          factOpenedLink,
	session.CauseSeek:              factMoved,
	session.CauseContinue:          factContinued,
	cluster.CauseRebalance:         factRebalance,
	cluster.CauseRegister:          factRegister,
	cluster.CauseSubscription:      factSubscribe,
	cluster.CauseUnregister:        factUnregister,
	cluster.CauseConnectionClosed:  factDropClosed,
	cluster.CauseIdleClosed:        factDropIdle,
	cluster.CauseExpire:            factExpire,
	cluster.CauseExpireNotify:      factExpire,
	cluster.CauseIsolateSlow:       factIsolation,
	cluster.CauseIsolateFailed:     factIsolation,
	cluster.CauseOverlap:           factOverlap,
	cluster.CauseExpiryAhead:       factExpiryAhead,
	cluster.CauseStrategyThrew:     factThrew,
	cluster.CauseSelectorThrew:     factSelectorThrew,
	cluster.CauseNotInCidAll:       factNotInCidAll,
	cluster.CauseSendBack:          factSendBack,
	cluster.CauseDeadLetter:        factDeadLetter,
	cluster.CauseSuspend:           factSuspend,
	cluster.CauseFiltered:          factFiltered,
	cluster.CauseAutoscale:         factAutoscale,
	cluster.CauseLockRefused:       factLockRefused,
	cluster.CauseLock:              factLock,
	cluster.CauseAssignmentNull:    factAssignNull,
	cluster.CauseAssignmentRefused: factAssignRefused,
	cluster.CauseChangeInvisible:   factChangeInvis,
	cluster.CauseRevive:            factRevive,
	cluster.CauseProxyClear:        factProxyClear,
	cluster.CauseReceiveRefused:    factRefused,
	cluster.CauseGhostReceive:      factGhost,
	cluster.CauseProxySendFailed:   factProxyFailed,
	cluster.CauseProxyReload:       factProxyReload,
	cluster.CauseProxyDown:         factProxyDown,
	cluster.CauseProxyRegister:     factProxyRegister,
	cluster.CauseAckHeld:           factAckHeld,
	cluster.CausePop:               factPop,
	cluster.CauseAck:               factAck,
	session.CauseRefused:           factError,
}

// read tells what an event means.
func read(e cluster.Event) fact {
	f := fact{kind: causeFacts[e.Cause], cause: e.Cause, consumer: e.Consumer, broker: e.Broker, queues: e.Queues, owners: e.Owners,
		arg: e.Arg, n: int(e.N), text: e.Text, err: e.Error}
	if e.Cause == cluster.CauseSelectorThrew || e.Cause == cluster.CauseProxySendFailed {
		f.producer = e.Arg
	}
	// Two kinds have one meaning each, whatever the cause says (the page's own refusals carry
	// none).
	if _, ok := cluster.Lookup(e.Cause); ok && f.kind == factUnknown && e.Kind == cluster.EventAction {
		f.kind = factCommand
		f.latency = int(e.LatencyMs)
	}
	switch e.Kind {
	case session.EventError:
		f.kind = factError
	case cluster.EventRebalance:
		f.kind = factRebalance
	}
	switch e.Cause {
	case session.CausePlay, session.CauseSetSpeed:
		f.arg = e.Arg + "×"
	case session.CauseOpenLink, session.CauseSeek:
		f.clock, f.n = scenario.Clock(e.N), 0 // N is a moment, not a count
	case session.CauseContinue:
		f.clock = scenario.Clock(e.T)
	case cluster.CauseExpireNotify:
		f.notify = true
	case cluster.CauseRegister, cluster.CauseSubscription:
		f.notify = !strings.HasSuffix(e.Text, cluster.NotNotified)
	case cluster.CauseIsolateSlow, cluster.CauseIsolateFailed:
		f.producer, f.arg = e.Arg, ""
		f.latency, f.clock = int(e.LatencyMs), scenario.Clock(e.Until)
	case cluster.CauseExpiryAhead, cluster.CauseSendBack, cluster.CauseChangeInvisible, cluster.CauseProxyClear, cluster.CauseProxyDown, cluster.CausePop, cluster.CauseProxySendFailed, cluster.CauseGhostReceive:
		f.clock = scenario.Clock(e.Until)
		if (e.Cause == cluster.CauseProxyClear || e.Cause == cluster.CauseProxyDown) && e.Broker != "" {
			f.arg = e.Arg + "@" + e.Broker // a local-mode proxy: the one inside that broker
		}
	}
	return f
}
