package admin

import (
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/route"
)

// Client logs (the reference "client-logs", cited as logs §N): the Java client's
// rocketmq_client.log in every layout from 4.x to 5.x, rocketmq-client-go v2's logrus output
// (text, terminal and JSON), the gRPC clients of rocketmq-clients (Java and Go) and the broker's
// membership lines. A line is recognised by its shape, never by the file's name; only the lines
// about rebalancing, ownership and membership become events, the others are counted.

// Limits of the log reader: a log is larger than a paste, so an input that reads as a log may
// be up to MaxLogBytes (a 5.x client log rolls at 64 MB, Go's at 10 MB: cut a 4.x log of 1 GiB
// to the window of interest), and all inputs together up to MaxLogTotal.
const (
	MaxLogBytes = 32 << 20
	MaxLogTotal = 64 << 20
	// MaxLogEvents bounds the lines kept for the history, all inputs together (a held
	// snapshot repeated every 5 s is kept once while nothing else happens in its log);
	// maxLineQueues the queues one line may name.
	MaxLogEvents  = 100000
	maxLineQueues = 4096
	maxJoined     = 16 // pieces of one wrapped line
)

// LogEvent is one log line that matters for rebalancing, as read.
type LogEvent struct {
	Ref    Ref    `json:"ref"`
	Kind   string `json:"kind"`   // one of the ev* kinds
	Client string `json:"client"` // java, go, grpc-java, grpc-go, broker
	Stamp  string `json:"stamp"`  // the time as printed
	// Local is the stamp's wall clock in ms, read as if it were UTC; Zone is the stamp's own
	// offset in seconds when it carries one. NoDate: the stamp has a time of day only;
	// SinceStart: Local counts from the process's start (Go's terminal layout). Secs: whole
	// seconds only.
	Local      int64 `json:"-"`
	Zone       *int  `json:"-"`
	NoDate     bool  `json:"-"`
	SinceStart bool  `json:"-"`
	Secs       bool  `json:"-"`
	ms         int   // the millisecond field as printed, for the 4.3.0–4.7.1 check
	sec        int
	until      int64  // Local of the last snapshot like this one, when held lines were folded into it
	untilRef   Ref    // its line
	pid        string // the process id of the 5.x layouts' [%pid], which names a member whose lines name no client id

	ID        string               `json:"clientId,omitempty"` // the client id the line names
	Group     string               `json:"group,omitempty"`
	Topic     string               `json:"topic,omitempty"`
	Strategy  string               `json:"strategy,omitempty"`
	MQAll     int                  `json:"mqAllSize"`  // -1 unknown
	CidAll    int                  `json:"cidAllSize"` // -1 unknown
	Result    []route.MessageQueue `json:"result,omitempty"`
	HasSet    bool                 `json:"hasResult,omitempty"` // Result is the full result set
	Queues    []route.MessageQueue `json:"queues,omitempty"`    // the line's queues (add, remove, held, route)
	CidList   []string             `json:"cidAll,omitempty"`    // the member list, where the line has it
	Addr      string               `json:"addr,omitempty"`
	Offset    int64                `json:"offset,omitempty"` // the queue\'s offset the line gives (committed, or where pulling starts), when HasOffset
	HasOffset bool                 `json:"-"`
	Version   string               `json:"version,omitempty"`
	Text      string               `json:"-"`
}

// Kinds of LogEvent.
const (
	evRound     = "round"   // a rebalance result (R1, R1′, R2, Go do balance done, gRPC assignments)
	evSource    = "source"  // the lists a round allocated from (3.x "rebalanced allocate source.")
	evAdd       = "add"     // a queue taken (R5, P2, Go fetch offset, gRPC start to fetch)
	evRemove    = "remove"  // a queue given up (R4, R11, Go remove, gRPC drop)
	evHeld      = "held"    // a queue held now (O1 [persistAll], Go update offset)
	evFix       = "fix"     // a process queue dropped and re-created, not an ownership change (R10, Go expired)
	evDropped   = "dropped" // a pull request stopped (D3)
	evLock      = "lock-failed"
	evAddFailed = "add-failed" // not taken: the start offset could not be read (R8, R9, Go fetch offset error)
	evFailed    = "failed"     // no allocation this round (R12, R13)
	evNotify    = "notify"     // the broker's notification (M1)
	evRoute     = "route"      // the topic's route changed (M6): Queues is the new mqAll
	evStart     = "start"      // the client or consumer started
	evStop      = "stop"       // the client or consumer shut down
	evNotIn     = "not-in-cidall"
	evCommit    = "commit" // a removed queue\'s last commit (O2)
	evID        = "id"     // a line that names the client id only
	evJoin      = "join"   // broker B1
	evLeave     = "leave"  // broker B2, B3
	evExpire    = "expire" // broker B4: Addr only
	evEmpty     = "empty"  // broker B5
)

// logState is what the reader keeps of the current input's log lines.
type logState struct {
	lines, read, skipped int
	first                int // index into out.Logs of this input's first event
	pending              string
	pendingLn            int
	wrapped              bool // the pending line was wrapped: a short last piece may follow
	depth, joined        int  // the pending line's open brackets, and pieces
	epoch                int  // events of this input other than held snapshots
	held                 map[heldKey][2]int
	over                 bool // MaxLogEvents was reached
}

type heldKey struct {
	id string
	q  route.MessageQueue
}

// logStart splits a log line into its time, level and message, or says it is none.
type logLine struct {
	ev     LogEvent
	layout string
	level  string
	msg    string
	fields map[string]string // Go's key=value fields
}

func digits(s string, n int) (int, bool) {
	if len(s) < n {
		return 0, false
	}
	v := 0
	for i := 0; i < n; i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		v = v*10 + int(s[i]-'0')
	}
	return v, true
}

