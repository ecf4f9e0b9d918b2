package admin

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lbscope/lbscope/core/route"
)

// Limits of the reader.
const (
	MaxInputBytes = 4 << 20  // one input
	MaxTotalBytes = 16 << 20 // all inputs of one call
	maxNotes      = 200      // per input; the rest are counted in one last note
)

// Input is one paste or file.
type Input struct {
	Name string
	Data []byte
}

// ReadAll reads every input. It never fails as a whole: an input it refuses (too large,
// binary) is reported in Inputs[i].Error and in a note; Recognised says whether anything was
// read at all.
func ReadAll(inputs []Input) *Read {
	out := &Read{Inputs: []InputInfo{}, Sections: []Section{}, Notes: []Note{}}
	total := 0
	for _, in := range inputs {
		info := InputInfo{Name: in.Name, Bytes: len(in.Data)}
		total += len(in.Data)
		var refused Said
		limit, totalLimit := MaxInputBytes, MaxTotalBytes
		if len(in.Data) > MaxInputBytes && looksLikeLog(in.Data) {
			limit, totalLimit = MaxLogBytes, MaxLogTotal
		}
		switch {
		case len(in.Data) > limit && limit == MaxLogBytes:
			refused = say("input.too-large-log", nameOf(in.Name), len(in.Data), MaxLogBytes>>20)
		case len(in.Data) > limit:
			refused = say("input.too-large", nameOf(in.Name), len(in.Data), MaxInputBytes>>20)
		case total > totalLimit:
			refused = say("input.too-much", nameOf(in.Name), totalLimit>>20)
		default:
			refused = binaryReason(nameOf(in.Name), in.Data)
		}
		if refused.Key != "" {
			info.Error, info.ErrorSaid = refused.String(), refused
			out.Notes = append(out.Notes, noted(Ref{Input: in.Name, Line: 0}, refused))
			out.Inputs = append(out.Inputs, info)
			continue
		}
		before := len(out.Sections)
		rd := &reader{out: out, name: in.Name, data: normalise(in.Data), tbl: tableState{sec: -1, qc: -1}}
		rd.run()
		info.Lines = rd.lines
		for _, s := range out.Sections[before:] {
			if s.Kind != KindCommand {
				info.Recognised++
			}
		}
		out.Inputs = append(out.Inputs, info)
	}
	return out
}

func nameOf(name string) string {
	if name == "" || name == "-" {
		return "the input"
	}
	return name
}

// binaryReason says why the input name's data is not text, or nothing (no Key).
func binaryReason(name string, data []byte) Said {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return say("input.nul", name, i)
	}
	bad, ctrl := 0, 0
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			bad++
		} else if r < 0x20 && r != '\n' && r != '\r' && r != '\t' && r != 0x1b {
			ctrl++
		}
		i += size
	}
	if n := len(data); n > 0 && (bad+ctrl)*10 > n {
		return say("input.control", name, bad+ctrl, n)
	}
	return Said{}
}

// normalise turns CRLF and lone CR into LF and strips ANSI colour sequences, keeping line
// numbers as the user sees them.
func normalise(data []byte) []byte {
	if !bytes.ContainsAny(data, "\r\x1b") {
		return data
	}
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				continue
			}
			out = append(out, '\n')
		case c == 0x1b && i+1 < len(data) && data[i+1] == '[':
			j := i + 2
			for j < len(data) && (data[j] >= '0' && data[j] <= '9' || data[j] == ';') {
				j++
			}
			if j < len(data) {
				i = j // skip the final byte too
			}
		default:
			out = append(out, c)
		}
	}
	return out
}

// reader reads one input.
type reader struct {
	out   *Read
	name  string
	data  []byte
	lines int
	notes int
	// lastLine is the number of the last non-blank line: an unrecognised last line is a cut.
	lastLine int

	// What the latest mqadmin command line said.
	cmd, group, topic, clientID string

	sec   *Section // the section being read, nil between sections
	state textState
	tbl   tableState // the Dashboard's page tables (tables.go)
	logs  logState   // log lines (logs.go)
}

// textState is what the current text section needs to read its next line.
type textState struct {
	// consumerProgress -g columns
	prog progCols
	// consumerProgress without -g: the group column's width (32 or 64), 0 unknown
	groupWidth int
	// consumerConnection
	connHeader bool // 4.9.3+ layout
	inSubs     bool // after "Below is subscription:"
	subsHeader bool // 4.9.3+ "#Topic #SubExpression"
	blank      bool // a blank line since the last row
	// running info
	ri     int    // index into out.RunningInfos, -1 when none
	riPart string // the #Consumer …# part
	riSkip bool   // a note about unused lines of this part was made
	// topicStatus, clusterList, topicRoute -l
	tsTopic string
	// a note about names cut at the column width was made
	truncNoted bool
}

