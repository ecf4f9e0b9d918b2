package java49

import "github.com/lbscope/lbscope/core/route"

// Outcome is how one attempt of the 4.9.8 SYNC send loop ended.
type Outcome int

const (
	OK                Outcome = iota // a result: the message is done
	Interrupted                      // InterruptedException: rethrown, the message is done
	ClientException                  // MQClientException: isolate, retry
	RemotingException                // RemotingException: isolate, retry
	BrokerException                  // MQBrokerException with a retried code: isolate, retry
)

// Isolates reports whether 4.9 reports the outcome with isolation (spec §9.2): every
// exception that is retried does, client exceptions included (the current client reports
// those with the real latency).
func (o Outcome) Isolates() bool {
	return o == ClientException || o == RemotingException || o == BrokerException
}

// DefaultRetryTimes is retryTimesWhenSendFailed (3 attempts); DefaultSendTimeout the one
// budget of sendMsgTimeout.
const (
	DefaultRetryTimes  = 2
	DefaultSendTimeout = 3000
)

// Send is the SYNC loop of sendDefaultImpl 4.9.8 for one message: each attempt selects with
// the previous attempt's broker, then — after the selection — checks the budget; a timed-out
// attempt sends nothing and ends the message.
type Send struct {
	tp       *TopicPublishInfo
	s        *Strategy
	attempts int
	timeout  int64
	start    int64
	made     int
	last     *string
	picked   route.MessageQueue
	done     bool
	timedOut bool
}

// NewSend starts the loop at virtual time now.
func NewSend(tp *TopicPublishInfo, s *Strategy, retryTimes int, timeout, now int64) *Send {
	return &Send{tp: tp, s: s, attempts: 1 + max(retryTimes, 0), timeout: timeout, start: now}
}

// Attempt is the 0-based number of the next attempt; LastBrokerName the broker its
// selection is given (nil for the first).
func (x *Send) Attempt() int            { return x.made }
func (x *Send) LastBrokerName() *string { return x.last }
func (x *Send) Done() bool              { return x.done }
func (x *Send) TimedOut() bool          { return x.timedOut }

// Next selects the queue of the next attempt at now. send is false when the budget ran out
// after the selection (the message ends with a timeout) or the loop had ended; err is a
// selection that threw (the message ends).
func (x *Send) Next(now int64) (mq route.MessageQueue, sel Selection, send bool, err error) {
	if x.done {
		return route.MessageQueue{}, sel, false, nil
	}
	mq, sel, err = x.s.SelectOneMessageQueue(x.tp, x.last, now)
	if err != nil {
		x.done = true
		return mq, sel, false, err
	}
	x.picked = mq
	if x.timeout < now-x.start {
		x.done, x.timedOut = true, true
		return mq, sel, false, nil
	}
	return mq, sel, true, nil
}

// Report applies the attempt's outcome at now (when the answer came, latency after the
// attempt started): the fault update with the real latency, isolating for exceptions, then
// the loop goes on or ends.
func (x *Send) Report(o Outcome, latency, now int64) error {
	err := x.s.UpdateFaultItem(x.picked.BrokerName, latency, o.Isolates(), now)
	b := x.picked.BrokerName
	x.last = &b
	x.made++
	if !o.Isolates() || x.made >= x.attempts {
		x.done = true
	}
	return err
}
