package conform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/lbscope/lbscope/core/fault"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
)

type selectFile struct {
	Cases []selectCase `json:"cases"`
}

// selectCase is one recorded selection sequence (select.json schema).
type selectCase struct {
	ID                     *string       `json:"id"`
	Queues                 *[]jsonQueue  `json:"queues"`
	StartStored            *int32        `json:"startStored"`
	SendLatencyFaultEnable bool          `json:"sendLatencyFaultEnable"`
	StartDetectorEnable    bool          `json:"startDetectorEnable"` // not recorded: always false
	Steps                  *[]selectStep `json:"steps"`
}

// selectStep holds the fields of every op; json.RawMessage keeps "absent" apart from null.
type selectStep struct {
	Op             string          `json:"op"`
	StoredBefore   json.RawMessage `json:"storedBefore"`
	StoredAfter    json.RawMessage `json:"storedAfter"`
	Result         json.RawMessage `json:"result"`
	Error          *string         `json:"error"`
	LastBrokerName json.RawMessage `json:"lastBrokerName"`
	ResetIndex     *bool           `json:"resetIndex"`
	ResetValue     *int32          `json:"resetValue"`

	BrokerName     *string `json:"brokerName"`
	CurrentLatency *int64  `json:"currentLatency"`
	Isolation      *bool   `json:"isolation"`
	Reachable      *bool   `json:"reachable"`
	AvailableAfter *bool   `json:"availableAfter"`
	ReachableAfter *bool   `json:"reachableAfter"`

	Attempt         *int    `json:"attempt"`
	Outcome         *string `json:"outcome"`
	ResponseCode    *int32  `json:"responseCode"` // not recorded; BROKER_EXCEPTION defaults to a retried code
	UpdateIsolation *bool   `json:"updateIsolation"`
	UpdateReachable *bool   `json:"updateReachable"`
}

// runSelect replays every case of select.json on one TopicPublishInfo and one
// MQFaultStrategy at a single virtual instant (the README allows it: no isolation expires
// within a case). A case passes only if every step matches.
func runSelect(data []byte) (Result, error) {
	var f selectFile
	if err := json.Unmarshal(data, &f); err != nil {
		return Result{}, fmt.Errorf("select vectors: %w", err)
	}
	var r Result
	var b budget
	for i, c := range f.Cases {
		if c.ID == nil {
			return r, fmt.Errorf("select case #%d: missing \"id\"", i+1)
		}
		id := *c.ID
		if c.Queues == nil {
			return r, fmt.Errorf("select case %q: missing \"queues\"", id)
		}
		if c.Steps == nil {
			return r, fmt.Errorf("select case %q: missing \"steps\"", id)
		}
		if err := b.spend(fmt.Sprintf("select case %q", id), selectWork(len(*c.Queues), len(*c.Steps))); err != nil {
			return r, err
		}
		want, got, err := c.run()
		if err != nil {
			return r, fmt.Errorf("select case %q: %w", id, err)
		}
		r.check(id, want, got)
	}
	return r, nil
}

// scriptedSource stands in for the index's private Random: reset() stores the recorded
// resetValue; the random first value of an unset slot is not recorded, so drawing it is
// noted and reported.
type scriptedSource struct {
	resetValue *int32
	resets     int
	firstDraws int
}

func (s *scriptedSource) NextInt() int32 { s.firstDraws++; return 0 }

func (s *scriptedSource) NextIntn(int32) int32 {
	s.resets++
	if s.resetValue != nil {
		return *s.resetValue
	}
	return 0
}

// selectRun is the state of one case: the Java objects of the generator plus the send loop
// of the retry emulation.
type selectRun struct {
	src      *scriptedSource
	tp       *selector.TopicPublishInfo
	strategy *fault.MQFaultStrategy
	send     *selector.Send
}

// run replays the steps and returns want == got when everything matched, else the first
// difference.
func (c selectCase) run() (want, got string, err error) {
	x := &selectRun{src: &scriptedSource{}, strategy: fault.NewMQFaultStrategy(fault.DefaultTable())}
	x.tp = selector.NewTopicPublishInfo(queues(*c.Queues), x.src)
	if c.StartStored != nil {
		x.tp.SendWhichQueue().SetStored(*c.StartStored)
	}
	x.strategy.SetSendLatencyFaultEnable(c.SendLatencyFaultEnable)
	x.strategy.SetStartDetectorEnable(c.StartDetectorEnable)
	for i, st := range *c.Steps {
		want, got, err := x.step(i+1, st)
		if err != nil {
			return "", "", err
		}
		if want != got {
			return want, got, nil
		}
	}
	return "ok", "ok", nil
}

