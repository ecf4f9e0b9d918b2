package admin

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/scenario"
)

// A constructed group, printed in every layout of formats §1–§7 with the tools' own format
// strings, must read back as the same group.

type genMember struct{ id, addr, lang, version string }

type genGroup struct {
	group, topic string
	brokers      []string          // masters: broker → addr; one slave for the first
	queues       int               // read = write per broker, unless rw says otherwise
	rw           map[string][2]int // broker → read and write counts that differ
	subs         map[string]string // member → the topic it subscribes instead of topic
	exprs        map[string]string // member → its SubExpression, when not "TagA || TagB"
	members      []genMember
	owner        map[route.MessageQueue]string // from the expected allocation
	offset       map[route.MessageQueue][2]int64
}

func newGenGroup() *genGroup {
	g := &genGroup{group: "OrderGroup", topic: "TopicTest", brokers: []string{"broker-a", "broker-b"}, queues: 4,
		members: []genMember{
			{"10.0.1.1@100", "10.0.1.1:50001", "JAVA", "V4_9_4"},
			{"10.0.1.2@200", "10.0.1.2:50002", "GO", "V4_5_2"},
			{"10.0.1.3@300", "10.0.1.3:50003", "JAVA", "V4_9_4"},
		}, owner: map[route.MessageQueue]string{}, offset: map[route.MessageQueue][2]int64{}}
	mqAll := g.mqAll()
	cids := []string{}
	for _, m := range g.members {
		cids = append(cids, m.id)
	}
	v := allocate.Group(allocate.Averagely{}, g.group, mqAll, cids)
	for _, a := range v.Assignments {
		for _, q := range a.Queues {
			g.owner[q] = a.ClientID
		}
	}
	for i, q := range mqAll {
		g.offset[q] = [2]int64{int64(1000 + i), int64(990 + i)}
	}
	return g
}

func (g *genGroup) mqAll() []route.MessageQueue {
	var qs []route.MessageQueue
	for _, b := range g.brokers {
		r, _ := g.counts(b)
		for i := range r {
			qs = append(qs, route.MessageQueue{Topic: g.topic, BrokerName: b, QueueID: int32(i)})
		}
	}
	return qs
}

// counts is a broker's read and write queue counts.
func (g *genGroup) counts(b string) (read, write int) {
	if c, ok := g.rw[b]; ok {
		return c[0], c[1]
	}
	return g.queues, g.queues
}

func (g *genGroup) addr(b string) string {
	if b == "broker-a" {
		return "10.0.0.1:10911"
	}
	return "10.0.0.3:10911"
}

