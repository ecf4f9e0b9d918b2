package conform

import "fmt"

// Bounds on one case, so that a hostile vector file cannot make conform run for long or
// exhaust memory: the file size bounds how much is read, these how much one case may make
// the core compute from it.
const (
	MaxVirtualNodes = 1000    // |virtualNodeCnt| of CONSISTENT_HASH (inner included)
	MaxRingNodes    = 1 << 21 // consumers × virtual nodes of one ring
	MaxRoomQueues   = 1 << 24 // queues × rooms of one MACHINE_ROOM call (Go duplicates per room entry)
	MaxRouteQueues  = 1 << 20 // queues one route may declare (read or write counts summed)
	MaxSteps        = 1 << 16 // steps of one select or fault sequence
)

func checkVirtualNodes(what string, n *int, consumers int) error {
	if n == nil {
		return nil
	}
	if *n > MaxVirtualNodes || *n < -MaxVirtualNodes {
		return fmt.Errorf("%s %d: want -%d…%d", what, *n, MaxVirtualNodes, MaxVirtualNodes)
	}
	if *n > 0 && consumers*(*n) > MaxRingNodes {
		return fmt.Errorf("%s %d with %d consumers is a ring of more than %d nodes", what, *n, consumers, MaxRingNodes)
	}
	return nil
}

// checkAllocateBounds bounds the work of one allocate case.
func (c AllocateCase) checkBounds() error {
	if err := checkVirtualNodes("virtualNodeCnt", c.Params.VirtualNodeCnt, len(c.CIDAll)); err != nil {
		return err
	}
	if err := checkVirtualNodes("innerVirtualNodeCnt", c.Params.InnerVirtualNodeCnt, len(c.CIDAll)); err != nil {
		return err
	}
	if n := len(c.MQAll) * max(len(c.Params.ConsumerIDCs), 1); n > MaxRoomQueues {
		return fmt.Errorf("%d queues × %d rooms: more than %d", len(c.MQAll), len(c.Params.ConsumerIDCs), MaxRoomQueues)
	}
	return nil
}
