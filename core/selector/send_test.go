package selector_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/lbscope/lbscope/core/fault"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
)

// script answers attempts in order and records the request timeouts it was given.
type script struct {
	results  []selector.AttemptResult
	timeouts []int64
}

func (s *script) attempt(mq route.MessageQueue, timeout int64) selector.AttemptResult {
	s.timeouts = append(s.timeouts, timeout)
	r := s.results[0]
	s.results = s.results[1:]
	return r
}

func fail(o selector.Outcome, elapsed int64) selector.AttemptResult {
	return selector.AttemptResult{Outcome: o, Elapsed: elapsed, ResponseCode: selector.CodeSystemBusy}
}

var ok = selector.AttemptResult{Outcome: selector.OutcomeOK, Elapsed: 5}

func brokers(attempts []selector.Attempt) []string {
	var out []string
	for _, a := range attempts {
		out = append(out, a.Queue.Short())
	}
	return out
}

func strategy(latency bool) *fault.MQFaultStrategy {
	s := fault.NewMQFaultStrategy(fault.DefaultTable())
	s.SetSendLatencyFaultEnable(latency)
	return s
}

func TestSendRetryAvoidsLastBroker(t *testing.T) {
	for _, latency := range []bool{false, true} {
		tp := newInfo(0, "broker-a:2", "broker-b:2")
		sc := &script{results: []selector.AttemptResult{fail(selector.OutcomeRemotingException, 40), ok}}
		res, err := selector.SendSync(tp, strategy(latency), selector.DefaultSendConfig(), 0, sc.attempt)
		if err != nil {
			t.Fatalf("latency %v: %v", latency, err)
		}
		// In latency mode the retry resets the index (to 0 here) and then skips broker-a:1.
		want := []string{"broker-a:1", "broker-b:0"}
		if got := brokers(res.Attempts); !slices.Equal(got, want) || res.Queue != res.Attempts[1].Queue {
			t.Errorf("latency %v: attempts %v, answered by %s; want %v", latency, got, res.Queue.Short(), want)
		}
	}
}

func TestSendSingleBrokerRetriesSameBroker(t *testing.T) {
	tp := newInfo(0, "broker-a:4")
	sc := &script{results: []selector.AttemptResult{fail(selector.OutcomeClientException, 1), fail(selector.OutcomeRemotingException, 1), ok}}
	res, err := selector.SendSync(tp, strategy(false), selector.DefaultSendConfig(), 0, sc.attempt)
	if err != nil {
		t.Fatal(err)
	}
	// Each retry: a failed pass over 4 queues of the last broker, then a plain pick.
	if got, want := brokers(res.Attempts), []string{"broker-a:1", "broker-a:2", "broker-a:3"}; !slices.Equal(got, want) {
		t.Errorf("attempts %v; want %v", got, want)
	}
	if s := stored(tp); s != 1+5+5 {
		t.Errorf("stored %d; want 11", s)
	}
}

func TestSendFaultUpdates(t *testing.T) {
	tests := []struct {
		outcome       selector.Outcome
		detector      bool
		wantIsolation bool
		wantReachable bool
	}{
		{selector.OutcomeOK, false, false, true},
		{selector.OutcomeClientException, false, false, true},
		{selector.OutcomeRemotingException, false, true, true},
		{selector.OutcomeRemotingException, true, true, false},
		{selector.OutcomeBrokerException, false, true, false},
	}
	for _, tt := range tests {
		s := strategy(true)
		s.SetStartDetectorEnable(tt.detector)
		tp := newInfo(0, "broker-a:1", "broker-b:1")
		sc := &script{results: []selector.AttemptResult{fail(tt.outcome, 20), ok, ok}}
		res, _ := selector.SendSync(tp, s, selector.DefaultSendConfig(), 0, sc.attempt)
		a := res.Attempts[0]
		if a.Isolation != tt.wantIsolation || a.Reachable != tt.wantReachable {
			t.Errorf("%v detector %v: update (%v, %v); want (%v, %v)", tt.outcome, tt.detector, a.Isolation, a.Reachable, tt.wantIsolation, tt.wantReachable)
		}
		it, _ := s.FaultItem(a.Queue.BrokerName)
		if it.CurrentLatency != 20 || it.ReachableFlag != tt.wantReachable || (it.StartTimestamp == 20+10000) != tt.wantIsolation {
			t.Errorf("%v: fault item %+v", tt.outcome, it)
		}
	}
}

