package admin

import (
	"slices"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/route"
)

// The RocketMQ Dashboard's page tables as users copy them (reference "dashboard-tables", cited
// as tables §N): the consumer list, the CLIENT dialog, CONSUME DETAIL, the topic's consumer
// manage, status and router dialogs, the cluster page and its STATUS table, in English and
// Chinese, from the AngularJS console (2017 – dashboard 2.0.0) and the React dashboard 2.1.0.
// One splitter reads every shape of copy: tab-separated cells, GitHub's " | " tables (whose
// separator line follows the first row, whatever it is), hand-aligned pipes with or without
// outer pipes, Typora's escaped Markdown and <html> wrappers. A table is known by its header;
// one whose header is missing, made up or in another language is read when its cells say what
// they are, and a note says which columns were guessed and from which row.

// Section kinds of the Dashboard's tables.
const (
	KindDashList    = "Dashboard consumer list"
	KindDashClient  = "Dashboard CLIENT dialog"
	KindDashDetail  = "Dashboard CONSUME DETAIL"
	KindDashManage  = "Dashboard topic CONSUMER MANAGE"
	KindDashStatus  = "Dashboard topic STATUS"
	KindDashRouter  = "Dashboard topic ROUTER"
	KindDashCluster = "Dashboard cluster page"
	KindDashBroker  = "Dashboard broker STATUS"
	KindTable       = "table (columns from content)"
)

// Bounds of the table reader: cells past maxTableCols and bytes past maxCellBytes are not read
// (with a note), so a long line costs no more than its length.
const (
	maxTableCols = 48
	maxCellBytes = 256
)

// col is what a column holds.
type col uint8

const (
	cNone col = iota
	cSkip     // a column the diagnosis does not use (TPS, counts, buttons, tags)
	cGroup
	cCount
	cVersion
	cType
	cMode
	cDelay
	cClientID
	cAddr
	cLanguage
	cTopic
	cExpr
	cBroker
	cQueue
	cClient
	cBrokerOffset
	cConsumerOffset
	cTime
	cMin
	cMax
	cBrokerID
	cRead
	cWrite
	cPerm
	cAddrs
	cKey
	cValue
	nCols
)

// colNames name the columns in notes, as the Dashboard's English headers do.
var colNames = [nCols]string{cSkip: "-", cGroup: "SubscriptionGroup", cCount: "Quantity", cVersion: "Version", cType: "Type",
	cMode: "Mode", cDelay: "Delay", cClientID: "ClientId", cAddr: "Address", cLanguage: "Language", cTopic: "Topic",
	cExpr: "SubExpression", cBroker: "Broker", cQueue: "Queue", cClient: "consumerClient", cBrokerOffset: "brokerOffset",
	cConsumerOffset: "consumerOffset", cTime: "time", cMin: "minOffset", cMax: "maxOffset", cBrokerID: "NO.",
	cRead: "readQueueNums", cWrite: "writeQueueNums", cPerm: "perm", cAddrs: "Broker Addrs", cKey: "Key", cValue: "Value"}

// headerWords are the Dashboard's column headers of both generations in English and Chinese
// (tables §3–§8), normalised by headerKey, per column: "|word|word|".
var headerWords = [nCols]string{
	cGroup:   "|subscriptiongroup|订阅组|",
	cCount:   "|quantity|数量|",
	cVersion: "|version|版本|",
	cType:    "|type|类型|",
	cMode:    "|mode|模式|",
	cSkip: "|tps|updatetime|更新时间|operation|操作|expressiontype|表达式类型|tagsset|标签集|codeset|代码集|subversion|订阅版本|" +
		"difftotal|差值|lagdiff|producemassagetps|producemessagetps|生产消息tps|consumermassagetps|consumermessagetps|消费消息tps|" +
		"yesterdayproducecount|yesterdayconsumecount|todayproducecount|todayconsumecount|昨日生产总数|昨日消费总数|今天生产总数|今天消费总数|",
	cDelay:          "|delay|延迟|",
	cClientID:       "|clientid|客户端id|",
	cAddr:           "|clientaddr|clientaddress|客户端地址|address|地址|",
	cLanguage:       "|language|语言|",
	cTopic:          "|topic|主题|",
	cExpr:           "|subexpression|subscriptionexpression|订阅表达式|",
	cBroker:         "|broker|分片|brokername|broker名称|",
	cQueue:          "|queue|队列|queueid|",
	cClient:         "|consumerclient|消费者终端|clientinfo|",
	cBrokerOffset:   "|brokeroffset|代理者位点|",
	cConsumerOffset: "|consumeroffset|消费者位点|",
	cTime:           "|lasttimestamp|上次时间|lastconsumetime|lastupdatetimestamp|上次更新时间|",
	cMin:            "|minoffset|最小位点|",
	cMax:            "|maxoffset|最大位点|",
	cBrokerID:       "|no|编号|index|",
	cRead:           "|readqueuenums|读队列数量|",
	cWrite:          "|writequeuenums|写队列数量|",
	cPerm:           "|perm|",
	cAddrs:          "|brokeraddrs|",
	cKey:            "|key|值|",
	cValue:          "|value|",
}

// headerCol is the column a header cell names, cNone for none.
func headerCol(cell string) col {
	key := headerKey(cell)
	if key == "" || strings.Contains(key, "|") {
		return cNone
	}
	for c, words := range headerWords {
		if strings.Contains(words, "|"+key+"|") {
			return col(c)
		}
	}
	return cNone
}

// tableKind is one kind of table: the columns that make it and what a row of it fills.
type tableKind struct {
	kind string
	need [3]col // cNone pads
	row  func(r *reader, ln int, v *rowVals) bool
}