type progCols struct {
	client, lastTime, inflight bool
	layout                     string
	width                      int // topic column width the header shows (32 or 64), 0 unknown
}

func (r *reader) ref(line int) Ref { return Ref{Input: r.name, Line: line} }

// note records a note at line: the sentence of key in Words, with args.
func (r *reader) note(line int, key string, args ...any) {
	r.notes++
	switch {
	case r.notes < maxNotes:
		r.out.Notes = append(r.out.Notes, noted(r.ref(line), say(key, args...)))
	case r.notes == maxNotes:
		r.out.Notes = append(r.out.Notes, noted(r.ref(line), say("note.too-many", maxNotes, nameOf(r.name))))
	}
}

func noted(ref Ref, s Said) Note { return Note{Ref: ref, Text: s.String(), Said: s} }

// open starts a section of kind (closing the current one) and returns it.
func (r *reader) open(kind, layout string, line int) *Section {
	r.out.Sections = append(r.out.Sections, Section{Kind: kind, Layout: layout, Input: r.name, From: line, To: line})
	r.sec = &r.out.Sections[len(r.out.Sections)-1]
	r.state = textState{ri: -1}
	return r.sec
}

// current returns the open section if it is of kind, extending it to line; otherwise it opens
// a new one.
func (r *reader) current(kind, layout string, line int) *Section {
	if r.sec != nil && r.sec.Kind == kind && r.sec.Input == r.name {
		r.sec.To = line
		return r.sec
	}
	return r.open(kind, layout, line)
}

func (r *reader) close() { r.sec = nil; r.state = textState{ri: -1} }

func (r *reader) run() {
	data := r.data
	// Count lines and find the last non-blank one.
	r.lines = bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		r.lines++
	}
	{
		ln := 1
		for i := 0; i < len(data); {
			j := bytes.IndexByte(data[i:], '\n')
			end := len(data)
			if j >= 0 {
				end = i + j
			}
			if len(bytes.TrimSpace(data[i:end])) > 0 {
				r.lastLine = ln
			}
			ln++
			if j < 0 {
				break
			}
			i = end + 1
		}
	}
	r.state.ri = -1
	pos, ln := 0, 1
	for pos < len(data) {
		end := bytes.IndexByte(data[pos:], '\n')
		lineEnd := len(data)
		if end >= 0 {
			lineEnd = pos + end
		}
		text := string(data[pos:lineEnd])
		if _, ok := goJSON(strings.TrimSpace(text)); !ok {
			if next, nextLine, ok := r.tryJSON(pos, ln, text); ok {
				pos, ln = next, nextLine
				continue
			}
		}
		r.line(ln, text)
		pos = lineEnd + 1
		ln++
	}
	r.logsDone()
}

// tryJSON reads a JSON value that starts on this line (possibly after a label such as
// "ExamineConsumeStats: "). It returns where reading goes on, or ok = false when the line is
// not JSON.
func (r *reader) tryJSON(pos, ln int, text string) (int, int, bool) {
	trimmed := strings.TrimLeft(text, " \t")
	if trimmed == "" {
		return 0, 0, false
	}
	indent := len(text) - len(trimmed)
	start := pos + indent
	fragment := false
	switch c := trimmed[0]; {
	case c == '{' || c == '[':
	case c == '}' || c == ']':
		fragment = true
	case c == '"':
		// "key": value — a member of a document whose start is not in the paste.
		if _, after, ok := strings.Cut(trimmed[1:], "\""); !ok || !strings.HasPrefix(strings.TrimLeft(after, " \t"), ":") {
			return 0, 0, false
		}
		fragment = true
	default:
		if r.state.riPart != "" && r.sec != nil && r.sec.Kind == KindRunningInfo {
			return 0, 0, false
		}
		label, rest, ok := strings.Cut(trimmed, ":")
		rest = strings.TrimLeft(rest, " \t")
		if !ok || rest == "" || (rest[0] != '{' && rest[0] != '[') || strings.ContainsAny(label, " \t\"{[") {
			return 0, 0, false
		}
		start = pos + indent + (len(trimmed) - len(rest))
	}
	res := parseJSON(r.data, start, ln, fragment)
	if res.root == nil || (len(res.root.members) == 0 && len(res.root.elems) == 0 && res.endLine == ln && res.stopLine == ln) {
		return 0, 0, false // "[user@host bin]$ …" and the like
	}
	if res.stopLine == ln && res.endLine == ln && !fragment && res.cut {
		// Nothing but a bracket and text on this line: not JSON.
		if len(res.root.members)+len(res.root.elems) <= 1 {
			return 0, 0, false
		}
	}
	r.close()
	before := len(r.out.Sections) // only the sections of this JSON are touched below: linear
	found := r.walkJSON(res.root, ln, false, 0)
	if !found {
		r.note(ln, "note.json-unknown", ln, res.endLine, keyList(res.root))
	}
	if res.cutStart {
		r.note(ln, "note.json-mid", ln)
	}
	if res.err.Key != "" {
		r.note(res.endLine, res.err.Key, res.err.Args...)
	}
	if res.cut {
		at := min(res.endLine, max(r.lines, ln))
		if res.stopLine > 0 {
			r.note(at, "note.json-stops", ln, at)
		} else {
			r.note(at, "note.json-cut", ln, at)
		}
		for i := before; i < len(r.out.Sections); i++ {
			r.out.Sections[i].Cut = true
		}
	}
	for i := before; i < len(r.out.Sections); i++ {
		if s := &r.out.Sections[i]; s.To < res.endLine {
			s.To = min(res.endLine, r.lines)
		}
	}
	next := res.end
	if next <= start {
		next = start + 1
	}
	// Lines consumed before next: count them.
	return next, ln + bytes.Count(r.data[pos:next], []byte{'\n'}), true
}

