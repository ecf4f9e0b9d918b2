package cluster

// Event kinds written to the log and passed to observers.
const (
	EventAction    = "action"    // a command was applied
	EventRebalance = "rebalance" // a consumer's set of queues changed
	EventChange    = "change"    // a broker's view of the group changed (register, unregister, close, expiry)
	EventIsolation = "isolation" // a producer started avoiding a broker
	EventAnomaly   = "anomaly"   // an overlap or orphan began or ended
	EventInfo      = "info"      // anything else worth telling a learner
)

// Event is one line of the simulation's story, in words a learner understands, with its
// cause in a form a program can read: Text is for people and may be reworded; Cause and the
// fields it sets (listed in Causes) are the stable contract for code that reacts to events.
type Event struct {
	T         int64    `json:"t"`
	Kind      string   `json:"kind"`
	Cause     string   `json:"cause,omitempty"` // a key of Causes (or of a driver's own, like the playground's)
	Consumer  string   `json:"consumer,omitempty"`
	Group     string   `json:"group,omitempty"`    // the consumer's group, when the run has several
	ClientID  string   `json:"clientId,omitempty"` // the consumer's client id now (a restart may change it, spec §1.2)
	Topic     string   `json:"topic,omitempty"`    // rebalance: the topic whose queues changed
	Broker    string   `json:"broker,omitempty"`
	Queues    []string `json:"queues,omitempty"`    // "broker-a:0" forms; for rebalance, the new set
	Owners    []string `json:"owners,omitempty"`    // overlap: the consumers pulling the queue
	N         int64    `json:"n,omitempty"`         // a count the cause names: queues, messages/s, seconds
	LatencyMs int64    `json:"latencyMs,omitempty"` // a latency the cause names: a broker's added one, a slow send's
	Until     int64    `json:"until,omitempty"`     // a virtual time the cause names: a deadline, an expected expiry
	Arg       string   `json:"arg,omitempty"`       // a word the cause names: strategy, table, model, producer
	Error     string   `json:"error,omitempty"`     // what failed, in the failing code's words: a selector's message with its file and line
	Text      string   `json:"text"`
}

