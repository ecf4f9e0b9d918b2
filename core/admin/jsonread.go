package admin

import (
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/route"
)

// walkJSON recognises the documents of formats §1, §4, §7 by their keys, wherever they sit in
// the tree (a Dashboard wrapper, a fragment's implicit levels). It reports whether anything was
// recognised.
func (r *reader) walkJSON(n *jnode, ln int, dash bool, depth int) bool {
	if n == nil || depth > MaxJSONDepth+2 {
		return false
	}
	switch n.kind {
	case 'a':
		if len(n.elems) > 0 && n.elems[0].get("queueStatInfoList") != nil {
			r.dashProgress(n, ln)
			return true
		}
		found := false
		for _, e := range n.elems {
			found = r.walkJSON(e, ln, dash, depth+1) || found
		}
		return found
	case 'o':
	default:
		return false
	}
	has := func(k string) bool { return n.get(k) != nil }
	switch {
	case has("status") && has("data"):
		if st, _ := n.get("status").int64(); st != 0 {
			r.note(n.line, "note.dashboard-status", st, n.get("errMsg").text())
		}
		return r.walkJSON(n.get("data"), ln, true, depth+1)
	case has("brokerDatas") || has("queueDatas"):
		r.routeJSON(n, dash)
		return true
	case has("brokerAddrTable"):
		r.open(KindWireClusterInfo, "", n.line).Cut = n.cut
		r.brokerAddrs(n.get("brokerAddrTable"))
		r.close()
		return true
	case has("offsetTable"):
		r.open(KindWireConsumeStats, "", n.line).Cut = n.cut
		r.offsetTable(n.get("offsetTable"))
		r.close()
		return true
	case has("mqTable") || (has("properties") && has("subscriptionSet")):
		r.runningJSON(n, dash)
		return true
	case has("connectionSet"):
		r.dashConnection(n)
		return true
	case has("code") && has("opaque") && has("flag"):
		r.open(KindWireRunningInfo, "remoting header", n.line)
		r.note(n.line, "note.remoting-header", n.get("language").text(), versionName(n.get("version").text()))
		r.close()
		return true
	}
	// A map whose keys are MessageQueues, met inside a fragment.
	if len(n.members) > 0 {
		if mqKeyed(n) {
			if sample := firstMQValue(n); sample != nil && sample.get("brokerOffset") != nil {
				r.open(KindWireConsumeStats, "", n.line).Cut = true
				r.offsetTable(n)
			} else {
				sec := r.open(KindWireRunningInfo, "mqTable only", n.line)
				sec.Cut = true
				ri := RunningInfo{Ref: r.ref(n.line), Kind: "wire JSON", HasHeld: true, Cut: true}
				ri.Held = heldQueues(r, n)
				r.out.RunningInfos = append(r.out.RunningInfos, ri)
			}
			r.close()
			return true
		}
	}
	found := false
	for _, m := range n.members {
		found = r.walkJSON(m.val, ln, dash, depth+1) || found
	}
	return found
}

func mqKeyed(n *jnode) bool {
	for _, m := range n.members {
		if _, ok := mqOf(m.key); ok {
			return true
		}
	}
	return false
}

func firstMQValue(n *jnode) *jnode {
	for _, m := range n.members {
		if _, ok := mqOf(m.key); ok {
			return m.val
		}
	}
	return nil
}

// mqOf reads a MessageQueue key: a fastjson object key {"brokerName","queueId","topic"} or
// Jackson's string key "MessageQueue [topic=…, brokerName=…, queueId=n]" (formats §4, §7).
func mqOf(k *jnode) (route.MessageQueue, bool) {
	if k == nil {
		return route.MessageQueue{}, false
	}
	switch k.kind {
	case 'o':
		b, q, t := k.get("brokerName"), k.get("queueId"), k.get("topic")
		if b == nil || q == nil || t == nil {
			return route.MessageQueue{}, false
		}
		id, _ := q.int64()
		return route.MessageQueue{Topic: t.text(), BrokerName: b.text(), QueueID: int32(id)}, true
	case 's':
		if !strings.HasPrefix(k.str, "MessageQueue [") {
			return route.MessageQueue{}, false
		}
		f := bracketFields(k.str)
		if _, ok := f["queueId"]; !ok {
			return route.MessageQueue{}, false
		}
		return mq(f["topic"], f["brokerName"], f["queueId"]), true
	}
	return route.MessageQueue{}, false
}

