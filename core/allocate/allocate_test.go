package allocate

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/route"
)

func queuesOn(topic string, brokers map[string]int, order ...string) []route.MessageQueue {
	var qs []route.MessageQueue
	for _, b := range order {
		for id := range brokers[b] {
			qs = append(qs, route.MessageQueue{Topic: topic, BrokerName: b, QueueID: int32(id)})
		}
	}
	return qs
}

func short(qs []route.MessageQueue) string {
	if qs == nil {
		return "null"
	}
	parts := make([]string, len(qs))
	for i, q := range qs {
		parts[i] = q.Short()
	}
	return strings.Join(parts, " ")
}

func mustNew(t testing.TB, name string, p Params) Strategy {
	t.Helper()
	s, err := New(name, p)
	if err != nil {
		t.Fatalf("New(%q): %v", name, err)
	}
	return s
}

func intp(n int) *int { return &n }

// The worked examples of spec §4.1–§4.5.
func TestWorkedExamples(t *testing.T) {
	eight := queuesOn("TopicTest", map[string]int{"broker-a": 4, "broker-b": 4}, "broker-a", "broker-b")
	three := []string{"c0", "c1", "c2"}
	four := queuesOn("TopicTest", map[string]int{"broker-a": 4}, "broker-a")
	seven := []string{"c0", "c1", "c2", "c3", "c4", "c5", "c6"}
	chClients := []string{"192.168.0.3@12345", "192.168.0.4@12346"}
	var rooms []route.MessageQueue
	for id := range 10 {
		b := "room1@broker-a"
		if id >= 5 {
			b = "room2@broker-b"
		}
		rooms = append(rooms, route.MessageQueue{Topic: "TopicTest", BrokerName: b, QueueID: int32(id)})
	}
	nearbyQueues := queuesOn("TopicTest", map[string]int{"bj-broker-c": 2, "hz-broker-a": 4, "sh-broker-b": 4}, "bj-broker-c", "hz-broker-a", "sh-broker-b")
	nearbyClients := []string{"hz-10.0.0.1@1001", "hz-10.0.0.2@1002", "sh-10.1.0.1@2001"}

	tests := []struct {
		strategy string
		params   Params
		mqAll    []route.MessageQueue
		cidAll   []string
		want     map[string]string
	}{
		{"AVG", Params{}, eight, three, map[string]string{
			"c0": "broker-a:0 broker-a:1 broker-a:2", "c1": "broker-a:3 broker-b:0 broker-b:1", "c2": "broker-b:2 broker-b:3"}},
		{"AVG", Params{}, four, seven, map[string]string{
			"c0": "broker-a:0", "c3": "broker-a:3", "c4": "", "c6": ""}},
		{"AVG_BY_CIRCLE", Params{}, eight, three, map[string]string{
			"c0": "broker-a:0 broker-a:3 broker-b:2", "c1": "broker-a:1 broker-b:0 broker-b:3", "c2": "broker-a:2 broker-b:1"}},
		{"CONSISTENT_HASH", Params{VirtualNodeCnt: intp(2)}, four, chClients, map[string]string{
			"192.168.0.3@12345": "broker-a:0 broker-a:3", "192.168.0.4@12346": "broker-a:1 broker-a:2"}},
		{"CONSISTENT_HASH", Params{VirtualNodeCnt: intp(0)}, four, chClients, map[string]string{
			"192.168.0.3@12345": "", "192.168.0.4@12346": ""}},
		{"MACHINE_ROOM", Params{ConsumerIDCs: []string{"room1"}}, rooms, []string{"CID_PREFIX0", "CID_PREFIX1"}, map[string]string{
			"CID_PREFIX0": "room1@broker-a:0 room1@broker-a:1 room1@broker-a:4", "CID_PREFIX1": "room1@broker-a:2 room1@broker-a:3"}},
		{"MACHINE_ROOM_NEARBY-AVG", Params{}, nearbyQueues, nearbyClients, map[string]string{
			"hz-10.0.0.1@1001": "hz-broker-a:0 hz-broker-a:1 bj-broker-c:0",
			"hz-10.0.0.2@1002": "hz-broker-a:2 hz-broker-a:3 bj-broker-c:1",
			"sh-10.1.0.1@2001": "sh-broker-b:0 sh-broker-b:1 sh-broker-b:2 sh-broker-b:3"}},
	}
	for _, tt := range tests {
		s := mustNew(t, tt.strategy, tt.params)
		for cid, want := range tt.want {
			got, err := s.Allocate("cg", cid, tt.mqAll, tt.cidAll)
			if err != nil {
				t.Errorf("%s %s: %v", tt.strategy, cid, err)
				continue
			}
			if short(got) != want {
				t.Errorf("%s %s got %q; want %q", tt.strategy, cid, short(got), want)
			}
		}
	}
}