const selectNow = 0 // every step of a case runs at the same virtual instant

func (x *selectRun) step(n int, st selectStep) (want, got string, err error) {
	p := fmt.Sprintf("step %d ", n)
	switch st.Op {
	case "newMessage":
		x.send = nil
		return "", "", nil
	case "update":
		if st.BrokerName == nil || st.CurrentLatency == nil || st.Isolation == nil || st.Reachable == nil {
			return "", "", fmt.Errorf("step %d (update): needs \"brokerName\", \"currentLatency\", \"isolation\" and \"reachable\"", n)
		}
		x.strategy.UpdateFaultItem(*st.BrokerName, *st.CurrentLatency, *st.Isolation, *st.Reachable, selectNow)
		return x.checkAfter(n, p, *st.BrokerName, st)
	case "plain", "lastBroker", "strategy", "attempt":
	default:
		return "", "", fmt.Errorf("step %d: unknown \"op\" %q", n, st.Op)
	}

	// A selecting step.
	if st.Result == nil && st.Error == nil {
		return "", "", fmt.Errorf("step %d (%s): needs \"result\" or \"error\"", n, st.Op)
	}
	wantResult, err := st.wantResult()
	if err != nil {
		return "", "", fmt.Errorf("step %d: \"result\": %w", n, err)
	}
	before, err := nullableInt32(st.StoredBefore)
	if err != nil {
		return "", "", fmt.Errorf("step %d: \"storedBefore\": %w", n, err)
	}
	after, err := nullableInt32(st.StoredAfter)
	if err != nil {
		return "", "", fmt.Errorf("step %d: \"storedAfter\": %w", n, err)
	}
	var last selector.LastBroker
	if st.LastBrokerName != nil {
		if last, err = lastBroker(st.LastBrokerName); err != nil {
			return "", "", fmt.Errorf("step %d: \"lastBrokerName\": %w", n, err)
		}
	}
	if w, g := p+"storedBefore "+slotText(before), p+"storedBefore "+x.slot(); w != g {
		return w, g, nil
	}
	x.src.resetValue, x.src.resets, x.src.firstDraws = st.ResetValue, 0, 0

	var gotResult string
	switch st.Op {
	case "plain":
		gotResult = resultText(x.tp.SelectOneMessageQueue())
	case "lastBroker":
		if st.LastBrokerName == nil {
			return "", "", fmt.Errorf("step %d (lastBroker): missing \"lastBrokerName\"", n)
		}
		gotResult = resultText(x.tp.SelectAvoiding(last))
	case "strategy":
		if st.LastBrokerName == nil || st.ResetIndex == nil {
			return "", "", fmt.Errorf("step %d (strategy): needs \"lastBrokerName\" and \"resetIndex\"", n)
		}
		gotResult = resultText(x.strategy.SelectOneMessageQueue(x.tp, last, *st.ResetIndex, selectNow))
	case "attempt":
		if st.Outcome == nil || st.CurrentLatency == nil {
			return "", "", fmt.Errorf("step %d (attempt): needs \"outcome\" and \"currentLatency\"", n)
		}
		outcome, err := selector.ParseOutcome(*st.Outcome)
		if err != nil {
			return "", "", fmt.Errorf("step %d: \"outcome\": %w", n, err)
		}
		if x.send == nil {
			if x.send, err = selector.NewSend(x.tp, x.strategy, selector.DefaultSendConfig(), selectNow); err != nil {
				return p + "attempt", p + javaErrorText(err), nil
			}
		}
		if x.send.Done() {
			return p + "attempt " + attemptText(st.Attempt), p + "the send already ended", nil
		}
		if st.Attempt != nil {
			if w, g := p+"attempt "+strconv.Itoa(*st.Attempt), p+"attempt "+strconv.Itoa(x.send.Attempt()); w != g {
				return w, g, nil
			}
		}
		if st.LastBrokerName != nil {
			if w, g := p+"lastBrokerName "+last.String(), p+"lastBrokerName "+x.send.LastBrokerName().String(); w != g {
				return w, g, nil
			}
		}
		if st.ResetIndex != nil {
			if w, g := p+"resetIndex "+strconv.FormatBool(*st.ResetIndex), p+"resetIndex "+strconv.FormatBool(x.send.ResetIndex()); w != g {
				return w, g, nil
			}
		}
		mq, _, ok := x.send.Next(selectNow)
		if !ok {
			_, err := x.send.Result()
			gotResult = "error " + javaErrorText(err)
			break
		}
		gotResult = "result " + queueText(mq)
		code := selector.CodeSystemError
		if st.ResponseCode != nil {
			code = *st.ResponseCode
		}
		x.send.Report(selector.AttemptResult{Outcome: outcome, ResponseCode: code, Elapsed: *st.CurrentLatency}, selectNow)
	}
	if wantResult != gotResult {
		return p + wantResult, p + gotResult, nil
	}
	if w, g := p+"storedAfter "+slotText(after), p+"storedAfter "+x.slot(); w != g {
		return w, g, nil
	}
	if x.src.firstDraws > 0 {
		return p + "storedBefore " + slotText(before), p + "drew the unrecorded random first value of an unset slot", nil
	}
	switch {
	case st.ResetValue != nil && x.src.resets != 1:
		return p + "reset storing " + strconv.Itoa(int(*st.ResetValue)), p + fmt.Sprintf("%d resets", x.src.resets), nil
	case st.ResetValue == nil && x.src.resets != 0:
		return p + "no reset", p + fmt.Sprintf("%d resets", x.src.resets), nil
	}
	if st.Op != "attempt" {
		return "", "", nil
	}
	attempts := x.send.Attempts()
	a := attempts[len(attempts)-1]
	if st.UpdateIsolation != nil && st.UpdateReachable != nil {
		w := fmt.Sprintf("%supdate isolation %v reachable %v", p, *st.UpdateIsolation, *st.UpdateReachable)
		g := fmt.Sprintf("%supdate isolation %v reachable %v", p, a.Isolation, a.Reachable)
		if w != g {
			return w, g, nil
		}
	}
	return x.checkAfter(n, p, a.Queue.BrokerName, st)
}

