package conform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/lbscope/lbscope/core/profile/goclient"
	"github.com/lbscope/lbscope/core/route"
)

type goSelectFile struct {
	Cases []goSelectCase `json:"cases"`
}

// goSelectCase is one case of select-go.json (spec §9.3).
type goSelectCase struct {
	ID          *string         `json:"id"`
	Selector    string          `json:"selector"`
	Topic       string          `json:"topic"`
	Queues      *[]jsonQueue    `json:"queues"`
	StartStored *int64          `json:"startStored"`
	RandSeed    *int64          `json:"randSeed"`
	RetryTimes  *int            `json:"retryTimes"`
	Steps       *[]goSelectStep `json:"steps"`
}

type goSelectStep struct {
	Op             string          `json:"op"`
	Topic          *string         `json:"topic"`
	Queues         *[]jsonQueue    `json:"queues"`
	StoredBefore   json.RawMessage `json:"storedBefore"`
	StoredAfter    json.RawMessage `json:"storedAfter"`
	Result         json.RawMessage `json:"result"`
	Error          *string         `json:"error"`
	LastBrokerName *string         `json:"lastBrokerName"`
	ShardingKey    *string         `json:"shardingKey"`
	Mode           *string         `json:"mode"`
	Attempt        *int            `json:"attempt"`
	Outcome        *string         `json:"outcome"`
}

// runGoSelect replays select-go.json on the Go selectors and send loops: one selector per
// case, the round-robin counter checked before and after every step, the send loop's
// attempt number and the last broker it passes checked at every attempt.
func runGoSelect(data []byte, opts Options) (Result, error) {
	var f goSelectFile
	if err := json.Unmarshal(data, &f); err != nil {
		return Result{}, fmt.Errorf("select vectors: %w", err)
	}
	var r Result
	var b budget
	for i, c := range f.Cases {
		if c.ID == nil {
			return r, fmt.Errorf("select case #%d: missing \"id\"", i+1)
		}
		if c.Queues == nil || c.Steps == nil {
			return r, fmt.Errorf("select case %q: needs \"queues\" and \"steps\"", *c.ID)
		}
		if len(*c.Steps) > MaxSteps {
			return r, fmt.Errorf("select case %q: more than %d steps", *c.ID, MaxSteps)
		}
		work := selectWork(len(*c.Queues), len(*c.Steps))
		for _, st := range *c.Steps {
			if st.Queues != nil {
				work += len(*st.Queues) // converted at that step
			}
		}
		if err := b.spend(fmt.Sprintf("select case %q", *c.ID), work); err != nil {
			return r, err
		}
		want, got, err := c.run(opts)
		if err != nil {
			return r, fmt.Errorf("select case %q: %w", *c.ID, err)
		}
		r.check(*c.ID, want, got)
	}
	return r, nil
}

