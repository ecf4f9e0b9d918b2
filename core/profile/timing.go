package profile

// Timing is what a consumer's timers and triggers do under a profile, in virtual
// milliseconds. The simulation reads it; nothing here runs a timer.
type Timing struct {
	// RebalanceInterval is the period of the timed rebalance (20 s everywhere).
	RebalanceInterval int64
	// FixedTicker: the timed rounds sit on a fixed grid from the client instance's start,
	// whatever other rounds happen (Go's time.Ticker, spec §9.1.5); false: the wait starts
	// again after each round (Java's RebalanceService).
	FixedTicker bool
	// MinSpacing is the least time between two rounds (current Java 1000 ms, spec §3.1);
	// 0: none (4.9, Go).
	MinSpacing int64
	// UnbalancedRetry is the wait after a round that left a topic unbalanced (current Java
	// 1000 ms); 0: rounds have no balanced/unbalanced result (4.9, Go).
	UnbalancedRetry int64
	// CoalesceWakeups: notifications arriving during a round make one further round (Java);
	// false: one full round per notification, back to back (Go, spec §9.1.5).
	CoalesceWakeups bool
	// StartRound: the consumer runs a round as soon as it has started (all profiles).
	StartRound bool

	// RouteRefreshFirst / RouteRefreshInterval: the route poll (10 ms after start, then 30 s).
	RouteRefreshFirst, RouteRefreshInterval int64
	// HeartbeatFirst / HeartbeatInterval: the heartbeat round (1 s after start, then 30 s).
	HeartbeatFirst, HeartbeatInterval int64
	// HeartbeatOnConnect: a new broker connection gets a heartbeat at once (Java 5.2.0+).
	HeartbeatOnConnect bool
	// HeartbeatAfterChange: a round that changed the queues sends a full heartbeat round
	// synchronously (Go, spec §9.1.4 step 7).
	HeartbeatAfterChange bool
	// InnerProducerHeartbeat: every process heartbeats CLIENT_INNER_PRODUCER, so the
	// broker's producer-expiry scan can race the consumer's (Java, spec §5.1); Go has no
	// such entry (spec §9.1.6).
	InnerProducerHeartbeat bool

	// OffsetPersistFirst / OffsetPersistInterval: the offset upload timer (10 s, then 5 s).
	OffsetPersistFirst, OffsetPersistInterval int64
	// DropErasesOtherOffsets: dropping one queue erases the in-memory offsets of every other
	// queue of the group until they are consumed again (Go's persist, spec §9.1.7).
	DropErasesOtherOffsets bool

	// LongPollSuspend is the hold asked of the broker for an empty pull (Java 15 s, Go 20 s).
	LongPollSuspend int64
	// PullDelayOnError is the retry delay after a pull error (Java 1000 ms, Go 3000 ms).
	PullDelayOnError int64
	// PullDelayWhenSuspended is the re-check while the consumer is suspended (1 s / 30 s).
	PullDelayWhenSuspended int64
	// FirstPullDelay is the wait before a newly assigned queue's first pull (Java 500 ms,
	// Go none).
	FirstPullDelay int64
	// PullIdleExpiry drops a process queue whose pulls stopped for this long (120 s).
	PullIdleExpiry int64
	// CachedMessagesPerQueue / CachedMiBPerQueue / ConsumeSpan: flow-control thresholds
	// (Java 1000 / 100 / 2000, Go 1024 / 512 / 1000).
	CachedMessagesPerQueue, CachedMiBPerQueue, ConsumeSpan int64
	// ConsumeThreadsPerTopic: the 20 consume workers are per topic (Go) rather than per
	// group (Java).
	ConsumeThreadsPerTopic bool

	// Failure says what an allocation failure does.
	Failure StrategyFailure
	// EmptyListDrops: a topic with zero readable queues, or a consumer list answered with an
	// error (SYSTEM_ERROR), drops every queue of the topic (Go: the strategy returns nil);
	// false: the round leaves the table untouched (Java: the strategy throws / null list).
	EmptyListDrops bool

	// UnregisterOnShutdown: a graceful shutdown sends UNREGISTER_CLIENT (Java); Go never
	// does and relies on closing its connections (spec §9.1.9).
	UnregisterOnShutdown bool
	// OrderlyUnlockOnDrop: a dropped orderly queue is unlocked by its old owner (Java);
	// false: the broker releases it 60 s after the last renewal (Go, spec §9.1.10).
	OrderlyUnlockOnDrop bool
	// OrderlyDropLockWait is the consume-lock wait when dropping an orderly queue (current
	// 500 ms, 4.9 1000 ms, Go none).
	OrderlyDropLockWait int64
}