// clock reads "HH:mm:ss" and an optional ",SSS" or ".SSS" at s; it returns the ms of the day,
// the millisecond field (-1 when none), the seconds and the rest.
func clock(s string) (int64, int, int, string, bool) {
	h, ok1 := digits(s, 2)
	if !ok1 || len(s) < 8 || s[2] != ':' || s[5] != ':' {
		return 0, 0, 0, "", false
	}
	m, ok2 := digits(s[3:], 2)
	sec, ok3 := digits(s[6:], 2)
	if !ok2 || !ok3 || h > 23 || m > 59 || sec > 60 {
		return 0, 0, 0, "", false
	}
	ms := -1
	rest := s[8:]
	if len(rest) >= 4 && (rest[0] == ',' || rest[0] == '.') {
		if v, ok := digits(rest[1:], 3); ok {
			ms, rest = v, rest[4:]
		}
	}
	t := int64(((h*60+m)*60+sec)*1000 + max(ms, 0))
	return t, ms, sec, rest, true
}

// date reads "yyyy-MM-dd" as days since the epoch.
func date(s string) (int64, bool) {
	y, ok1 := digits(s, 4)
	if !ok1 || len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return 0, false
	}
	mo, ok2 := digits(s[5:], 2)
	d, ok3 := digits(s[8:], 2)
	if !ok2 || !ok3 || mo < 1 || mo > 12 || d < 1 || d > 31 {
		return 0, false
	}
	return daysFromCivil(y, mo, d), true
}

// daysFromCivil counts the days from 1970-01-01 to a date of the proleptic Gregorian
// calendar (H. Hinnant's algorithm), and civilFromDays goes back.
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := (y - (y%400+400)%400) / 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

func civilFromDays(z int64) (int, int, int) {
	z += 719468
	era := (z - (z%146097+146097)%146097) / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := int(doy - (153*mp+2)/5 + 1)
	m := int(mp+2)%12 + 1
	y := int(yoe + era*400)
	if m <= 2 {
		y++
	}
	return y, m, d
}

// zoneAt reads "Z", "+08:00" or "+0800" at s: the offset in seconds and the rest.
func zoneAt(s string) (int, string, bool) {
	if strings.HasPrefix(s, "Z") {
		return 0, s[1:], true
	}
	if len(s) < 5 || (s[0] != '+' && s[0] != '-') {
		return 0, s, false
	}
	h, ok := digits(s[1:], 2)
	rest := s[3:]
	if rest != "" && rest[0] == ':' {
		rest = rest[1:]
	}
	m, ok2 := digits(rest, 2)
	if !ok || !ok2 || h > 14 || m > 59 {
		return 0, s, false
	}
	off := (h*60 + m) * 60
	if s[0] == '-' {
		off = -off
	}
	return off, rest[2:], true
}

// ParseZone reads a zone for log stamps that carry none: "+08:00", "-05:30", "+8", "UTC".
func ParseZone(s string) (int, error) {
	s = strings.TrimSpace(s)
	switch strings.ToUpper(s) {
	case "UTC", "Z", "GMT":
		return 0, nil
	}
	s = strings.TrimPrefix(strings.TrimPrefix(s, "UTC"), "GMT")
	if len(s) >= 2 && (s[0] == '+' || s[0] == '-') {
		if n, err := strconv.Atoi(s[1:]); err == nil && len(s) <= 3 && n <= 14 {
			if s[0] == '-' {
				n = -n
			}
			return n * 3600, nil
		}
		if off, rest, ok := zoneAt(s); ok && rest == "" {
			return off, nil
		}
	}
	return 0, sayErr("field.bad", FieldName(FieldLogZone), "a zone is +08:00, -05:30, +8 or UTC, not "+strconv.Quote(s))
}

var logLevels = []string{"INFO", "WARN", "ERROR", "DEBUG", "TRACE", "FATAL", "ERRO", "DEBU", "TRAC", "FATA", "PANI"}

func isLevel(s string) bool {
	for _, l := range logLevels {
		if s == l {
			return true
		}
	}
	return false
}