func keyList(n *jnode) string {
	var keys []string
	if n != nil {
		for _, m := range n.members {
			if m.key != nil && m.key.kind != 'o' {
				keys = append(keys, m.key.str)
			}
			if len(keys) == 6 {
				keys = append(keys, "…")
				break
			}
		}
	}
	if len(keys) == 0 {
		return "none"
	}
	return strings.Join(keys, ", ")
}

// Noise that admin tools and shells print around the outputs.
var noisePrefixes = []string{
	"Java HotSpot", "OpenJDK", "log4j:", "SLF4J:", "RocketMQLog:", "WARNING: ", "Picked up JAVA_TOOL_OPTIONS",
	"Picked up _JAVA_OPTIONS", "Listening for transport", "Exception in thread", "\tat ", "Caused by:",
	"org.apache.rocketmq.", "com.alibaba.rocketmq.", "connect to ", "Error: ", "Usage:", "```",
}

// line reads one line of text.
func (r *reader) line(ln int, raw string) {
	t := strings.TrimRight(raw, " \t\r")
	trimmed := strings.TrimLeft(t, " \t")
	if trimmed == "" {
		r.state.blank = true
		return
	}
	if r.logLine(ln, t, trimmed) {
		return
	}
	if r.command(ln, trimmed) {
		return
	}
	if strings.Contains(trimmed, "UnknownFormatConversionException") {
		r.note(ln, "note.retry-stop")
		return
	}
	for _, p := range noisePrefixes {
		if strings.HasPrefix(trimmed, p) {
			r.note(ln, "note.skipped", clip(trimmed, 60))
			return
		}
	}
	// A user's mark before a row ("##### 001 …", "> 001 …").
	if m := markPrefix(trimmed); m != "" {
		r.note(ln, "note.mark", strings.TrimSpace(m))
		trimmed = trimmed[len(m):]
	}
	if r.tableLine(ln, trimmed) || r.header(ln, trimmed) || r.row(ln, trimmed) {
		r.state.blank = false
		return
	}
	if ln == r.lastLine {
		r.note(ln, "note.cut-line", clip(trimmed, 60))
		if r.sec != nil {
			r.sec.Cut = true
			r.sec.To = ln
		}
		return
	}
	r.note(ln, "note.not-recognised", clip(trimmed, 60))
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	return string(rs[:n]) + "…"
}

// markPrefix returns a leading mark followed by an indexed row, or "".
func markPrefix(s string) string {
	i := 0
	for i < len(s) && (s[i] == '#' || s[i] == '*' || s[i] == '>') {
		i++
	}
	if i == 0 || i >= len(s) || (s[i] != ' ' && s[i] != '\t') {
		return ""
	}
	j := i
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if j < len(s) && s[j] >= '0' && s[j] <= '9' {
		return s[:j]
	}
	return ""
}

// command reads a shell line that runs mqadmin ("$ sh mqadmin consumerConnection -g G").
func (r *reader) command(ln int, s string) bool {
	idx := strings.Index(s, "mqadmin")
	if idx < 0 {
		return false
	}
	rest := s[idx+len("mqadmin"):]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' && !strings.HasPrefix(rest, ".sh") && !strings.HasPrefix(rest, ".cmd") {
		return false
	}
	fields := strings.Fields(rest)
	if len(fields) > 0 && (fields[0] == ".sh" || fields[0] == ".cmd") {
		fields = fields[1:]
	}
	if len(fields) > 0 && (strings.HasPrefix(fields[0], ".sh") || strings.HasPrefix(fields[0], ".cmd")) {
		fields = fields[1:]
	}
	if len(fields) == 0 || strings.HasPrefix(fields[0], "-") {
		return false
	}
	c := Command{Ref: r.ref(ln), Name: fields[0], Args: map[string]string{}}
	for i := 1; i < len(fields); i++ {
		f := fields[i]
		if !strings.HasPrefix(f, "-") {
			continue
		}
		name := strings.TrimLeft(f, "-")
		val := "true"
		if n, v, ok := strings.Cut(name, "="); ok {
			name, val = n, v
		} else if i+1 < len(fields) && !strings.HasPrefix(fields[i+1], "-") {
			val = fields[i+1]
			i++
		}
		c.Args[longFlag(name)] = strings.Trim(val, `'"`)
	}
	r.close()
	r.cmd, r.group, r.topic, r.clientID = c.Name, c.Args["g"], c.Args["t"], c.Args["i"]
	r.out.Commands = append(r.out.Commands, c)
	r.open(KindCommand, c.Name, ln)
	r.close()
	return true
}

