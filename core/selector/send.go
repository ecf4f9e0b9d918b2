package selector

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/route"
)

// FaultStrategy is what the send loop needs of fault.MQFaultStrategy (spec §2.3, §2.5).
type FaultStrategy interface {
	SelectOneMessageQueue(tp *TopicPublishInfo, lastBrokerName LastBroker, resetIndex bool, now int64) (route.MessageQueue, error)
	UpdateFaultItem(brokerName string, currentLatency int64, isolation, reachable bool, now int64)
	StartDetectorEnable() bool
}

// Outcome is how one send attempt ended, as sendDefaultImpl tells them apart (spec §2.5).
type Outcome int

const (
	// OutcomeOK is a response with SendStatus SEND_OK.
	OutcomeOK Outcome = iota + 1
	// OutcomeNotStoreOK is a response with another SendStatus (FLUSH_DISK_TIMEOUT,
	// FLUSH_SLAVE_TIMEOUT, SLAVE_NOT_AVAILABLE): returned, or retried on another broker when
	// retryAnotherBrokerWhenNotStoreOK is set.
	OutcomeNotStoreOK
	// OutcomeClientException is an MQClientException before sending (e.g. broker address
	// not found).
	OutcomeClientException
	// OutcomeRemotingException is a connect / timeout / send failure.
	OutcomeRemotingException
	// OutcomeBrokerException is an error response code from the broker (MQBrokerException).
	OutcomeBrokerException
)

var outcomeNames = [...]string{
	OutcomeOK:                "OK",
	OutcomeNotStoreOK:        "NOT_STORE_OK",
	OutcomeClientException:   "CLIENT_EXCEPTION",
	OutcomeRemotingException: "REMOTING_EXCEPTION",
	OutcomeBrokerException:   "BROKER_EXCEPTION",
}