// splitLog reads the layout of one log line (logs §1.1, §2.1, §3).
func splitLog(s string) (logLine, bool) {
	var l logLine
	e := &l.ev
	e.MQAll, e.CidAll = -1, -1
	switch {
	case strings.HasPrefix(s, `time="`):
		return goText(s)
	case len(s) > 10 && s[4] == '[' && s[9] == ']' && isLevel(s[:4]):
		secs, ok := digits(s[5:], 4)
		if !ok {
			return l, false
		}
		e.Stamp, e.Local, e.SinceStart, e.Secs = s[:10], int64(secs)*1000, true, true
		l.layout, l.level, e.Client = "Go client v2 (terminal: seconds since start)", s[:4], "go"
		msg, fields := goFields(s[10:])
		l.msg, l.fields = msg, fields
		return l, true
	}
	var day int64
	rest := s
	if d, ok := date(s); ok && len(s) > 11 && (s[10] == ' ' || s[10] == 'T') {
		day, rest = d, s[11:]
	} else {
		e.NoDate = true
	}
	tod, ms, sec, after, ok := clock(rest)
	if !ok {
		return l, false
	}
	e.Local, e.ms, e.sec = day*86400000+tod, ms, sec
	e.Stamp = s[:len(s)-len(after)]
	e.Secs = ms < 0
	if off, a, ok := zoneAt(after); ok && !e.NoDate {
		e.Zone, after = &off, a
		e.Stamp = s[:len(s)-len(after)]
	}
	if strings.HasPrefix(after, "\t") {
		// rocketmq-clients Go: zap's console encoder (logs §3.2).
		f := strings.Split(after[1:], "\t")
		if len(f) < 3 || !isLevel(f[0]) {
			return l, false
		}
		l.layout, l.level, l.msg, e.Client = "gRPC Go client (zap)", f[0], f[2], "grpc-go"
		if len(f) > 3 {
			if id := jsonString(f[3], "client_id"); id != "" {
				e.ID = id
			}
		}
		return l, true
	}
	head, msg, ok := strings.Cut(after, " - ")
	if !ok {
		return l, false
	}
	for _, w := range strings.Fields(head) {
		if isLevel(w) {
			l.level = w
			break
		}
	}
	if l.level == "" {
		return l, false
	}
	l.msg = msg
	e.Client = "java"
	if i := strings.IndexByte(head, '['); i >= 0 {
		if j := strings.IndexByte(head[i:], ']'); j > 1 && isInt(head[i+1:i+j]) {
			e.pid = head[i+1 : i+j]
		}
	}
	switch {
	case e.NoDate:
		l.layout = "application layout (time of day only)"
	case strings.Contains(head, "[o.a.r.c.j.") || strings.Contains(head, "org.apache.rocketmq.client.java"):
		l.layout, e.Client = "gRPC Java client (rocketmq-client-java)", "grpc-java"
	case ms >= 0 && s[len(e.Stamp)-4] == '.' && strings.Contains(head, "["):
		l.layout = "Java client 5.1+ (logback)"
	case ms >= 0 && strings.Contains(head, "RocketmqClient("):
		l.layout = "Java client 4.0–4.2 (log4j)"
	case ms >= 0:
		l.layout = "Java client 4.3–5.0 (inner logger)"
	default:
		l.layout = "whole seconds: broker, or Java client 4.0–4.2 (logback)"
	}
	return l, true
}

// jsonString reads a string member of a small JSON object, "" when absent.
func jsonString(s, key string) string {
	return parseJSON([]byte(s), 0, 1, false).root.get(key).text()
}

// goText reads logrus's text layout: time="…" level=… msg="…" fields sorted by key.
func goText(s string) (logLine, bool) {
	var l logLine
	l.ev.MQAll, l.ev.CidAll = -1, -1
	_, fields := goFields(s)
	if !goTime(&l.ev, fields["time"]) {
		return l, false
	}
	l.layout, l.level, l.msg, l.fields = "Go client v2 (logrus text)", strings.ToUpper(fields["level"]), fields["msg"], fields
	return l, l.msg != ""
}

// goTime reads logrus's RFC 3339 stamp, which carries its zone.
func goTime(e *LogEvent, ts string) bool {
	d, ok := date(ts)
	if !ok || len(ts) < 19 || ts[10] != 'T' {
		return false
	}
	tod, _, _, after, ok := clock(ts[11:])
	if !ok {
		return false
	}
	if i := strings.IndexAny(after, "Z+-"); i > 0 {
		after = after[i:] // fractions of a second, which logrus does not print by default
	}
	e.Local, e.Stamp, e.Secs, e.Client = d*86400000+tod, ts, true, "go"
	if off, _, ok := zoneAt(after); ok {
		e.Zone = &off
	}
	return true
}

// goFields reads logrus's key=value fields, a value quoted as Go's %q when it holds other
// characters; the message of the terminal layout is what comes before the first field.
func goFields(s string) (string, map[string]string) {
	fields := map[string]string{}
	msg := ""
	i := 0
	for i < len(s) {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		j := i
		for j < len(s) && s[j] != '=' && s[j] != ' ' && s[j] != '"' {
			j++
		}
		if j >= len(s) || s[j] != '=' || j == i {
			// Not a field: part of the terminal layout's message, which comes before them
			// (after a field, the rest of a value whose quotes do not pair, logs §5 E12).
			k := strings.Index(s[i:], "  ")
			if k < 0 {
				k = len(s) - i
			}
			if len(fields) == 0 {
				msg += s[i : i+k]
			}
			i += k
			continue
		}
		key := s[i:j]
		j++
		if j < len(s) && s[j] == '"' {
			k := j + 1
			for k < len(s) && s[k] != '"' {
				if s[k] == '\\' {
					k++
				}
				k++
			}
			v := s[j:min(k+1, len(s))]
			if u, err := strconv.Unquote(v); err == nil {
				fields[key] = u
			} else {
				fields[key] = strings.Trim(v, `"`)
			}
			i = k + 1
			continue
		}
		k := strings.IndexByte(s[j:], ' ')
		if k < 0 {
			k = len(s) - j
		}
		fields[key] = s[j : j+k]
		i = j + k
	}
	return strings.TrimSpace(msg), fields
}

// goJSON reads logrus's JSON layout: {"level":…,"msg":…,"time":…, fields…}.
func goJSON(s string) (logLine, bool) {
	var l logLine
	if !strings.HasPrefix(s, "{") || !strings.Contains(s, `"msg"`) || !strings.Contains(s, `"level"`) {
		return l, false
	}
	res := parseJSON([]byte(s), 0, 1, false)
	if res.root == nil || res.root.kind != 'o' || res.cut || res.err.Key != "" {
		return l, false
	}
	fields := map[string]string{}
	for _, m := range res.root.members {
		if m.key != nil && m.key.kind == 's' {
			fields[m.key.str] = jsonText(m.val)
		}
	}
	l.ev.MQAll, l.ev.CidAll = -1, -1
	if fields["msg"] == "" || !goTime(&l.ev, fields["time"]) {
		return l, false
	}
	l.layout, l.level, l.msg, l.fields = "Go client v2 (logrus JSON)", strings.ToUpper(fields["level"]), fields["msg"], fields
	return l, true
}