// tableKinds, the first that a table's columns satisfy wins.
var tableKinds = []tableKind{
	{KindDashClient, [3]col{cClientID, cAddr}, rowConnection},
	{KindDashClient, [3]col{cTopic, cExpr}, rowSubscription},
	{KindDashDetail, [3]col{cQueue, cBrokerOffset}, rowOffset},
	{KindDashStatus, [3]col{cQueue, cMin, cMax}, rowTopicQueue},
	{KindDashCluster, [3]col{cBroker, cBrokerID, cAddr}, rowBroker},
	{KindDashRouter, [3]col{cBroker, cRead, cWrite}, rowQueueCount},
	{KindDashRouter, [3]col{cBroker, cAddrs}, rowBrokerAddrs},
	{KindDashList, [3]col{cGroup, cCount}, rowSummary},
	{KindDashBroker, [3]col{cKey, cValue}, rowKeyValue},
}

// layouts tell the generation from words of a header or a cell (tables §3–§8).
var layouts = []struct{ word, layout string }{
	{"Lag (Diff)", "React 2.1.0"}, {"Client Info", "React 2.1.0"}, {"Queue ID", "React 2.1.0"}, {"Client ID", "React 2.1.0"},
	{"客户端 ID", "React 2.1.0"}, {"Subscription Expression", "React 2.1.0"}, {"订阅表达式", "React 2.1.0"},
	{"Broker Addrs", "React 2.1.0"}, {"Broker name", "React 2.1.0"}, {"Broker名称", "React 2.1.0"}, {"(undefined)", "React 2.1.0"},
	{"Update Time", "React 2.1.0 or master 2025"}, {"更新时间", "React 2.1.0 or master 2025"},
	{"Produce Massage TPS", "console–dashboard 1.0.0"}, {"lastTimestamp", "AngularJS"}, {"ClientId", "AngularJS"},
	{"SubExpression", "AngularJS"},
}

// rowVals are one row's cells by column.
type rowVals struct {
	cell [nCols]string
	has  [nCols]bool
	rest []string // cells after the last column of a router's Broker Addrs
}

func (v *rowVals) get(c col) string { return v.cell[c] }

// tableState is what the table reader knows between lines.
type tableState struct {
	cols  []col
	kind  *tableKind
	sec   int // index of the table's section in out.Sections; -1 none
	last  int // the line of the table's last row
	shape string
	// The dialog around the tables: its group, its topic (a CONSUME DETAIL's label row, a
	// dialog's title), the router's broker and queue-count row being filled.
	group, topic, broker string
	dialog               string
	qc                   int    // index into out.QueueCounts, -1 none
	gen                  string // the generation the header tells
	capNoted, topicNoted bool
}

// tableOpen says whether the table of the latest rows is still the reader's open section.
func (r *reader) tableOpen() bool {
	t := &r.tbl
	return t.kind != nil && t.sec >= 0 && t.sec < len(r.out.Sections) && r.sec == &r.out.Sections[t.sec]
}

// tableLine reads a line as part of a Dashboard table or dialog; it reports whether it did.
func (r *reader) tableLine(ln int, s string) bool {
	t := &r.tbl
	if r.tableContext(ln, s) {
		return true
	}
	cells, shape := r.splitCells(ln, s)
	if len(cells) < 2 {
		if r.tableOpen() {
			r.close() // prose after the table ends it
		}
		return false
	}
	if isSeparator(cells) {
		if r.tableOpen() {
			r.sec.To, t.last = ln, ln
			if t.shape == "pipes" {
				t.shape = "GitHub table"
				r.sec.Layout = joinLayout(t.gen, t.shape)
			}
			return true
		}
		return shape != "tabs" // a separator whose first row was not read
	}
	open := r.tableOpen() && ln == t.last+1
	if r.tableLabel(ln, cells) {
		return true
	}
	if h, ok := headerOf(cells); ok {
		r.openTable(ln, h, cells, shape, false, s)
		if ln == r.lastLine && headerKey(cells[len(cells)-1]) != "" && headerCol(cells[len(cells)-1]) == cNone {
			r.sec.Cut = true
			r.note(ln, "note.table-cut-header", clip(s, 60))
		}
		return true
	}
	if !open {
		// A header only in part (a paste cut inside it), or none: the cells must say what
		// they are.
		if ln == r.lastLine {
			if h, ok := headerOf(completeHeader(cells)); ok {
				r.openTable(ln, h, cells, shape, false, s)
				r.sec.Cut = true
				r.note(ln, "note.table-cut-header", clip(s, 60))
				return true
			}
		}
		if r.tableKV(ln, cells, shape) {
			return true
		}
		if r.trackRow(ln, cells) {
			return true
		}
		cols, ok := guessCols(cells)
		if !ok {
			if r.tableOpen() {
				r.close() // prose or another table after the table ends it
			}
			return false
		}
		r.openTable(ln, cols, cells, shape, true, s)
	}
	return r.tableRow(ln, cells)
}

// openTable opens a table with cols at line ln.
func (r *reader) openTable(ln int, cols []col, cells []string, shape string, guessed bool, raw string) {
	t := &r.tbl
	var kind *tableKind
	for i := range tableKinds {
		if hasCols(cols, tableKinds[i].need) {
			kind = &tableKinds[i]
			break
		}
	}
	name := kind.kind
	switch {
	case guessed:
		name = KindTable
	case name == KindDashDetail && (t.dialog == "manage" || strings.Contains(raw, "lastTimeStamp") || strings.Contains(raw, "消费者终端")):
		name = KindDashManage
	}
	layout := ""
	for _, l := range layouts {
		if strings.Contains(raw, l.word) && (strings.HasPrefix(l.word, "(") || slices.Contains(cells, l.word)) {
			layout = l.layout
			break
		}
	}
	r.open(name, joinLayout(layout, shape), ln)
	t.cols, t.kind, t.sec, t.last, t.shape, t.gen = cols, kind, len(r.out.Sections)-1, ln, shape, layout
	if guessed {
		var named []string
		for i, c := range cols {
			if c > cSkip {
				named = append(named, strconv.Itoa(i+1)+" "+colNames[c])
			}
		}
		r.note(ln, "note.table-guessed", ln, strings.Join(named, ", "))
	}
}