func (r *reader) routeJSON(n *jnode, dash bool) {
	kind, layout := KindRouteJSON, "fastjson"
	if dash {
		kind, layout = KindDashRoute, "Jackson"
	}
	sec := r.open(kind, layout, n.line)
	sec.Cut = n.cut
	topic := ""
	if r.cmd == "topicRoute" {
		topic = r.topic
	}
	if bds := n.get("brokerDatas"); bds != nil {
		for _, bd := range bds.elems {
			r.brokerData(bd)
		}
	}
	if qds := n.get("queueDatas"); qds != nil {
		for _, qd := range qds.elems {
			read, _ := qd.get("readQueueNums").int64()
			write, _ := qd.get("writeQueueNums").int64()
			perm, _ := qd.get("perm").int64()
			if qd.get("topicSysFlag") != nil {
				sec.Layout = layout + ", 4.9.0+: topicSysFlag"
			} else if qd.get("topicSynFlag") != nil {
				sec.Layout = layout + ", before 4.9.0: topicSynFlag"
			}
			r.out.QueueCounts = append(r.out.QueueCounts, QueueCount{Ref: r.ref(qd.line), Topic: topic,
				Broker: qd.get("brokerName").text(), Read: int(read), Write: int(write), Perm: int(perm)})
		}
	}
	if bds := n.get("brokerDatas"); bds != nil && len(bds.elems) > 0 && bds.elems[0].get("enableActingMaster") != nil {
		sec.Layout = layout + ", 5.0+: enableActingMaster"
	}
	r.close()
}

func (r *reader) brokerData(bd *jnode) {
	name, cluster := bd.get("brokerName").text(), bd.get("cluster").text()
	if addrs := bd.get("brokerAddrs"); addrs != nil {
		for _, m := range addrs.members {
			if m.key == nil {
				continue
			}
			id, err := strconv.ParseInt(m.key.str, 10, 64)
			if err != nil {
				continue
			}
			r.out.Brokers = append(r.out.Brokers, BrokerAddr{Ref: r.ref(m.line), Cluster: cluster, Broker: name, ID: id, Addr: m.val.text()})
		}
	}
}

func (r *reader) brokerAddrs(table *jnode) {
	if table == nil {
		return
	}
	for _, m := range table.members {
		if m.val != nil && m.val.kind == 'o' {
			r.brokerData(m.val)
		}
	}
}

func (r *reader) offsetTable(t *jnode) {
	if t == nil {
		return
	}
	for _, m := range t.members {
		q, ok := mqOf(m.key)
		if !ok || m.val == nil {
			continue
		}
		bo, _ := m.val.get("brokerOffset").int64()
		co, _ := m.val.get("consumerOffset").int64()
		o := Offset{Ref: r.ref(m.line), Queue: q, BrokerOffset: bo, ConsumerOffset: co}
		if ts, ok := m.val.get("lastTimestamp").int64(); ok && ts > 0 {
			o.LastTime = strconv.FormatInt(ts, 10)
		}
		r.out.Offsets = append(r.out.Offsets, o)
	}
}

func heldQueues(r *reader, t *jnode) []HeldQueue {
	var out []HeldQueue
	if t == nil {
		return out
	}
	for _, m := range t.members {
		q, ok := mqOf(m.key)
		if !ok {
			continue
		}
		h := HeldQueue{Ref: r.ref(m.line), Queue: q}
		if m.val != nil {
			if v, ok := m.val.get("commitOffset").int64(); ok {
				h.CommitOffset = &v
			}
			if v, ok := m.val.get("cachedMsgCount").int64(); ok {
				h.CachedCount = &v
			}
			h.Dropped = m.val.get("droped").text() == "true"
		}
		out = append(out, h)
	}
	return out
}