// jsonText writes a JSON value as logrus's text layout would show it: a list as [a b], a queue
// object as MessageQueue [topic=…, brokerName=…, queueId=…].
func jsonText(v *jnode) string {
	switch {
	case v == nil:
		return ""
	case v.kind == 'a':
		parts := make([]string, len(v.elems))
		for i, e := range v.elems {
			parts[i] = jsonText(e)
		}
		return "[" + strings.Join(parts, " ") + "]"
	case v.kind == 'o':
		b, q := v.get("brokerName").text(), v.get("queueId").text()
		if b != "" && isInt(q) {
			return mq(v.get("topic").text(), b, q).String()
		}
		return ""
	}
	return v.text()
}

// queuesIn finds every "MessageQueue [topic=…, brokerName=…, queueId=…]" in s, read leniently
// (a 4.x persistAll line drops the comma after the topic, logs §5 E1).
func queuesIn(s string) []route.MessageQueue {
	var out []route.MessageQueue
	for {
		i := strings.Index(s, "MessageQueue [")
		if i < 0 {
			return out
		}
		s = s[i+len("MessageQueue ["):]
		end := strings.IndexByte(s, ']')
		if end < 0 {
			end = len(s)
		}
		body := s[:end]
		t, b, q := mqField(body, "topic="), mqField(body, "brokerName="), mqField(body, "queueId=")
		if b != "" && isInt(q) && len(out) < maxLineQueues {
			out = append(out, mq(t, b, q))
		}
		s = s[end:]
	}
}

func mqField(body, key string) string {
	i := strings.Index(body, key)
	if i < 0 {
		return ""
	}
	v := body[i+len(key):]
	if j := strings.IndexAny(v, ", ]"); j >= 0 {
		v = v[:j]
	}
	return v
}

// grpcQueues finds the queues of a gRPC client's line: Java's MessageQueueImpl
// "broker.topic.id" after messageQueue= or mq=, or Go's protobuf text
// (topic:{name:"T"} id:N … broker:{name:"B" …}, whose whitespace varies, logs §3.2).
func grpcQueues(s string) []route.MessageQueue {
	var out []route.MessageQueue
	if strings.Contains(s, "topic:") {
		c := strings.ReplaceAll(s, " ", "")
		for {
			i := strings.Index(c, `topic:{name:"`)
			if i < 0 {
				return out
			}
			c = c[i+len(`topic:{name:"`):]
			j := strings.IndexByte(c, '"')
			if j < 0 {
				return out
			}
			topic := c[:j]
			id := "0"
			if k := strings.Index(c, "}id:"); k >= 0 && k < 200 {
				n := k + 4
				for n < len(c) && c[n] >= '0' && c[n] <= '9' {
					n++
				}
				id = c[k+4 : n]
			}
			k := strings.Index(c, `broker:{name:"`)
			if k < 0 {
				return out
			}
			b := c[k+len(`broker:{name:"`):]
			if e := strings.IndexByte(b, '"'); e >= 0 && isInt(id) && len(out) < maxLineQueues {
				out = append(out, mq(topic, b[:e], id))
			}
			c = c[j:]
		}
	}
	for _, key := range []string{"messageQueue=", "mq="} {
		rest := s
		for {
			i := strings.Index(rest, key)
			if i < 0 {
				break
			}
			rest = rest[i+len(key):]
			v := rest
			if j := strings.IndexAny(v, ",}] "); j >= 0 {
				v = v[:j]
			}
			if a := strings.LastIndexByte(v, '.'); a > 0 && isInt(v[a+1:]) {
				if b := strings.LastIndexByte(v[:a], '.'); b > 0 && len(out) < maxLineQueues {
					out = append(out, mq(v[b+1:a], v[:b], v[a+1:]))
				}
			}
		}
	}
	return out
}

// kvs reads "k=v, k=v, …" where a value may hold ", " inside brackets.
func kvs(s string) map[string]string {
	out := map[string]string{}
	for s != "" {
		eq := strings.IndexByte(s, '=')
		if eq <= 0 {
			break
		}
		key := strings.TrimSpace(s[:eq])
		s = s[eq+1:]
		depth, end := 0, len(s)
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case '[', '{', '(':
				depth++
			case ']', '}', ')':
				depth--
			case ',':
				if depth <= 0 && i+1 < len(s) && s[i+1] == ' ' {
					end = i
				}
			}
			if end != len(s) {
				break
			}
		}
		out[key] = s[:end]
		if end == len(s) {
			break
		}
		s = s[end+2:]
	}
	return out
}

func intOr(s string, def int) int {
	if v, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
		return v
	}
	return def
}

// bracket returns what follows prefix up to the closing bracket close.
func bracket(s, prefix string, close byte) string {
	_, v, ok := strings.Cut(s, prefix)
	if !ok {
		return ""
	}
	if i := strings.IndexByte(v, close); i >= 0 {
		return v[:i]
	}
	return v
}

// routeQueues reads the readable queues of a route's queue data: Java's
// QueueData [brokerName=B, readQueueNums=N, …, perm=P] or the route JSON (Go).
func routeQueues(topic, s string) []route.MessageQueue {
	s = strings.ReplaceAll(strings.ReplaceAll(s, `\"`, `"`), `"`, "")
	s = strings.ReplaceAll(s, ":", "=")
	var out []route.MessageQueue
	for {
		i := strings.Index(s, "brokerName=")
		if i < 0 {
			return out
		}
		s = s[i+len("brokerName="):]
		end := strings.IndexAny(s, ",}]")
		if end < 0 {
			return out
		}
		broker := s[:end]
		next := strings.Index(s, "brokerName=")
		seg := s
		if next >= 0 {
			seg = s[:next]
		}
		n := intOr(mqField(seg, "readQueueNums="), -1)
		perm := intOr(mqField(seg, "perm="), 6)
		if strings.Contains(seg, "brokerAddrs") || n < 0 {
			continue // a broker's addresses, not its queues
		}
		if perm&4 != 0 {
			for q := 0; q < n && len(out) < maxLineQueues; q++ {
				out = append(out, route.MessageQueue{Topic: topic, BrokerName: broker, QueueID: int32(q)})
			}
		}
	}
}

