package conform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/lbscope/lbscope/core/profile/java49"
	"github.com/lbscope/lbscope/core/route"
)

// fixedSource is a ThreadLocalIndex's Random for a replay: it returns the recorded first
// draw once; any other draw is noted (the recording never made one).
type fixedSource struct {
	value  *int32
	draws  int
	extras int
}

func (s *fixedSource) NextInt() int32 {
	s.draws++
	if s.value == nil || s.draws > 1 {
		s.extras++
		return 0
	}
	return *s.value
}

type java49FaultFile struct {
	LatencyMax           []int64 `json:"latencyMax"`
	NotAvailableDuration []int64 `json:"notAvailableDuration"`
	IsolationLatency     *int64  `json:"isolationLatency"`
	IsolationDuration    *int64  `json:"isolationDuration"`
	Sweep                []struct {
		Latency              *int64 `json:"latency"`
		NotAvailableDuration *int64 `json:"notAvailableDuration"`
	} `json:"sweep"`
	Sequences []struct {
		ID                     string       `json:"id"`
		SendLatencyFaultEnable bool         `json:"sendLatencyFaultEnable"`
		LatencyMax             []int64      `json:"latencyMax"`
		NotAvailableDuration   []int64      `json:"notAvailableDuration"`
		WorstStartStored       *int32       `json:"worstStartStored"`
		Steps                  []java49Step `json:"steps"`
	} `json:"sequences"`
}

// java49Step holds the fields of every op of fault-java49.json and select-java49.json.
type java49Step struct {
	AtMs           int64           `json:"atMs"`
	Op             string          `json:"op"`
	BrokerName     *string         `json:"brokerName"`
	CurrentLatency *int64          `json:"currentLatency"`
	Isolation      *bool           `json:"isolation"`
	Available      *bool           `json:"available"`
	AvailableAfter *bool           `json:"availableAfter"`
	Error          *string         `json:"error"`
	Result         json.RawMessage `json:"result"`

	WorstStoredBefore *int32 `json:"worstStoredBefore"`
	WorstStoredAfter  *int32 `json:"worstStoredAfter"`

	LastBrokerName json.RawMessage `json:"lastBrokerName"` // a name or null; absent on other ops
	StoredBefore   *int32          `json:"storedBefore"`
	StoredAfter    *int32          `json:"storedAfter"`
	PickOneAtLeast *java49Pick     `json:"pickOneAtLeast"`
	Removed        json.RawMessage `json:"removed"`
	Caught         *string         `json:"caught"`

	Attempt         *int    `json:"attempt"`
	Outcome         *string `json:"outcome"`
	UpdateAtMs      *int64  `json:"updateAtMs"`
	UpdateIsolation *bool   `json:"updateIsolation"`
}

type java49Pick struct {
	WorstStoredBefore *int32  `json:"worstStoredBefore"`
	Result            *string `json:"result"`
	WorstStoredAfter  *int32  `json:"worstStoredAfter"`
}

func table49(latencyMax, nad []int64) java49.Table {
	t := java49.DefaultTable()
	if latencyMax != nil {
		t.LatencyMax = latencyMax
	}
	if nad != nil {
		t.NotAvailableDuration = nad
	}
	return t
}

func slot49(x *java49.ThreadLocalIndex) string {
	if v, ok := x.Stored(); ok {
		return strconv.Itoa(int(v))
	}
	return "unset"
}

func slotPtr(v *int32) string {
	if v == nil {
		return "unset"
	}
	return strconv.Itoa(int(*v))
}