// Causes of the engine's events. An applied command's event (kind action) has the command's
// type as its cause, so the command table (Commands) is also the vocabulary of
// actions; Consumer and Broker are the command's id and broker.
//
//	cause              kind       meaning                                              fields set
//	addConsumer        action     a consumer process starts and joins the group        Consumer
//	killConsumer       action     a consumer process dies; its connections close       Consumer
//	partitionConsumer  action     a consumer loses its network                         Consumer
//	healConsumer       action     a cut-off consumer's network is back                 Consumer
//	stopConsumer       action     a graceful shutdown                                  Consumer
//	restartConsumer    action     a new process with the same client id                Consumer
//	hangConsumer       action     a consumer heartbeats but consumes nothing           Consumer
//	resumeConsumer     action     a hung consumer consumes again                       Consumer
//	slowBroker         action     a broker's extra send latency is set                 Broker, LatencyMs (0: normal speed)
//	killBroker         action     a broker goes down                                   Broker
//	restoreBroker      action     a down broker is back                                Broker
//	addBroker          action     a broker joins the cluster                           Broker, N = its queues
//	setQueues          action     a broker's queue count for the topic is set          Broker, N = queues
//	setStrategy        action     the allocation strategy is set                       Arg = strategy name, upper case
//	setProducerRate    action     producers' send rate is set                          Consumer = producer id or "", N = messages/s
//	setLatencyFault    action     latency fault tolerance turned on or off             Arg = "on" or "off"
//	setFaultTable      action     the fault table is set                               Arg = table name
//	setMessageModel    action     the message model is set                             Arg = CLUSTERING or BROADCASTING
//	setConsumeMode     action     the brokers' message request mode of a group is set  Arg = PULL or POP
//	setPerm            action     a broker's permission is set                         Broker, Arg = RW, R, W or none
//	removeBroker       action     a broker leaves the name server's routes             Broker
//	rebalance          rebalance  a consumer's set of queues changed                   Consumer, Queues = the new set, Arg = the proxy that assigned them (a gRPC consumer's)
//	register           change     a broker registers a consumer (heartbeat), CHANGE    Consumer, Broker
//	unregister         change     a broker unregisters a stopping consumer, CHANGE     Consumer, Broker
//	connectionClosed   change     a broker sees a consumer's connection close, CHANGE  Consumer, Broker
//	idleClosed         change     a broker closes an idle channel, CHANGE              Consumer, Broker, N = idle seconds
//	reconnect          change     a broker registers a healed consumer's new connection, CHANGE  Consumer, Broker
//	connectionReset    change     a broker drops a consumer's old connection on a reset, CHANGE  Consumer, Broker
//	expire             change     a broker's scan expires a consumer, no CHANGE        Consumer, Broker, N = seconds without heartbeat
//	expireNotify       change     as expire, when the close races the scan: CHANGE     Consumer, Broker, N = seconds without heartbeat
//	isolateSlow        isolation  a producer avoids a broker after a slow send         Broker, Arg = producer, LatencyMs = the send's, Until = deadline, N = tier seconds
//	isolateFailed      isolation  a producer avoids a broker after a failed send       Broker, Arg = producer, Until = deadline, N = tier seconds
//	overlap            anomaly    a queue is pulled by several consumers at once       Broker, Queues = [the queue], Owners
//	expiryAhead        info       after a partition: when brokers will expire it       Consumer, Until = the expected expiry
//	strategyThrew      info       the strategy threw; the consumer keeps its queues    Consumer, Arg = strategy name
//	selectorThrew      info       a producer's own selector threw: the keyed send fails  Arg = producer, Error = the selector's message
//	consumerCrashed    info       a Go client's strategy panicked: the process exits   Consumer, Arg = client profile
//	subscription       change     a heartbeat with another topic replaces the group's  Consumer, Broker, Arg = the topic now
//	                              subscription on a broker: CHANGE (spec §5.7)
//	notInCidAll        info       a Go client is not in the list the broker it asked gave: it takes nothing   Consumer, Broker, N = ids listed
//	autoscale          action     a group's autoscaler starts or stops a member          Consumer, Group (several groups), N = members after, Arg = start or stop
//	filtered           info       tags filter a member's pulls of a queue: what reaches its listener now   Consumer, Broker, Queues = [the queue], Arg = the tags that pass ("": none)
//	suspend            info       an orderly listener failed a message: its queue waits 1 s    Consumer, Broker, Queues = [the queue], N = reconsume count, Until = the pause's end
//	sendBack           info       a listener failed messages; a broker holds them on its delay ladder          Consumer, Broker, N = messages, Until = back on the retry topic, Arg = direct, fallback or expired (the consume-timeout clean-up)
//	deadLetter         info       a listener failed messages the last time: they go to %DLQ%<group>            Consumer, Broker, N = messages, Arg = the DLQ topic
//	lockRefused        info       an orderly member cannot lock a queue it is allocated: another holds it      Consumer, Broker, Queues = [the queue], Owners = [the holder's client id]
//	lock               info       … and locks it at last: the queue, paused between owners, goes on            Consumer, Broker, Queues = [the queue], N = seconds it waited
//	assignmentNull     info       a member asking the brokers for its queues runs a strategy they do not: no queue ever   Consumer, Broker, Arg = the strategy
//	assignmentRefused  info       a member asking for its queues through a proxy's remoting port is refused (REQUEST_CODE_NOT_SUPPORTED): no queue ever   Consumer, Arg = the proxy
//	changeInvisible    info       a POP member's listener failed popped messages: invisible again for the retry delay, or, at the 17th, dropped   Consumer, Broker, N = messages, Arg = retry or drop, Until = the end of the new invisible time (retry)
//	revive             info       a broker revives messages a POP member popped and never acked: onto %RETRY%<group>_<topic>   Consumer (who popped them), Broker, N = messages, Arg = the POP retry topic
//	pop                detail     a POP member's pop or a gRPC receive; N = 0: empty, held by the broker (only with detail)   Consumer, Broker, Queues = the queues read, N = messages, Until = the end of their invisible time, or of the held pop
//	ack                detail     a POP or gRPC member acks what its listener consumed (only with detail)   Consumer, Broker, Queues = [its process queue], N = messages
//	proxySendFailed    info       a gRPC producer's send fails on a broker its proxy's cached view still lists (told once a view)   Broker, Arg = the producer, Queues = [the queue], Until = when a send may start the view's reload
//	proxyReload        info       a proxy's reloaded view of a topic differs: sends go to these queues now   Topic, Arg = the proxy, Queues = the view, Until = when the reload ended
//	ghostReceive       info       a killed gRPC client's parked receive is woken: its messages are nacked and renewed at once (inferred, spec §8.4.6)   Consumer, Broker, N = messages, Arg = the proxy, Until = when they are first revived
//	receiveRefused     info       a proxy refuses every receive of a gRPC SimpleConsumer (its awaitDuration or invisibleDuration)   Consumer, Arg = ILLEGAL_POLLING_TIME or ILLEGAL_INVISIBLE_TIME, Error = why
//	proxyClear         info       a proxy clears a gRPC client's messages (its channel expired, or it shut down; or a restarted proxy pops for a client not registered yet): visible in 1 s   Consumer, N = messages, Arg = the proxy, Broker = the broker it runs inside (local mode), Until = when they are revived
//	proxyDown          info       a killed proxy's memory is gone: its clients' registrations, their parked pops, its renewal table (local mode: the proxy inside a killed broker)   Arg = the proxy, Broker = that broker (local mode), N = messages no longer renewed, Until = when the last of them is revived
//	proxyRegister      info       a gRPC client's heartbeat registers it with its restarted proxy   Consumer, Arg = the proxy, N = messages the proxy popped for it and made invisible for 1 s before
//	ackHeld            info       a gRPC client's acks held while its proxy was down reach the restarted proxy   Consumer, N = messages acked, Arg = the proxy
//
// Every event the engine emits has one of these causes (a test checks it).
const (
	CauseRebalance         = "rebalance"
	CauseRegister          = "register"
	CauseUnregister        = "unregister"
	CauseConnectionClosed  = "connectionClosed"
	CauseIdleClosed        = "idleClosed"
	CauseReconnect         = "reconnect"
	CauseConnectionReset   = "connectionReset"
	CauseExpire            = "expire"
	CauseExpireNotify      = "expireNotify"
	CauseIsolateSlow       = "isolateSlow"
	CauseIsolateFailed     = "isolateFailed"
	CauseOverlap           = "overlap"
	CauseExpiryAhead       = "expiryAhead"
	CauseStrategyThrew     = "strategyThrew"
	CauseSelectorThrew     = "selectorThrew"
	CauseConsumerCrashed   = "consumerCrashed"
	CauseSubscription      = "subscription"
	CauseNotInCidAll       = "notInCidAll"
	CauseSendBack          = "sendBack"
	CauseAutoscale         = "autoscale"
	CauseSuspend           = "suspend"
	CauseFiltered          = "filtered"
	CauseDeadLetter        = "deadLetter"
	CauseLockRefused       = "lockRefused"
	CauseLock              = "lock"
	CauseAssignmentNull    = "assignmentNull"
	CauseAssignmentRefused = "assignmentRefused"
	CauseChangeInvisible   = "changeInvisible"
	CauseRevive            = "revive"
	CauseProxyClear        = "proxyClear"
	CauseReceiveRefused    = "receiveRefused"
	CauseGhostReceive      = "ghostReceive"
	CauseProxySendFailed   = "proxySendFailed"
	CauseProxyReload       = "proxyReload"
	CauseProxyDown         = "proxyDown"
	CauseProxyRegister     = "proxyRegister"
	CauseAckHeld           = "ackHeld"
)

