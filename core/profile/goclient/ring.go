package goclient

import (
	"hash/crc32"
	"slices"
	"strconv"

	"github.com/lbscope/lbscope/core/route"
)

// ConsistentHash is AllocateByConsistentHash(virtualNodeCnt), "CONSISTENT_HASH", on the ring
// of stathat.com/c/consistent v1.0.0 (spec §9.1.3): node keys strconv.Itoa(i)+cid hashed
// with CRC-32/IEEE, a later id wins an equal hash, duplicated ids add nothing, a queue goes to
// the first node strictly above its hash. The ring is built on every call, as the client
// does; GroupView builds it once for a whole group.
type ConsistentHash struct {
	VirtualNodeCnt int
}

func (ConsistentHash) Name() string { return "CONSISTENT_HASH" }

func (s ConsistentHash) Allocate(_, currentCID string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error) {
	if _, ok := guard(currentCID, mqAll, cidAll); !ok {
		return nil, nil // the ring is never built for guarded inputs
	}
	r, err := NewRing(cidAll, s.VirtualNodeCnt)
	if err != nil {
		return nil, err
	}
	result := []route.MessageQueue{}
	var buf []byte
	for _, mq := range mqAll {
		buf = mq.AppendText(buf[:0])
		if owner, ok := r.getBytes(buf); ok && owner == currentCID {
			result = append(result, mq)
		} // an empty ring: owner "" is logged and matches no id
	}
	return result, nil
}

// RingHash is the ring's hash: CRC-32/IEEE of the key's bytes.
func RingHash(key string) uint32 { return crc32.ChecksumIEEE([]byte(key)) }

// Ring is a built consistent-hash ring: node hashes in increasing order and the id owning
// each.
type Ring struct {
	hashes []uint32
	owners []string
}

// NewRing adds every id of cidAll, in order, with virtualNodeCnt nodes each. A count of 0
// panics with integer divide by zero at the first add, as stathat's updateSortedHashes does
// (spec §9.1.3); a negative count adds no node. cidAll must not be empty for the panic to
// happen, as in the client.
func NewRing(cidAll []string, virtualNodeCnt int) (*Ring, error) {
	if len(cidAll) == 0 {
		return &Ring{}, nil
	}
	if virtualNodeCnt == 0 {
		return nil, errDivideByZero
	}
	if virtualNodeCnt < 0 {
		return &Ring{}, nil
	}
	type node struct {
		hash  uint32
		owner int // position in cidAll of the id that wrote it last
	}
	nodes := make([]node, 0, len(cidAll)*virtualNodeCnt)
	var key []byte
	for p, cid := range cidAll {
		for i := range virtualNodeCnt {
			key = append(strconv.AppendInt(key[:0], int64(i), 10), cid...)
			nodes = append(nodes, node{hash: crc32.ChecksumIEEE(key), owner: p})
		}
	}
	// circle[hash] = cid: for an equal hash the last write (the later position) wins.
	slices.SortStableFunc(nodes, func(a, b node) int {
		switch {
		case a.hash < b.hash:
			return -1
		case a.hash > b.hash:
			return 1
		}
		return a.owner - b.owner
	})
	r := &Ring{hashes: make([]uint32, 0, len(nodes)), owners: make([]string, 0, len(nodes))}
	for i, n := range nodes {
		if i+1 < len(nodes) && nodes[i+1].hash == n.hash {
			continue // overwritten by a later add
		}
		r.hashes = append(r.hashes, n.hash)
		r.owners = append(r.owners, cidAll[n.owner])
	}
	return r, nil
}

// Len is the number of distinct node hashes on the ring.
func (r *Ring) Len() int { return len(r.hashes) }

// Get is Consistent.Get: the owner of the first node whose hash is strictly greater than the
// key's, wrapping to the first node; ok is false for an empty ring (ErrEmptyCircle).
func (r *Ring) Get(key string) (owner string, ok bool) { return r.getBytes([]byte(key)) }

func (r *Ring) getBytes(key []byte) (string, bool) {
	if len(r.hashes) == 0 {
		return "", false
	}
	h := crc32.ChecksumIEEE(key)
	i, found := slices.BinarySearch(r.hashes, h)
	if found {
		i++ // equal goes to the next node (Java: to that node)
	}
	if i >= len(r.hashes) {
		i = 0
	}
	return r.owners[i], true
}

// Nodes returns the ring's nodes in hash order, for display.
func (r *Ring) Nodes() (hashes []uint32, owners []string) {
	return slices.Clone(r.hashes), slices.Clone(r.owners)
}