// runJava49Fault checks fault-java49.json: the default tables and isolation, every sweep
// point, and every sequence on a 4.9.8 MQFaultStrategy with a virtual clock at atMs.
func runJava49Fault(data []byte) (Result, error) {
	var f java49FaultFile
	if err := json.Unmarshal(data, &f); err != nil {
		return Result{}, fmt.Errorf("fault vectors: %w", err)
	}
	var r Result
	def := java49.DefaultTable()
	if f.LatencyMax != nil || f.NotAvailableDuration != nil {
		r.check("defaults/tables", fmt.Sprint(f.LatencyMax, f.NotAvailableDuration), fmt.Sprint(def.LatencyMax, def.NotAvailableDuration))
	}
	if f.IsolationLatency != nil && f.IsolationDuration != nil {
		d, _ := def.ComputeNotAvailableDuration(java49.IsolationLatency)
		r.check("defaults/isolation", fmt.Sprint(*f.IsolationLatency, *f.IsolationDuration), fmt.Sprint(java49.IsolationLatency, d))
	}
	for i, pt := range f.Sweep {
		if pt.Latency == nil || pt.NotAvailableDuration == nil {
			return r, fmt.Errorf("fault sweep point #%d: needs \"latency\" and \"notAvailableDuration\"", i+1)
		}
		d, _ := def.ComputeNotAvailableDuration(*pt.Latency)
		r.check("sweep/"+strconv.FormatInt(*pt.Latency, 10), strconv.FormatInt(*pt.NotAvailableDuration, 10), strconv.FormatInt(d, 10))
	}
	for i, sq := range f.Sequences {
		if len(sq.Steps) > MaxSteps {
			return r, fmt.Errorf("fault sequence #%d: more than %d steps", i+1, MaxSteps)
		}
		id := sq.ID
		if id == "" {
			id = fmt.Sprintf("sequences[%d]", i)
		}
		src := &fixedSource{}
		s := java49.NewStrategy(src)
		s.Table = table49(sq.LatencyMax, sq.NotAvailableDuration)
		s.SendLatencyFaultEnable = sq.SendLatencyFaultEnable
		if sq.WorstStartStored != nil {
			s.Tolerance.WhichItemWorst.SetStored(*sq.WorstStartStored)
		}
		want, got, err := "ok", "ok", error(nil)
		for n, st := range sq.Steps {
			want, got, err = faultStep49(s, n+1, st)
			if err != nil {
				return r, fmt.Errorf("fault sequence %s: %w", id, err)
			}
			if want != got {
				break
			}
			if src.extras > 0 {
				want, got = fmt.Sprintf("step %d no draw", n+1), fmt.Sprintf("step %d drew whichItemWorst's unrecorded first value", n+1)
				break
			}
		}
		r.check(id, want, got)
	}
	return r, nil
}

func faultStep49(s *java49.Strategy, n int, st java49Step) (want, got string, err error) {
	p := fmt.Sprintf("step %d %s ", n, st.Op)
	name := ""
	if st.BrokerName != nil {
		name = *st.BrokerName
	}
	switch st.Op {
	case "update":
		if st.BrokerName == nil || st.CurrentLatency == nil || st.Isolation == nil {
			return "", "", fmt.Errorf("step %d (update): needs \"brokerName\", \"currentLatency\" and \"isolation\"", n)
		}
		w := p + "ok"
		if st.Error != nil {
			w = p + "error " + *st.Error
		}
		g := p + "ok"
		if err := s.UpdateFaultItem(name, *st.CurrentLatency, *st.Isolation, st.AtMs); err != nil {
			g = p + "error " + err.Error()
		}
		return w, g, nil
	case "check":
		if st.BrokerName == nil || st.Available == nil {
			return "", "", fmt.Errorf("step %d (check): needs \"brokerName\" and \"available\"", n)
		}
		return p + name + " available " + strconv.FormatBool(*st.Available), p + name + " available " + strconv.FormatBool(s.Tolerance.IsAvailable(name, st.AtMs)), nil
	case "pickOneAtLeast":
		var res *string
		if err := json.Unmarshal(orNullRaw(st.Result), &res); err != nil {
			return "", "", fmt.Errorf("step %d: \"result\": %w", n, err)
		}
		return pickText(p, java49Pick{WorstStoredBefore: st.WorstStoredBefore, Result: res, WorstStoredAfter: st.WorstStoredAfter}), pickOne49(p, s, st.AtMs), nil
	case "remove":
		if st.BrokerName == nil {
			return "", "", fmt.Errorf("step %d (remove): needs \"brokerName\"", n)
		}
		s.Tolerance.Remove(name)
		return "", "", nil
	}
	return "", "", fmt.Errorf("step %d: unknown \"op\" %q", n, st.Op)
}

func orNullRaw(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return json.RawMessage("null")
	}
	return raw
}