// CauseKind is the kind of event that carries the cause: EventAction for a command of the
// table (Commands), Causes' kind for the engine's other causes.
func CauseKind(cause string) (string, bool) {
	if s, ok := Lookup(cause); ok && s.Target != TargetSession {
		return EventAction, true
	}
	k, ok := Causes[cause]
	return k, ok
}

// Causes maps every cause the engine gives, besides its commands' (each command's name is the
// cause of its action event), to the kind of event that carries it (the table above says
// what each means and which fields it sets).
var Causes = map[string]string{
	CauseRebalance:         EventRebalance,
	CauseRegister:          EventChange,
	CauseUnregister:        EventChange,
	CauseConnectionClosed:  EventChange,
	CauseIdleClosed:        EventChange,
	CauseReconnect:         EventChange,
	CauseConnectionReset:   EventChange,
	CauseExpire:            EventChange,
	CauseExpireNotify:      EventChange,
	CauseIsolateSlow:       EventIsolation,
	CauseIsolateFailed:     EventIsolation,
	CauseOverlap:           EventAnomaly,
	CauseExpiryAhead:       EventInfo,
	CauseStrategyThrew:     EventInfo,
	CauseSelectorThrew:     EventInfo,
	CauseConsumerCrashed:   EventInfo,
	CauseSubscription:      EventChange,
	CauseNotInCidAll:       EventInfo,
	CauseAutoscale:         EventAction,
	CauseSuspend:           EventInfo,
	CauseFiltered:          EventInfo,
	CauseSendBack:          EventInfo,
	CauseDeadLetter:        EventInfo,
	CauseLockRefused:       EventInfo,
	CauseLock:              EventInfo,
	CauseAssignmentNull:    EventInfo,
	CauseAssignmentRefused: EventInfo,
	CauseChangeInvisible:   EventInfo,
	CauseRevive:            EventInfo,
	CauseProxyClear:        EventInfo,
	CauseReceiveRefused:    EventInfo,
	CauseGhostReceive:      EventInfo,
	CauseProxySendFailed:   EventInfo,
	CauseProxyReload:       EventInfo,
	CauseProxyDown:         EventInfo,
	CauseProxyRegister:     EventInfo,
	CauseAckHeld:           EventInfo,
	CausePop:               EventDetail,
	CauseAck:               EventDetail,
}

