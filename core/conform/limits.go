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
	// MaxFileWork bounds the work of a whole file, in queue visits and ring nodes: a file of
	// many cases that each stay under the bounds above still finishes in seconds.
	MaxFileWork = 1 << 25
)

// budget counts the work of one file.
type budget struct{ used int }

func (b *budget) spend(what string, n int) error {
	if n < 0 || n > MaxFileWork-b.used {
		return fmt.Errorf("%s: the file asks for more than %d units of work (queues × steps, ring nodes) in all", what, MaxFileWork)
	}
	b.used += n
	return nil
}

// selectWork is what replaying steps over a list of n queues can cost: each step may walk
// the list once or twice.
func selectWork(queues, steps int) int {
	if queues > 0 && steps > MaxFileWork/queues/2 {
		return MaxFileWork + 1
	}
	return 2*queues*steps + steps
}

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

// work is what one allocate case costs: its lists and, for CONSISTENT_HASH, its ring (a
// count left unset is the default 10).
func (c AllocateCase) work() int {
	vn := 10
	if c.Params.VirtualNodeCnt != nil {
		vn = max(*c.Params.VirtualNodeCnt, 0)
	}
	if c.Params.InnerVirtualNodeCnt != nil {
		vn = max(vn, *c.Params.InnerVirtualNodeCnt)
	}
	return len(c.MQAll)*(1+len(c.Params.ConsumerIDCs)) + len(c.CIDAll)*(1+vn)
}

// checkBounds bounds the work of one allocate case.
func (c AllocateCase) checkBounds() error {
	ten := 10
	vn := c.Params.VirtualNodeCnt
	if vn == nil {
		vn = &ten // the default constructor's count
	}
	if err := checkVirtualNodes("virtualNodeCnt", vn, len(c.CIDAll)); err != nil {
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
