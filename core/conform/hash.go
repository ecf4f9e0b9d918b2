package conform

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/lbscope/lbscope/core/allocate"
)

type hashFile struct {
	Hashes []struct {
		Key  *string `json:"key"`
		Hash *int64  `json:"hash"`
	} `json:"hashes"`
	RingExample *struct {
		VirtualNodeCnt int      `json:"virtualNodeCnt"`
		Clients        []string `json:"clients"`
		Ring           []struct {
			Hash        int64  `json:"hash"`
			VirtualNode string `json:"virtualNode"`
		} `json:"ring"`
	} `json:"ringExample"`
}

// The clients of the recorded ring example (hash.json names them in its README, not in the
// file); a file may list its own in "clients".
var ringExampleClients = []string{"192.168.0.3@12345", "192.168.0.4@12346", "192.168.0.5@12347"}

func runHash(data []byte) (Result, error) {
	var f hashFile
	if err := json.Unmarshal(data, &f); err != nil {
		return Result{}, fmt.Errorf("hash vectors: %w", err)
	}
	var r Result
	for i, h := range f.Hashes {
		if h.Key == nil || h.Hash == nil {
			return Result{}, fmt.Errorf("hash vectors: hashes[%d] needs \"key\" and \"hash\"", i)
		}
		r.check(fmt.Sprintf("hash %q", *h.Key), strconv.FormatInt(*h.Hash, 10), strconv.FormatUint(uint64(allocate.Hash(*h.Key)), 10))
	}
	if ex := f.RingExample; ex != nil {
		clients := ex.Clients
		if clients == nil {
			clients = ringExampleClients
		}
		if ex.VirtualNodeCnt < 0 || ex.VirtualNodeCnt > allocate.MaxVirtualNodeCnt || len(clients) > allocate.MaxVirtualNodeCnt {
			return Result{}, fmt.Errorf("hash vectors: ringExample: virtualNodeCnt %d with %d clients; want 0…%d of each", ex.VirtualNodeCnt, len(clients), allocate.MaxVirtualNodeCnt)
		}
		want, got := "", ""
		for _, n := range ex.Ring {
			want += fmt.Sprintf("%d=%s ", n.Hash, n.VirtualNode)
		}
		for _, n := range allocate.Ring(clients, ex.VirtualNodeCnt) {
			got += fmt.Sprintf("%d=%s ", n.Hash, n.VirtualNode)
		}
		r.check("ringExample", want, got)
	}
	return r, nil
}