// Anomaly is an interval during which a queue was pulled by more than one consumer (overlap)
// or by none (orphan). End is 0 while it lasts.
type Anomaly struct {
	Kind   string   `json:"kind"`            // "overlap" or "orphan"
	Group  string   `json:"group,omitempty"` // the group it is of, when the run has several
	Queue  string   `json:"queue"`
	Owners []string `json:"owners,omitempty"` // the consumers involved (overlap)
	Start  int64    `json:"start"`
	End    int64    `json:"end,omitempty"`
}

// Isolation is an interval during which a producer avoided a broker (spec §2.4): from the
// update that isolated it until its deadline, extensions included.
type Isolation struct {
	Producer string `json:"producer"`
	Broker   string `json:"broker"`
	Start    int64  `json:"start"`
	Until    int64  `json:"until"`
	Cause    string `json:"cause"` // "latency 2003 ms" or "send failed"
}

// Metrics are the run's counts so far. Every message has an identity (queue, offset); counts
// are exact even though messages move in batches.
type Metrics struct {
	Produced   int64 `json:"produced"`
	Consumed   int64 `json:"consumed"`   // distinct messages consumed at least once (per consumer when broadcasting)
	Duplicates int64 `json:"duplicates"` // further deliveries of already consumed messages
	Lost       int64 `json:"lost"`       // skipped over by a successor (spec §3.9's one exception)
	// Skipped counts messages a queue's start passed over by ConsumeFromWhere (a new group
	// or broadcasting consumer starting at the max offset or a timestamp, spec §3.6): by
	// design, not lost.
	Skipped  int64 `json:"skipped"`
	InFlight int64 `json:"inFlight"` // sent but not yet stored
	Backlog  int64 `json:"backlog"`  // stored but not yet consumed
	// Unread counts the stored messages in write queues beyond their broker's read count:
	// part of the backlog that no member of the group can pull (spec §1.3).
	Unread       int64 `json:"unread,omitempty"`
	SendFailures int64 `json:"sendFailures"` // sends the client saw fail (after their retries)
	// StoredAfterTimeout counts messages the broker stored although the client saw the send
	// fail: a response later than the timeout, or one on a connection closed under it (spec
	// §2.8). They are consumed like any other.
	StoredAfterTimeout int64            `json:"storedAfterTimeout"`
	SendsPerBroker     map[string]int64 `json:"sendsPerBroker"`
	Rebalances         int64            `json:"rebalances"` // rounds that changed a consumer's queues
	Rounds             int64            `json:"rounds"`     // all rebalance rounds
	// Consume failures (spec §3.15, §5.8). Retried counts the failed messages sent back and
	// put on a broker's delay ladder, DeadLettered those put on %DLQ%<group> instead;
	// Delayed is how many wait on the ladders now, LocalRetries how many wait in their
	// process queue for a local retry (their send-back failed both ways); Reconsumed counts
	// the deliveries of retry messages (each time a message came again; a local retry's
	// delivery counts as a duplicate).
	Retried      int64 `json:"retried,omitempty"`
	Reconsumed   int64 `json:"reconsumed,omitempty"`
	DeadLettered int64 `json:"deadLettered,omitempty"`
	// DeadLetteredUnseen is how many of them no listener had seen: a gRPC consumer's messages
	// revived unconsumed (held past their invisible time) until the proxy dead-letters them at
	// the last reconsume count (spec §8.3.8).
	DeadLetteredUnseen int64 `json:"deadLetteredUnseen,omitempty"`
	Delayed            int64 `json:"delayed,omitempty"`
	RetryBacklog       int64 `json:"retryBacklog,omitempty"` // retry messages on retry queues, not yet consumed
	Suspensions        int64 `json:"suspensions,omitempty"`  // orderly queues suspended after a failed message
	Expired            int64 `json:"expired,omitempty"`      // messages the consume-timeout clean-up sent back from a listener still running
	LocalRetries       int64 `json:"localRetries,omitempty"`
	// Filtered counts the messages a group passed over because the tags of the member that
	// pulled them, or of the subscription the broker holds, excluded them: consumed by no one
	// of that group (spec §5.7).
	Filtered int64 `json:"filtered,omitempty"`
	// POP (spec §8.3): messages popped, acked, made invisible again by a failure
	// (CHANGE_MESSAGE_INVISIBLETIME), revived onto a POP retry topic after their invisible
	// time, dropped by the client after their last failure (no DLQ), and invisible now (popped,
	// not yet acked or revived).
	Popped           int64 `json:"popped,omitempty"`
	Acked            int64 `json:"acked,omitempty"`
	ChangedInvisible int64 `json:"changedInvisible,omitempty"`
	Revived          int64 `json:"revived,omitempty"`
	PopDropped       int64 `json:"popDropped,omitempty"`
	Invisible        int64 `json:"invisible,omitempty"`
	// Renewed counts the messages a proxy renewed for its gRPC clients (spec §8.4.6).
	Renewed int64 `json:"renewed,omitempty"`
}