func pickText(p string, pk java49Pick) string {
	res := "null"
	if pk.Result != nil {
		res = *pk.Result
	}
	return p + "worst " + slotPtr(pk.WorstStoredBefore) + " → " + res + ", worst " + slotPtr(pk.WorstStoredAfter)
}

func pickOne49(p string, s *java49.Strategy, now int64) string {
	before := slot49(s.Tolerance.WhichItemWorst)
	res := "null"
	if name, ok := s.Tolerance.PickOneAtLeast(now); ok {
		res = name
	}
	return p + "worst " + before + " → " + res + ", worst " + slot49(s.Tolerance.WhichItemWorst)
}

type java49SelectFile struct {
	SendLoop *struct {
		Mode                     string `json:"mode"`
		RetryTimesWhenSendFailed int    `json:"retryTimesWhenSendFailed"`
		SendMsgTimeout           int64  `json:"sendMsgTimeout"`
	} `json:"sendLoop"`
	Cases []struct {
		ID                     string       `json:"id"`
		Queues                 *[]jsonQueue `json:"queues"`
		Route                  *goRoute     `json:"route"`
		StartStored            *int32       `json:"startStored"`
		InitDraw               *int32       `json:"initDraw"`
		WorstStartStored       *int32       `json:"worstStartStored"`
		SendLatencyFaultEnable bool         `json:"sendLatencyFaultEnable"`
		Steps                  []java49Step `json:"steps"`
		QueuesAfter            *[]jsonQueue `json:"queuesAfter"`
	} `json:"cases"`
}

// select49 is the state of one select-java49 case.
type select49 struct {
	tp        *java49.TopicPublishInfo
	s         *java49.Strategy
	idx, wsrc *fixedSource
	// the SYNC send loop of sendDefaultImpl 4.9.8 for the current message
	retryTimes int
	timeout    int64
	send       *java49.Send
}

// runJava49Select replays select-java49.json on the 4.9.8 TopicPublishInfo and
// MQFaultStrategy, with a virtual clock at atMs and the SYNC retry loop around attempts.
func runJava49Select(data []byte) (Result, error) {
	var f java49SelectFile
	if err := json.Unmarshal(data, &f); err != nil {
		return Result{}, fmt.Errorf("select vectors: %w", err)
	}
	retryTimes, timeout := java49.DefaultRetryTimes, int64(java49.DefaultSendTimeout)
	if f.SendLoop != nil {
		if f.SendLoop.Mode != "SYNC" || f.SendLoop.RetryTimesWhenSendFailed < 0 || f.SendLoop.RetryTimesWhenSendFailed > 1000 {
			return Result{}, fmt.Errorf("sendLoop: want mode SYNC and retryTimesWhenSendFailed 0…1000")
		}
		retryTimes, timeout = f.SendLoop.RetryTimesWhenSendFailed, f.SendLoop.SendMsgTimeout
	}
	var r Result
	var b budget
	for i, c := range f.Cases {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("cases[%d]", i)
		}
		if c.Queues == nil {
			return r, fmt.Errorf("select case %s: missing \"queues\"", id)
		}
		if len(c.Steps) > MaxSteps {
			return r, fmt.Errorf("select case %s: more than %d steps", id, MaxSteps)
		}
		if err := b.spend("select case "+id, selectWork(len(*c.Queues), len(c.Steps))); err != nil {
			return r, err
		}
		x := &select49{idx: &fixedSource{value: c.InitDraw}, wsrc: &fixedSource{}, retryTimes: retryTimes, timeout: timeout}
		x.tp = &java49.TopicPublishInfo{Queues: queues(*c.Queues), SendWhichQueue: java49.NewThreadLocalIndex(x.idx)}
		if c.Route != nil {
			rd, err := c.Route.route()
			if err != nil {
				return r, fmt.Errorf("select case %s: %w", id, err)
			}
			x.tp.Route = rd
		}
		if c.StartStored != nil {
			x.tp.SendWhichQueue.SetStored(*c.StartStored)
		}
		x.s = java49.NewStrategy(x.wsrc)
		x.s.SendLatencyFaultEnable = c.SendLatencyFaultEnable
		if c.WorstStartStored != nil {
			x.s.Tolerance.WhichItemWorst.SetStored(*c.WorstStartStored)
		}
		want, got := "ok", "ok"
		for n, st := range c.Steps {
			w, g, err := x.step(n+1, st)
			if err != nil {
				return r, fmt.Errorf("select case %s: %w", id, err)
			}
			if w != g {
				want, got = w, g
				break
			}
			if x.idx.extras > 0 || x.wsrc.extras > 0 {
				want, got = fmt.Sprintf("step %d no unrecorded draw", n+1), fmt.Sprintf("step %d drew an index's unrecorded first value", n+1)
				break
			}
		}
		if want == got && c.QueuesAfter != nil {
			want, got = "queuesAfter "+formatQueues(queues(*c.QueuesAfter)), "queuesAfter "+formatQueues(x.tp.Queues)
		}
		r.check(id, want, got)
	}
	return r, nil
}