func longFlag(name string) string {
	switch name {
	case "consumerGroup", "group":
		return "g"
	case "topic":
		return "t"
	case "clientId":
		return "i"
	case "namesrvAddr":
		return "n"
	case "brokerAddr":
		return "b"
	case "showClientIP":
		return "s"
	}
	return name
}

// header reads a table header or a part title.
func (r *reader) header(ln int, s string) bool {
	if !strings.HasPrefix(s, "#") {
		return false
	}
	if strings.HasPrefix(s, "#Consumer ") || strings.HasPrefix(s, "#User Consume Info#") {
		if part, ok := strings.CutSuffix(s, "#"); ok {
			part = strings.TrimPrefix(part, "#")
			return r.runningPart(ln, part)
		}
	}
	cols := headerCols(s)
	has := func(c string) bool {
		for _, x := range cols {
			if x == c {
				return true
			}
		}
		return false
	}
	switch {
	case r.sec != nil && r.sec.Kind == KindRunningInfo && r.state.ri >= 0 && has("#Topic") && has("#QID"):
		r.sec.To = ln // the column header of #Consumer Offset# or #Consumer MQ Detail#
		return true
	case has("#Topic") && has("#Broker Name") && has("#QID") && has("#Broker Offset"):
		pc := progCols{client: has("#Client IP"), lastTime: has("#LastTime"), inflight: has("#Inflight")}
		if i := strings.Index(s, "#Broker Name"); i >= 64 {
			pc.width = 64
		} else if i >= 32 {
			pc.width = 32
		}
		pc.layout = progressLayout(pc)
		r.open(KindProgress, pc.layout, ln)
		r.state.prog = pc
		return true
	case has("#Group") && has("#Count") && has("#Diff Total"):
		layout, width := "3.x–4.9.2", 0
		switch i := strings.Index(s, "#Count"); {
		case i >= 64:
			layout, width = "4.9.3+", 64
		case i >= 32:
			width = 32
		}
		r.open(KindProgressGroups, layout, ln)
		r.state.groupWidth = width
		return true
	case has("#ClientId") && has("#ClientAddr"):
		r.open(KindConnection, "4.9.3+", ln)
		r.state.connHeader = true
		return true
	case has("#Index") && has("#ClientId") && has("#Version"):
		r.open(KindStatusGroup, "4.9.4+", ln)
		return true
	case has("#Topic") && has("#SubExpression") && r.sec != nil && r.sec.Kind == KindConnection:
		r.state.inSubs, r.state.subsHeader = true, true
		r.sec.To = ln
		return true
	case has("#Broker Name") && has("#QID") && has("#Min Offset") && has("#Max Offset"):
		r.open(KindTopicStatus, "", ln)
		r.state.tsTopic = ""
		if r.cmd == "topicStatus" {
			r.state.tsTopic = r.topic
		}
		return true
	case has("#Cluster Name") && has("#Broker Name") && has("#BID") && has("#Addr"):
		layout := "4.x"
		if has("#ACTIVATED") || has("#Timer(Progress)") {
			layout = "5.x"
		}
		r.open(KindClusterList, layout, ln)
		return true
	case has("#ClusterName") && has("#BrokerName") && has("#BrokerAddrs"):
		r.open(KindRouteList, "4.9.0+ (-l)", ln)
		if r.cmd == "topicRoute" {
			r.state.tsTopic = r.topic
		}
		return true
	}
	return false
}

// headerCols splits a header into its "#Name" columns, names with spaces included
// ("#Broker Name", "#Diff Total").
func headerCols(s string) []string {
	var cols []string
	for part := range strings.SplitSeq(s, "#") {
		part = strings.Join(strings.Fields(part), " ")
		if part != "" {
			cols = append(cols, "#"+part)
		}
	}
	return cols
}

func progressLayout(pc progCols) string {
	switch {
	case pc.inflight:
		return "5.1.0+"
	case pc.width == 64 && pc.client:
		return "4.9.3–5.0.x, with -s"
	case pc.width == 64:
		return "4.9.3–5.0.x"
	case !pc.lastTime:
		return "3.x (2014)"
	case pc.client:
		return "4.2–4.9.2"
	}
	return "late 3.x–4.1, or 4.9.0–4.9.2 without -s"
}

