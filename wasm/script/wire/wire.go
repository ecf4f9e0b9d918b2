// Package wire carries strategy calls between the page's wasm and the interpreter's: the
// playground's first load has no room for the Starlark interpreter, so it runs in a second,
// small wasm that the page loads when a strategy's source is first needed, and the
// simulation calls it through JavaScript, one JSON string each way. This package has no
// Starlark in it: the page's wasm imports it; the interpreter's answers with script.Server.
package wire

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
)

// Queue is a message queue on the wire.
type Queue struct {
	Topic   string `json:"t"`
	Broker  string `json:"b"`
	QueueID int32  `json:"q"`
}

// Request is one allocate call.
type Request struct {
	Group     string   `json:"group"`
	Current   string   `json:"current"`
	Queues    []Queue  `json:"queues"`
	Consumers []string `json:"consumers"`
	// View is the member's view, for a program whose allocate takes it.
	View *allocate.Viewpoint `json:"view,omitempty"`
}

// Reply is the answer to a compile (ID) or an allocate (Queues, indexes into the request's
// queues); Error, when set, is the script's message with its file and line.
type Reply struct {
	ID     int    `json:"id,omitempty"`
	View   bool   `json:"view,omitempty"` // the program's allocate takes the view
	Queues []int  `json:"queues"`
	Error  string `json:"error,omitempty"`
}

// Call calls the interpreter's method ("compile" with name, file, source and step budget; "allocate" with
// a program's id and a Request's JSON) and returns its Reply's JSON; ok is false when the
// interpreter is not there.
type Call func(method string, args ...any) (reply string, ok bool)

// ErrNotLoaded is what a compile says before the interpreter is there.
var ErrNotLoaded = errors.New("the Starlark interpreter is not loaded yet (the page loads it when a strategy's source is first needed)")

// Compiler is the allocate.Compiler that compiles and calls through call.
func Compiler(call Call) allocate.Compiler {
	return func(name, file string, src []byte, steps int) (allocate.Strategy, error) {
		out, ok := call("compile", name, file, string(src), steps)
		if !ok {
			return nil, ErrNotLoaded
		}
		var r Reply
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			return nil, fmt.Errorf("the interpreter's answer: %v", err)
		}
		if r.Error != "" {
			return nil, errors.New(r.Error)
		}
		rs := &remote{name: name, id: r.ID, call: call}
		if r.View {
			return viewer{rs}, nil
		}
		return rs, nil
	}
}

// remote is a strategy compiled in the interpreter's wasm.
type remote struct {
	name string
	id   int
	call Call
}

func (r *remote) Name() string { return r.name }

func (r *remote) Allocate(group, current string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error) {
	return r.allocate(group, current, mqAll, cidAll, nil)
}

// viewer is a remote program whose allocate takes the view.
type viewer struct{ *remote }

func (v viewer) AllocateView(group, current string, mqAll []route.MessageQueue, cidAll []string, vp allocate.Viewpoint) ([]route.MessageQueue, error) {
	return v.allocate(group, current, mqAll, cidAll, &vp)
}

func (r *remote) allocate(group, current string, mqAll []route.MessageQueue, cidAll []string, vp *allocate.Viewpoint) ([]route.MessageQueue, error) {
	req := Request{Group: group, Current: current, Queues: make([]Queue, len(mqAll)), Consumers: cidAll, View: vp}
	for i, q := range mqAll {
		req.Queues[i] = Queue{q.Topic, q.BrokerName, q.QueueID}
	}
	if req.Consumers == nil {
		req.Consumers = []string{}
	}
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	out, ok := r.call("allocate", r.id, string(b))
	if !ok {
		return nil, ErrNotLoaded
	}
	var rep Reply
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		return nil, fmt.Errorf("the interpreter's answer: %v", err)
	}
	if rep.Error != "" {
		return nil, errors.New(rep.Error)
	}
	qs := make([]route.MessageQueue, len(rep.Queues))
	for i, k := range rep.Queues {
		if k < 0 || k >= len(mqAll) {
			return nil, fmt.Errorf("the interpreter's answer names queue %d of %d", k, len(mqAll))
		}
		qs[i] = mqAll[k]
	}
	return qs, nil
}

// Queues are a request's queues as the core's.
func (r Request) MessageQueues() []route.MessageQueue {
	out := make([]route.MessageQueue, len(r.Queues))
	for i, q := range r.Queues {
		out[i] = route.MessageQueue{Topic: q.Topic, BrokerName: q.Broker, QueueID: q.QueueID}
	}
	return out
}

// SelectRequest is one select call: the publish list, the message and the send's arg (the
// key, a string).
type SelectRequest struct {
	Queues []Queue `json:"queues"`
	Key    string  `json:"key"`
	Tags   string  `json:"tags"`
	Seq    int64   `json:"seq"`
	Arg    string  `json:"arg"`
}

// SelectorCompiler is the selector.Compiler that compiles ("compileSelector") and calls
// ("select": a program's id and a SelectRequest's JSON, answered with the chosen queue's
// index as the Reply's only queue) through call.
func SelectorCompiler(call Call) selector.Compiler {
	return func(name, file string, src []byte, steps int) (selector.Custom, error) {
		out, ok := call("compileSelector", name, file, string(src), steps)
		if !ok {
			return nil, ErrNotLoaded
		}
		var r Reply
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			return nil, fmt.Errorf("the interpreter's answer: %v", err)
		}
		if r.Error != "" {
			return nil, errors.New(r.Error)
		}
		return &remoteSelector{id: r.ID, call: call}, nil
	}
}

// remoteSelector is a selector compiled in the interpreter's wasm.
type remoteSelector struct {
	id   int
	call Call
}

func (r *remoteSelector) Select(mqs []route.MessageQueue, msg selector.Message, arg any) (route.MessageQueue, error) {
	req := SelectRequest{Queues: make([]Queue, len(mqs)), Key: msg.Key, Tags: msg.Tags, Seq: msg.Seq}
	req.Arg, _ = arg.(string)
	for i, q := range mqs {
		req.Queues[i] = Queue{q.Topic, q.BrokerName, q.QueueID}
	}
	b, err := json.Marshal(req)
	if err != nil {
		return route.MessageQueue{}, err
	}
	out, ok := r.call("select", r.id, string(b))
	if !ok {
		return route.MessageQueue{}, ErrNotLoaded
	}
	var rep Reply
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		return route.MessageQueue{}, fmt.Errorf("the interpreter's answer: %v", err)
	}
	if rep.Error != "" {
		return route.MessageQueue{}, errors.New(rep.Error)
	}
	if len(rep.Queues) != 1 || rep.Queues[0] < 0 || rep.Queues[0] >= len(mqs) {
		return route.MessageQueue{}, fmt.Errorf("the interpreter's answer names queues %v of %d", rep.Queues, len(mqs))
	}
	return mqs[rep.Queues[0]], nil
}