func joinLayout(layout, shape string) string {
	switch {
	case layout == "":
		return shape
	case shape == "":
		return layout
	}
	return layout + ", " + shape
}

// tableRow reads a data row of the open table.
func (r *reader) tableRow(ln int, cells []string) bool {
	t := &r.tbl
	// A last row short of cells is cut; a tab copy loses its trailing empty cells, so there
	// only a row that does not read is.
	short := ln == r.lastLine && len(cells) < len(t.cols) && !allButtons(t.cols[len(cells):])
	cut := func() bool {
		r.sec.Cut, r.sec.To = true, ln
		r.note(ln, "note.table-cut-row", len(cells), len(t.cols))
		return true
	}
	if short && t.shape != "tabs" {
		return cut()
	}
	var v rowVals
	for i, c := range t.cols {
		if i < len(cells) && c > cSkip && !v.has[c] {
			v.cell[c], v.has[c] = cleanCell(cells[i]), true
		}
	}
	if len(cells) > len(t.cols) {
		v.rest = cells[len(t.cols):]
	}
	if strings.HasSuffix(v.cell[cBrokerID], "(undefined)") && !strings.Contains(r.sec.Layout, "React") {
		r.sec.Layout = joinLayout("React 2.1.0", t.shape)
	}
	if !t.kind.row(r, ln, &v) {
		if short {
			return cut()
		}
		r.note(ln, "note.table-row", clip(strings.Join(cells, " | "), 60))
	}
	r.sec.To, t.last = ln, ln
	if ln == r.lastLine && unclosed(cells[len(cells)-1]) {
		r.sec.Cut = true
		r.note(ln, "note.cut-line", clip(strings.Join(cells, " | "), 60))
	}
	return true
}

// splitCells splits a line into trimmed cells: at tabs, or at unescaped pipes (dropping the
// outer pipes of a Markdown row), and unescapes Typora's "\.", "\-", "\|". It caps the cells'
// number and length, noting it once per table.
func (r *reader) splitCells(ln int, s string) ([]string, string) {
	shape := ""
	var cells []string
	switch {
	case strings.Contains(s, "\t"):
		shape = "tabs"
		cells = strings.Split(s, "\t")
	case strings.Contains(s, "|"):
		shape = "pipes"
		start, escaped := 0, false
		for i := 0; i < len(s) && len(cells) <= maxTableCols; i++ {
			switch {
			case s[i] == '\\' && i+1 < len(s):
				escaped = true
				i++
			case s[i] == '|':
				cells = append(cells, s[start:i])
				start = i + 1
			}
		}
		cells = append(cells, s[start:])
		if strings.TrimSpace(cells[0]) == "" && strings.HasPrefix(strings.TrimSpace(s), "|") {
			cells = cells[1:]
		}
		if n := len(cells); n > 0 && strings.TrimSpace(cells[n-1]) == "" && strings.HasSuffix(strings.TrimSpace(s), "|") {
			cells = cells[:n-1]
		}
		if escaped {
			shape = "Typora Markdown"
			for i, c := range cells {
				cells[i] = unescapeCell(c)
			}
		}
	default:
		return nil, ""
	}
	capped := false
	if len(cells) > maxTableCols {
		cells, capped = cells[:maxTableCols], true
	}
	for i, c := range cells {
		c = strings.TrimSpace(c)
		if len(c) > maxCellBytes {
			c, capped = clip(c[:maxCellBytes], maxCellBytes), true
		}
		cells[i] = c
	}
	if capped && !r.tbl.capNoted {
		r.tbl.capNoted = true
		r.note(ln, "note.table-capped", maxTableCols, maxCellBytes)
	}
	return cells, shape
}

func unescapeCell(c string) string {
	if !strings.Contains(c, `\`) {
		return c
	}
	var b strings.Builder
	for i := 0; i < len(c); i++ {
		if c[i] == '\\' && i+1 < len(c) && strings.IndexByte(`.-|_*#\[]()<>`+"`", c[i+1]) >= 0 {
			i++
		}
		b.WriteByte(c[i])
	}
	return b.String()
}