// checkAfter compares availableAfter / reachableAfter of brokerName, when recorded.
func (x *selectRun) checkAfter(n int, p, brokerName string, st selectStep) (want, got string, err error) {
	if st.AvailableAfter == nil || st.ReachableAfter == nil {
		if st.Op == "update" {
			return "", "", fmt.Errorf("step %d (update): needs \"availableAfter\" and \"reachableAfter\"", n)
		}
		return "", "", nil
	}
	w := fmt.Sprintf("%s%s available %v reachable %v", p, brokerName, *st.AvailableAfter, *st.ReachableAfter)
	g := fmt.Sprintf("%s%s available %v reachable %v", p, brokerName,
		x.strategy.IsAvailable(brokerName, selectNow), x.strategy.IsReachable(brokerName))
	return w, g, nil
}

func (x *selectRun) slot() string {
	v, ok := x.tp.SendWhichQueue().Stored()
	if !ok {
		return "unset"
	}
	return strconv.Itoa(int(v))
}

// wantResult is the recorded outcome as "result <queue>", "result null" or "error <text>".
func (st selectStep) wantResult() (string, error) {
	if st.Error != nil {
		return "error " + *st.Error, nil
	}
	if bytes.Equal(bytes.TrimSpace(st.Result), []byte("null")) {
		return "result null", nil
	}
	var q jsonQueue
	if err := json.Unmarshal(st.Result, &q); err != nil {
		return "", err
	}
	return "result " + queueText(q.queue()), nil
}

func resultText(mq route.MessageQueue, err error) string {
	if err != nil {
		return "error " + javaErrorText(err)
	}
	return "result " + queueText(mq)
}

// javaErrorText is the Java exception text the vectors record for an error of the core.
func javaErrorText(err error) string {
	if errors.Is(err, selector.ErrDivideByZero) {
		return "ArithmeticException: / by zero"
	}
	return err.Error()
}

// queueText is "broker-a:3", with the topic in front when it is not the vectors' TopicTest.
func queueText(q route.MessageQueue) string {
	if q.Topic == "TopicTest" {
		return q.Short()
	}
	return q.Topic + "/" + q.Short()
}

func attemptText(a *int) string {
	if a == nil {
		return "?"
	}
	return strconv.Itoa(*a)
}

func slotText(v *int32) string {
	if v == nil {
		return "unset"
	}
	return strconv.Itoa(int(*v))
}

// nullableInt32 decodes a required field that may be null (nil result: null).
func nullableInt32(raw json.RawMessage) (*int32, error) {
	if raw == nil {
		return nil, errors.New("missing")
	}
	var v *int32
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// lastBroker decodes a string-or-null lastBrokerName.
func lastBroker(raw json.RawMessage) (selector.LastBroker, error) {
	var s *string
	if err := json.Unmarshal(raw, &s); err != nil {
		return selector.LastBroker{}, err
	}
	if s == nil {
		return selector.LastBroker{}, nil
	}
	return selector.Last(*s), nil
}