func TestSendBrokerExceptionCodes(t *testing.T) {
	tp := newInfo(0, "broker-a:1", "broker-b:1")
	sc := &script{results: []selector.AttemptResult{{Outcome: selector.OutcomeBrokerException, ResponseCode: 13, Elapsed: 3}, ok}}
	res, err := selector.SendSync(tp, strategy(false), selector.DefaultSendConfig(), 0, sc.attempt)
	var be *selector.BrokerError
	if !errors.As(err, &be) || be.ResponseCode != 13 || be.BrokerName != "broker-b" || len(res.Attempts) != 1 {
		t.Errorf("non-retryable code: got %v after %d attempts; want a BrokerError from broker-b after 1", err, len(res.Attempts))
	}
	for _, code := range selector.DefaultSendConfig().RetryResponseCodes {
		tp := newInfo(0, "broker-a:1", "broker-b:1")
		sc := &script{results: []selector.AttemptResult{{Outcome: selector.OutcomeBrokerException, ResponseCode: code, Elapsed: 3}, ok}}
		res, err := selector.SendSync(tp, strategy(false), selector.DefaultSendConfig(), 0, sc.attempt)
		if err != nil || len(res.Attempts) != 2 {
			t.Errorf("code %d: got %v after %d attempts; want success on the retry", code, err, len(res.Attempts))
		}
	}
}

func TestSendAllFail(t *testing.T) {
	tp := newInfo(0, "broker-a:1", "broker-b:1", "broker-c:1")
	sc := &script{results: []selector.AttemptResult{
		fail(selector.OutcomeRemotingException, 10), fail(selector.OutcomeClientException, 10), fail(selector.OutcomeBrokerException, 10)}}
	_, err := selector.SendSync(tp, strategy(false), selector.DefaultSendConfig(), 100, sc.attempt)
	var sf *selector.SendFailedError
	if !errors.As(err, &sf) {
		t.Fatalf("got %v; want a SendFailedError", err)
	}
	want := "send [3] times, still failed, cost [30]ms, topic: TopicTest, brokersSent: [broker-b, broker-c, broker-a]"
	if err.Error() != want || sf.Last != selector.OutcomeBrokerException || sf.ResponseCode != selector.CodeSystemBusy {
		t.Errorf("got %q (last %v code %d); want %q", err, sf.Last, sf.ResponseCode, want)
	}
}

func TestSendTimeBudget(t *testing.T) {
	// An attempt that ended exactly at the budget still allows the next one (timeout < cost).
	tp := newInfo(0, "broker-a:1", "broker-b:1")
	sc := &script{results: []selector.AttemptResult{fail(selector.OutcomeRemotingException, 3000), ok}}
	res, err := selector.SendSync(tp, strategy(false), selector.DefaultSendConfig(), 0, sc.attempt)
	if err != nil || len(res.Attempts) != 2 || !slices.Equal(sc.timeouts, []int64{3000, 0}) {
		t.Errorf("at the budget: %v, %d attempts, timeouts %v; want success, 2, [3000 0]", err, len(res.Attempts), sc.timeouts)
	}
	// One millisecond more: the pick is made, then the send stops with a call timeout.
	tp = newInfo(0, "broker-a:1", "broker-b:1")
	sc = &script{results: []selector.AttemptResult{fail(selector.OutcomeRemotingException, 3001), ok}}
	res, err = selector.SendSync(tp, strategy(false), selector.DefaultSendConfig(), 0, sc.attempt)
	if !errors.Is(err, selector.ErrCallTimeout) || len(res.Attempts) != 1 || stored(tp) != 2 {
		t.Errorf("over the budget: %v, %d attempts, stored %d; want call timeout, 1, 2", err, len(res.Attempts), stored(tp))
	}
	// sendMsgMaxTimeoutPerRequest caps every attempt but the last.
	cfg := selector.DefaultSendConfig()
	cfg.SendMsgMaxTimeoutPerRequest = 1000
	tp = newInfo(0, "broker-a:1", "broker-b:1")
	sc = &script{results: []selector.AttemptResult{fail(selector.OutcomeRemotingException, 1000), fail(selector.OutcomeRemotingException, 500), ok}}
	if _, err := selector.SendSync(tp, strategy(false), cfg, 0, sc.attempt); err != nil || !slices.Equal(sc.timeouts, []int64{1000, 1000, 1500}) {
		t.Errorf("per-request cap: %v, timeouts %v; want [1000 1000 1500]", err, sc.timeouts)
	}
}