// channelID reads clientId=… out of a broker's ClientChannelInfo.
func channelID(s string) string {
	_, v, ok := strings.Cut(s, "clientId=")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(v, ", ]"); i >= 0 {
		v = v[:i]
	}
	return v
}

// remoteAddr is the client's address in a ClientChannelInfo ("… R:/10.0.0.2:56222] …"), by
// which a broker's expiry line (B4, address only) names the member it ends.
func remoteAddr(s string) string {
	_, v, ok := strings.Cut(s, "R:/")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(v, ", ]"); i >= 0 {
		v = v[:i]
	}
	return v
}

// javaEvent reads the message of a Java client's, a gRPC Java client's or the broker's line
// (logs §1.2, §1.3, §3.1); false when it is not about rebalancing.
func (e *LogEvent) javaEvent(msg string) bool {
	cut := func(p string) (string, bool) { return strings.CutPrefix(msg, p) }
	if v, ok := cut("client rebalanced result changed. "); ok {
		return e.round(kvs(v))
	}
	if v, ok := cut("rebalanced result changed. "); ok {
		return e.round(kvs(v))
	}
	if v, ok := cut("broker rebalanced result changed. "); ok {
		kv := kvs(v)
		e.Kind, e.Group, e.Topic, e.Strategy, e.ID = evRound, kv["group"], kv["topic"], kv["allocateMessageQueueStrategyName"], kv["clientId"]
		e.Result, e.HasSet = queuesIn(kv["assignmentSet"]), true
		return true
	}
	if v, ok := cut("rebalanced allocate source. "); ok {
		kv := kvs(v)
		e.Kind, e.Group, e.Topic, e.Strategy = evSource, kv["group"], kv["topic"], kv["allocateMessageQueueStrategyName"]
		e.MQAll, e.CidAll = intOr(kv["mqAllSize"], -1), intOr(kv["cidAllSize"], -1)
		e.Queues, e.CidList = queuesIn(kv["mqAll"]), splitList(kv["cidAll"])
		return true
	}
	if v, ok := cut("doRebalance, "); ok {
		group, rest, _ := strings.Cut(v, ", ")
		e.Group, e.Queues = group, queuesIn(rest)
		switch {
		case strings.HasSuffix(rest, "because lock failed"):
			e.Kind = evLock
		case strings.HasPrefix(rest, "add new mq failed, "), strings.HasPrefix(rest, "compute offset failed, "):
			e.Kind = evAddFailed
		case strings.HasPrefix(rest, "remove unnecessary"), strings.HasPrefix(rest, "truncateMessageQueueNotMyTopic"):
			e.Kind = evRemove
		case strings.HasPrefix(rest, "add a new mq, "), strings.HasPrefix(rest, "add a new pop mq, "):
			e.Kind = evAdd
		case strings.HasPrefix(rest, "add a new pull request "):
			e.Kind = evAdd
			e.Queues = queuesIn(bracket(rest, "messageQueue=", ']') + "]")
			e.offset(bracket(rest, "nextOffset=", ']'))
		case strings.HasSuffix(v, "get consumer id list failed"):
			e.Kind, e.Group = evFailed, strings.Fields(v)[0]
			if f := strings.Fields(strings.TrimSuffix(v, ", get consumer id list failed")); len(f) > 1 {
				e.Topic = f[1]
			}
		case strings.HasPrefix(rest, "but the topic["):
			e.Kind, e.Topic = evFailed, bracket(rest, "topic[", ']')
		default:
			return false
		}
		return e.Kind == evFailed || len(e.Queues) > 0
	}
	if v, ok := cut("[BUG]doRebalance, "); ok {
		e.Group, _, _ = strings.Cut(v, ", ")
		e.Kind, e.Queues = evFix, queuesIn(v)
		return len(e.Queues) > 0
	}
	if v, ok := cut("[persistAll] Group: "); ok {
		e.Kind = evHeld
		return e.persist(v)
	}
	if v, ok := cut("[persist] Group: "); ok {
		e.Kind = evCommit
		return e.persist(v)
	}
	if v, ok := cut("receive broker's notification["); ok {
		e.Kind, e.Addr = evNotify, bracket(msg, "notification[", ']')
		e.Group = strings.TrimSuffix(bracket(v, "the consumer group: ", ' '), ",")
		return true
	}
	if v, ok := cut("Created new MQClientInstance for clientId:["); ok {
		e.Kind, e.ID = evID, strings.TrimSuffix(v, "]")
		return true
	}
	if strings.HasPrefix(msg, "Created a new client Instance, ") || strings.HasPrefix(msg, "created a new client Instance, ") {
		e.Kind = evID
		e.ID = strings.TrimSuffix(bracket(msg, "ClientID:", ','), " ")
		if e.ID == "" {
			e.ID = bracket(msg, "ClinetID: ", ' ')
		}
		e.Version = bracket(msg, "ClientVersion:", ',')
		return e.ID != ""
	}
	if v, ok := cut("the client factory ["); ok {
		e.ID, _, _ = strings.Cut(v, "]")
		e.Kind = evID // its start names the id; the consumer's own start is the membership change
		if strings.HasSuffix(v, "shutdown OK") {
			e.Kind = evStop
		}
		return strings.HasSuffix(v, " OK")
	}
	if v, ok := cut("the consumer ["); ok {
		e.Group, _, _ = strings.Cut(v, "]")
		switch {
		case strings.Contains(v, "] start OK"):
			e.Kind = evStart
		case strings.Contains(v, "] shutdown OK"):
			e.Kind = evStop
		default:
			return false
		}
		return true
	}
	if v, ok := cut("the topic["); ok {
		e.Topic, _, _ = strings.Cut(v, "]")
		if _, nv, ok := strings.Cut(v, ",new["); ok && strings.Contains(v, "route info changed") {
			e.Kind, e.Queues = evRoute, routeQueues(e.Topic, nv)
			return true
		}
		return false
	}
	if v, ok := cut("[BUG] ConsumerGroup: "); ok {
		e.Kind = evNotIn
		e.Group, _, _ = strings.Cut(v, " ")
		e.ID = bracket(v, "The consumerId: ", ' ')
		_, list, _ := strings.Cut(v, "not in cidAll: ")
		e.CidList = splitList(list)
		return e.ID != ""
	}
	if strings.HasPrefix(msg, "the pull request[") && strings.HasSuffix(msg, "is dropped.") {
		e.Kind, e.Queues = evDropped, queuesIn(msg)
		return len(e.Queues) > 0
	}
	// The broker (logs §1.3).
	if v, ok := cut("new consumer connected, group: "); ok {
		e.Client, e.Kind, e.ID, e.Addr = "broker", evJoin, channelID(v), remoteAddr(v)
		e.Group, _, _ = strings.Cut(v, " ")
		return e.ID != ""
	}
	if v, ok := cut("unregister a consumer["); ok {
		e.Client, e.Kind, e.ID, e.Addr = "broker", evLeave, channelID(v), remoteAddr(v)
		e.Group, _, _ = strings.Cut(v, "]")
		return e.ID != ""
	}
	if v, ok := cut("NETTY EVENT: remove not active channel["); ok {
		e.Client, e.Kind, e.ID, e.Addr = "broker", evLeave, channelID(v), remoteAddr(v)
		_, e.Group, _ = strings.Cut(v, "consumer group: ")
		return e.ID != ""
	}
	if v, ok := cut("SCAN: remove expired channel from ConsumerManager consumerTable. channel="); ok {
		e.Client, e.Kind = "broker", evExpire
		e.Addr, e.Group, _ = strings.Cut(v, ", consumerGroup=")
		e.Addr = strings.TrimPrefix(e.Addr, "/")
		return true
	}
	if v, ok := cut("unregister consumer ok, no any connection, and remove consumer group, "); ok {
		e.Client, e.Kind, e.Group = "broker", evEmpty, v
		return true
	}
	return e.grpcEvent(msg)
}

