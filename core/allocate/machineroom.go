package allocate

import (
	"strings"

	"github.com/lbscope/lbscope/core/route"
)

// ByMachineRoom is AllocateMessageQueueByMachineRoom, "MACHINE_ROOM" (spec §4.4): the queues
// of brokers named "<room>@<broker>" whose room is in ConsumerIDCs are shared by every
// consumer, whatever its own room.
type ByMachineRoom struct {
	idcs map[string]struct{} // nil: setConsumeridcs was never called
}

// NewByMachineRoom configures the rooms; a nil slice leaves them unset (Java null), which
// throws a NullPointerException as soon as a "<room>@<broker>" name is met.
func NewByMachineRoom(consumeridcs []string) *ByMachineRoom {
	s := &ByMachineRoom{}
	if consumeridcs != nil {
		s.idcs = make(map[string]struct{}, len(consumeridcs))
		for _, room := range consumeridcs {
			s.idcs[room] = struct{}{}
		}
	}
	return s
}

// ConsumerIDCs returns the configured rooms sorted in Java string order; nil when unset.
func (s *ByMachineRoom) ConsumerIDCs() []string {
	if s.idcs == nil {
		return nil
	}
	rooms := make([]string, 0, len(s.idcs))
	for room := range s.idcs {
		rooms = append(rooms, room)
	}
	route.SortClientIDs(rooms)
	return rooms
}

func (*ByMachineRoom) Name() string { return "MACHINE_ROOM" }

func (s *ByMachineRoom) Allocate(_, currentCID string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error) {
	index, err := check(currentCID, mqAll, cidAll)
	if err != nil {
		return nil, err
	}
	if index < 0 {
		return []route.MessageQueue{}, nil
	}
	pre, err := s.pre(mqAll)
	if err != nil {
		return nil, err
	}
	return machineRoomShare(pre, len(cidAll), index, nil), nil
}

// pre is the list of spec §4.4 step 2: queues whose broker name splits on '@' into exactly two
// pieces, the first a configured room.
func (s *ByMachineRoom) pre(mqAll []route.MessageQueue) ([]route.MessageQueue, error) {
	var pre []route.MessageQueue
	for _, mq := range mqAll {
		room, ok := twoPieceRoom(mq.BrokerName)
		if !ok {
			continue
		}
		if s.idcs == nil {
			return nil, errNullPointer // consumeridcs.contains on a null set
		}
		if _, in := s.idcs[room]; in {
			pre = append(pre, mq)
		}
	}
	return pre, nil
}

// machineRoomShare is spec §4.4 step 4: m = len(pre)/c consecutive queues from index·m, and
// one of the remainder, taken from the tail, for the first len(pre) mod c consumers. It
// appends to dst.
func machineRoomShare(pre []route.MessageQueue, c, index int, dst []route.MessageQueue) []route.MessageQueue {
	m, rem := len(pre)/c, len(pre)%c
	if dst == nil {
		dst = make([]route.MessageQueue, 0, m+1)
	}
	dst = append(dst, pre[index*m:index*m+m]...)
	if index < rem {
		dst = append(dst, pre[index+m*c])
	}
	return dst
}

// twoPieceRoom reports whether name.split("@") has exactly two pieces under Java's split
// semantics — trailing empty pieces removed, a leading empty piece kept (spec §4.4, §6.7) —
// and returns the first. "room1@" and "room1@@" are one piece; "@b" is the room "".
func twoPieceRoom(name string) (string, bool) {
	at := strings.IndexByte(name, '@')
	if at < 0 {
		return "", false // no separator: the whole name is the one piece
	}
	rest := strings.TrimRight(name[at+1:], "@")
	if rest == "" {
		return "", false // "room1@", "room1@@": trailing empties dropped
	}
	if strings.IndexByte(rest, '@') >= 0 {
		return "", false // three or more pieces
	}
	return name[:at], true
}

// Resolver tells which machine room a broker and a client are deployed in
// (AllocateMachineRoomNearby.MachineRoomResolver).
type Resolver interface {
	Name() string
	BrokerDeployIn(mq route.MessageQueue) (string, error)
	ConsumerDeployIn(clientID string) (string, error)
}

// PrefixBeforeFirstDash is the resolver of the repository's AllocateMachineRoomNearByTest:
// the room is Java's `name.split("-")[0]` for both broker names and client ids, so
// "hz-broker-a" is in "hz" and "hz-10.0.0.1@1001" in "hz".
type PrefixBeforeFirstDash struct{}