// StrategyFailure is what happens when the allocation strategy fails.
type StrategyFailure int

const (
	// FailureRetryUnbalanced: the exception is caught, the topic counts as unbalanced and
	// the next round comes 1 s later (current Java).
	FailureRetryUnbalanced StrategyFailure = iota
	// FailureEndsTopicRound: the exception ends that topic's round; nothing is retried until
	// the next wake-up or 20 s (Java 4.9).
	FailureEndsTopicRound
	// FailureCrashesProcess: a Go panic, not recovered: the consumer process exits (Go).
	FailureCrashesProcess
)

func (f StrategyFailure) String() string {
	switch f {
	case FailureRetryUnbalanced:
		return "caught; unbalanced, retried in 1 s"
	case FailureEndsTopicRound:
		return "caught; the topic waits for the next round"
	case FailureCrashesProcess:
		return "panic; the process exits"
	}
	return "unknown"
}

// Producer is what the producer's send path does under a profile.
type Producer struct {
	// RetryTimes is the default retries of a SYNC send (attempts = 1 + RetryTimes).
	RetryTimes int
	// TimeoutPerAttempt: each attempt has its own timeout (Go 3 s, no overall budget);
	// false: one 3 s budget for the whole send (Java).
	TimeoutPerAttempt bool
	// SendTimeout is that budget or per-attempt timeout (3000 ms).
	SendTimeout int64
	// RetriedResponseCodes are the broker answers a SYNC send retries.
	RetriedResponseCodes []int32
	// RetryAvoidsLastBroker: a SYNC retry is told the previous attempt's broker (Java);
	// false: v2.1.2 passes "" and may retry the same broker (spec §9.1.8).
	RetryAvoidsLastBroker bool
	// PublishListByName: the publish list is sorted by broker name (Java, spec §1.3);
	// false: name-server order after the position sort's passes (Go, spec §9.1.8).
	PublishListByName bool
	// FirstPickRandom: the round robin starts at a random index (Java); false: at index 1
	// of a per-topic counter that survives route changes (Go).
	FirstPickRandom bool
	// IndexReset: a retry resets the index to a random value (current Java); 4.9 and Go never.
	IndexReset bool
	// Fault is the latency fault tolerance; nil: none (Go).
	Fault *FaultFacts
}

// FaultFacts describe a client's latency fault tolerance.
type FaultFacts struct {
	LatencyMax, NotAvailableDuration []int64
	// IsolationDuration is how long an isolating error takes a broker out (10 s current,
	// 10 min 4.9).
	IsolationDuration int64
	// ClientExceptionIsolates: an MQClientException isolates (4.9); false: reported with the
	// real latency (current).
	ClientExceptionIsolates bool
	// OverwriteDeadline: every update overwrites the deadline, so a fast success lifts an
	// isolation at once (4.9); false: deadlines only extend (current).
	OverwriteDeadline bool
	// PickOneAtLeast is what happens when no broker is available: "round robin over the
	// better half" (4.9) or "first reachable after a shuffle" (current).
	PickOneAtLeast string
	// Detector: the reachability detector exists (current, off by default).
	Detector bool
}

var javaRetried = []int32{17, 14, 1, 2, 16, 204, 205, 1500}