func (c goSelectCase) run(opts Options) (want, got string, err error) {
	rr := goclient.NewRoundRobin()
	if c.StartStored != nil {
		if *c.StartStored < 0 || *c.StartStored > math.MaxUint32 {
			return "", "", fmt.Errorf("startStored %d is not a uint32", *c.StartStored)
		}
		rr.SetCounter(c.Topic, uint32(*c.StartStored))
	}
	var random goclient.Random
	if c.RandSeed != nil {
		if opts.GoRandom == nil {
			return "randSeed " + strconv.FormatInt(*c.RandSeed, 10), "no Go random source given to conform", nil
		}
		random.Src = opts.GoRandom(*c.RandSeed)
	}
	var sel goclient.Selector
	switch c.Selector {
	case "ROUND_ROBIN":
		sel = rr
	case "HASH":
		sel = goclient.Hash{Random: random}
	case "RANDOM":
		sel = random
	default:
		return "", "", fmt.Errorf("selector %q: want ROUND_ROBIN, HASH or RANDOM", c.Selector)
	}
	retryTimes := goclient.DefaultRetryTimes
	if c.RetryTimes != nil {
		if *c.RetryTimes < 0 || *c.RetryTimes > 1000 {
			return "", "", fmt.Errorf("retryTimes %d: want 0…1000", *c.RetryTimes)
		}
		retryTimes = *c.RetryTimes
	}
	current := queues(*c.Queues)
	var send *goclient.Send
	for i, st := range *c.Steps {
		p := fmt.Sprintf("step %d ", i+1)
		if st.Queues != nil {
			current = queues(*st.Queues)
		}
		topic := c.Topic
		if st.Topic != nil {
			topic = *st.Topic
		}
		counter := func() string {
			if v, ok := rr.Counter(topic); ok {
				return strconv.FormatUint(uint64(v), 10)
			}
			return "null"
		}
		if st.StoredBefore != nil {
			if w, g := p+"storedBefore "+rawText(st.StoredBefore), p+"storedBefore "+counter(); w != g {
				return w, g, nil
			}
		}
		key, last := "", ""
		switch st.Op {
		case "newMessage":
			send = nil
			continue
		case "plain", "random":
			if st.LastBrokerName != nil {
				last = *st.LastBrokerName
			}
		case "lastBroker":
			if st.LastBrokerName == nil {
				return "", "", fmt.Errorf("step %d (lastBroker): missing \"lastBrokerName\"", i+1)
			}
			last = *st.LastBrokerName
		case "hash":
			if st.ShardingKey == nil {
				return "", "", fmt.Errorf("step %d (hash): missing \"shardingKey\"", i+1)
			}
			key = *st.ShardingKey
		case "attempt":
			if st.Mode == nil || st.Outcome == nil {
				return "", "", fmt.Errorf("step %d (attempt): needs \"mode\" and \"outcome\"", i+1)
			}
			if send == nil {
				mode := goclient.SendMode(*st.Mode)
				if mode != goclient.SendSync && mode != goclient.SendOneway && mode != goclient.SendAsync {
					return "", "", fmt.Errorf("step %d: mode %q: want SYNC, ONEWAY or ASYNC", i+1, *st.Mode)
				}
				send = goclient.NewSend(mode, retryTimes)
			}
			n, l, ok := send.Next()
			if !ok {
				return p + "attempt " + attemptText(st.Attempt), p + "the send already ended", nil
			}
			if st.Attempt != nil {
				if w, g := p+"attempt "+strconv.Itoa(*st.Attempt), p+"attempt "+strconv.Itoa(n); w != g {
					return w, g, nil
				}
			}
			if st.LastBrokerName != nil {
				if w, g := p+"lastBrokerName "+strconv.Quote(*st.LastBrokerName), p+"lastBrokerName "+strconv.Quote(l); w != g {
					return w, g, nil
				}
			}
			last = l
		default:
			return "", "", fmt.Errorf("step %d: unknown \"op\" %q", i+1, st.Op)
		}
		if (st.Op == "random" || (st.Op == "hash" && key == "")) && random.Src == nil {
			return "", "", fmt.Errorf("step %d: a random pick needs \"randSeed\"", i+1)
		}
		wantResult, err := goWantResult(st)
		if err != nil {
			return "", "", fmt.Errorf("step %d: %w", i+1, err)
		}
		mq, selErr := sel.Select(topic, key, current, last)
		gotResult := "result " + queueText(mq)
		if selErr != nil {
			gotResult = "error " + selErr.Error()
		}
		if wantResult != gotResult {
			return p + wantResult, p + gotResult, nil
		}
		if st.StoredAfter != nil {
			if w, g := p+"storedAfter "+rawText(st.StoredAfter), p+"storedAfter "+counter(); w != g {
				return w, g, nil
			}
		}
		if st.Op == "attempt" {
			o, err := goOutcome(*st.Outcome)
			if err != nil {
				return "", "", fmt.Errorf("step %d: %w", i+1, err)
			}
			send.Report(mq.BrokerName, o)
		}
	}
	return "ok", "ok", nil
}

func goOutcome(s string) (goclient.AttemptOutcome, error) {
	switch s {
	case "OK", "SEND_OK":
		return goclient.AttemptOK, nil
	case "REMOTING_EXCEPTION":
		return goclient.AttemptTransportError, nil
	case "BROKER_RETRY_CODE", "SYSTEM_ERROR":
		return goclient.AttemptRetriedCode, nil
	}
	return 0, fmt.Errorf("outcome %q: want OK, REMOTING_EXCEPTION or SYSTEM_ERROR", s)
}

func goWantResult(st goSelectStep) (string, error) {
	if st.Error != nil {
		return "error " + *st.Error, nil
	}
	if st.Result == nil {
		return "", errors.New("needs \"result\" or \"error\"")
	}
	var q jsonQueue
	if err := json.Unmarshal(st.Result, &q); err != nil {
		return "", fmt.Errorf("\"result\": %w", err)
	}
	return "result " + queueText(q.queue()), nil
}