func (r *reader) runningPart(ln int, part string) bool {
	if part == "Consumer Properties" || r.sec == nil || r.sec.Kind != KindRunningInfo || r.state.ri < 0 {
		r.open(KindRunningInfo, "", ln)
		ri := RunningInfo{Ref: r.ref(ln), Kind: "text", Properties: map[string]string{}, PropRefs: map[string]Ref{}}
		if r.cmd == "consumerStatus" {
			ri.ClientID, ri.Group = r.clientID, r.group
		}
		r.out.RunningInfos = append(r.out.RunningInfos, ri)
		r.state.ri = len(r.out.RunningInfos) - 1
	}
	r.sec.To = ln
	r.state.riPart, r.state.riSkip = part, false
	if part == "Consumer MQ Detail" {
		r.out.RunningInfos[r.state.ri].HasHeld = true
	}
	return true
}

// row reads a data line, first as a row of the open section, then as a row that names
// itself (indexed connections, consumerStatus rows, subscription rows, verdicts, totals).
func (r *reader) row(ln int, s string) bool {
	f := strings.Fields(s)
	if r.sec != nil {
		switch r.sec.Kind {
		case KindProgress:
			if r.progressRow(ln, f) {
				return true
			}
		case KindProgressGroups:
			if len(f) >= 2 && isInt(f[1]) {
				// The group column cuts names at its width (formats §3); a header whose spaces
				// were collapsed does not tell which width.
				w := r.state.groupWidth
				g := GroupSummary{Ref: r.ref(ln), Group: f[0], Count: atoi(f[1]), Truncated: len(f[0]) == w || w == 0 && isCutWidth(len(f[0]))}
				rest := f[2:]
				if len(rest) >= 1 && isVersion(rest[0]) {
					g.Version, rest = rest[0], rest[1:]
				}
				if len(rest) >= 1 && (rest[0] == "PUSH" || rest[0] == "PULL" || rest[0] == "POP") {
					g.Type, rest = rest[0], rest[1:]
				}
				if len(rest) >= 1 && (rest[0] == "CLUSTERING" || rest[0] == "BROADCASTING") {
					g.Model, rest = rest[0], rest[1:]
				}
				if len(rest) >= 1 {
					g.DiffTotal = atoi64(rest[len(rest)-1])
				}
				r.out.Summaries = append(r.out.Summaries, g)
				r.sec.To = ln
				return true
			}
		case KindConnection:
			if r.state.connHeader && !r.state.inSubs && len(f) == 4 && isAddr(f[1]) && isLanguage(f[2]) {
				r.connection(ln, f[0], f[1], f[2], f[3])
				return true
			}
			if r.state.subsHeader && len(f) >= 2 && !strings.HasSuffix(f[0], ":") {
				r.out.GroupSubs = append(r.out.GroupSubs, Subscription{Ref: r.ref(ln), Group: r.group, Topic: f[0], Expr: strings.Join(f[1:], " ")})
				r.sec.To = ln
				return true
			}
		case KindRunningInfo:
			if r.runningRow(ln, s, f) {
				return true
			}
		case KindTopicStatus:
			if len(f) >= 4 && isInt(f[1]) && isInt(f[2]) && isInt(f[3]) {
				r.out.TopicQueues = append(r.out.TopicQueues, TopicQueue{Ref: r.ref(ln),
					Queue:     mq(r.state.tsTopic, f[0], f[1]),
					MinOffset: atoi64(f[2]), MaxOffset: atoi64(f[3]), LastUpdated: strings.Join(f[4:], " ")})
				r.sec.To = ln
				return true
			}
		case KindClusterList:
			if len(f) >= 5 && isInt(f[2]) {
				r.out.Brokers = append(r.out.Brokers, BrokerAddr{Ref: r.ref(ln), Cluster: f[0], Broker: f[1], ID: atoi64(f[2]), Addr: f[3], Version: f[4]})
				r.sec.To = ln
				return true
			}
		case KindRouteList:
			if r.routeListRow(ln, s, f) {
				return true
			}
		}
	}
	return r.selfRow(ln, s, f)
}

func (r *reader) connection(ln int, id, addr, lang, version string) {
	r.current(KindConnection, "3.x–4.9.2", ln)
	r.out.Connections = append(r.out.Connections, Connection{Ref: r.ref(ln), Group: r.groupFor("consumerConnection"), ClientID: id, Addr: addr, Language: lang, Version: version})
}

// groupFor is the -g of the latest command line when it ran cmd.
func (r *reader) groupFor(cmd string) string {
	if r.cmd == cmd {
		return r.group
	}
	return ""
}