// persist reads an offset store line (O1, O2): "G ClientId: C updateConsumeOffsetToBroker MQ N".
func (e *LogEvent) persist(v string) bool {
	e.Queues = queuesIn(v)
	e.Group, _, _ = strings.Cut(v, " ")
	e.ID = bracket(v, "ClientId: ", ' ')
	if i := strings.LastIndexByte(v, ' '); i >= 0 {
		e.offset(v[i+1:])
	}
	return len(e.Queues) > 0
}

func (e *LogEvent) offset(s string) {
	if isInt(s) && s[0] != '-' {
		e.Offset, e.HasOffset = atoi64(s), true
	}
}

// grpcEvent reads a gRPC client's assignment lines (logs §3.1, §3.2).
func (e *LogEvent) grpcEvent(msg string) bool {
	id := func() {
		if i := strings.LastIndex(msg, "clientId="); i >= 0 {
			v := msg[i+len("clientId="):]
			v = strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(v, "{}%!(EXTRA string="), ")"), "%!d(string=")
			v = strings.TrimSuffix(v, ")")
			if v != "" && e.ID == "" {
				e.ID = v
			}
		}
	}
	switch {
	case strings.HasPrefix(msg, "Assignments of topic=") && strings.Contains(msg, " has changed, "):
		v := strings.TrimPrefix(msg, "Assignments of topic=")
		e.Topic, _, _ = strings.Cut(v, " has changed, ")
		_, now, _ := strings.Cut(v, " => ")
		if i := strings.LastIndex(now, ", clientId="); i >= 0 {
			now = now[:i]
		}
		e.Kind, e.Result, e.HasSet = evRound, grpcQueues(now), true
	case strings.HasPrefix(msg, "Attention!!! acquired empty assignments from remote"):
		e.Kind, e.Topic, e.HasSet = evRound, bracket(msg, "topic=", ','), true
	case strings.HasPrefix(msg, "Drop message queue according to the latest assignmentList"):
		e.Kind, e.Queues = evRemove, grpcQueues(msg)
	case strings.HasPrefix(msg, "Drop message queue because it is expired"):
		e.Kind, e.Queues = evFix, grpcQueues(msg)
	case strings.HasPrefix(msg, "Start to fetch message from remote"):
		e.Kind, e.Queues = evAdd, grpcQueues(msg)
	case strings.HasPrefix(msg, "The rocketmq push consumer starts successfully"), strings.HasPrefix(msg, "The rocketmq ") && strings.Contains(msg, " starts successfully"):
		e.Kind = evStart
	case strings.HasPrefix(msg, "Shutdown the rocketmq ") && strings.Contains(msg, " successfully"):
		e.Kind = evStop
	default:
		return false
	}
	id()
	if e.Client == "java" {
		e.Client = "grpc-java"
	}
	if e.Topic == "" && len(e.Queues) > 0 {
		e.Topic = e.Queues[0].Topic
	}
	return e.Kind == evRound || e.Kind == evStart || e.Kind == evStop || len(e.Queues) > 0
}

