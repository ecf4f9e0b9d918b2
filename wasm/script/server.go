package script

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
	"github.com/lbscope/lbscope/wasm/script/wire"
)

// Server answers the page's wasm in the interpreter's (wire): it compiles sources and runs
// their allocate, one JSON string each way.
type Server struct {
	mu    sync.Mutex
	progs map[int]*Program
	order []int
	next  int
}

// maxPrograms bounds the programs a Server keeps; the page's wasm keeps fewer compiled
// strategies than this (allocate's cache), so one it still calls is here.
const maxPrograms = 64

// Compile compiles a source: a Reply with the program's ID, or the error.
func (s *Server) Compile(name, file, src string, steps int) string {
	if steps < allocate.MinScriptSteps || steps > allocate.MaxScriptSteps {
		return reply(wire.Reply{Error: fmt.Sprintf("steps %d; want %d…%d", steps, allocate.MinScriptSteps, allocate.MaxScriptSteps)})
	}
	p, err := LoadSteps(name, file, []byte(src), steps)
	if err == nil && p.alloc == nil {
		err = &Error{Pos: file, Msg: "the source defines no allocate(group, current, queues, consumers), so it is no allocation strategy"}
	}
	if err != nil {
		return reply(wire.Reply{Error: err.Error()})
	}
	return reply(wire.Reply{ID: s.keep(p), View: p.view})
}

// keep stores a compiled program under a new id, dropping the oldest past maxPrograms.
func (s *Server) keep(p *Program) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.progs == nil {
		s.progs = map[int]*Program{}
	}
	s.next++
	s.progs[s.next] = p
	s.order = append(s.order, s.next)
	if len(s.order) > maxPrograms {
		delete(s.progs, s.order[0])
		s.order = slices.Delete(s.order, 0, 1)
	}
	return s.next
}

// Allocate runs program id's allocate on a Request: a Reply with the queues' indexes, or the
// error.
func (s *Server) Allocate(id int, req string) string {
	s.mu.Lock()
	p := s.progs[id]
	s.mu.Unlock()
	if p == nil {
		return reply(wire.Reply{Error: "the strategy's compiled program is gone; load it again"})
	}
	var r wire.Request
	if err := json.Unmarshal([]byte(req), &r); err != nil {
		return reply(wire.Reply{Error: "a request the interpreter cannot read: " + err.Error()})
	}
	mqAll := r.MessageQueues()
	var vp allocate.Viewpoint
	if r.View != nil {
		vp = *r.View
	}
	qs, err := p.AllocateView(r.Group, r.Current, mqAll, r.Consumers, vp)
	if err != nil {
		return reply(wire.Reply{Error: err.Error()})
	}
	at := make(map[route.MessageQueue]int, len(mqAll))
	for i := len(mqAll) - 1; i >= 0; i-- {
		at[mqAll[i]] = i
	}
	out := wire.Reply{Queues: make([]int, len(qs))}
	for i, q := range qs {
		out.Queues[i] = at[q]
	}
	return reply(out)
}

// CompileSelector compiles a selector's source: a Reply with the program's ID, or the error
// (a source without select is one).
func (s *Server) CompileSelector(name, file, src string, steps int) string {
	if steps < selector.MinSteps || steps > selector.MaxSteps {
		return reply(wire.Reply{Error: fmt.Sprintf("steps %d; want %d…%d", steps, selector.MinSteps, selector.MaxSteps)})
	}
	p, err := LoadSteps(name, file, []byte(src), steps)
	if err == nil && p.sel == nil {
		err = &Error{Pos: file, Msg: "the source defines no select(queues, message, arg), so it is no queue selector"}
	}
	if err != nil {
		return reply(wire.Reply{Error: err.Error()})
	}
	return reply(wire.Reply{ID: s.keep(p)})
}

// Select runs program id's select on a SelectRequest: a Reply whose one queue is the index
// of the queue chosen, or the error.
func (s *Server) Select(id int, req string) string {
	s.mu.Lock()
	p := s.progs[id]
	s.mu.Unlock()
	if p == nil {
		return reply(wire.Reply{Error: "the selector's compiled program is gone; load it again"})
	}
	var r wire.SelectRequest
	if err := json.Unmarshal([]byte(req), &r); err != nil {
		return reply(wire.Reply{Error: "a request the interpreter cannot read: " + err.Error()})
	}
	mqs := wire.Request{Queues: r.Queues}.MessageQueues()
	mq, err := p.Select(mqs, Message{Key: r.Key, Tags: r.Tags, Seq: r.Seq}, r.Arg)
	if err != nil {
		return reply(wire.Reply{Error: err.Error()})
	}
	return reply(wire.Reply{Queues: []int{slices.Index(mqs, mq)}})
}

func reply(r wire.Reply) string {
	b, _ := json.Marshal(r)
	return string(b)
}