func (r *reader) progressRow(ln int, f []string) bool {
	pc := r.state.prog
	if len(f) < 6 || !isInt(f[2]) || !isInt(f[3]) || !isInt(f[4]) {
		return false
	}
	o := Offset{Ref: r.ref(ln), Group: r.groupFor("consumerProgress"), Queue: mq(f[0], f[1], f[2]),
		BrokerOffset: atoi64(f[3]), ConsumerOffset: atoi64(f[4])}
	rest := f[5:]
	if pc.client {
		if len(rest) < 2 {
			return false
		}
		o.HasClient = true
		if c := rest[0]; c != "N/A" && c != "NA" {
			o.Client = c
		}
		rest = rest[1:]
	}
	if len(rest) == 0 || !isInt(rest[0]) {
		return false
	}
	rest = rest[1:] // #Diff: broker − consumer offset, recomputed where needed
	if pc.inflight {
		if len(rest) == 0 || !isInt(rest[0]) {
			return false
		}
		v := atoi64(rest[0])
		o.Inflight = &v
		rest = rest[1:]
	}
	o.LastTime = strings.Join(rest, " ")
	w := pc.width
	if w == 0 {
		w = 32
	}
	o.Truncated = len(o.Queue.Topic) == w || len(o.Queue.BrokerName) == 32
	if o.Truncated && !r.state.truncNoted {
		r.state.truncNoted = true
		r.note(ln, "note.cut-names", o.Queue.Topic, o.Queue.BrokerName, w)
	}
	r.out.Offsets = append(r.out.Offsets, o)
	r.sec.To = ln
	return true
}

func (r *reader) routeListRow(ln int, s string, f []string) bool {
	if strings.HasPrefix(s, "---") {
		r.sec.To = ln
		return true
	}
	if f[0] == "Total:" {
		r.sec.To = ln
		return true
	}
	open, closeIdx := strings.Index(s, "{"), strings.LastIndex(s, "}")
	if len(f) < 5 || open < 0 || closeIdx < open {
		return false
	}
	tail := strings.Fields(s[closeIdx+1:])
	if len(tail) < 3 || !isInt(tail[0]) || !isInt(tail[1]) || !isInt(tail[2]) {
		return false
	}
	cluster, broker := f[0], f[1]
	for pair := range strings.SplitSeq(s[open+1:closeIdx], ",") {
		id, addr, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if ok && isInt(id) {
			r.out.Brokers = append(r.out.Brokers, BrokerAddr{Ref: r.ref(ln), Cluster: cluster, Broker: broker, ID: atoi64(id), Addr: addr})
		}
	}
	r.out.QueueCounts = append(r.out.QueueCounts, QueueCount{Ref: r.ref(ln), Topic: r.state.tsTopic, Broker: broker,
		Read: atoi(tail[0]), Write: atoi(tail[1]), Perm: atoi(tail[2])})
	r.sec.To = ln
	return true
}

func (r *reader) runningRow(ln int, s string, f []string) bool {
	ri := &r.out.RunningInfos[r.state.ri]
	switch r.state.riPart {
	case "Consumer Properties":
		key, val, ok := strings.Cut(s, ":")
		key = strings.TrimSpace(key)
		if !ok || key == "" || strings.ContainsAny(key, " \t") {
			return false
		}
		val = strings.TrimSpace(val)
		ri.Properties[key], ri.PropRefs[key] = val, r.ref(ln)
		if key == "consumerGroup" && ri.Group == "" {
			ri.Group = val
		}
		r.sec.To = ln
		return true
	case "Consumer Subscription":
		if sub, ok := subscriptionRow(s); ok {
			sub.Ref, sub.Group = r.ref(ln), ri.Group
			ri.Subs = append(ri.Subs, sub)
			r.sec.To = ln
			return true
		}
		return false
	case "Consumer MQ Detail":
		if len(f) >= 4 && isInt(f[2]) {
			h := HeldQueue{Ref: r.ref(ln), Queue: mq(f[0], f[1], f[2])}
			if i := strings.Index(s, "ProcessQueueInfo"); i >= 0 {
				fields := bracketFields(s[i:])
				h.CommitOffset = optInt(fields["commitOffset"])
				h.CachedCount = optInt(fields["cachedMsgCount"])
				h.Dropped = fields["droped"] == "true"
			}
			ri.Held = append(ri.Held, h)
			r.sec.To = ln
			return true
		}
		return false
	}
	// #Consumer Offset#, RT&TPS, Pop Detail, jstack, user info: not used for balancing.
	if !r.state.riSkip {
		r.state.riSkip = true
		r.note(ln, "note.unused-part", r.state.riPart)
	}
	r.sec.To = ln
	return true
}

// bracketFields reads "Name [a=1, b=2]".
func bracketFields(s string) map[string]string {
	out := map[string]string{}
	open := strings.Index(s, "[")
	if open < 0 {
		return out
	}
	body := s[open+1:]
	body, _, _ = strings.Cut(body, "]")
	for kv := range strings.SplitSeq(body, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if ok {
			out[k] = v
		}
	}
	return out
}

func optInt(s string) *int64 {
	if !isInt(s) {
		return nil
	}
	v := atoi64(s)
	return &v
}