// goEvent reads the message and fields of a rocketmq-client-go v2 line (logs §2.2).
func (e *LogEvent) goEvent(msg string, f map[string]string) bool {
	e.Group = f["consumerGroup"]
	e.Queues = queuesIn(f["MessageQueue"])
	e.offset(f["offset"])
	switch msg {
	case "MessageQueue do balance done":
		e.Kind, e.Topic, e.ID = evRound, f["topic"], f["clientID"]
		e.MQAll, e.CidAll = intOr(f["mqAllSize"], -1), intOr(f["cidAllSize"], -1)
		e.Result, e.HasSet = queuesIn(f["rebalanceResultSet"]), f["rebalanceResultSet"] != ""
		e.Queues = nil
		return true
	case "remove unnecessary mq when updateProcessQueueTable", "remove unnecessary mq because unsubscribed":
		e.Kind = evRemove
	case "remove unnecessary mq because pull was paused, prepare to fix it", "remove unnecessary mq because pull was expired, prepare to fix it":
		e.Kind = evFix
	case "do defaultConsumer, add a new mq", "updateProcessQueueTable do defaultConsumer, add a new mq",
		"fetch offset of mq from broker success", "fecth offset of mq from broker success":
		e.Kind = evAdd
	case "do defaultConsumer, add a new mq failed, because lock failed":
		e.Kind = evLock
	case "do defaultConsumer, add a new mq failed", "fetch offset of mq from broker error", "fecth offset of mq from broker error", "fecth offset of mq error":
		e.Kind = evAddFailed
	case "update offset to broker success":
		e.Kind = evHeld
	case "do balance in group failed, the topic does not exist", "do balance in group failed, get consumer id list failed":
		e.Kind, e.Topic = evFailed, f["topic"]
		return true
	case "receive broker's notification to consumer group":
		e.Kind = evNotify
		return true
	case "the consumer start beginning":
		e.Kind = evStart
		return true
	case "the topic route info changed":
		e.Kind, e.Topic = evRoute, f["topic"]
		e.Queues = routeQueues(e.Topic, f["changeTo"])
		return true
	case "[BUG] ConsumerId not in cidAll":
		// In the text layouts selfRow reads its id and list (Read.GoLogs); in JSON, here.
		e.Kind, e.ID, e.CidList = evNotIn, f["consumerId"], strings.Fields(strings.Trim(f["cidAll"], "[]"))
		return true
	default:
		// The wording before v2.0.0 (logs §2.2, §5 E11).
		switch {
		case strings.HasPrefix(msg, "do balance of group: ") && strings.HasSuffix(msg, "does not exist."):
			e.Kind, e.Group = evFailed, bracket(msg, "group: ", ',')
			e.Topic = bracket(msg, "but topic: ", ' ')
		case strings.HasPrefix(msg, "receive broker's notification, the consumer group: "):
			e.Kind, e.Group = evNotify, strings.TrimPrefix(msg, "receive broker's notification, the consumer group: ")
		case strings.HasPrefix(msg, "the consumerGroup=") && strings.Contains(msg, " start beginning."):
			e.Kind, e.Group = evStart, bracket(msg, "consumerGroup=", ' ')
		case strings.HasPrefix(msg, "the topic [") && strings.Contains(msg, "] route info changed"):
			e.Kind, e.Topic = evRoute, bracket(msg, "topic [", ']')
			_, nv, _ := strings.Cut(msg, ",new ")
			e.Queues = routeQueues(e.Topic, nv)
		default:
			return false
		}
		return true
	}
	return len(e.Queues) > 0
}

// splitList reads a Java list "[a, b]" or a Go one "[a b]".
func splitList(s string) []string {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
}

// round reads the key=values of a Java rebalance result (R1, R1′; the 3.x wording too).
func (e *LogEvent) round(kv map[string]string) bool {
	e.Kind, e.Group, e.Topic, e.Strategy = evRound, kv["group"], kv["topic"], kv["allocateMessageQueueStrategyName"]
	e.ID = kv["clientId"]
	if e.ID == "" {
		e.ID = kv["ConsumerId"]
	}
	e.MQAll, e.CidAll = intOr(kv["mqAllSize"], -1), intOr(kv["cidAllSize"], -1)
	if set, ok := kv["rebalanceResultSet"]; ok {
		e.Result, e.HasSet = queuesIn(set), true
	}
	return e.Group != "" || e.Topic != ""
}

// isLogStart says whether a line starts as a log line of any layout (cheap, for the first
// bytes of a large input).
func isLogStart(s string) bool {
	s = strings.TrimLeft(s, " \t")
	if _, ok := goJSON(s); ok {
		return true
	}
	_, ok := splitLog(s)
	return ok
}

// looksLikeLog says whether the first lines of data are log lines, which may be larger than
// a paste.
func looksLikeLog(data []byte) bool {
	head := string(data[:min(len(data), 64<<10)])
	n := 0
	for _, l := range strings.Split(head, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if isLogStart(strings.TrimRight(l, "\r")) {
			return true
		}
		if n++; n == 50 {
			break
		}
	}
	return false
}