func (o Outcome) String() string {
	if o > 0 && int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// ParseOutcome reads the names String prints ("OK", "CLIENT_EXCEPTION", …).
func ParseOutcome(s string) (Outcome, error) {
	for o, name := range outcomeNames {
		if name != "" && name == s {
			return Outcome(o), nil
		}
	}
	return 0, fmt.Errorf("unknown send outcome %q", s)
}

// Broker response codes (Java ResponseCode) that the default producer retries.
const (
	CodeSystemError         int32 = 1
	CodeSystemBusy          int32 = 2
	CodeServiceNotAvailable int32 = 14
	CodeNoPermission        int32 = 16
	CodeTopicNotExist       int32 = 17
	CodeNoBuyerID           int32 = 204
	CodeNotInCurrentUnit    int32 = 205
	CodeGoAway              int32 = 1500
)

// SendConfig holds the DefaultMQProducer knobs of the SYNC send loop (spec §0, §2.5).
// Start from DefaultSendConfig.
type SendConfig struct {
	RetryTimesWhenSendFailed         int   // 2: 1+2 attempts
	SendMsgTimeout                   int64 // 3000 ms for the whole send, retries included
	SendMsgMaxTimeoutPerRequest      int64 // -1: off
	RetryAnotherBrokerWhenNotStoreOK bool  // false
	RetryResponseCodes               []int32
}

// DefaultSendConfig is a DefaultMQProducer's configuration.
func DefaultSendConfig() SendConfig {
	return SendConfig{
		RetryTimesWhenSendFailed:    2,
		SendMsgTimeout:              3000,
		SendMsgMaxTimeoutPerRequest: -1,
		RetryResponseCodes: []int32{CodeTopicNotExist, CodeServiceNotAvailable, CodeSystemError,
			CodeSystemBusy, CodeNoPermission, CodeNoBuyerID, CodeNotInCurrentUnit, CodeGoAway},
	}
}

// AttemptResult is what one attempt reports back to the loop.
type AttemptResult struct {
	Outcome      Outcome
	ResponseCode int32 // the broker's code, for OutcomeBrokerException
	// Elapsed is the attempt's duration in ms: the latency the fault table is told about.
	Elapsed int64
}

// Attempt is one attempt as the loop made it.
type Attempt struct {
	Queue  route.MessageQueue
	Result AttemptResult
	// Isolation and Reachable are the fault update the loop made for it (spec §2.5 table).
	Isolation, Reachable bool
}

// SendResult is the end of a send: the queue whose response is returned (when the error is
// nil) and every attempt made.
type SendResult struct {
	Queue    route.MessageQueue
	Status   Outcome // OutcomeOK or OutcomeNotStoreOK when the send returned a response
	Attempts []Attempt
}

// ErrNoRouteInfo is the send on a topic with an empty publish list.
var ErrNoRouteInfo = errors.New("no route info of this topic")

// ErrCallTimeout is RemotingTooMuchRequestException("sendDefaultImpl call timeout"): the
// sendMsgTimeout budget was spent before an attempt could start.
var ErrCallTimeout = errors.New("sendDefaultImpl call timeout")

// SendFailedError is the MQClientException thrown when every attempt failed.
type SendFailedError struct {
	Times       int          // attempts counted by the loop
	Cost        int64        // ms since the send started
	Topic       string       // the topic of the publish list
	BrokersSent []LastBroker // one slot per allowed attempt; null where none was made
	Last        Outcome      // the last attempt's outcome
	// ResponseCode is the broker's code when Last is OutcomeBrokerException.
	ResponseCode int32
}

func (e *SendFailedError) Error() string {
	names := make([]string, len(e.BrokersSent))
	for i, b := range e.BrokersSent {
		names[i] = b.String()
	}
	return fmt.Sprintf("send [%d] times, still failed, cost [%d]ms, topic: %s, brokersSent: [%s]",
		e.Times, e.Cost, e.Topic, strings.Join(names, ", "))
}

// BrokerError is an MQBrokerException with a code the producer does not retry; the loop
// stops at once and rethrows it.
type BrokerError struct {
	BrokerName   string
	ResponseCode int32
}

func (e *BrokerError) Error() string {
	return fmt.Sprintf("broker %s answered code %d, which is not retried", e.BrokerName, e.ResponseCode)
}

// Send is one SYNC send() as the loop of DefaultMQProducerImpl.sendDefaultImpl runs it
// (spec §2.5), as a state machine: Next picks the queue of the next attempt, Report feeds
// its outcome back, until Done. SendSync drives it with a callback; a simulator whose
// attempts take virtual time drives it directly.
type Send struct {
	tp       *TopicPublishInfo
	strategy FaultStrategy
	cfg      SendConfig

	beginTimestampFirst int64
	timesTotal          int
	times               int
	mq                  route.MessageQueue
	hasMQ               bool
	brokersSent         []LastBroker
	attempts            []Attempt
	inFlight            bool
	lastNow             int64

	hasResponse bool // Java's sendResult != null
	response    SendResult
	callTimeout bool
	last        AttemptResult // the last failure (Java's exception)

	done bool
	err  error
}

// NewSend starts a send at now. The publish list must be non-empty (ErrNoRouteInfo).
func NewSend(tp *TopicPublishInfo, strategy FaultStrategy, cfg SendConfig, now int64) (*Send, error) {
	if tp == nil || !tp.Ok() {
		return nil, ErrNoRouteInfo
	}
	if strategy == nil {
		panic("selector: NewSend needs a fault strategy")
	}
	total := 1 + cfg.RetryTimesWhenSendFailed
	s := &Send{
		tp: tp, strategy: strategy, cfg: cfg,
		beginTimestampFirst: now, lastNow: now,
		timesTotal:  total,
		brokersSent: make([]LastBroker, max(total, 0)),
	}
	return s, nil
}

// Attempt is the 0-based number of the next attempt.
func (s *Send) Attempt() int { return s.times }

// LastBrokerName is the lastBrokerName the next selection gets: the broker of the previous
// pick, null before the first.
func (s *Send) LastBrokerName() LastBroker {
	if !s.hasMQ {
		return LastBroker{}
	}
	return Last(s.mq.BrokerName)
}

// ResetIndex is the resetIndex the next selection gets: true from the second attempt on.
func (s *Send) ResetIndex() bool { return s.times > 0 }

// Done reports whether the send is over.
func (s *Send) Done() bool { return s.done }

// Next selects the queue of the next attempt at now, which is when the attempt starts, and
// returns it with the request timeout left in the budget. ok=false means the send is over
// (see Result): all attempts were made, the budget was spent before this one could start
// (the pick was still made, as in Java), or the selection failed.
func (s *Send) Next(now int64) (mq route.MessageQueue, timeout int64, ok bool) {
	if s.inFlight {
		panic("selector: Send.Next called before the previous attempt was reported")
	}
	if s.done {
		return route.MessageQueue{}, 0, false
	}
	if s.times >= s.timesTotal {
		s.finish()
		return route.MessageQueue{}, 0, false
	}
	sel, err := s.strategy.SelectOneMessageQueue(s.tp, s.LastBrokerName(), s.ResetIndex(), now)
	if err != nil {
		s.done, s.err = true, err
		return route.MessageQueue{}, 0, false
	}
	s.mq, s.hasMQ = sel, true
	s.brokersSent[s.times] = Last(sel.BrokerName)
	s.lastNow = now
	costTime := now - s.beginTimestampFirst
	if s.cfg.SendMsgTimeout < costTime {
		s.callTimeout = true
		s.finish()
		return route.MessageQueue{}, 0, false
	}
	timeout = s.cfg.SendMsgTimeout - costTime
	if m := s.cfg.SendMsgMaxTimeoutPerRequest; m > -1 && s.times+1 < s.timesTotal && timeout > m {
		timeout = m
	}
	s.inFlight = true
	return sel, timeout, true
}

// Report feeds back the outcome of the attempt Next started; now is when it ended. It makes
// the fault update of spec §2.5 on the picked broker (latency r.Elapsed) and decides whether
// the loop goes on.
func (s *Send) Report(r AttemptResult, now int64) {
	if !s.inFlight {
		panic("selector: Send.Report without an attempt in flight")
	}
	s.inFlight = false
	s.lastNow = now
	var isolation, reachable, retry bool
	switch r.Outcome {
	case OutcomeOK, OutcomeNotStoreOK:
		isolation, reachable = false, true
		s.hasResponse = true
		s.response = SendResult{Queue: s.mq, Status: r.Outcome}
		retry = r.Outcome == OutcomeNotStoreOK && s.cfg.RetryAnotherBrokerWhenNotStoreOK
	case OutcomeClientException:
		isolation, reachable, retry = false, true, true
	case OutcomeRemotingException:
		// With the detector running the broker is marked unreachable for it to revive;
		// otherwise it is isolated but stays reachable.
		isolation, reachable, retry = true, !s.strategy.StartDetectorEnable(), true
	case OutcomeBrokerException:
		isolation, reachable = true, false
		retry = slices.Contains(s.cfg.RetryResponseCodes, r.ResponseCode)
	default:
		panic(fmt.Sprintf("selector: unknown send outcome %d", int(r.Outcome)))
	}
	s.strategy.UpdateFaultItem(s.mq.BrokerName, r.Elapsed, isolation, reachable, now)
	s.attempts = append(s.attempts, Attempt{Queue: s.mq, Result: r, Isolation: isolation, Reachable: reachable})
	if r.Outcome != OutcomeOK && r.Outcome != OutcomeNotStoreOK {
		s.last = r
	}
	switch {
	case retry:
		s.times++
		if s.times >= s.timesTotal {
			s.finish()
		}
	case r.Outcome == OutcomeBrokerException && !s.hasResponse:
		s.done, s.err = true, &BrokerError{BrokerName: s.mq.BrokerName, ResponseCode: r.ResponseCode}
	default:
		// A response, or a non-retried broker error after an earlier response: return it.
		s.done = true
	}
}

// finish is the code after the loop: an earlier response wins, then the timeout, then the
// "still failed" exception.
func (s *Send) finish() {
	s.done = true
	switch {
	case s.hasResponse:
	case s.callTimeout:
		s.err = ErrCallTimeout
	default:
		e := &SendFailedError{
			Times:       s.times,
			Cost:        s.lastNow - s.beginTimestampFirst,
			Topic:       s.tp.messageQueueList[0].Topic,
			BrokersSent: slices.Clone(s.brokersSent),
			Last:        s.last.Outcome,
		}
		if e.Last == OutcomeBrokerException {
			e.ResponseCode = s.last.ResponseCode
		}
		s.err = e
	}
}

// Attempts returns a copy of the attempts made so far.
func (s *Send) Attempts() []Attempt { return slices.Clone(s.attempts) }

// Result is the end of the send: the queue that returned a response, or the error; the
// attempts either way. It panics before Done.
func (s *Send) Result() (SendResult, error) {
	if !s.done {
		panic("selector: Send.Result before the send is done")
	}
	var res SendResult
	if s.err == nil {
		res = s.response
	}
	res.Attempts = slices.Clone(s.attempts)
	return res, s.err
}

// AttemptFunc performs one attempt on mq within timeout ms and says how it ended. A
// simulated broker slower than timeout should report OutcomeRemotingException with Elapsed
// = timeout, as the Java client's request would time out.
type AttemptFunc func(mq route.MessageQueue, timeout int64) AttemptResult

// SendSync runs a whole SYNC send starting at now: each attempt starts when the previous
// one ended (now advances by each Elapsed). It returns the queue that answered, or an error
// (*SendFailedError, *BrokerError, ErrCallTimeout, ErrNoRouteInfo), with the attempts made.
func SendSync(tp *TopicPublishInfo, strategy FaultStrategy, cfg SendConfig, now int64, attempt AttemptFunc) (SendResult, error) {
	s, err := NewSend(tp, strategy, cfg, now)
	if err != nil {
		return SendResult{}, err
	}
	for {
		mq, timeout, ok := s.Next(now)
		if !ok {
			return s.Result()
		}
		r := attempt(mq, timeout)
		if r.Elapsed < 0 {
			panic("selector: an attempt cannot take negative time")
		}
		now += r.Elapsed
		s.Report(r, now)
	}
}
