package allocate

import (
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"

	"github.com/lbscope/lbscope/core/route"
)

// DefaultVirtualNodeCnt is the consistent-hash strategy's default constructor argument (spec §0).
const DefaultVirtualNodeCnt = 10

// MaxVirtualNodeCnt bounds virtualNodeCnt. Java takes any non-negative int, but the ring holds
// virtualNodeCnt nodes per client id and is rebuilt at every rebalance: past a thousand the
// simulator would spend seconds, then gigabytes, on one call, so larger counts are refused
// here, whichever door (a scenario, a flag, "allocate -", a conformance file, the page) they
// come through.
const MaxVirtualNodeCnt = 1000

// ConsistentHash is AllocateMessageQueueConsistentHash, "CONSISTENT_HASH" (spec §4.3), with
// ConsistentHashRouter's default MD5 hash.
type ConsistentHash struct {
	virtualNodeCnt int
}

// NewConsistentHash is the Java constructor: a negative count is rejected as Java rejects it.
func NewConsistentHash(virtualNodeCnt int) (*ConsistentHash, error) {
	if virtualNodeCnt < 0 {
		return nil, illegalArgument("illegal virtualNodeCnt :" + strconv.Itoa(virtualNodeCnt))
	}
	if virtualNodeCnt > MaxVirtualNodeCnt {
		return nil, fmt.Errorf("virtualNodeCnt %d: the limit is %d", virtualNodeCnt, MaxVirtualNodeCnt)
	}
	return &ConsistentHash{virtualNodeCnt: virtualNodeCnt}, nil
}

// VirtualNodeCnt is the number of virtual nodes each client id puts on the ring.
func (s *ConsistentHash) VirtualNodeCnt() int { return s.virtualNodeCnt }

func (*ConsistentHash) Name() string { return "CONSISTENT_HASH" }

func (s *ConsistentHash) Allocate(_, currentCID string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error) {
	index, err := check(currentCID, mqAll, cidAll)
	if err != nil {
		return nil, err
	}
	result := []route.MessageQueue{}
	if index < 0 {
		return result, nil
	}
	r := buildRing(cidAll, s.virtualNodeCnt)
	var buf []byte
	for _, mq := range mqAll {
		// The owner's id is compared, not its position: duplicated ids share their queues.
		if owner, ok := r.route(mq, &buf); ok && cidAll[owner] == currentCID {
			result = append(result, mq)
		}
	}
	return result, nil
}

// Hash is ConsistentHashRouter's default hash: the first four bytes of the MD5 digest of the
// key's UTF-8 bytes, big-endian, unsigned (spec §4.3). Java holds it in a long; it never
// exceeds 2^32-1.
func Hash(key string) uint32 {
	sum := md5.Sum([]byte(key))
	return binary.BigEndian.Uint32(sum[:4])
}

func hashBytes(key []byte) uint32 {
	sum := md5.Sum(key)
	return binary.BigEndian.Uint32(sum[:4])
}

// ringNode is one virtual node: its hash, the position in cidAll of the client id that added
// it, and its replica number k (the node's key is "<id>-<k>").
type ringNode struct {
	hash    uint32
	owner   int32
	replica int32
}

// ring is ConsistentHashRouter's sorted map, as a slice sorted by hash.
type ring []ringNode

// RingNode is one virtual node of a consistent-hash ring, for display and conformance.
type RingNode struct {
	Hash        uint32
	VirtualNode string // "<clientId>-<k>"
	ClientID    string
}

// Ring returns the ring ConsistentHashRouter builds for cidAll, sorted by hash (spec §4.3).
func Ring(cidAll []string, virtualNodeCnt int) []RingNode {
	r := buildRing(cidAll, virtualNodeCnt)
	out := make([]RingNode, len(r))
	for i, n := range r {
		cid := cidAll[n.owner]
		out[i] = RingNode{Hash: n.hash, ClientID: cid, VirtualNode: cid + "-" + strconv.Itoa(int(n.replica))}
	}
	return out
}

// buildRing adds, for every id of cidAll in order, virtualNodeCnt nodes keyed "<id>-<k>", k
// continuing after the nodes an equal id already has on the ring (a duplicated id goes on at
// 10, 11, …), and a later node wins a hash collision (spec §4.3, §6.6).
//
// With distinct ids and no collision of the 32-bit hash (the usual case) that is a plain sort.
// Otherwise the ring is built again following addNode literally, since a collision changes
// how many nodes an id "already has", which shifts the keys of a later duplicate.
func buildRing(cidAll []string, virtualNodeCnt int) ring {
	if virtualNodeCnt <= 0 || len(cidAll) == 0 {
		return nil
	}
	if hasDuplicates(cidAll) {
		return buildRingExact(cidAll, virtualNodeCnt)
	}
	nodes := make(ring, 0, len(cidAll)*virtualNodeCnt)
	var key []byte
	for i, cid := range cidAll {
		key = append(append(key[:0], cid...), '-')
		prefix := len(key)
		for k := range virtualNodeCnt {
			key = strconv.AppendInt(key[:prefix], int64(k), 10)
			nodes = append(nodes, ringNode{hash: hashBytes(key), owner: int32(i), replica: int32(k)})
		}
	}
	slices.SortFunc(nodes, compareNodes)
	for i := 1; i < len(nodes); i++ {
		if nodes[i].hash == nodes[i-1].hash {
			return buildRingExact(cidAll, virtualNodeCnt)
		}
	}
	return nodes
}

func compareNodes(a, b ringNode) int {
	switch {
	case a.hash < b.hash:
		return -1
	case a.hash > b.hash:
		return 1
	}
	return 0
}

func hasDuplicates(ids []string) bool {
	if len(ids) <= 32 {
		for i := 1; i < len(ids); i++ {
			if slices.Contains(ids[:i], ids[i]) {
				return true
			}
		}
		return false
	}
	seen := make(map[string]struct{}, len(ids))
	for _, id := range ids {
		if _, ok := seen[id]; ok {
			return true
		}
		seen[id] = struct{}{}
	}
	return false
}

// buildRingExact follows ConsistentHashRouter.addNode literally: an id's existing replicas
// are counted on the ring as it is when the id is added, and a collision overwrites.
func buildRingExact(cidAll []string, virtualNodeCnt int) ring {
	byHash := make(map[uint32]ringNode, len(cidAll)*virtualNodeCnt)
	onRing := make(map[string]int, len(cidAll))
	for i, cid := range cidAll {
		existing := onRing[cid]
		for k := existing; k < existing+virtualNodeCnt; k++ {
			h := Hash(cid + "-" + strconv.Itoa(k))
			if old, ok := byHash[h]; ok {
				onRing[cidAll[old.owner]]--
			}
			byHash[h] = ringNode{hash: h, owner: int32(i), replica: int32(k)}
			onRing[cid]++
		}
	}
	nodes := make(ring, 0, len(byHash))
	for _, n := range byHash {
		nodes = append(nodes, n)
	}
	slices.SortFunc(nodes, compareNodes) // hashes are unique here, so map order cannot leak
	return nodes
}

// route is ConsistentHashRouter.routeNode for a queue: the node with the smallest hash at or
// above the key's hash, wrapping to the first node (spec §4.3). buf is reused between calls.
func (r ring) route(mq route.MessageQueue, buf *[]byte) (owner int32, ok bool) {
	if len(r) == 0 {
		return 0, false
	}
	*buf = mq.AppendText((*buf)[:0])
	h := hashBytes(*buf)
	i, _ := slices.BinarySearchFunc(r, ringNode{hash: h}, compareNodes)
	if i == len(r) {
		i = 0
	}
	return r[i].owner, true
}