// topicRoute (fastjson pretty: tabs, alphabetical keys, unquoted integer keys), formats §1.
func (g *genGroup) routeJSON(flag string, v5 bool) string {
	var b strings.Builder
	b.WriteString("sh mqadmin topicRoute -n 'localhost:9876' -t " + g.topic + "\n{\n\t\"brokerDatas\":[\n")
	for i, br := range g.brokers {
		addrs := fmt.Sprintf("0:%q", g.addr(br))
		if i == 0 {
			addrs += `,1:"10.0.0.2:10911"`
		}
		b.WriteString("\t\t{\n\t\t\t\"brokerAddrs\":{" + addrs + "\n\t\t\t},\n\t\t\t\"brokerName\":\"" + br + "\",\n\t\t\t\"cluster\":\"DefaultCluster\"")
		if v5 {
			b.WriteString(",\n\t\t\t\"enableActingMaster\":false")
		}
		b.WriteString("\n\t\t}")
		if i < len(g.brokers)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("\t],\n\t\"filterServerTable\":{},\n\t\"queueDatas\":[\n")
	for i, br := range g.brokers {
		r, w := g.counts(br)
		fmt.Fprintf(&b, "\t\t{\n\t\t\t\"brokerName\":\"%s\",\n\t\t\t\"perm\":6,\n\t\t\t\"readQueueNums\":%d,\n\t\t\t\"%s\":0,\n\t\t\t\"writeQueueNums\":%d\n\t\t}", br, r, flag, w)
		if i < len(g.brokers)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("\t]\n}\n")
	return b.String()
}

// topicRoute -l, 4.9.0+.
func (g *genGroup) routeList() string {
	var b strings.Builder
	tr, tw := 0, 0
	b.WriteString("sh mqadmin topicRoute -t " + g.topic + " -l\n")
	fmt.Fprintf(&b, "%-45s %-32s %-50s %-10s %-11s %-5s\n", "#ClusterName", "#BrokerName", "#BrokerAddrs", "#ReadQueue", "#WriteQueue", "#Perm")
	for i, br := range g.brokers {
		addrs := "{0=" + g.addr(br)
		if i == 0 {
			addrs += ", 1=10.0.0.2:10911"
		}
		addrs += "}"
		r, w := g.counts(br)
		fmt.Fprintf(&b, "%-45s %-32s %-50s %-10d %-11d %-5d\n", "DefaultCluster", br, addrs, r, w, 6)
		tr, tw = tr+r, tw+w
	}
	b.WriteString(strings.Repeat("-", 158) + "\n")
	fmt.Fprintf(&b, "%-45s %-32s %-50s %-10d %-11d %-5s\n", "Total:", fmt.Sprint(len(g.brokers)), "", tr, tw, "")
	return b.String()
}

// consumerConnection, formats §2.
func (g *genGroup) connection(layout string) string {
	var b strings.Builder
	b.WriteString("$ sh mqadmin consumerConnection -g " + g.group + " -n ns:9876\n")
	switch layout {
	case "4.9.3+":
		fmt.Fprintf(&b, "%-36s %-22s %-10s %s\n", "#ClientId", "#ClientAddr", "#Language", "#Version")
		for _, m := range g.members {
			fmt.Fprintf(&b, "%-36s %-22s %-10s %s\n", m.id, m.addr, m.lang, m.version)
		}
		b.WriteString("\nBelow is subscription:\n")
		fmt.Fprintf(&b, "%-20s %s\n", "#Topic", "#SubExpression")
		fmt.Fprintf(&b, "%-20s %s\n", g.topic, "TagA || TagB")
		fmt.Fprintf(&b, "%-20s %s\n", "%RETRY%"+g.group, "*")
		b.WriteString("\n")
	default:
		for i, m := range g.members {
			fmt.Fprintf(&b, "%03d  %-32s %-22s %-8s %s\n", i+1, m.id, m.addr, m.lang, m.version)
		}
		if layout == "3.x" {
			b.WriteString("\nBelow is subscription:\n")
		} else {
			b.WriteString("\nBelow is subscription:")
		}
		fmt.Fprintf(&b, "%03d  Topic: %-40s SubExpression: %s\n", 1, g.topic, "TagA || TagB")
		fmt.Fprintf(&b, "%03d  Topic: %-40s SubExpression: %s\n", 2, "%RETRY%"+g.group, "*")
		if layout == "3.x" {
			b.WriteString("\n")
		}
	}
	b.WriteString("ConsumeType: CONSUME_PASSIVELY\nMessageModel: CLUSTERING\nConsumeFromWhere: CONSUME_FROM_LAST_OFFSET\n")
	return b.String()
}

// consumerProgress -g in each layout of formats §3.
func (g *genGroup) progress(layout string) string {
	var b strings.Builder
	b.WriteString("$ sh mqadmin consumerProgress -g " + g.group + " -s true\n")
	tw := "%-32s"
	if layout == "4.9.3" || layout == "5.1" {
		tw = "%-64s"
	}
	client := layout == "4.2" || layout == "4.3-s" || layout == "4.9.3" || layout == "5.1"
	switch layout {
	case "3.x":
		fmt.Fprintf(&b, tw+"  %-32s  %-4s  %-20s  %-20s  %s\n", "#Topic", "#Broker Name", "#QID", "#Broker Offset", "#Consumer Offset", "#Diff")
	case "late3.x", "4.9.0":
		fmt.Fprintf(&b, tw+"  %-32s  %-4s  %-20s  %-20s  %-20s  %s\n", "#Topic", "#Broker Name", "#QID", "#Broker Offset", "#Consumer Offset", "#Diff", "#LastTime")
	case "5.1":
		fmt.Fprintf(&b, tw+"  %-32s  %-4s  %-20s  %-20s  %-20s  %-20s %-20s%s\n", "#Topic", "#Broker Name", "#QID", "#Broker Offset", "#Consumer Offset", "#Client IP", "#Diff", "#Inflight", "#LastTime")
	default:
		fmt.Fprintf(&b, tw+"  %-32s  %-4s  %-20s  %-20s  %-20s  %-20s  %s\n", "#Topic", "#Broker Name", "#QID", "#Broker Offset", "#Consumer Offset", "#Client IP", "#Diff", "#LastTime")
	}
	for _, q := range g.mqAll() {
		o := g.offset[q]
		ip := ipOf(g.owner[q])
		switch {
		case layout == "3.x":
			fmt.Fprintf(&b, tw+"  %-32s  %-4d  %-20d  %-20d  %d\n", q.Topic, q.BrokerName, q.QueueID, o[0], o[1], o[0]-o[1])
		case !client:
			fmt.Fprintf(&b, tw+"  %-32s  %-4d  %-20d  %-20d  %-20d  %s\n", q.Topic, q.BrokerName, q.QueueID, o[0], o[1], o[0]-o[1], "2026-06-07 02:49:41")
		case layout == "5.1":
			fmt.Fprintf(&b, tw+"  %-32s  %-4d  %-20d  %-20d  %-20s  %-20d %-20d %s\n", q.Topic, q.BrokerName, q.QueueID, o[0], o[1], ip, o[0]-o[1], 2, "2026-06-07 02:49:41")
		default:
			fmt.Fprintf(&b, tw+"  %-32s  %-4d  %-20d  %-20d  %-20s  %-20d  %s\n", q.Topic, q.BrokerName, q.QueueID, o[0], o[1], ip, o[0]-o[1], "N/A")
		}
	}
	b.WriteString("\nConsume TPS: 0.13\nConsume Diff Total: 80\n")
	return b.String()
}

// consumerStatus group mode and -i running info, formats §4.
func (g *genGroup) statusGroup(layout string) string {
	var b strings.Builder
	b.WriteString("sh mqadmin consumerStatus -n ns:9876 -g " + g.group + "\n")
	if layout == "4.9.4" {
		fmt.Fprintf(&b, "%-10s %-40s %-20s %s\n", "#Index", "#ClientId", "#Version", "#ConsumerRunningInfoFile")
	}
	for i, m := range g.members {
		if layout == "4.9.4" {
			fmt.Fprintf(&b, "%-10d %-40s %-20s %s\n", i+1, m.id, m.version, "1520774098587/"+m.id)
		} else {
			fmt.Fprintf(&b, "%03d  %-40s %-20s %s\n", i+1, m.id, m.version, "1520774098587/"+m.id)
		}
	}
	b.WriteString("\n\nSame subscription in the same group of consumer\n\nRebalance OK\n")
	return b.String()
}

func (g *genGroup) runningInfo(m genMember, wide bool) string {
	w := "%-32s"
	if wide {
		w = "%-64s"
	}
	var b strings.Builder
	b.WriteString("$ sh mqadmin consumerStatus -g " + g.group + " -i " + m.id + "\n#Consumer Properties#\n")
	for _, kv := range [][2]string{{"consumerGroup", g.group}, {"messageModel", "CLUSTERING"},
		{"allocateMessageQueueStrategy", "org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely@5a2e4553"},
		{"PROP_CLIENT_VERSION", m.version}, {"consumeFromWhere", "CONSUME_FROM_LAST_OFFSET"}} {
		fmt.Fprintf(&b, "%-40s: %s\n", kv[0], kv[1])
	}
	b.WriteString("\n\n#Consumer Subscription#\n")
	topic := g.topic
	if s, ok := g.subs[m.id]; ok {
		topic = s
	}
	expr := "TagA || TagB"
	if e, ok := g.exprs[m.id]; ok {
		expr = e
	}
	fmt.Fprintf(&b, "%03d Topic: %-40s ClassFilter: %-8s SubExpression: %s\n", 1, topic, "false", expr)
	b.WriteString("\n\n#Consumer Offset#\n")
	fmt.Fprintf(&b, w+"  %-32s  %-4s  %-20s\n", "#Topic", "#Broker Name", "#QID", "#Consumer Offset")
	held := []route.MessageQueue{}
	for _, q := range g.mqAll() {
		if g.owner[q] == m.id {
			held = append(held, q)
			fmt.Fprintf(&b, "%-32s  %-32s  %-4d  %-20d\n", q.Topic, q.BrokerName, q.QueueID, g.offset[q][1])
		}
	}
	b.WriteString("\n\n#Consumer MQ Detail#\n")
	fmt.Fprintf(&b, w+"  %-32s  %-4s  %-20s\n", "#Topic", "#Broker Name", "#QID", "#ProcessQueueInfo")
	for _, q := range held {
		fmt.Fprintf(&b, w+"  %-32s  %-4d  %s\n", q.Topic, q.BrokerName, q.QueueID,
			fmt.Sprintf("ProcessQueueInfo [commitOffset=%d, cachedMsgMinOffset=0, cachedMsgMaxOffset=0, cachedMsgCount=0, cachedMsgSizeInMiB=0, transactionMsgMinOffset=0, transactionMsgMaxOffset=0, transactionMsgCount=0, locked=false, tryUnlockTimes=0, lastLockTimestamp=19700101080000000, droped=false, lastPullTimestamp=20260607024941000, lastConsumeTimestamp=20260607024941000]", g.offset[q][1]))
	}
	b.WriteString("\n\n#Consumer RT&TPS#\n")
	fmt.Fprintf(&b, "%-32s  %14s %14s %14s %14s %18s %25s\n", "#Topic", "#Pull RT", "#Pull TPS", "#Consume RT", "#ConsumeOK TPS", "#ConsumeFailed TPS", "#ConsumeFailedMsgsInHour")
	fmt.Fprintf(&b, "%-32s  %14.2f %14.2f %14.2f %14.2f %18.2f %25d\n", g.topic, 1.0, 2.0, 3.0, 4.0, 0.0, 0)
	return b.String()
}

// topicStatus and clusterList, formats §6.
func (g *genGroup) topicStatus() string {
	var b strings.Builder
	b.WriteString("sh mqadmin topicStatus -t " + g.topic + "\n")
	fmt.Fprintf(&b, "%-32s  %-4s  %-20s  %-20s    %s\n", "#Broker Name", "#QID", "#Min Offset", "#Max Offset", "#Last Updated")
	for _, q := range g.mqAll() {
		fmt.Fprintf(&b, "%-32s  %-4d  %-20d  %-20d    %s\n", q.BrokerName, q.QueueID, 0, g.offset[q][0], "2018-03-11 20:58:30,695")
	}
	b.WriteString("\nTopic Put TPS: 0.0\n")
	return b.String()
}

func (g *genGroup) clusterList(v5 bool) string {
	var b strings.Builder
	b.WriteString("sh mqadmin clusterList -n ns:9876\n")
	rows := [][3]string{{"broker-a", "0", "10.0.0.1:10911"}, {"broker-a", "1", "10.0.0.2:10911"}, {"broker-b", "0", "10.0.0.3:10911"}}
	if v5 {
		fmt.Fprintf(&b, "%-22s  %-22s  %-4s  %-22s %-16s  %16s  %30s  %-22s  %-11s  %-12s  %-8s  %-10s\n", "#Cluster Name", "#Broker Name", "#BID", "#Addr", "#Version", "#InTPS(LOAD)", "#OutTPS(LOAD)", "#Timer(Progress)", "#PCWait(ms)", "#Hour", "#SPACE", "#ACTIVATED")
		for _, r := range rows {
			fmt.Fprintf(&b, "%-22s  %-22s  %-4s  %-22s %-16s  %16s  %30s  %-22s  %-11s  %-12s  %-8s  %-10s\n", "DefaultCluster", r[0], r[1], r[2], "V5_3_2", "0.00(0,0ms)", "0.00(0,0ms)", "0-0(0.0w, 0.0, 0.0)", "0", "0.00", "0.1000", "true")
		}
	} else {
		fmt.Fprintf(&b, "%-16s  %-22s  %-4s  %-22s %-16s %19s %19s %10s %5s %6s\n", "#Cluster Name", "#Broker Name", "#BID", "#Addr", "#Version", "#InTPS(LOAD)", "#OutTPS(LOAD)", "#PCWait(ms)", "#Hour", "#SPACE")
		for _, r := range rows {
			fmt.Fprintf(&b, "%-16s  %-22s  %-4s  %-22s %-16s %19s %19s %10s %5s %6s\n", "DefaultCluster", r[0], r[1], r[2], "V4_9_4", "0.00(0,0ms)", "0.00(0,0ms)", "0", "0.00", "0.1000")
		}
	}
	return b.String()
}

func mqKeyFast(q route.MessageQueue) string {
	return fmt.Sprintf(`{"brokerName":%q,"queueId":%d,"topic":%q}`, q.BrokerName, q.QueueID, q.Topic)
}

// The wire JSON (fastjson, object keys), formats §4 and §1.
func (g *genGroup) wireRunningInfo(m genMember) string {
	var parts []string
	for _, q := range g.mqAll() {
		if g.owner[q] == m.id {
			parts = append(parts, mqKeyFast(q)+fmt.Sprintf(`:{"cachedMsgCount":0,"commitOffset":%d,"droped":false,"locked":false}`, g.offset[q][1]))
		}
	}
	return `{"jstack":"","mqTable":{` + strings.Join(parts, ",") + `},"properties":{"consumerGroup":"` + g.group +
		`","allocateMessageQueueStrategy":"org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely@1"},` +
		`"statusTable":{},"subscriptionSet":[{"classFilterMode":false,"subString":"TagA || TagB","topic":"` + g.topic + `"}]}` + "\n"
}

func (g *genGroup) consumeStats() string {
	var parts []string
	for _, q := range g.mqAll() {
		parts = append(parts, mqKeyFast(q)+fmt.Sprintf(`:{"brokerOffset":%d,"consumerOffset":%d,"lastTimestamp":0}`, g.offset[q][0], g.offset[q][1]))
	}
	return `ExamineConsumeStats: {"consumeTps":0.0,"offsetTable":{` + strings.Join(parts, ",") + "}}\n"
}

func (g *genGroup) clusterInfo() string {
	var parts []string
	for _, b := range g.brokers {
		parts = append(parts, fmt.Sprintf(`%q:{"brokerAddrs":{0:%q},"brokerName":%q,"cluster":"DefaultCluster"}`, b, g.addr(b), b))
	}
	return `ExamineBrokerClusterInfo: {"brokerAddrTable":{` + strings.Join(parts, ",") + `},"clusterAddrTable":{"DefaultCluster":["broker-a","broker-b"]}}` + "\n"
}

// The Dashboard's REST JSON (Jackson: quoted keys, MessageQueue string keys, the wrapper), §7.
func (g *genGroup) dashConnection() string {
	var cs []string
	for _, m := range g.members {
		cs = append(cs, fmt.Sprintf(`{"clientId":%q,"clientAddr":%q,"language":%q,"version":317,"versionDesc":%q}`, m.id, m.addr, m.lang, m.version))
	}
	return `{"status":0,"data":{"connectionSet":[` + strings.Join(cs, ",") + `],"subscriptionTable":{"` + g.topic +
		`":{"topic":"` + g.topic + `","subString":"TagA || TagB"}},"consumeType":"CONSUME_PASSIVELY","messageModel":"CLUSTERING","consumeFromWhere":"CONSUME_FROM_LAST_OFFSET"},"errMsg":null}` + "\n"
}

func (g *genGroup) dashProgress() string {
	var qs []string
	for _, q := range g.mqAll() {
		qs = append(qs, fmt.Sprintf(`{"brokerName":%q,"queueId":%d,"brokerOffset":%d,"consumerOffset":%d,"clientInfo":%q,"lastTimestamp":0}`, q.BrokerName, q.QueueID, g.offset[q][0], g.offset[q][1], g.owner[q]))
	}
	return `{"status":0,"data":[{"topic":"` + g.topic + `","diffTotal":80,"lastTimestamp":0,"queueStatInfoList":[` + strings.Join(qs, ",") + `]}],"errMsg":null}` + "\n"
}

func (g *genGroup) dashRunningInfo(m genMember) string {
	var parts []string
	for _, q := range g.mqAll() {
		if g.owner[q] == m.id {
			parts = append(parts, fmt.Sprintf(`%q:{"commitOffset":%d,"cachedMsgCount":0,"droped":false}`, q.String(), g.offset[q][1]))
		}
	}
	return `{"status":0,"data":{"properties":{"consumerGroup":"` + g.group + `"},"subscriptionSet":[],"mqTable":{` + strings.Join(parts, ",") + `}},"errMsg":null}` + "\n"
}

func (g *genGroup) dashRoute() string {
	var bds, qds []string
	for _, b := range g.brokers {
		bds = append(bds, fmt.Sprintf(`{"cluster":"DefaultCluster","brokerName":%q,"brokerAddrs":{"0":%q}}`, b, g.addr(b)))
		r, w := g.counts(b)
		qds = append(qds, fmt.Sprintf(`{"brokerName":%q,"readQueueNums":%d,"writeQueueNums":%d,"perm":6,"topicSysFlag":0}`, b, r, w))
	}
	return `{"status":0,"data":{"brokerDatas":[` + strings.Join(bds, ",") + `],"queueDatas":[` + strings.Join(qds, ",") + `]},"errMsg":null}` + "\n"
}

func (g *genGroup) goLog() string {
	var ids []string
	for _, m := range g.members {
		ids = append(ids, m.id)
	}
	return `time="2021-02-13T13:38:37+08:00" level=warning msg="[BUG] ConsumerId not in cidAll" cidAll="[` + strings.Join(ids, " ") + `]" consumerGroup=` + g.group + ` consumerId=10.0.1.9@900` + "\n"
}

func (g *genGroup) wantConnections(t *testing.T, name string, rd *Read) {
	t.Helper()
	if len(rd.Connections) != len(g.members) {
		t.Fatalf("%s: %d connections; want %d", name, len(rd.Connections), len(g.members))
	}
	for i, m := range g.members {
		c := rd.Connections[i]
		if c.ClientID != m.id || c.Addr != m.addr || c.Language != m.lang || c.Version != m.version {
			t.Errorf("%s: connection %d = %+v; want %+v", name, i, c, m)
		}
	}
}

func (g *genGroup) wantQueueCounts(t *testing.T, name string, rd *Read) {
	t.Helper()
	if len(rd.QueueCounts) != len(g.brokers) {
		t.Fatalf("%s: %d queue counts; want %d", name, len(rd.QueueCounts), len(g.brokers))
	}
	for i, b := range g.brokers {
		q := rd.QueueCounts[i]
		if r, w := g.counts(b); q.Broker != b || q.Read != r || q.Write != w || q.Perm != 6 {
			t.Errorf("%s: %+v", name, q)
		}
	}
	masters := 0
	for _, b := range rd.Brokers {
		if b.ID == 0 {
			masters++
			if b.Addr != g.addr(b.Broker) {
				t.Errorf("%s: %s at %s", name, b.Broker, b.Addr)
			}
		}
	}
	if masters != len(g.brokers) {
		t.Errorf("%s: %d masters", name, masters)
	}
}

func (g *genGroup) wantOffsets(t *testing.T, name string, rd *Read, owners string) {
	t.Helper()
	mqAll := g.mqAll()
	if len(rd.Offsets) != len(mqAll) {
		t.Fatalf("%s: %d offsets; want %d", name, len(rd.Offsets), len(mqAll))
	}
	for i, q := range mqAll {
		o := rd.Offsets[i]
		if o.Queue != q || o.BrokerOffset != g.offset[q][0] || o.ConsumerOffset != g.offset[q][1] {
			t.Errorf("%s: row %d = %+v; want %v %v", name, i, o, q, g.offset[q])
		}
		switch owners {
		case "ip":
			if o.Client != ipOf(g.owner[q]) || o.FullClient {
				t.Errorf("%s: %v owner %q; want %q", name, q, o.Client, ipOf(g.owner[q]))
			}
		case "full":
			if o.Client != g.owner[q] || !o.FullClient {
				t.Errorf("%s: %v owner %q; want %q", name, q, o.Client, g.owner[q])
			}
		default:
			if o.HasClient {
				t.Errorf("%s: an owner column where the layout has none", name)
			}
		}
	}
}

func (g *genGroup) wantHeld(t *testing.T, name string, ri RunningInfo, m genMember) {
	t.Helper()
	var want, got []route.MessageQueue
	for _, q := range g.mqAll() {
		if g.owner[q] == m.id {
			want = append(want, q)
		}
	}
	for _, h := range ri.Held {
		got = append(got, h.Queue)
		if h.CommitOffset == nil || *h.CommitOffset != g.offset[h.Queue][1] {
			t.Errorf("%s: %v commit offset %v", name, h.Queue, h.CommitOffset)
		}
	}
	if !slices.Equal(got, want) || !ri.HasHeld {
		t.Errorf("%s: held %v; want %v", name, got, want)
	}
}

func readOne(name, text string) *Read {
	return ReadAll([]Input{{Name: name, Data: []byte(text)}})
}

func TestRoundTripEveryLayout(t *testing.T) {
	g := newGenGroup()
	for _, c := range []struct {
		flag   string
		v5     bool
		layout string
	}{{"topicSynFlag", false, "before 4.9.0"}, {"topicSysFlag", false, "4.9.0+"}, {"topicSysFlag", true, "5.0+"}} {
		rd := readOne("route", g.routeJSON(c.flag, c.v5))
		g.wantQueueCounts(t, "topicRoute "+c.flag, rd)
		if s := rd.Sections[len(rd.Sections)-1]; !strings.Contains(s.Layout, c.layout) {
			t.Errorf("topicRoute %s: layout %q", c.flag, s.Layout)
		}
	}
	rd := readOne("route -l", g.routeList())
	g.wantQueueCounts(t, "topicRoute -l", rd)
	g.wantQueueCounts(t, "Dashboard route", readOne("dash route", g.dashRoute()))

	for _, layout := range []string{"3.x", "4.0", "4.9.3+"} {
		rd := readOne("conn", g.connection(layout))
		g.wantConnections(t, "consumerConnection "+layout, rd)
		want := []string{g.topic + " TagA || TagB", "%RETRY%" + g.group + " *"}
		var got []string
		for _, s := range rd.GroupSubs {
			got = append(got, s.Topic+" "+s.Expr)
		}
		if !slices.Equal(got, want) || len(rd.Settings) != 3 || rd.Settings[1].Value != "CLUSTERING" {
			t.Errorf("consumerConnection %s: subs %q settings %+v", layout, got, rd.Settings)
		}
		wantLayout := map[string]string{"3.x": "3.x", "4.0": "4.0–4.9.2", "4.9.3+": "4.9.3+"}[layout]
		if s := rd.Sections[len(rd.Sections)-1]; s.Layout != wantLayout {
			t.Errorf("consumerConnection %s: read as %q", layout, s.Layout)
		}
	}
	g.wantConnections(t, "Dashboard connection", readOne("dash conn", g.dashConnection()))

	for _, c := range []struct{ layout, owners, want string }{
		{"3.x", "", "3.x (2014)"}, {"late3.x", "", "late 3.x–4.1, or 4.9.0–4.9.2 without -s"}, {"4.2", "ip", "4.2–4.9.2"},
		{"4.3-s", "ip", "4.2–4.9.2"}, {"4.9.0", "", "late 3.x–4.1, or 4.9.0–4.9.2 without -s"},
		{"4.9.3", "ip", "4.9.3–5.0.x, with -s"}, {"5.1", "ip", "5.1.0+"},
	} {
		rd := readOne("progress", g.progress(c.layout))
		g.wantOffsets(t, "consumerProgress "+c.layout, rd, c.owners)
		if s := rd.Sections[len(rd.Sections)-1]; s.Layout != c.want {
			t.Errorf("consumerProgress %s: read as %q; want %q", c.layout, s.Layout, c.want)
		}
	}
	g.wantOffsets(t, "consume stats", readOne("stats", g.consumeStats()), "")
	g.wantOffsets(t, "Dashboard progress", readOne("dash progress", g.dashProgress()), "full")

	for _, layout := range []string{"3.x", "4.9.4"} {
		rd := readOne("status", g.statusGroup(layout))
		if len(rd.StatusClients) != len(g.members) || len(rd.StatusLines) != 2 {
			t.Fatalf("consumerStatus %s: %+v %+v", layout, rd.StatusClients, rd.StatusLines)
		}
		for i, m := range g.members {
			if s := rd.StatusClients[i]; s.ClientID != m.id || s.Version != m.version || s.Group != g.group {
				t.Errorf("consumerStatus %s: %+v", layout, s)
			}
		}
	}
	for _, wide := range []bool{false, true} {
		for _, m := range g.members {
			rd := readOne("ri", g.runningInfo(m, wide))
			if len(rd.RunningInfos) != 1 {
				t.Fatalf("running info: %d", len(rd.RunningInfos))
			}
			ri := rd.RunningInfos[0]
			g.wantHeld(t, "running info text", ri, m)
			if ri.ClientID != m.id || ri.Group != g.group || len(ri.Subs) != 1 || ri.Subs[0].Expr != "TagA || TagB" {
				t.Errorf("running info text: %+v", ri)
			}
			rd = readOne("wire", g.wireRunningInfo(m))
			g.wantHeld(t, "running info wire", rd.RunningInfos[0], m)
			rd = readOne("dash ri", g.dashRunningInfo(m))
			g.wantHeld(t, "running info Dashboard", rd.RunningInfos[0], m)
		}
	}
	rd = readOne("ts", g.topicStatus())
	if len(rd.TopicQueues) != len(g.mqAll()) || rd.TopicQueues[3].Queue.Topic != g.topic || rd.TopicQueues[3].MaxOffset != g.offset[g.mqAll()[3]][0] {
		t.Errorf("topicStatus: %+v", rd.TopicQueues)
	}
	for _, v5 := range []bool{false, true} {
		rd := readOne("cl", g.clusterList(v5))
		if len(rd.Brokers) != 3 || rd.Brokers[1].ID != 1 || rd.Brokers[2].Addr != "10.0.0.3:10911" {
			t.Errorf("clusterList v5=%v: %+v", v5, rd.Brokers)
		}
	}
	rd = readOne("ci", g.clusterInfo())
	if len(rd.Brokers) != 2 {
		t.Errorf("cluster info: %+v", rd.Brokers)
	}
	rd = readOne("go", g.goLog())
	if len(rd.GoLogs) != 1 || len(rd.GoLogs[0].CidAll) != 3 || rd.GoLogs[0].Group != g.group {
		t.Errorf("go log: %+v", rd.GoLogs)
	}
}

// The whole group, pasted as one stream: it rebuilds to the constructed group, and the
// observed owners agree with the expected allocation.
func TestRoundTripWholeGroup(t *testing.T) {
	g := newGenGroup()
	var stream strings.Builder
	stream.WriteString(g.routeJSON("topicSysFlag", true))
	stream.WriteString(g.connection("4.9.3+"))
	stream.WriteString(g.progress("5.1"))
	for _, m := range g.members {
		stream.WriteString(g.runningInfo(m, true))
	}
	rep, err := Diagnose([]Input{{Name: "stream", Data: []byte(stream.String())}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	gr := rep.Group
	if gr.Name != g.group || len(gr.Members) != 3 || gr.Strategy != "AVG" || !gr.Complete {
		t.Fatalf("group %+v", gr)
	}
	main := gr.MainTopic()
	if main == nil || main.Name != g.topic || !slices.Equal(main.Queues, g.mqAll()) || main.Source != "topicRoute" {
		t.Fatalf("main topic %+v", main)
	}
	compared := 0
	for _, q := range rep.Queues {
		if q.Queue.Topic != g.topic {
			continue
		}
		if q.Agrees == nil || !*q.Agrees || len(q.Expected) != 1 || q.Expected[0] != g.owner[q.Queue] {
			t.Errorf("%v: expected %v observed %+v", q.Queue, q.Expected, q.Observed)
		}
		compared++
	}
	if compared != len(g.mqAll()) {
		t.Errorf("%d queues compared", compared)
	}
	got := codes(rep)
	if !slices.Contains(got, CodeAllocationOK) || !slices.Contains(got, CodeMixedSDK) {
		t.Errorf("codes %v", got)
	}
}

// Read and write counts that differ, and a member subscribing another topic, go from the
// pastes into the scenario as they are, and the scenario run shows what they do: queues read
// and never written, messages written where nobody reads, the other member's share pulled by
// nobody (spec §1.3, §5.7).
func TestRoundTripCountsAndSubscriptionsIntoTheScenario(t *testing.T) {
	g := newGenGroup()
	g.rw = map[string][2]int{"broker-a": {4, 2}, "broker-b": {2, 4}}
	other := g.members[2].id
	g.subs = map[string]string{other: "OtherTopic"}
	cids := []string{}
	for _, m := range g.members {
		cids = append(cids, m.id)
	}
	g.owner = map[route.MessageQueue]string{}
	for _, a := range allocate.Group(allocate.Averagely{}, g.group, g.mqAll(), cids).Assignments {
		for _, q := range a.Queues {
			if a.ClientID != other { // it does not rebalance this topic
				g.owner[q] = a.ClientID
			}
		}
	}
	var stream strings.Builder
	stream.WriteString(g.routeJSON("topicSysFlag", true))
	stream.WriteString(g.connection("4.9.3+"))
	for _, m := range g.members {
		stream.WriteString(g.runningInfo(m, true))
	}
	rep, err := Diagnose([]Input{{Name: "stream", Data: []byte(stream.String())}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := codes(rep); !slices.Contains(got, CodeReadWriteMismatch) || !slices.Contains(got, CodeSubscriptionMismat) {
		t.Errorf("codes %v; want read-write-mismatch and subscription-mismatch", got)
	}
	s, left, err := rep.Group.Scenario()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range left {
		if strings.Contains(l, "write") || strings.Contains(l, "subscri") {
			t.Errorf("left out %q, which the scenario now carries", l)
		}
	}
	if len(s.Brokers) != 2 {
		t.Fatalf("brokers %+v", s.Brokers)
	}
	for i, want := range [][2]int{{4, 2}, {2, 4}} {
		b := s.Brokers[i]
		if r, w := b.QueueCounts(); r != want[0] || w != want[1] || b.Queues != 4 {
			t.Errorf("%s: %d queues, read %d, write %d; want 4, %d, %d", b.Name, b.Queues, r, w, want[0], want[1])
		}
	}
	if len(s.Consumers) != 3 || s.Consumers[2].ID != other || s.Consumers[2].Subscription == nil || s.Consumers[2].Subscription.Topic != "OtherTopic" ||
		s.Consumers[0].Subscription != nil || s.Consumers[1].Subscription != nil {
		t.Errorf("consumers %+v; want %s alone subscribing OtherTopic", s.Consumers, other)
	}

	r, err := scenario.Run(s, scenario.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	held := map[string][]string{}
	for _, q := range r.Snapshot.Queues {
		held[q.Queue] = q.Owners
		switch {
		case q.Broker == "broker-a" && q.ID >= 2:
			if q.Access != cluster.AccessReadOnly || q.MaxOffset != 0 || len(q.Owners) != 1 {
				t.Errorf("%s: %q, %d messages, owners %v; want read-only, empty, held", q.Queue, q.Access, q.MaxOffset, q.Owners)
			}
		case q.Broker == "broker-b" && q.ID >= 2:
			if q.Access != cluster.AccessWriteOnly || q.MaxOffset == 0 || len(q.Owners) != 0 {
				t.Errorf("%s: %q, %d messages, owners %v; want write-only, written, unheld", q.Queue, q.Access, q.MaxOffset, q.Owners)
			}
		}
	}
	if len(held["broker-b:0"]) != 0 || len(held["broker-b:1"]) != 0 || r.Metrics.Unread == 0 {
		t.Errorf("broker-b:0 and :1 held by %v and %v, unread %d; want the other member's share unpulled and unread messages",
			held["broker-b:0"], held["broker-b:1"], r.Metrics.Unread)
	}
}

// Members that subscribe the topic with different tags (their running info shows each one's
// expression) go into a format-2 scenario with each member's own tags, and the producer's
// messages carrying all of them, so the run shows what the broker's one record of the group
// filters away (spec §5.7): messages counted as filtered, none lost. An SQL92 expression
// cannot be named as tags and is said to be left out.
func TestRoundTripDifferentTagsIntoTheScenario(t *testing.T) {
	g := newGenGroup()
	g.exprs = map[string]string{g.members[1].id: "TagC", g.members[2].id: "a > 5"}
	var stream strings.Builder
	stream.WriteString(g.routeJSON("topicSysFlag", true))
	stream.WriteString(g.connection("4.9.3+"))
	for _, m := range g.members {
		stream.WriteString(g.runningInfo(m, true))
	}
	rep, err := Diagnose([]Input{{Name: "stream", Data: []byte(stream.String())}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, left, err := rep.Group.Scenario()
	if err != nil {
		t.Fatal(err)
	}
	if s.Version != scenario.Version2 || len(s.Topics) != 1 || len(s.Groups) != 1 || s.Groups[0].Name != g.group {
		t.Fatalf("version %d, topics %+v, groups %+v; want format 2 with %s and %s", s.Version, s.Topics, s.Groups, g.topic, g.group)
	}
	want := map[string][]string{g.members[0].id: {"TagA", "TagB"}, g.members[1].id: {"TagC"}, g.members[2].id: nil}
	for _, c := range s.Consumers {
		if len(c.Groups) != 1 || len(c.Groups[0].Subscriptions) != 1 || !slices.Equal(c.Groups[0].Subscriptions[0].Tags, want[c.ID]) {
			t.Errorf("%s subscribes %+v; want %s with tags %v", c.ID, c.Groups, g.topic, want[c.ID])
		}
	}
	if !slices.ContainsFunc(left, func(l string) bool { return strings.Contains(l, `"a > 5"`) }) {
		t.Errorf("left %q; want the SQL92 expression named", left)
	}
	if len(s.Producers) != 1 || len(s.Producers[0].Tags) != 3 {
		t.Errorf("producers %+v; want one carrying TagA, TagB and TagC", s.Producers)
	}
	r, err := scenario.Run(s, scenario.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Metrics.Filtered == 0 || r.Metrics.Lost != 0 {
		t.Errorf("filtered %d, lost %d; want messages filtered away by the members' different tags and none lost", r.Metrics.Filtered, r.Metrics.Lost)
	}
}