var profiles = map[Name]Profile{
	Java: {
		Name: Java, SDK: "Java client 5.x (current, spec §0–§7)", Mark: "J",
		Timing: Timing{
			RebalanceInterval: 20000, MinSpacing: 1000, UnbalancedRetry: 1000, CoalesceWakeups: true, StartRound: true,
			RouteRefreshFirst: 10, RouteRefreshInterval: 30000, HeartbeatFirst: 1000, HeartbeatInterval: 30000,
			HeartbeatOnConnect: true, InnerProducerHeartbeat: true,
			OffsetPersistFirst: 10000, OffsetPersistInterval: 5000,
			LongPollSuspend: 15000, PullDelayOnError: 1000, PullDelayWhenSuspended: 1000, FirstPullDelay: 500,
			PullIdleExpiry: 120000, CachedMessagesPerQueue: 1000, CachedMiBPerQueue: 100, ConsumeSpan: 2000,
			Failure: FailureRetryUnbalanced, UnregisterOnShutdown: true, OrderlyUnlockOnDrop: true, OrderlyDropLockWait: 500,
		},
		Producer: Producer{
			RetryTimes: 2, SendTimeout: 3000, RetriedResponseCodes: javaRetried, RetryAvoidsLastBroker: true,
			PublishListByName: true, FirstPickRandom: true, IndexReset: true,
			Fault: &FaultFacts{
				LatencyMax: []int64{50, 100, 550, 1800, 3000, 5000, 15000}, NotAvailableDuration: []int64{0, 0, 2000, 5000, 6000, 10000, 30000},
				IsolationDuration: 10000, PickOneAtLeast: "first reachable after a shuffle", Detector: true,
			},
		},
	},
	Java49: {
		Name: Java49, SDK: "Java client 4.9.x (spec §9.2, read at 4.9.8)", Mark: "J4",
		VectorClients: []string{"rocketmq-java@4.9.8"},
		Timing: Timing{
			// A fixed 20 s wait with coalescing wake-ups, no spacing, no unbalanced retry.
			RebalanceInterval: 20000, CoalesceWakeups: true, StartRound: true,
			RouteRefreshFirst: 10, RouteRefreshInterval: 30000, HeartbeatFirst: 1000, HeartbeatInterval: 30000,
			InnerProducerHeartbeat: true, // heartbeat on connect arrived in 5.2.0
			OffsetPersistFirst:     10000, OffsetPersistInterval: 5000,
			LongPollSuspend: 15000, PullDelayOnError: 1000, PullDelayWhenSuspended: 1000, FirstPullDelay: 500,
			PullIdleExpiry: 120000, CachedMessagesPerQueue: 1000, CachedMiBPerQueue: 100, ConsumeSpan: 2000,
			Failure: FailureEndsTopicRound, UnregisterOnShutdown: true, OrderlyUnlockOnDrop: true, OrderlyDropLockWait: 1000,
		},
		Producer: Producer{
			RetryTimes: 2, SendTimeout: 3000, RetriedResponseCodes: javaRetried, RetryAvoidsLastBroker: true,
			PublishListByName: true, FirstPickRandom: true,
			Fault: &FaultFacts{
				LatencyMax: []int64{50, 100, 550, 1000, 2000, 3000, 15000}, NotAvailableDuration: []int64{0, 0, 30000, 60000, 120000, 180000, 600000},
				IsolationDuration: 600000, ClientExceptionIsolates: true, OverwriteDeadline: true,
				PickOneAtLeast: "round robin over the better half",
			},
		},
	},
	Go212: {
		Name: Go212, SDK: "rocketmq-client-go v2.1.2 (spec §9.1)", Mark: "Go",
		VectorClients: []string{"rocketmq-client-go/v2@v2.1.2"},
		Timing: Timing{
			RebalanceInterval: 20000, FixedTicker: true, StartRound: true,
			RouteRefreshFirst: 10, RouteRefreshInterval: 30000, HeartbeatFirst: 1000, HeartbeatInterval: 30000,
			HeartbeatAfterChange: true,
			OffsetPersistFirst:   10000, OffsetPersistInterval: 5000, DropErasesOtherOffsets: true,
			LongPollSuspend: 20000, PullDelayOnError: 3000, PullDelayWhenSuspended: 30000, FirstPullDelay: 0,
			PullIdleExpiry: 120000, CachedMessagesPerQueue: 1024, CachedMiBPerQueue: 512, ConsumeSpan: 1000,
			ConsumeThreadsPerTopic: true,
			Failure:                FailureCrashesProcess, EmptyListDrops: true,
		},
		Producer: Producer{
			RetryTimes: 3, TimeoutPerAttempt: true, SendTimeout: 3000, RetriedResponseCodes: []int32{1, 14, 16, 17},
		},
	},
}