// logLine reads one line as a log line: true when it was one (used or counted); a line that
// continues the log line before it (a message cut by wrapping, a stack trace) is taken too.
func (r *reader) logLine(ln int, raw, s string) bool {
	lg := &r.logs
	l, ok := splitLog(s)
	if !ok && strings.HasPrefix(s, "{") {
		l, ok = goJSON(s)
	}
	if !ok && (strings.HasPrefix(s, "rebalanced ") || strings.HasPrefix(s, "client rebalanced ") || strings.HasPrefix(s, "doRebalance, ")) {
		// A message quoted without its stamp (logs §5 E3): read, off the timeline.
		l = logLine{layout: "a Java client's message without its stamp", msg: s}
		l.ev.MQAll, l.ev.CidAll, l.ev.NoDate, l.ev.Client = -1, -1, true, "java"
		ok = true
	}
	if ok {
		r.flushLog()
		lg.lines++
		if strings.Contains(l.msg, "ConsumerId not in cidAll") && l.fields != nil && !strings.HasPrefix(s, "{") {
			// The Go client's warning is read by selfRow (GoLogs); the event only adds its time.
			r.logEvent(ln, l)
			return false
		}
		if lg.lines == 1 {
			lg.first = len(r.out.Logs)
		}
		lg.pending, lg.pendingLn, lg.wrapped, lg.joined = s, ln, false, 0
		lg.depth = strings.Count(s, "[") - strings.Count(s, "]")
		r.current(KindClientLog, l.layout, ln)
		return true
	}
	if lg.lines == 0 {
		return false
	}
	t := strings.TrimLeft(raw, " \t")
	switch {
	case lg.pending != "" && lg.joined < maxJoined && (lg.depth > 0 || lg.wrapped && !strings.ContainsAny(t, " \t") && len(t) < 40):
		// A line wrapped where the paste was stored (logs §5 E8): joined as it was printed.
		piece := strings.TrimRight(raw, " \t")
		lg.wrapped, lg.joined = true, lg.joined+1
		lg.depth += strings.Count(piece, "[") - strings.Count(piece, "]")
		lg.pending += piece
	case raw != t || strings.HasPrefix(t, "Caused by:") || strings.HasPrefix(t, "... "),
		strings.HasPrefix(t, "java.") || strings.HasPrefix(t, "org.apache.rocketmq.") || strings.HasPrefix(t, "HeartbeatData ["):
		lg.skipped++ // a stack trace or a message's second line
	default:
		return false
	}
	if r.sec != nil && r.sec.Kind == KindClientLog {
		r.sec.To = ln
	}
	return true
}

// flushLog reads the pending log line, now that it is whole.
func (r *reader) flushLog() {
	lg := &r.logs
	if lg.pending == "" {
		return
	}
	s, ln := lg.pending, lg.pendingLn
	lg.pending = ""
	if l, ok := r.pendingLine(s); ok && r.logEvent(ln, l) {
		return
	}
}

func (r *reader) pendingLine(s string) (logLine, bool) {
	if l, ok := splitLog(s); ok {
		return l, true
	}
	if l, ok := goJSON(s); ok {
		return l, true
	}
	l := logLine{layout: "a Java client's message without its stamp", msg: s}
	l.ev.MQAll, l.ev.CidAll, l.ev.NoDate, l.ev.Client = -1, -1, true, "java"
	return l, true
}

// logEvent records the event of a log line, if the line is one that matters.
func (r *reader) logEvent(ln int, l logLine) bool {
	e := l.ev
	e.Ref = r.ref(ln)
	var ok bool
	if l.fields != nil {
		ok = e.goEvent(l.msg, l.fields)
	} else {
		ok = e.javaEvent(l.msg)
	}
	if !ok {
		return false
	}
	lg := &r.logs
	lg.read++
	if e.Kind == evHeld && len(e.Queues) == 1 {
		// Every 5 s per queue: while nothing else happens, one event says it all.
		k := heldKey{e.ID, e.Queues[0]}
		if at, ok := lg.held[k]; ok && at[1] == lg.epoch {
			x := &r.out.Logs[at[0]]
			x.until, x.untilRef, x.Offset, x.HasOffset = e.Local, e.Ref, e.Offset, e.HasOffset
			return true
		}
		if lg.held == nil {
			lg.held = map[heldKey][2]int{}
		}
		lg.held[k] = [2]int{len(r.out.Logs), lg.epoch}
	} else {
		lg.epoch++
	}
	if len(r.out.Logs) >= MaxLogEvents {
		if !lg.over {
			lg.over = true
			r.note(ln, "log.too-many", MaxLogEvents)
		}
		return true
	}
	if e.Kind == evFailed {
		e.Text = clip(l.msg, 200)
	}
	r.out.Logs = append(r.out.Logs, e)
	return true
}

// logsDone ends an input's log lines: the last pending line, the 4.3.0–4.7.1 stamps and a note
// of what was read and skipped.
func (r *reader) logsDone() {
	r.flushLog()
	lg := &r.logs
	if lg.lines == 0 {
		return
	}
	evs := r.out.Logs[lg.first:]
	bug, n := true, 0
	for _, e := range evs {
		if e.Client == "java" && !e.Secs && !e.NoDate {
			n++
			if e.ms != e.sec {
				bug = false
			}
		}
	}
	if bug && n > 0 {
		// ",sss" prints the seconds again (logs §1.1): the stamps have no millis.
		for i := range evs {
			if evs[i].Client == "java" && !evs[i].Secs {
				evs[i].Local -= int64(evs[i].ms)
				if evs[i].until > 0 {
					evs[i].until -= evs[i].until % 1000
				}
				evs[i].Secs = true
			}
		}
		for i := range r.out.Sections {
			if s := &r.out.Sections[i]; s.Input == r.name && s.Kind == KindClientLog && s.Layout == "Java client 4.3–5.0 (inner logger)" {
				s.Layout = "Java client 4.3.0–4.7.1 (inner logger; ',sss' repeats the seconds: no millis)"
			}
		}
	}
	r.note(0, "log.read", lg.lines+lg.skipped, lg.read, lg.lines+lg.skipped-lg.read)
}