func (PrefixBeforeFirstDash) Name() string { return "PREFIX_BEFORE_FIRST_DASH" }

func (PrefixBeforeFirstDash) BrokerDeployIn(mq route.MessageQueue) (string, error) {
	return firstPiece(mq.BrokerName, '-')
}

func (PrefixBeforeFirstDash) ConsumerDeployIn(clientID string) (string, error) {
	return firstPiece(clientID, '-')
}

// firstPiece is Java's s.split(sep)[0]: "" for "-x"; and for a string made only of separators
// ("-", "--") split returns an empty array, so [0] throws.
func firstPiece(s string, sep byte) (string, error) {
	if strings.IndexByte(s, sep) >= 0 && strings.Trim(s, string(sep)) == "" {
		return "", &Error{Class: "ArrayIndexOutOfBoundsException", Message: "Index 0 out of bounds for length 0"}
	}
	if i := strings.IndexByte(s, sep); i >= 0 {
		return s[:i], nil
	}
	return s, nil
}

// MachineRoomNearby is AllocateMachineRoomNearby, "MACHINE_ROOM_NEARBY-<inner>" (spec §4.5):
// queues of a room go to that room's consumers through the inner strategy; rooms without any
// consumer are shared by everybody.
type MachineRoomNearby struct {
	inner    Strategy
	resolver Resolver
}

// NewMachineRoomNearby wraps inner with the room resolver; both are required, as in Java.
func NewMachineRoomNearby(inner Strategy, resolver Resolver) (*MachineRoomNearby, error) {
	switch {
	case inner == nil:
		return nil, &Error{Class: "NullPointerException", Message: "allocateMessageQueueStrategy is null"}
	case resolver == nil:
		return nil, &Error{Class: "NullPointerException", Message: "machineRoomResolver is null"}
	}
	return &MachineRoomNearby{inner: inner, resolver: resolver}, nil
}

// Inner is the strategy used inside each room.
func (s *MachineRoomNearby) Inner() Strategy { return s.inner }

func (s *MachineRoomNearby) Name() string { return "MACHINE_ROOM_NEARBY-" + s.inner.Name() }

// rooms is the outcome of spec §4.5 steps 2–3: queues and consumers grouped by room, rooms in
// Java string order, each list in input order.
type rooms struct {
	names     []string
	queues    map[string][]route.MessageQueue
	consumers map[string][]string
}

func (s *MachineRoomNearby) group(mqAll []route.MessageQueue, cidAll []string) (rooms, error) {
	r := rooms{queues: map[string][]route.MessageQueue{}, consumers: map[string][]string{}}
	for _, mq := range mqAll {
		room, err := s.resolver.BrokerDeployIn(mq)
		if err != nil {
			return r, err
		}
		if room == "" {
			return r, illegalArgument("Machine room is null for mq " + mq.String())
		}
		if _, ok := r.queues[room]; !ok {
			r.names = append(r.names, room)
		}
		r.queues[room] = append(r.queues[room], mq)
	}
	for _, cid := range cidAll {
		room, err := s.resolver.ConsumerDeployIn(cid)
		if err != nil {
			return r, err
		}
		if room == "" {
			return r, illegalArgument("Machine room is null for consumer id " + cid)
		}
		r.consumers[room] = append(r.consumers[room], cid)
	}
	route.SortClientIDs(r.names) // a TreeMap in Java: rooms in String order (spec §6.11)
	return r, nil
}

func (s *MachineRoomNearby) Allocate(group, currentCID string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error) {
	index, err := check(currentCID, mqAll, cidAll)
	if err != nil {
		return nil, err
	}
	if index < 0 {
		return []route.MessageQueue{}, nil
	}
	r, err := s.group(mqAll, cidAll)
	if err != nil {
		return nil, err
	}
	myRoom, err := s.resolver.ConsumerDeployIn(currentCID)
	if err != nil {
		return nil, err
	}
	result := []route.MessageQueue{}
	if mine := r.queues[myRoom]; len(mine) > 0 {
		part, err := s.inner.Allocate(group, currentCID, mine, r.consumers[myRoom])
		if err != nil {
			return nil, err
		}
		result = append(result, part...)
	}
	for _, room := range r.names {
		if room == myRoom {
			continue // removed from the map before the loop in Java
		}
		if _, hasConsumers := r.consumers[room]; hasConsumers {
			continue // left to that room's own consumers
		}
		part, err := s.inner.Allocate(group, currentCID, r.queues[room], cidAll)
		if err != nil {
			return nil, err
		}
		result = append(result, part...)
	}
	return result, nil
}