// subscriptionRow reads "001  Topic: T SubExpression: E" (consumerConnection) and
// "001 Topic: T ClassFilter: false SubExpression: E" (running info).
func subscriptionRow(s string) (Subscription, bool) {
	f := strings.Fields(s)
	if len(f) < 3 || !isIndex(f[0]) || f[1] != "Topic:" {
		return Subscription{}, false
	}
	rest := strings.TrimSpace(s[strings.Index(s, "Topic:")+len("Topic:"):])
	before, expr, ok := strings.Cut(rest, "SubExpression:")
	if !ok {
		return Subscription{}, false
	}
	topic, _, _ := strings.Cut(strings.TrimSpace(before), " ")
	if topic == "" {
		return Subscription{}, false
	}
	return Subscription{Topic: topic, Expr: strings.TrimSpace(expr)}, true
}

// selfRow reads lines that say what they are wherever they stand.
func (r *reader) selfRow(ln int, s string, f []string) bool {
	// consumerConnection rows with an index (3.x, 4.0–4.9.2).
	if len(f) == 5 && isIndex(f[0]) && isAddr(f[2]) && isLanguage(f[3]) {
		if r.sec == nil || r.sec.Kind != KindConnection || r.state.inSubs {
			r.open(KindConnection, "3.x–4.9.2", ln)
		}
		r.connection(ln, f[1], f[2], f[3], f[4])
		return true
	}
	// consumerStatus group rows: index, client id, version, <millis>/<clientId>.
	if len(f) == 4 && isInt(f[0]) && strings.Contains(f[3], "/") && isVersion(f[2]) {
		layout := "3.x–4.9.3"
		if r.sec != nil && r.sec.Kind == KindStatusGroup {
			layout = r.sec.Layout
		}
		r.current(KindStatusGroup, layout, ln)
		r.out.StatusClients = append(r.out.StatusClients, StatusClient{Ref: r.ref(ln), Group: r.groupFor("consumerStatus"), ClientID: f[1], Version: f[2]})
		return true
	}
	if rest, ok := strings.CutPrefix(s, "Below is subscription:"); ok {
		if r.sec == nil || r.sec.Kind != KindConnection {
			r.open(KindConnection, "", ln)
		}
		r.sec.To = ln
		r.state.inSubs = true
		rest = strings.TrimSpace(rest)
		if rest == "" {
			if r.sec.Layout == "3.x–4.9.2" || r.sec.Layout == "" {
				r.sec.Layout = "3.x"
			}
			return true
		}
		r.sec.Layout = "4.0–4.9.2"
		if sub, ok := subscriptionRow(rest); ok {
			sub.Ref, sub.Group = r.ref(ln), r.groupFor("consumerConnection")
			r.out.GroupSubs = append(r.out.GroupSubs, sub)
		}
		return true
	}
	if sub, ok := subscriptionRow(s); ok && !strings.Contains(s, "ClassFilter:") {
		if r.sec == nil || r.sec.Kind != KindConnection {
			r.open(KindConnection, "", ln)
		}
		r.sec.To = ln
		sub.Ref, sub.Group = r.ref(ln), r.groupFor("consumerConnection")
		r.out.GroupSubs = append(r.out.GroupSubs, sub)
		return true
	}
	for _, name := range []string{"ConsumeType", "MessageModel", "ConsumeFromWhere"} {
		if v, ok := strings.CutPrefix(s, name+":"); ok {
			if r.sec == nil || r.sec.Kind != KindConnection {
				r.open(KindConnection, "", ln)
			}
			// 3.x prints a blank line before ConsumeType, 4.0–4.9.2 does not (formats §2).
			if name == "ConsumeType" && r.state.blank && (r.sec.Layout == "3.x–4.9.2" || r.sec.Layout == "") {
				r.sec.Layout = "3.x"
			}
			r.sec.To = ln
			r.out.Settings = append(r.out.Settings, Setting{Ref: r.ref(ln), Group: r.groupFor("consumerConnection"), Name: name, Value: strings.TrimSpace(v)})
			return true
		}
	}
	// consumerStatus verdicts and analysis.
	if kind, ok := statusVerdict(s); ok {
		r.current(KindStatusGroup, "3.x–4.9.3", ln)
		r.out.StatusLines = append(r.out.StatusLines, StatusLine{Ref: r.ref(ln), Group: r.groupFor("consumerStatus"), Kind: kind, Text: s})
		return true
	}
	if i := strings.Index(s, " MessageQueue [topic="); i > 0 && !strings.ContainsAny(s[:i], " \t") {
		cid := s[:i]
		body := s[i+1:]
		endQ := strings.Index(body, "]")
		if endQ > 0 {
			fields := bracketFields(body[:endQ+1])
			q := mq(fields["topic"], fields["brokerName"], fields["queueId"])
			verdict := strings.TrimSpace(body[endQ+1:])
			kind := ""
			switch {
			case strings.HasPrefix(verdict, "can't consume for a while"):
				kind = "blocked"
			case strings.HasPrefix(verdict, "can't lock for a while"):
				kind = "lock"
			case strings.HasPrefix(verdict, "unlock"):
				kind = "unlock"
			}
			if kind != "" {
				r.current(KindStatusGroup, "3.x–4.9.3", ln)
				r.out.StatusLines = append(r.out.StatusLines, StatusLine{Ref: r.ref(ln), Group: r.groupFor("consumerStatus"), Kind: kind, ClientID: cid, Queue: &q, Text: s})
				return true
			}
		}
	}
	// consumerProgress and topicStatus totals.
	for _, p := range []string{"Consume TPS:", "Diff Total:", "Consume Diff Total:", "Consume Inflight Total:", "Topic Put TPS:"} {
		if v, ok := strings.CutPrefix(s, p); ok {
			kind := KindProgress
			if p == "Topic Put TPS:" {
				kind = KindTopicStatus
			}
			layout := ""
			vf := strings.Fields(v)
			if p == "Consume TPS:" && len(vf) > 0 {
				if _, frac, ok := strings.Cut(vf[0], "."); ok && len(frac) > 2 {
					layout = "before 4.4: TPS printed as a raw double"
				}
			}
			sec := r.current(kind, layout, ln)
			if sec.Layout == "" {
				sec.Layout = layout
			}
			if len(vf) > 1 {
				r.note(ln, "note.after-value", strings.Join(vf[1:], " "))
			}
			return true
		}
	}
	// A Go client's warning (logrus text format).
	if strings.Contains(s, "ConsumerId not in cidAll") {
		g := GoNotInCidAll{Ref: r.ref(ln), Group: logValue(s, "consumerGroup"), ConsumerID: logValue(s, "consumerId")}
		list := strings.Trim(logValue(s, "cidAll"), "[]")
		g.CidAll = strings.Fields(list)
		r.open(KindGoLog, "rocketmq-client-go v2", ln)
		r.out.GoLogs = append(r.out.GoLogs, g)
		r.close()
		return true
	}
	// A console's client id cell ("clientId   192.168.1.11@…").
	if len(f) == 2 && f[0] == "clientId" && strings.Contains(f[1], "@") {
		r.open(KindConsoleCell, "", ln)
		r.out.ConsoleIDs = append(r.out.ConsoleIDs, Connection{Ref: r.ref(ln), ClientID: f[1]})
		if ln == r.lastLine {
			r.sec.Cut = true
			r.note(ln, "note.cut-client", ln)
		}
		r.close()
		return true
	}
	return false
}