// Spec §4 steps 1–4: the order in which the shared check fails, and membership as an empty
// result rather than an error.
func TestSharedCheckPrecedence(t *testing.T) {
	mqs := queuesOn("T", map[string]int{"b": 2}, "b")
	for _, name := range []string{"AVG", "AVG_BY_CIRCLE", "CONSISTENT_HASH", "MACHINE_ROOM", "MACHINE_ROOM_NEARBY-AVG"} {
		s := mustNew(t, name, Params{ConsumerIDCs: []string{"r"}})
		tests := []struct {
			current string
			mqAll   []route.MessageQueue
			cidAll  []string
			want    string
		}{
			{"", nil, nil, "IllegalArgumentException: currentCID is empty"},
			{"c", nil, nil, "IllegalArgumentException: mqAll is null or mqAll empty"},
			{"c", []route.MessageQueue{}, []string{"c"}, "IllegalArgumentException: mqAll is null or mqAll empty"},
			{"c", mqs, nil, "IllegalArgumentException: cidAll is null or cidAll empty"},
			{"c", mqs, []string{"d"}, "[]"},
		}
		for _, tt := range tests {
			got, err := s.Allocate("cg", tt.current, tt.mqAll, tt.cidAll)
			var text string
			var je *Error
			switch {
			case errors.As(err, &je):
				text = je.Java()
			case err != nil:
				text = "non-Java error " + err.Error()
			default:
				text = fmt.Sprint(got)
			}
			if text != tt.want {
				t.Errorf("%s.Allocate(%q, %v, %v) = %s; want %s", name, tt.current, tt.mqAll, tt.cidAll, text, tt.want)
			}
		}
	}
}

func TestConfigReturnsListAsIsWithoutChecks(t *testing.T) {
	list := queuesOn("T", map[string]int{"x": 2}, "x")
	got, err := ByConfig{MessageQueueList: list}.Allocate("", "", nil, nil)
	if err != nil || !slices.Equal(got, list) {
		t.Fatalf("CONFIG = %v, %v; want %v", got, err, list)
	}
	got, err = ByConfig{}.Allocate("cg", "c", list, []string{"c"})
	if err != nil || got != nil {
		t.Fatalf("CONFIG unset = %v, %v; want null", got, err)
	}
}

func TestConsistentHashRejectsNegativeCount(t *testing.T) {
	_, err := New("CONSISTENT_HASH", Params{VirtualNodeCnt: intp(-1)})
	var je *Error
	if !errors.As(err, &je) || je.Java() != "IllegalArgumentException: illegal virtualNodeCnt :-1" {
		t.Fatalf("New(CONSISTENT_HASH, -1) error = %v; want Java's illegal virtualNodeCnt", err)
	}
}

// Removing one consumer moves only that consumer's queues (AllocateMessageQueueConsitentHashTest).
func TestConsistentHashStability(t *testing.T) {
	mqAll := queuesOn("TopicTest", map[string]int{"broker-a": 16, "broker-b": 16}, "broker-a", "broker-b")
	before := []string{"10.0.0.1@1", "10.0.0.2@1", "10.0.0.3@1", "10.0.0.4@1"}
	after := slices.Delete(slices.Clone(before), 2, 3)
	s := mustNew(t, "CONSISTENT_HASH", Params{VirtualNodeCnt: intp(3)})
	owner := func(cids []string) map[route.MessageQueue]string {
		m := map[route.MessageQueue]string{}
		for _, a := range Group(s, "cg", mqAll, cids).Assignments {
			for _, q := range a.Queues {
				m[q] = a.ClientID
			}
		}
		return m
	}
	was, is := owner(before), owner(after)
	for q, o := range was {
		if o != before[2] && is[q] != o {
			t.Errorf("%s moved from %s to %s though its owner stayed", q.Short(), o, is[q])
		}
	}
}