func isSeparator(cells []string) bool {
	for _, c := range cells {
		c = strings.Trim(c, ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}

// headerKey normalises a header cell: lower case, without spaces, dots, colons, brackets or
// underscores ("NO." → "no", "Lag (Diff)" → "lagdiff", "客户端 ID" → "客户端id").
func headerKey(s string) string {
	if len(s) > 40 {
		return ""
	}
	var b strings.Builder
	for _, c := range s {
		switch {
		case c == ' ' || c == '.' || c == ':' || c == '(' || c == ')' || c == '_' || c == '\\':
		case c >= 'A' && c <= 'Z':
			b.WriteRune(c + 'a' - 'A')
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// headerOf reads cells as a header: most cells must be header words and some kind's columns
// must be there.
func headerOf(cells []string) ([]col, bool) {
	cols := make([]col, len(cells))
	known := 0
	for i, c := range cells {
		if k := headerCol(c); k != cNone {
			cols[i] = k
			known++
		} else if allButtonsText(c) {
			cols[i] = cSkip
		}
	}
	if known*2 < len(cells) {
		return nil, false
	}
	for _, k := range tableKinds {
		if hasCols(cols, k.need) {
			return cols, true
		}
	}
	return nil, false
}

// completeHeader returns cells with a last cell that may be the start of a header word (a
// paste cut inside the header row) completed to the first such word; nil when it is none.
func completeHeader(cells []string) []string {
	last := headerKey(cells[len(cells)-1])
	word := ""
	for _, words := range headerWords {
		if i := strings.Index(words, "|"+last); len(last) >= 3 && i >= 0 && word == "" {
			word, _, _ = strings.Cut(words[i+1:], "|")
		}
	}
	if word == "" {
		return nil
	}
	return append(cells[:len(cells)-1:len(cells)-1], word)
}

func hasCols(cols []col, need [3]col) bool {
	for _, n := range need {
		found := n == cNone
		for _, c := range cols {
			found = found || c == n
		}
		if !found {
			return false
		}
	}
	return true
}

// buttons are the captions of the Dashboard's buttons that a copy carries in the last cell.
const buttons = " STATUS CONFIG CLIENT CONSUME DETAIL DELETE REFRESH RESET OFFSET SKIP ACCUMULATE Status Config Delete RESEND MESSAGE 状态 配置 终端 消费详情 删除 刷新 "

// listed says whether word is one of the words of list, a space-separated list with a space at
// either end.
func listed(list, word string) bool {
	return word != "" && !strings.ContainsAny(word, " \t") && strings.Contains(list, " "+word+" ")
}

func allButtonsText(c string) bool {
	f := strings.Fields(c)
	for _, w := range f {
		if !listed(buttons, w) {
			return false
		}
	}
	return len(f) > 0
}

func allButtons(cols []col) bool {
	for _, c := range cols {
		if c != cSkip {
			return false
		}
	}
	return true
}

// cleanCell reads the Dashboard's ways of saying "nothing" as empty.
func cleanCell(c string) string {
	switch c {
	case "N/A", "-", "null", "undefined", "1970-01-01 08:00:00", "1970-01-01 00:00:00", "1970/1/1 08:00:00":
		return ""
	}
	return c
}

func unclosed(c string) bool { return strings.Count(c, "[") > strings.Count(c, "]") }

// count reads a number as the Dashboard prints it: "20509", "20,509" (React's toLocaleString),
// "0.00", "-1"; ok is false for anything else.
func count(s string) (int64, bool) {
	if strings.Contains(s, ",") {
		parts := strings.Split(s, ",")
		for i, p := range parts {
			if len(p) != 3 && (i > 0 || len(p) == 0 || len(p) > 3) {
				return 0, false
			}
		}
		s = strings.Join(parts, "")
	}
	if whole, frac, ok := strings.Cut(s, "."); ok && isInt(whole) && isInt(frac) && frac[0] != '-' {
		s = whole
	}
	if !isInt(s) {
		return 0, false
	}
	return atoi64(s), true
}

// brokerNo reads the cluster page's NO. cell: "0(master)", "1(slave)", "0(undefined)".
func brokerNo(s string) (int64, bool) {
	if i := strings.IndexByte(s, '('); i > 0 && strings.HasSuffix(s, ")") {
		s = s[:i]
	}
	if !isInt(s) {
		return 0, false
	}
	return atoi64(s), true
}

// mqVersion is MQVersion.Version's name for its ordinal (apache/rocketmq common/MQVersion.java):
// V3_0_0_SNAPSHOT … V3_0_0_FINAL (0–15), then a SNAPSHOT and a release for each version:
// 3.0.1–3.0.15, 3.1.0–3.2.9, 3.3.1–3.9.9 (no x.y.0), 4.0.0–5.9.9, and HIGHER_VERSION (612)
// for any later ordinal, as getVersionDesc says.
func mqVersion(n int64) string {
	first := [...]string{"SNAPSHOT", "ALPHA1", "BETA1", "BETA2", "BETA3", "BETA4", "BETA5", "BETA6_SNAPSHOT", "BETA6",
		"BETA7_SNAPSHOT", "BETA7", "BETA8_SNAPSHOT", "BETA8", "BETA9_SNAPSHOT", "BETA9", "FINAL"}
	if n < 0 {
		return strconv.FormatInt(n, 10)
	}
	if n < 16 {
		return "V3_0_0_" + first[n]
	}
	if n >= 612 {
		return "HIGHER_VERSION"
	}
	i := (n - 16) / 2
	// Runs of patch versions: major, minor, first patch, count.
	runs := [...][4]int64{{3, 0, 1, 15}, {3, 1, 0, 10}, {3, 2, 0, 10}}
	var major, minor, patch int64
	found := false
	for _, run := range runs {
		if i < run[3] {
			major, minor, patch, found = run[0], run[1], run[2]+i, true
			break
		}
		i -= run[3]
	}
	if !found {
		if i < 7*9 {
			major, minor, patch = 3, 3+i/9, 1+i%9
		} else {
			i -= 7 * 9
			major, minor, patch = 4+i/100, i/10%10, i%10
		}
	}
	name := "V" + strconv.FormatInt(major, 10) + "_" + strconv.FormatInt(minor, 10) + "_" + strconv.FormatInt(patch, 10)
	if (n-16)%2 == 0 {
		name += "_SNAPSHOT"
	}
	return name
}

// versionText is a Version cell: an enum name as is, a raw ordinal as its name.
func versionText(s string) string {
	if isInt(s) {
		return mqVersion(atoi64(s))
	}
	return s
}

// consumeTypes are the Dashboard's ConsumeType names in consumerProgress's words.
const consumeTypes = "|CONSUME_PASSIVELY=PUSH|CONSUME_ACTIVELY=PULL|CONSUME_POP=POP|"

// cell kinds, for a table whose header says nothing.
const (
	kText = iota
	kEmpty
	kInt
	kClientID
	kAddr
	kLanguage
	kVersion
	kType
	kMode
	kMQ
	kBrokerNo
	kButtons
	kTime
)

// languages are LanguageCode's names (apache/rocketmq).
const languages = " JAVA CPP DOTNET PYTHON DELPHI ERLANG RUBY OTHER HTTP GO PHP OMS RUST NODE_JS "

func cellKind(c string) int {
	switch {
	case cleanCell(c) == "":
		return kEmpty
	case strings.HasPrefix(c, "MessageQueue ["):
		return kMQ
	case listed(languages, c):
		return kLanguage
	case c == "CLUSTERING" || c == "BROADCASTING":
		return kMode
	case listedAs(consumeTypes, c) != "":
		return kType
	case c == "HIGHER_VERSION" || len(c) >= 4 && c[0] == 'V' && c[1] >= '0' && c[1] <= '9' && c[2] == '_':
		return kVersion
	case isClientID(c):
		return kClientID
	case isAddr(c) && !strings.ContainsAny(c, " @"):
		return kAddr
	case allButtonsText(c):
		return kButtons
	case len(c) >= 10 && c[4] == '-' && isInt(c[:4]):
		return kTime
	}
	if _, ok := count(c); ok {
		return kInt
	}
	if _, ok := brokerNo(c); ok {
		return kBrokerNo
	}
	return kText
}

// isClientID: IP@instanceName[#nanoTime][@unitName] (tables §2).
func isClientID(c string) bool {
	ip, rest, ok := strings.Cut(c, "@")
	if !ok || rest == "" || ip == "" || strings.ContainsAny(c, " \t") {
		return false
	}
	for i := 0; i < len(ip); i++ {
		if !(ip[i] >= '0' && ip[i] <= '9' || ip[i] == '.' || ip[i] == ':' || ip[i] >= 'a' && ip[i] <= 'f' || ip[i] == 'x') {
			return false
		}
	}
	return true
}

// guessCols reads a header-less row by its cells' content; ok when the row is one of the
// Dashboard's rows: a connection (client id and address), a consumer list row (a name, a
// count, then version, type or mode), a queue (MessageQueue [...], or a broker and an id with
// two offsets) or a broker (a name, NO. and an address).
func guessCols(cells []string) ([]col, bool) {
	kinds := make([]int, len(cells))
	var at [kTime + 1]int // the first cell of each kind, -1 none
	for k := range at {
		at[k] = -1
	}
	for i, c := range cells {
		kinds[i] = cellKind(c)
		if at[kinds[i]] < 0 {
			at[kinds[i]] = i
		}
	}
	has := func(k int) bool { return at[k] >= 0 }
	cols := make([]col, len(cells))
	for i := range cols {
		cols[i] = cSkip
	}
	ints := func(from int, names ...col) {
		for i := from; i < len(cells) && len(names) > 0; i++ {
			if kinds[i] == kInt {
				cols[i], names = names[0], names[1:]
			}
		}
	}
	switch {
	case has(kClientID) && has(kAddr) && at[kClientID] < at[kAddr]:
		cols[at[kClientID]], cols[at[kAddr]] = cClientID, cAddr
		if has(kLanguage) {
			cols[at[kLanguage]] = cLanguage
		}
		if has(kVersion) {
			cols[at[kVersion]] = cVersion
		} else if i := at[kAddr] + 2; has(kLanguage) && i < len(cells) && kinds[i] == kInt && i == at[kLanguage]+1 {
			cols[i] = cVersion // the raw ordinal after the language
		}
	case kinds[0] == kText && len(cells) >= 3 && kinds[1] == kInt && (has(kVersion) || has(kType) || has(kMode)):
		cols[0], cols[1] = cGroup, cCount
		last := 1
		for i, k := range [...]int{kVersion, kType, kMode} {
			if has(k) {
				cols[at[k]] = [...]col{cVersion, cType, cMode}[i]
				last = max(last, at[k])
			}
		}
		ints(last+1, cSkip, cDelay)
	case has(kMQ):
		cols[at[kMQ]] = cQueue
		if has(kClientID) {
			cols[at[kClientID]] = cClient
			ints(at[kMQ]+1, cBrokerOffset, cConsumerOffset)
		} else {
			ints(at[kMQ]+1, cMin, cMax)
		}
		if has(kTime) {
			cols[at[kTime]] = cTime
		}
	case kinds[0] == kText && len(cells) >= 3 && kinds[1] == kBrokerNo && has(kAddr):
		cols[0], cols[1], cols[at[kAddr]] = cBroker, cBrokerID, cAddr
		if has(kVersion) {
			cols[at[kVersion]] = cVersion
		}
	case kinds[0] == kText && len(cells) >= 4 && kinds[1] == kInt && (kinds[2] == kInt || kinds[2] == kClientID) && kinds[3] == kInt:
		// AngularJS: broker, queue, client, offsets; React: broker, queue, offsets, …, client.
		cols[0], cols[1] = cBroker, cQueue
		ints(2, cBrokerOffset, cConsumerOffset)
		if has(kClientID) {
			cols[at[kClientID]] = cClient
		}
		if has(kTime) {
			cols[at[kTime]] = cTime
		}
	default:
		return nil, false
	}
	for _, k := range tableKinds {
		if hasCols(cols, k.need) {
			return cols, true
		}
	}
	return nil, false
}

// statusKeys are keys of the broker's runtime status (the cluster page's STATUS dialog, tables
// §8): a two-cell row with one of them starts that table even without a header.
const statusKeys = " brokerVersionDesc brokerVersion bootTimestamp msgPutTotalTodayNow msgGetTotalTodayNow msgPutTotalTodayMorning " +
	"msgGetTotalTodayMorning msgPutTotalYesterdayMorning msgGetTotalYesterdayMorning commitLogMaxOffset commitLogMinOffset " +
	"commitLogDiskRatio putTps getTransferedTps getTransferredTps runtime remainHowManyDataToFlush brokerClusterName brokerName brokerId "

// tableKV reads a key/value row that starts a broker STATUS or CONFIG table (no header).
func (r *reader) tableKV(ln int, cells []string, shape string) bool {
	if len(cells) != 2 || !listed(statusKeys, cells[0]) {
		return false
	}
	cols := []col{cKey, cValue}
	r.openTable(ln, cols, cells, shape, false, "")
	return r.tableRow(ln, cells)
}

// Lines around the tables, as "|line=meaning|" lists (lookup): dialog titles "[name]TITLE"
// (name is the group or the topic), headings of a dialog's parts, HTML wrappers ("" skipped),
// and line prefixes.
const (
	titles = "|CLIENT=client|终端=client|Client Information=client|客户端信息=client|CONSUME DETAIL=detail|消费详情=detail|" +
		"Detail=detail|Status=status|状态=status|Router=router|路由=router|ROUTER=router|"
	headings = "|<html>=|<body>=|</body>=|</html>=|<table>=|</table>=|brokerDatas:=router|Broker Datas:=router|queueDatas=router|" +
		"queueDatas:=router|队列信息=router|队列信息:=router|Below is subscription:=client|Connection Overview=client|连接概览=client|" +
		"Client Connections=client|客户端连接=client|Client Subscriptions=client|客户端订阅=client|"
	// "_Originally posted by" is GitHub's quote of another comment.
	prefixes = "|_Originally posted by =|Consumer Details - Group: =group|Topic: =topic|Total Lag:=detail|Last Consume Time:=detail|" +
		"ConsumeType:=client|MessageModel:=client|ConsumeFromWhere:=client|"
)

// lookup returns the meaning of key in a "|key=meaning|" list.
func lookup(list, key string) (string, bool) {
	if key == "" || strings.ContainsAny(key, "|=") {
		return "", false
	}
	i := strings.Index(list, "|"+key+"=")
	if i < 0 {
		return "", false
	}
	v, _, _ := strings.Cut(list[i+len(key)+2:], "|")
	return v, true
}

// listedAs is lookup's meaning alone.
func listedAs(list, key string) string {
	v, _ := lookup(list, key)
	return v
}

// tableContext reads the lines around the tables: dialog titles (which name the group or the
// topic), headings, the CLIENT dialog's trailing lines, React's "Topic:" bar, HTML wrappers.
func (r *reader) tableContext(ln int, s string) bool {
	t := &r.tbl
	if v, ok := lookup(headings, s); ok {
		switch {
		case v == "":
			r.note(ln, "note.skipped", s)
		case v == "router" && t.dialog != v:
			r.dialog(v, "", t.topic)
		case v == "client" && t.dialog != v:
			return false
		}
		return true
	}
	if name, title, ok := strings.Cut(s, "]"); ok && len(name) > 1 && name[0] == '[' {
		if d, ok := lookup(titles, strings.TrimSpace(title)); ok {
			if d == "client" || d == "detail" {
				r.dialog(d, name[1:], "")
			} else {
				r.dialog(d, "", name[1:])
			}
			return true
		}
	}
	for _, title := range [...]string{"SubscriptionGroup", "订阅组"} {
		if topic, ok := strings.CutSuffix(s, title); ok && topic != "" && !strings.ContainsAny(topic, "\t|") {
			r.dialog("manage", "", strings.TrimSpace(topic))
			return true
		}
	}
	for rest := prefixes[1:]; rest != ""; {
		var entry string
		entry, rest, _ = strings.Cut(rest, "|")
		prefix, d, _ := strings.Cut(entry, "=")
		v, ok := strings.CutPrefix(s, prefix)
		if !ok {
			continue
		}
		// What follows the prefix, up to a tab or a space.
		word, _, _ := strings.Cut(strings.TrimSpace(strings.ReplaceAll(v, "\t", " ")), " ")
		switch {
		case d == "":
			r.note(ln, "note.skipped", clip(s, 60))
		case d == "group":
			r.dialog("detail", word, "")
		case d == "client":
			if t.dialog != d {
				return false
			}
			r.setting(ln, strings.TrimSuffix(prefix, ":"), strings.TrimSpace(v))
		case t.dialog != "detail":
			return false
		case d == "topic":
			t.topic = word
		}
		return true // "detail": the React bar's lag and time, which the rows give per queue
	}
	return false
}

// dialog starts a dialog's context; its section opens with its first table.
func (r *reader) dialog(name, group, topic string) {
	t := &r.tbl
	t.dialog, t.group, t.topic, t.broker, t.kind, t.qc = name, group, topic, "", nil, -1
	r.close()
}

func (r *reader) setting(ln int, name, value string) {
	r.out.Settings = append(r.out.Settings, Setting{Ref: r.ref(ln), Group: r.tbl.group, Name: name, Value: value})
	if r.sec != nil {
		r.sec.To = ln
	}
}

// settingLabels are the CLIENT dialog's group settings in React's overview (tables §4).
const settingLabels = "|consumetype=ConsumeType|消费类型=ConsumeType|messagemodel=MessageModel|消息模型=MessageModel|" +
	"consumefromwhere=ConsumeFromWhere|从何处消费=ConsumeFromWhere|"

// tableLabel reads the rows that label the queue tables under them: CONSUME DETAIL's "Topic |
// T | Delay | n | …" (the topic of the rows that follow), CONSUMER MANAGE's "SubscriptionGroup
// | G | Delay | …" and React's header-less "G | delay | time", the CLIENT dialog's React
// overview ("Consume Type | CONSUME_PASSIVELY"), the AngularJS router's key/value rows.
func (r *reader) tableLabel(ln int, cells []string) bool {
	t := &r.tbl
	k0 := headerKey(cells[0])
	second := ""
	if len(cells) > 1 {
		second = cells[1]
	}
	label := len(cells) >= 2 && second != "" && headerCol(second) == cNone &&
		(len(cells) == 2 || len(cells) >= 3 && headerCol(cells[2]) == cDelay)
	switch {
	case label && (k0 == "topic" || k0 == "主题") && len(cells) != 2:
		if t.dialog != "detail" {
			t.dialog, t.group = "detail", ""
		}
		t.topic, t.kind = second, nil
		r.close()
		return true
	case label && (k0 == "subscriptiongroup" || k0 == "订阅组") && len(cells) != 2:
		if t.dialog != "manage" {
			t.dialog, t.topic = "manage", ""
		}
		t.group, t.kind = second, nil
		r.close()
		return true
	case t.dialog == "manage" && len(cells) == 3 && cellKind(cells[0]) == kText && cellKind(cells[1]) == kInt && (cellKind(cells[2]) == kTime || cellKind(cells[2]) == kEmpty):
		// React's header-less "G | delay | time" above each group's queues.
		t.group = cells[0]
		r.close()
		return true
	case listedAs(settingLabels, k0) != "":
		// React's Connection Overview: label, value, label, value.
		for i := 0; i+1 < len(cells); i += 2 {
			if name := listedAs(settingLabels, headerKey(cells[i])); name != "" {
				r.setting(ln, name, cells[i+1])
			}
		}
		return true
	}
	return r.routerRow(ln, k0, cells)
}

// routerRow reads the AngularJS router's nested key/value rows (tables §7): "broker: | B",
// "brokerAddrs: | 0 | ip:port …", "BROKER_NAME | B", "readQueueNums | 8", "writeQueueNums | 8",
// "perm | 6", and an inner "0 | ip:port" row.
func (r *reader) routerRow(ln int, k0 string, cells []string) bool {
	t := &r.tbl
	router := t.dialog == "router"
	start := func() {
		if !router || r.sec == nil || r.sec.Kind != KindDashRouter {
			topic := t.topic
			if !router {
				topic = ""
			}
			r.dialog("router", "", topic)
			r.open(KindDashRouter, "AngularJS", ln)
		}
		r.sec.To = ln
	}
	switch {
	case len(cells) == 2 && k0 == "broker" && strings.HasSuffix(cells[0], ":") && cells[1] != "":
		start()
		t.broker = cells[1]
	case k0 == "brokeraddrs" && t.broker != "":
		start()
		r.addrPairs(ln, t.broker, cells[1:])
	case router && len(cells) == 2 && isInt(cells[0]) && isAddr(cells[1]) && t.broker != "":
		start()
		r.addrPairs(ln, t.broker, cells)
	case len(cells) == 2 && cells[0] == "BROKER_NAME" && cells[1] != "":
		start()
		t.broker = cells[1]
		r.out.QueueCounts = append(r.out.QueueCounts, QueueCount{Ref: r.ref(ln), Topic: t.topic, Broker: cells[1], Perm: 6})
		t.qc = len(r.out.QueueCounts) - 1
	case router && len(cells) == 2 && t.qc >= 0 && t.qc < len(r.out.QueueCounts) && isInt(cells[1]):
		q := &r.out.QueueCounts[t.qc]
		switch headerCol(cells[0]) {
		case cRead:
			q.Read = atoi(cells[1])
		case cWrite:
			q.Write = atoi(cells[1])
		case cPerm:
			q.Perm = atoi(cells[1])
		default:
			return false
		}
		r.sec.To = ln
	default:
		return false
	}
	return true
}

// The rows of each kind of table.

func rowConnection(r *reader, ln int, v *rowVals) bool {
	id, addr := v.get(cClientID), v.get(cAddr)
	if !strings.Contains(id, "@") || !isAddr(addr) {
		return false
	}
	r.out.Connections = append(r.out.Connections, Connection{Ref: r.ref(ln), Group: r.tbl.group, ClientID: id, Addr: addr,
		Language: v.get(cLanguage), Version: versionText(v.get(cVersion))})
	return true
}

func rowSubscription(r *reader, ln int, v *rowVals) bool {
	if v.get(cTopic) == "" {
		return false
	}
	r.out.GroupSubs = append(r.out.GroupSubs, Subscription{Ref: r.ref(ln), Group: r.tbl.group, Topic: v.get(cTopic), Expr: v.get(cExpr)})
	return true
}

// queueOf reads a queue from a MessageQueue [...] cell or a broker and an id.
func (r *reader) queueOf(v *rowVals) (route.MessageQueue, bool) {
	q := v.get(cQueue)
	if strings.HasPrefix(q, "MessageQueue [") {
		f := bracketFields(q)
		if f["brokerName"] == "" || !isInt(f["queueId"]) {
			return route.MessageQueue{}, false
		}
		return mq(f["topic"], f["brokerName"], f["queueId"]), true
	}
	if v.get(cBroker) == "" || !isInt(q) || atoi64(q) < 0 || atoi64(q) >= route.MaxQueues {
		return route.MessageQueue{}, false
	}
	return mq(r.tbl.topic, v.get(cBroker), q), true
}

func rowOffset(r *reader, ln int, v *rowVals) bool {
	q, ok := r.queueOf(v)
	bo, ok1 := count(v.get(cBrokerOffset))
	co, ok2 := count(v.get(cConsumerOffset))
	if !ok || !ok1 || !ok2 {
		return false
	}
	if q.Topic == "" && !r.tbl.topicNoted {
		r.tbl.topicNoted = true
		r.note(ln, "note.table-no-topic", ln)
	}
	group := r.tbl.group
	if group == "" {
		group = r.groupFor("consumerProgress")
	}
	o := Offset{Ref: r.ref(ln), Group: group, Queue: q, BrokerOffset: bo, ConsumerOffset: co, LastTime: v.get(cTime)}
	if v.has[cClient] {
		o.Client, o.HasClient, o.FullClient, o.Dashboard = v.get(cClient), true, true, true
	}
	r.out.Offsets = append(r.out.Offsets, o)
	return true
}

func rowTopicQueue(r *reader, ln int, v *rowVals) bool {
	q, ok := r.queueOf(v)
	lo, ok1 := count(v.get(cMin))
	hi, ok2 := count(v.get(cMax))
	if !ok || !ok1 || !ok2 {
		return false
	}
	r.out.TopicQueues = append(r.out.TopicQueues, TopicQueue{Ref: r.ref(ln), Queue: q, MinOffset: lo, MaxOffset: hi, LastUpdated: v.get(cTime)})
	return true
}

func rowBroker(r *reader, ln int, v *rowVals) bool {
	id, ok := brokerNo(v.get(cBrokerID))
	if !ok || v.get(cBroker) == "" || !isAddr(v.get(cAddr)) {
		return false
	}
	r.out.Brokers = append(r.out.Brokers, BrokerAddr{Ref: r.ref(ln), Broker: v.get(cBroker), ID: id, Addr: v.get(cAddr), Version: v.get(cVersion)})
	return true
}

func rowQueueCount(r *reader, ln int, v *rowVals) bool {
	rd, ok1 := count(v.get(cRead))
	wr, ok2 := count(v.get(cWrite))
	perm, ok3 := count(v.get(cPerm))
	if !ok3 {
		perm = 6
	}
	if !ok1 || !ok2 || v.get(cBroker) == "" {
		return false
	}
	r.out.QueueCounts = append(r.out.QueueCounts, QueueCount{Ref: r.ref(ln), Topic: r.tbl.topic, Broker: v.get(cBroker), Read: int(rd), Write: int(wr), Perm: int(perm)})
	return true
}

// rowBrokerAddrs reads React's router row "B | 0 | ip:port | 1 | ip:port" (the nested Index |
// Address table copied into the row).
func rowBrokerAddrs(r *reader, ln int, v *rowVals) bool {
	return v.get(cBroker) != "" && r.addrPairs(ln, v.get(cBroker), append([]string{v.get(cAddrs)}, v.rest...))
}

// addrPairs reads broker's "id | ip:port" pairs from cells; it reports whether it read any.
func (r *reader) addrPairs(ln int, broker string, cells []string) bool {
	n := len(r.out.Brokers)
	for i := 0; i+1 < len(cells); i++ {
		if id, ok := brokerNo(cells[i]); ok && isAddr(cells[i+1]) {
			r.out.Brokers = append(r.out.Brokers, BrokerAddr{Ref: r.ref(ln), Broker: broker, ID: id, Addr: cells[i+1]})
			i++
		}
	}
	return len(r.out.Brokers) > n
}

func rowSummary(r *reader, ln int, v *rowVals) bool {
	n, ok := count(v.get(cCount))
	if v.get(cGroup) == "" || !ok {
		return false
	}
	s := GroupSummary{Ref: r.ref(ln), Group: v.get(cGroup), Count: int(n), Version: versionText(v.get(cVersion)),
		Type: v.get(cType), Model: v.get(cMode), Dashboard: true}
	if t := listedAs(consumeTypes, s.Type); t != "" {
		s.Type = t
	}
	if d, ok := count(v.get(cDelay)); ok {
		s.DiffTotal, s.HasDelay = d, d >= 0
	}
	r.out.Summaries = append(r.out.Summaries, s)
	return true
}

func rowKeyValue(r *reader, ln int, v *rowVals) bool {
	k := v.get(cKey)
	if k == "" || strings.ContainsAny(k, " \t") {
		return false
	}
	r.out.BrokerValues = append(r.out.BrokerValues, Setting{Ref: r.ref(ln), Name: k, Value: v.get(cValue)})
	return true
}

// dashboardEmptyProves says whether the Dashboard's empty consumerClient cells prove their
// queues unowned (tables §10): only when the group's connections are known, no two share an
// id, and every member's id names some queue, so that every client answered and the mapping
// was not aborted before the last of them.
func (rep *Report) dashboardEmptyProves() bool {
	g := rep.Group
	if !g.Complete || len(g.Members) == 0 {
		return false
	}
	named := map[string]bool{}
	for _, o := range g.Offsets {
		if o.Dashboard && o.Client != "" {
			named[o.Client] = true
		}
	}
	seen := map[string]bool{}
	for _, m := range g.Members {
		if seen[m.ClientID] || !named[m.ClientID] {
			return false
		}
		seen[m.ClientID] = true
	}
	return true
}

// unprovenOwners says, per topic, how many queues the Dashboard shows without a client when
// that does not prove them unowned, and how to find out.
func (rep *Report) unprovenOwners(unproven map[string]int) {
	for _, t := range rep.Group.Topics {
		if n := unproven[t.Name]; n > 0 {
			rep.Group.miss(rep.Group.cmd("consumerStatus -g %s -i <clientId>"), "missing.dashboard-owner", n, t.Name)
			rep.Group.Missing[len(rep.Group.Missing)-1].Read = "#Consumer MQ Detail#"
		}
	}
	rep.emptyCellsSDK(unproven)
}

// trackTypes are the message-detail page's track types (TrackType in apache/rocketmq).
const trackTypes = " CONSUMED CONSUMED_BUT_FILTERED PULL NOT_CONSUME_YET NOT_ONLINE CONSUME_BROADCASTING UNKNOWN "

// trackRow reads a row of a message's track table ("group | NOT_ONLINE | RESEND MESSAGE"):
// what it says of the group is a note.
func (r *reader) trackRow(ln int, cells []string) bool {
	if len(cells) > 3 || !listed(trackTypes, cells[1]) || strings.ContainsAny(cells[0], " \t") {
		return false
	}
	r.note(ln, "note.track", cells[0], cells[1])
	return true
}

// dashboardQueues says, of a topic whose queues only the Dashboard's consume detail lists and
// all on one broker, that dashboard 2.0.0 lists the first broker's queues only (tables §5,
// rocketmq-dashboard#297), so the topic may have more.
func (g *Group) dashboardQueues(rd *Read) {
	for _, t := range g.Topics {
		if t.Source != "offset rows (one per read queue)" || t.Retry || len(t.Queues) == 0 {
			continue
		}
		one := true
		for _, q := range t.Queues {
			one = one && q.BrokerName == t.Queues[0].BrokerName
		}
		dash := true
		for _, o := range rd.Offsets {
			if o.Queue.Topic == t.Name {
				dash = dash && o.Dashboard
			}
		}
		if one && dash {
			g.assume("assumed.dashboard-queues", t.Name, len(t.Queues), t.Queues[0].BrokerName)
		}
	}
}