func statusVerdict(s string) (string, bool) {
	switch {
	case s == "Same subscription in the same group of consumer":
		return "same-subscription", true
	case strings.HasPrefix(s, "WARN: Different subscription in the same group of consumer"):
		return "different-subscription", true
	case s == "Rebalance OK":
		return "rebalance-ok", true
	case s == "Rebalance Failed":
		return "rebalance-failed", true
	}
	return "", false
}

// logValue reads key=value or key="value" from a logrus line.
func logValue(s, key string) string {
	i := 0
	for {
		j := strings.Index(s[i:], key+"=")
		if j < 0 {
			return ""
		}
		at := i + j
		if at == 0 || s[at-1] == ' ' {
			v := s[at+len(key)+1:]
			if strings.HasPrefix(v, `"`) {
				v = v[1:]
				end := strings.Index(v, `"`)
				if end < 0 {
					return v
				}
				return v[:end]
			}
			v, _, _ = strings.Cut(v, " ")
			return v
		}
		i = at + 1
	}
}

func mq(topic, broker, qid string) route.MessageQueue {
	return route.MessageQueue{Topic: topic, BrokerName: broker, QueueID: int32(atoi(qid))}
}

func isInt(s string) bool {
	if s == "" || len(s) > 19 {
		return false
	}
	if s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isIndex(s string) bool { return len(s) >= 3 && isInt(s) && s[0] != '-' }

func atoi(s string) int {
	v, _ := strconv.Atoi(s)
	return v
}

func atoi64(s string) int64 {
	v, _ := strconv.ParseInt(s, 10, 64)
	return v
}

func isAddr(s string) bool {
	i := strings.LastIndexByte(s, ':')
	return i > 0 && isInt(s[i+1:])
}

func isLanguage(s string) bool {
	if s == "" || len(s) > 12 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !(s[i] >= 'A' && s[i] <= 'Z' || s[i] == '_') {
			return false
		}
	}
	return true
}

func isVersion(s string) bool {
	switch {
	case s == "HIGHER_VERSION" || s == "OFFLINE":
		return true
	case len(s) >= 2 && s[0] == 'V' && s[1] >= '0' && s[1] <= '9':
		return true
	}
	return isInt(s)
}