func (x *select49) step(n int, st java49Step) (want, got string, err error) {
	p := fmt.Sprintf("step %d %s ", n, st.Op)
	switch st.Op {
	case "update":
		if st.BrokerName == nil || st.CurrentLatency == nil || st.Isolation == nil || st.AvailableAfter == nil {
			return "", "", fmt.Errorf("step %d (update): needs \"brokerName\", \"currentLatency\", \"isolation\" and \"availableAfter\"", n)
		}
		if err := x.s.UpdateFaultItem(*st.BrokerName, *st.CurrentLatency, *st.Isolation, st.AtMs); err != nil {
			return p + "ok", p + "error " + err.Error(), nil
		}
		return p + "available " + strconv.FormatBool(*st.AvailableAfter), p + "available " + strconv.FormatBool(x.s.Tolerance.IsAvailable(*st.BrokerName, st.AtMs)), nil
	case "newMessage":
		x.send = java49.NewSend(x.tp, x.s, x.retryTimes, x.timeout, st.AtMs)
		return "", "", nil
	case "plain", "lastBroker", "strategy", "attempt":
	default:
		return "", "", fmt.Errorf("step %d: unknown \"op\" %q", n, st.Op)
	}
	var stepLast *string
	if st.LastBrokerName != nil {
		if err := json.Unmarshal(st.LastBrokerName, &stepLast); err != nil {
			return "", "", fmt.Errorf("step %d: \"lastBrokerName\": %w", n, err)
		}
	}
	if st.Op == "attempt" {
		if x.send == nil || x.send.Done() {
			return p + attemptText(st.Attempt), p + "no message is being sent", nil
		}
		if w, g := p+"attempt "+attemptText(st.Attempt)+" after "+strPtr(stepLast), p+"attempt "+strconv.Itoa(x.send.Attempt())+" after "+strPtr(x.send.LastBrokerName()); w != g {
			return w, g, nil
		}
	}
	if w, g := p+"storedBefore "+slotPtr(st.StoredBefore), p+"storedBefore "+slot49(x.tp.SendWhichQueue); w != g {
		return w, g, nil
	}
	wantRes, err := want49Result(st)
	if err != nil {
		return "", "", fmt.Errorf("step %d: %w", n, err)
	}
	var mq route.MessageQueue
	var sel java49.Selection
	var selErr error
	worstBefore := slot49(x.s.Tolerance.WhichItemWorst)
	switch st.Op {
	case "plain":
		mq, selErr = x.tp.SelectOneMessageQueue()
	case "lastBroker":
		if st.LastBrokerName == nil {
			return "", "", fmt.Errorf("step %d (lastBroker): missing \"lastBrokerName\"", n)
		}
		mq, selErr = x.tp.SelectAvoiding(stepLast)
	case "strategy":
		mq, sel, selErr = x.s.SelectOneMessageQueue(x.tp, stepLast, st.AtMs)
	case "attempt":
		mq, sel, _, selErr = x.send.Next(st.AtMs)
	}
	gotRes := "result " + queueText(mq)
	if selErr != nil {
		gotRes = "error " + selErr.Error()
	}
	if wantRes != gotRes {
		return p + wantRes, p + gotRes, nil
	}
	if w, g := p+"storedAfter "+slotPtr(st.StoredAfter), p+"storedAfter "+slot49(x.tp.SendWhichQueue); w != g {
		return w, g, nil
	}
	// What happened inside the strategy call.
	w, g := "", ""
	if st.PickOneAtLeast != nil {
		w = pickText("pickOneAtLeast ", *st.PickOneAtLeast)
	}
	if sel.Picked {
		res := "null"
		if sel.PickedOK {
			res = sel.PickedName
		}
		g = "pickOneAtLeast worst " + worstBefore + " → " + res + ", worst " + slot49(x.s.Tolerance.WhichItemWorst)
	}
	if st.Removed != nil {
		var name *string
		if err := json.Unmarshal(st.Removed, &name); err != nil {
			return "", "", fmt.Errorf("step %d: \"removed\": %w", n, err)
		}
		w += " removed " + strPtr(name)
	}
	if sel.Removed {
		name := &sel.RemovedName
		if sel.RemovedName == "" && !sel.PickedOK {
			name = nil
		}
		g += " removed " + strPtr(name)
	}
	if st.Caught != nil {
		w += " caught " + *st.Caught
	}
	if sel.Caught != "" {
		g += " caught " + sel.Caught
	}
	if w != g {
		return p + w, p + g, nil
	}
	if st.Op != "attempt" {
		return "", "", nil
	}
	return x.attemptOutcome(p, n, st, mq)
}