// rawText is a recorded number or null as written, without spaces.
func rawText(raw json.RawMessage) string { return string(bytes.TrimSpace(raw)) }

// goRoute is a recorded name-server answer (publish-go.json, select-java49.json).
type goRoute struct {
	QueueDatas []struct {
		BrokerName     string `json:"brokerName"`
		ReadQueueNums  int32  `json:"readQueueNums"`
		WriteQueueNums int32  `json:"writeQueueNums"`
		Perm           int32  `json:"perm"`
		TopicSysFlag   int32  `json:"topicSysFlag"`
		TopicSynFlag   int32  `json:"topicSynFlag"` // the Go client's spelling
	} `json:"queueDatas"`
	BrokerDatas []struct {
		Cluster     string            `json:"cluster"`
		BrokerName  string            `json:"brokerName"`
		BrokerAddrs map[string]string `json:"brokerAddrs"`
	} `json:"brokerDatas"`
	OrderTopicConf string `json:"orderTopicConf"`
}

func (g goRoute) route() (*route.TopicRouteData, error) {
	rd := &route.TopicRouteData{OrderTopicConf: g.OrderTopicConf}
	total := int64(0)
	for _, qd := range g.QueueDatas {
		if qd.ReadQueueNums < 0 || qd.WriteQueueNums < 0 {
			return nil, fmt.Errorf("broker %q: negative queue counts", qd.BrokerName)
		}
		total += int64(qd.ReadQueueNums) + int64(qd.WriteQueueNums)
		if total > MaxRouteQueues {
			return nil, fmt.Errorf("the route declares more than %d queues", MaxRouteQueues)
		}
		flag := qd.TopicSysFlag | qd.TopicSynFlag
		rd.QueueDatas = append(rd.QueueDatas, route.QueueData{BrokerName: qd.BrokerName, ReadQueueNums: qd.ReadQueueNums, WriteQueueNums: qd.WriteQueueNums, Perm: qd.Perm, TopicSysFlag: flag})
	}
	for _, bd := range g.BrokerDatas {
		addrs := map[int64]string{}
		for k, v := range bd.BrokerAddrs {
			id, err := strconv.ParseInt(k, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("broker %q: address key %q is not a broker id", bd.BrokerName, k)
			}
			addrs[id] = v
		}
		rd.BrokerDatas = append(rd.BrokerDatas, route.BrokerData{Cluster: bd.Cluster, BrokerName: bd.BrokerName, BrokerAddrs: addrs})
	}
	return rd, nil
}

type goPublishFile struct {
	Cases []struct {
		ID          string      `json:"id"`
		Path        string      `json:"path"`
		Topic       string      `json:"topic"`
		Route       *goRoute    `json:"route"`
		PublishList []jsonQueue `json:"publishList"`
	} `json:"cases"`
}

// runGoPublish checks publish-go.json: the producer's publish list built from the route on
// the case's path (spec §9.1.8).
func runGoPublish(data []byte) (Result, error) {
	var f goPublishFile
	if err := json.Unmarshal(data, &f); err != nil {
		return Result{}, fmt.Errorf("publish vectors: %w", err)
	}
	var r Result
	var b budget
	for i, c := range f.Cases {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("cases[%d]", i)
		}
		if c.Route != nil {
			if err := b.spend("publish case "+id, len(c.Route.QueueDatas)*(1+len(c.Route.BrokerDatas))); err != nil {
				return r, err
			}
		}
		passes, ok := goclient.PublishPath(c.Path).Passes()
		if !ok {
			return r, fmt.Errorf("publish case %s: path %q: want firstSend, routeAlreadyCached or refreshChanged", id, c.Path)
		}
		if c.Route == nil {
			return r, fmt.Errorf("publish case %s: missing \"route\"", id)
		}
		rd, err := c.Route.route()
		if err != nil {
			return r, fmt.Errorf("publish case %s: %w", id, err)
		}
		if err := b.spend("publish case "+id, routeQueues(rd)); err != nil {
			return r, err
		}
		r.check(id, formatQueues(queues(c.PublishList)), formatQueues(goclient.PublishList(c.Topic, rd, passes)))
	}
	return r, nil
}

func routeQueues(rd *route.TopicRouteData) int {
	n := 0
	for _, qd := range rd.QueueDatas {
		n += int(qd.WriteQueueNums)
	}
	return n
}