func TestSendNotStoreOK(t *testing.T) {
	notOK := selector.AttemptResult{Outcome: selector.OutcomeNotStoreOK, Elapsed: 2}
	tp := newInfo(0, "broker-a:1", "broker-b:1")
	sc := &script{results: []selector.AttemptResult{notOK}}
	res, err := selector.SendSync(tp, strategy(false), selector.DefaultSendConfig(), 0, sc.attempt)
	if err != nil || res.Status != selector.OutcomeNotStoreOK || len(res.Attempts) != 1 {
		t.Errorf("default: %v %v %d attempts; want the response returned at once", err, res.Status, len(res.Attempts))
	}
	// Retrying another broker: when the retries fail, the earlier response is returned.
	cfg := selector.DefaultSendConfig()
	cfg.RetryAnotherBrokerWhenNotStoreOK = true
	tp = newInfo(0, "broker-a:1", "broker-b:1")
	sc = &script{results: []selector.AttemptResult{notOK, fail(selector.OutcomeRemotingException, 1), notOK}}
	res, err = selector.SendSync(tp, strategy(false), cfg, 0, sc.attempt)
	if err != nil || res.Status != selector.OutcomeNotStoreOK || res.Queue.BrokerName != "broker-b" || len(res.Attempts) != 3 {
		t.Errorf("retry another: %v %v from %s after %d attempts", err, res.Status, res.Queue.Short(), len(res.Attempts))
	}
}

func TestSendStateMachine(t *testing.T) {
	if _, err := selector.NewSend(newInfo(0), strategy(false), selector.DefaultSendConfig(), 0); !errors.Is(err, selector.ErrNoRouteInfo) {
		t.Errorf("empty list: got %v; want ErrNoRouteInfo", err)
	}
	s, err := selector.NewSend(newInfo(0, "broker-a:1", "broker-b:1"), strategy(false), selector.DefaultSendConfig(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Attempt() != 0 || s.LastBrokerName().Valid || s.ResetIndex() {
		t.Errorf("before the first attempt: attempt %d last %v reset %v", s.Attempt(), s.LastBrokerName(), s.ResetIndex())
	}
	mq, _, _ := s.Next(0)
	s.Report(fail(selector.OutcomeRemotingException, 5), 5)
	if s.Attempt() != 1 || s.LastBrokerName() != selector.Last(mq.BrokerName) || !s.ResetIndex() || s.Done() {
		t.Errorf("after a failure: attempt %d last %v reset %v done %v", s.Attempt(), s.LastBrokerName(), s.ResetIndex(), s.Done())
	}
	s.Next(5)
	s.Report(ok, 10)
	if !s.Done() {
		t.Errorf("not done after OK")
	}
	if _, _, more := s.Next(10); more {
		t.Errorf("Next after the end returned an attempt")
	}
}

func TestParseOutcome(t *testing.T) {
	for _, name := range []string{"OK", "NOT_STORE_OK", "CLIENT_EXCEPTION", "REMOTING_EXCEPTION", "BROKER_EXCEPTION"} {
		o, err := selector.ParseOutcome(name)
		if err != nil || o.String() != name {
			t.Errorf("ParseOutcome(%q) = %v, %v", name, o, err)
		}
	}
	if _, err := selector.ParseOutcome("TIMEOUT"); err == nil {
		t.Errorf("ParseOutcome(TIMEOUT): no error")
	}
}