// attemptOutcome reports the scripted outcome to the send loop: the budget is checked after
// the selection; client, remoting and broker exceptions isolate and retry, a success or an
// interruption ends the message.
func (x *select49) attemptOutcome(p string, n int, st java49Step, mq route.MessageQueue) (want, got string, err error) {
	if st.Outcome == nil {
		return "", "", fmt.Errorf("step %d (attempt): missing \"outcome\"", n)
	}
	if w, g := p+"call timeout "+strconv.FormatBool(*st.Outcome == "CALL_TIMEOUT"), p+"call timeout "+strconv.FormatBool(x.send.TimedOut()); w != g {
		return w, g, nil
	}
	if x.send.TimedOut() {
		return "", "", nil
	}
	o, ok := map[string]java49.Outcome{"OK": java49.OK, "INTERRUPTED": java49.Interrupted, "CLIENT_EXCEPTION": java49.ClientException,
		"REMOTING_EXCEPTION": java49.RemotingException, "BROKER_EXCEPTION": java49.BrokerException}[*st.Outcome]
	if !ok {
		return "", "", fmt.Errorf("step %d: outcome %q: want OK, INTERRUPTED, CLIENT_EXCEPTION, REMOTING_EXCEPTION, BROKER_EXCEPTION or CALL_TIMEOUT", n, *st.Outcome)
	}
	if st.CurrentLatency == nil || st.UpdateIsolation == nil || st.AvailableAfter == nil || st.UpdateAtMs == nil {
		return "", "", fmt.Errorf("step %d (attempt): needs \"currentLatency\", \"updateAtMs\", \"updateIsolation\" and \"availableAfter\"", n)
	}
	if w, g := p+"update isolation "+strconv.FormatBool(*st.UpdateIsolation), p+"update isolation "+strconv.FormatBool(o.Isolates()); w != g {
		return w, g, nil
	}
	at := *st.UpdateAtMs
	if err := x.send.Report(o, *st.CurrentLatency, at); err != nil {
		return p + "update", p + "update error " + err.Error(), nil
	}
	return p + "available after " + strconv.FormatBool(*st.AvailableAfter), p + "available after " + strconv.FormatBool(x.s.Tolerance.IsAvailable(mq.BrokerName, at)), nil
}

func strPtr(s *string) string {
	if s == nil {
		return "null"
	}
	return strconv.Quote(*s)
}

func want49Result(st java49Step) (string, error) {
	if st.Error != nil {
		return "error " + *st.Error, nil
	}
	if st.Result == nil || bytes.Equal(bytes.TrimSpace(st.Result), []byte("null")) {
		return "", errors.New("needs \"result\" or \"error\"")
	}
	var q jsonQueue
	if err := json.Unmarshal(st.Result, &q); err != nil {
		return "", fmt.Errorf("\"result\": %w", err)
	}
	return "result " + queueText(q.queue()), nil
}
