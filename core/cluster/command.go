package cluster

import "github.com/lbscope/lbscope/core/allocate"

// Command is one action of the shared vocabulary: scenario timelines, the command line, the
// browser's buttons and its JS API all produce these. Arguments are named fields; which ones a
// type uses is listed in CommandTypes.
type Command struct {
	Type        string           `json:"type"`
	ID          string           `json:"id,omitempty"`          // consumer (or producer) id
	Broker      string           `json:"broker,omitempty"`      // broker name
	LatencyMs   *int             `json:"latencyMs,omitempty"`   // slowBroker
	Queues      *int             `json:"queues,omitempty"`      // addBroker, setQueues
	ConsumeRate *int             `json:"consumeRate,omitempty"` // addConsumer (optional)
	Strategy    string           `json:"strategy,omitempty"`    // setStrategy
	Params      *allocate.Params `json:"params,omitempty"`      // setStrategy (optional)
	Rate        *int             `json:"rate,omitempty"`        // setProducerRate
	On          *bool            `json:"on,omitempty"`          // setLatencyFault
	Table       string           `json:"table,omitempty"`       // setFaultTable
	Model       string           `json:"model,omitempty"`       // setMessageModel
}

// CommandTypes lists every command with the arguments it takes, in the order the command
// line's "--at T:type:arg:arg" form gives them.
var CommandTypes = map[string][]string{
	"addConsumer":       {"id", "consumeRate?"},
	"killConsumer":      {"id"},
	"partitionConsumer": {"id"},
	"healConsumer":      {"id"},
	"stopConsumer":      {"id"},
	"restartConsumer":   {"id"},
	"hangConsumer":      {"id"},
	"resumeConsumer":    {"id"},
	"slowBroker":        {"broker", "latencyMs"},
	"killBroker":        {"broker"},
	"restoreBroker":     {"broker"},
	"addBroker":         {"broker", "queues"},
	"setQueues":         {"broker", "queues"},
	"setStrategy":       {"strategy"},
	"setProducerRate":   {"rate", "id?"},
	"setLatencyFault":   {"on"},
	"setFaultTable":     {"table"},
	"setMessageModel":   {"model"},
}