func (r *reader) runningJSON(n *jnode, dash bool) {
	kind, src := KindWireRunningInfo, "wire JSON"
	if dash {
		kind, src = KindDashRunningInfo, "Dashboard JSON"
	}
	sec := r.open(kind, "", n.line)
	sec.Cut = n.cut
	ri := RunningInfo{Ref: r.ref(n.line), Kind: src, Properties: map[string]string{}, PropRefs: map[string]Ref{}, Cut: n.cut}
	if props := n.get("properties"); props != nil {
		for _, m := range props.members {
			if m.key != nil {
				ri.Properties[m.key.str], ri.PropRefs[m.key.str] = m.val.text(), r.ref(m.line)
			}
		}
		ri.Group = ri.Properties["consumerGroup"]
	}
	if subs := n.get("subscriptionSet"); subs != nil {
		for _, s := range subs.elems {
			expr := s.get("subString").text()
			ri.Subs = append(ri.Subs, Subscription{Ref: r.ref(s.line), Group: ri.Group, Topic: s.get("topic").text(), Expr: expr})
		}
	}
	if t := n.get("mqTable"); t != nil {
		ri.HasHeld = true
		ri.Held = heldQueues(r, t)
	}
	r.out.RunningInfos = append(r.out.RunningInfos, ri)
	r.close()
}

func (r *reader) dashConnection(n *jnode) {
	sec := r.open(KindDashConnection, "Jackson", n.line)
	sec.Cut = n.cut
	group := ""
	if r.cmd == "consumerConnection" {
		group = r.group
	}
	for _, c := range n.get("connectionSet").elems {
		v := c.get("versionDesc").text()
		if v == "" {
			v = versionName(c.get("version").text())
		}
		r.out.Connections = append(r.out.Connections, Connection{Ref: r.ref(c.line), Group: group, ClientID: c.get("clientId").text(),
			Addr: c.get("clientAddr").text(), Language: c.get("language").text(), Version: v})
	}
	if st := n.get("subscriptionTable"); st != nil {
		for _, m := range st.members {
			if m.val == nil || m.key == nil {
				continue
			}
			r.out.GroupSubs = append(r.out.GroupSubs, Subscription{Ref: r.ref(m.line), Group: group, Topic: m.key.str, Expr: m.val.get("subString").text()})
		}
	}
	for key, name := range map[string]string{"consumeType": "ConsumeType", "messageModel": "MessageModel", "consumeFromWhere": "ConsumeFromWhere"} {
		if v := n.get(key); v != nil && v.text() != "" {
			r.out.Settings = append(r.out.Settings, Setting{Ref: r.ref(v.line), Group: group, Name: name, Value: v.text()})
		}
	}
	r.close()
}

func (r *reader) dashProgress(n *jnode, ln int) {
	sec := r.open(KindDashProgress, "Jackson", ln)
	sec.Cut = n.cut
	for _, t := range n.elems {
		for _, q := range t.get("queueStatInfoList").elems {
			qid, _ := q.get("queueId").int64()
			bo, _ := q.get("brokerOffset").int64()
			co, _ := q.get("consumerOffset").int64()
			o := Offset{Ref: r.ref(q.line), Queue: route.MessageQueue{Topic: t.get("topic").text(), BrokerName: q.get("brokerName").text(), QueueID: int32(qid)},
				BrokerOffset: bo, ConsumerOffset: co, HasClient: true, FullClient: true, Dashboard: true}
			if c := q.get("clientInfo"); c != nil && c.text() != "null" {
				o.Client = c.text()
			}
			r.out.Offsets = append(r.out.Offsets, o)
		}
	}
	r.close()
}

// versionName turns MQVersion's ordinal into its enum name (formats §2); anything else stays
// as it is.
func versionName(v string) string {
	if isInt(v) {
		return mqVersion(atoi64(v))
	}
	return v
}
