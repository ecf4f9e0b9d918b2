package goclient

import (
	"slices"
	"sort"

	"github.com/lbscope/lbscope/core/route"
)

// PublishPath is how the producer came to build its publish list (spec §9.1.8): the path
// decides how many times the in-place position sort runs over the route's queue data.
type PublishPath string

const (
	// FirstSend: the first send to a topic whose route the instance did not have. The
	// name-server update sorts the route, then UpdatePublishInfo sorts it again: 2 passes.
	FirstSend PublishPath = "firstSend"
	// RouteAlreadyCached: the first send to a topic whose route the instance already had
	// (a consumer of the same instance fetched it): 1 pass.
	RouteAlreadyCached PublishPath = "routeAlreadyCached"
	// RefreshChanged: the periodic route refresh found a changed route: 2 passes.
	RefreshChanged PublishPath = "refreshChanged"
)

// Passes is the number of sort passes of the path; ok is false for an unknown path.
func (p PublishPath) Passes() (n int, ok bool) {
	switch p {
	case FirstSend, RefreshChanged:
		return 2, true
	case RouteAlreadyCached:
		return 1, true
	}
	return 0, false
}

// SortPass is one pass of routeData2PublishInfo's sort over the queue data, in place: a
// sort.Slice whose comparator compares positions, not data (spec §9.1.8). Its effect depends
// only on the length and on the toolchain's sort.Slice (since Go 1.19 pdqsort): for up to 12
// entries it reverses the list, beyond that it scrambles it in a fixed way. It is
// reproduced by calling sort.Slice with the same comparator.
func SortPass(qds []route.QueueData) {
	sort.Slice(qds, func(i, j int) bool { return i-j >= 0 })
}

// PublishList is routeData2PublishInfo after the path's passes (spec §9.1.8): the route's
// queue data, in the order the passes leave them, skipping entries that are not writable or
// whose broker has no master address (first broker data of that name), each contributing
// queue ids 0 … writeQueueNums−1. Not sorted by broker name: that is the difference from
// Java (§1.3). The route is not modified.
func PublishList(topic string, rd *route.TopicRouteData, passes int) []route.MessageQueue {
	qds := slices.Clone(rd.QueueDatas)
	for range passes {
		SortPass(qds)
	}
	out := []route.MessageQueue{}
	for _, qd := range qds {
		if !route.IsWriteable(qd.Perm) {
			continue
		}
		i := slices.IndexFunc(rd.BrokerDatas, func(bd route.BrokerData) bool { return bd.BrokerName == qd.BrokerName })
		if i < 0 || rd.BrokerDatas[i].BrokerAddrs[route.MasterID] == "" {
			continue
		}
		for id := int32(0); id < qd.WriteQueueNums; id++ {
			out = append(out, route.MessageQueue{Topic: topic, BrokerName: qd.BrokerName, QueueID: id})
		}
	}
	return out
}