func TestMachineRoomSplitSemantics(t *testing.T) {
	tests := []struct {
		name string
		room string
		ok   bool
	}{
		{"room1@broker-a", "room1", true},
		{"broker-a", "", false},
		{"a@b@c", "", false},
		{"room1@", "", false},
		{"room1@@", "", false},
		{"@broker-c", "", true}, // a leading empty piece is kept: room ""
		{"@", "", false},
		{"a@b@", "a", true},
		{"a@@b", "", false},
	}
	for _, tt := range tests {
		room, ok := twoPieceRoom(tt.name)
		if room != tt.room || ok != tt.ok {
			t.Errorf("twoPieceRoom(%q) = %q, %v; want %q, %v", tt.name, room, ok, tt.room, tt.ok)
		}
	}
}

func TestMachineRoomNullRoomsThrowNPEOnlyWhenTwoPieceNameMet(t *testing.T) {
	s := NewByMachineRoom(nil)
	plain := queuesOn("T", map[string]int{"broker-a": 2}, "broker-a")
	if got, err := s.Allocate("cg", "c", plain, []string{"c"}); err != nil || len(got) != 0 {
		t.Fatalf("no room@broker names: got %v, %v; want [] and no error", got, err)
	}
	withRoom := queuesOn("T", map[string]int{"r@broker-a": 2}, "r@broker-a")
	_, err := s.Allocate("cg", "c", withRoom, []string{"c"})
	var je *Error
	if !errors.As(err, &je) || je.Java() != "NullPointerException" {
		t.Fatalf("unset rooms with a room@broker name: error %v; want NullPointerException", err)
	}
}

func TestNearbyRoomErrors(t *testing.T) {
	s := mustNew(t, "MACHINE_ROOM_NEARBY", Params{})
	tests := []struct {
		broker, cid, want string
	}{
		{"-broker-x", "hz-1@1", "IllegalArgumentException: Machine room is null for mq MessageQueue [topic=T, brokerName=-broker-x, queueId=0]"},
		{"hz-b", "-10.0.0.7@1", "IllegalArgumentException: Machine room is null for consumer id -10.0.0.7@1"},
		{"--", "hz-1@1", "ArrayIndexOutOfBoundsException: Index 0 out of bounds for length 0"},
		{"", "hz-1@1", "IllegalArgumentException: Machine room is null for mq MessageQueue [topic=T, brokerName=, queueId=0]"},
	}
	for _, tt := range tests {
		mq := []route.MessageQueue{{Topic: "T", BrokerName: tt.broker}}
		cids := []string{"hz-1@1", tt.cid}
		_, err := s.Allocate("cg", "hz-1@1", mq, cids)
		var je *Error
		if !errors.As(err, &je) || je.Java() != tt.want {
			t.Errorf("broker %q, client %q: error %v; want %s", tt.broker, tt.cid, err, tt.want)
		}
	}
}

func TestNewNames(t *testing.T) {
	for _, name := range []string{"avg", "AVG_BY_CIRCLE", "consistent_hash", "CONFIG", "MACHINE_ROOM", "MACHINE_ROOM_NEARBY", "MACHINE_ROOM_NEARBY-CONSISTENT_HASH"} {
		if _, err := New(name, Params{}); err != nil {
			t.Errorf("New(%q): %v", name, err)
		}
	}
	if s := mustNew(t, "MACHINE_ROOM_NEARBY", Params{Inner: "AVG_BY_CIRCLE"}); s.Name() != "MACHINE_ROOM_NEARBY-AVG_BY_CIRCLE" {
		t.Errorf("Name() = %q; want MACHINE_ROOM_NEARBY-AVG_BY_CIRCLE", s.Name())
	}
	for _, name := range []string{"", "AVERAGE", "MACHINE_ROOM_NEARBY-CONFIG"} {
		if _, err := New(name, Params{}); err == nil {
			t.Errorf("New(%q) accepted an unknown strategy", name)
		}
	}
}
