package conform

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
)

type allocateFile struct {
	Cases []AllocateCase `json:"cases"`
}

// AllocateCase is one recorded strategy call (allocate.json schema). It is also the input of
// `lbscope allocate -`.
type AllocateCase struct {
	ID            string          `json:"id"`
	Scenario      string          `json:"scenario"`
	Strategy      string          `json:"strategy"`
	Params        AllocateParams  `json:"params"`
	ConsumerGroup string          `json:"consumerGroup"`
	CurrentCID    *string         `json:"currentCID"`
	CIDAll        []string        `json:"cidAll"`
	MQAll         []jsonQueue     `json:"mqAll"`
	Result        json.RawMessage `json:"result"`
	Error         *string         `json:"error"`

	// Fields of the rocketmq-client-go files (spec §9.3).
	CallKind     string      `json:"call"`         // "strategy" (as above) or "doBalance"
	GoFunc       string      `json:"goFunc"`       // the Go constructor, for people
	BrokerAnswer string      `json:"brokerAnswer"` // doBalance: SUCCESS or SYSTEM_ERROR
	SortedMQAll  []jsonQueue `json:"sortedMqAll"`  // doBalance: what the strategy was given
	SortedCIDAll []string    `json:"sortedCidAll"`
}

// AllocateParams are the recorded strategy parameters.
type AllocateParams struct {
	VirtualNodeCnt      *int        `json:"virtualNodeCnt"`
	ConsumerIDCs        []string    `json:"consumeridcs"`
	Inner               string      `json:"inner"`
	InnerVirtualNodeCnt *int        `json:"innerVirtualNodeCnt"`
	Resolver            string      `json:"resolver"`
	MessageQueueList    []jsonQueue `json:"messageQueueList"`
}

// Outcome is what a strategy call gave: a result list (nil for Java null) or a Java error text.
type Outcome struct {
	Result []route.MessageQueue
	Error  string
}

// Call builds the case's strategy and calls it with the inputs exactly as recorded (no
// sorting). An error means the case itself is unusable (unknown strategy or resolver), not
// that the strategy threw.
func (c AllocateCase) Call() (Outcome, error) {
	if err := c.checkBounds(); err != nil {
		return Outcome{}, err
	}
	if c.Params.Resolver != "" && c.Params.Resolver != (allocate.PrefixBeforeFirstDash{}).Name() {
		return Outcome{}, fmt.Errorf("unknown machine-room resolver %q (supported: %s)", c.Params.Resolver, allocate.PrefixBeforeFirstDash{}.Name())
	}
	s, err := allocate.New(c.Strategy, allocate.Params{
		VirtualNodeCnt:      c.Params.VirtualNodeCnt,
		ConsumerIDCs:        c.Params.ConsumerIDCs,
		Inner:               c.Params.Inner,
		InnerVirtualNodeCnt: c.Params.InnerVirtualNodeCnt,
		MessageQueueList:    queues(c.Params.MessageQueueList),
	})
	if err != nil {
		var je *allocate.Error
		if errors.As(err, &je) { // e.g. a negative virtual node count: Java's constructor throws
			return Outcome{Error: je.Java()}, nil
		}
		return Outcome{}, err
	}
	current := ""
	if c.CurrentCID != nil {
		current = *c.CurrentCID // null and "" fail the same check (spec §4 step 1)
	}
	result, err := s.Allocate(c.ConsumerGroup, current, queues(c.MQAll), c.CIDAll)
	if err != nil {
		var je *allocate.Error
		if !errors.As(err, &je) {
			return Outcome{}, err
		}
		return Outcome{Error: je.Java()}, nil
	}
	return Outcome{Result: result}, nil
}

func (o Outcome) String() string {
	if o.Error != "" {
		return "error " + o.Error
	}
	return formatQueues(o.Result)
}

func runAllocate(data []byte) (Result, error) {
	var f allocateFile
	if err := json.Unmarshal(data, &f); err != nil {
		return Result{}, fmt.Errorf("allocate vectors: %w", err)
	}
	var r Result
	var b budget
	for i, c := range f.Cases {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("cases[%d]", i)
		}
		if err := c.checkBounds(); err != nil {
			return r, fmt.Errorf("allocate case %s: %w", id, err)
		}
		if err := b.spend("allocate case "+id, c.work()); err != nil {
			return Result{}, err
		}
		want, err := c.want()
		if err != nil {
			return Result{}, fmt.Errorf("allocate case %s: %w", id, err)
		}
		got, err := c.Call()
		if err != nil {
			return Result{}, fmt.Errorf("allocate case %s: %w", id, err)
		}
		r.check(id, want.String(), got.String())
	}
	return r, nil
}

// want is the recorded outcome. Null and [] differ only for CONFIG (schema note), so for the
// other strategies a null result compares as empty.
func (c AllocateCase) want() (Outcome, error) {
	if c.Error != nil {
		return Outcome{Error: *c.Error}, nil
	}
	if c.Result == nil {
		return Outcome{}, errors.New("neither \"result\" nor \"error\" is present")
	}
	var qs []jsonQueue
	if err := json.Unmarshal(c.Result, &qs); err != nil {
		return Outcome{}, fmt.Errorf("\"result\": %w", err)
	}
	out := Outcome{Result: queues(qs)}
	if out.Result == nil && c.Strategy != "CONFIG" {
		out.Result = []route.MessageQueue{}
	}
	return out, nil
}

// Scenarios groups the cases of an allocate file by scenario, keeping file order; used by the
// group-view tests.
func Scenarios(data []byte) (map[string][]AllocateCase, []string, error) {
	var f allocateFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, nil, err
	}
	by := map[string][]AllocateCase{}
	var names []string
	for _, c := range f.Cases {
		if _, ok := by[c.Scenario]; !ok {
			names = append(names, c.Scenario)
		}
		by[c.Scenario] = append(by[c.Scenario], c)
	}
	return by, names, nil
}

// Queues returns the case's mqAll as route queues.
func (c AllocateCase) Queues() []route.MessageQueue { return queues(c.MQAll) }

// Want returns the recorded outcome.
func (c AllocateCase) Want() (Outcome, error) { return c.want() }
