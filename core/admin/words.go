package admin

import "errors"

// Words are the English words of what the diagnosis says besides its findings (what no paste
// gives, what it assumed, left out or could not compute), by key, as fmt formats whose verbs
// name their argument, filled by a Said's Args. The project's dictionary (assets/words.json)
// holds the same texts in English and Chinese as "api.said.<key>", which the page shows; a test
// holds its English to these.
//
// A Field argument is one of the options with which a reader fills a gap (Options): each
// driver words it in its own terms, the command line as its flag ("pass --queues"), the page
// as its dialog's field ("fill in the Queues field"); a FieldName argument is the option's
// name ("--queues", "the Queues field").
var Words = map[string]string{
	"missing.connections":   "the connections (consumerStatus lists each client id once, so duplicates are invisible)",
	"missing.members":       "the group's members",
	"missing.strategy":      "the allocation strategy (AVG assumed)",
	"missing.offsets":       "offsets, lag and each queue's owner",
	"missing.queues":        "the queues of %[1]s",
	"missing.full-group":    "the group's full name: %[1]s is %[2]d characters long, where %[3]s cuts names, so the real name may be longer (%[4]s; the commands here need the full name)",
	"missing.full-topic":    "the topic's full name: %[1]s is %[2]d characters long, where %[3]s cuts names, so the real name may be longer",
	"assumed.strategy":      "%[1]s %[2]s ignored: the running info at %[3]s names %[4]s",
	"assumed.virtual-nodes": "CONSISTENT_HASH with the default 10 virtual nodes (no output prints virtualNodeCnt)",
	"assumed.clustering":    "message model CLUSTERING (no paste says; consumerConnection prints it)",
	"assumed.route-topic":   "the group consumes %[1]s, the topic of the pasted route (no paste lists its subscriptions)",
	"assumed.unknown-topic": "the topic's name is not in the paste: it is shown as %[1]s (%[2]s to name it)",
	"left.group":            "group %[1]s (only one group is diagnosed at a time; %[2]s to pick it)",
	"left.custom-strategy":  "the custom strategy %[1]s (its allocation cannot be computed)",
	"alloc.needs-topic":     "not computed: %[1]s depends on the topic's name, which no paste gives (%[2]s)",
	"alloc.needs-config":    "not computed: %[1]s needs its configuration, which no output prints",
	"alloc.needs-resolver":  "not computed: MACHINE_ROOM_NEARBY needs the application's machine-room resolver, which no output prints",
	"alloc.failed":          "not computed: %[1]s",
	"scenario.no-topic":     "no topic with known queues: the scenario needs one (paste topicRoute, or %[1]s)",
	"scenario.does-not-fit": "the group does not fit a scenario: %[1]s",
	"field.bad":             "%[1]s: %[2]s",
	// What a group's scenario leaves out.
	"left.topic-name":        "the topic's name %[1]q (the scenario calls it %[2]s)",
	"left.group-name":        "the group's name %[1]q (not a valid scenario name; called %[2]s)",
	"left.perm":              "%[1]s's write queues on %[2]s (its perm %[3]d is not writable; the scenario writes them)",
	"left.strategy":          "the strategy %[1]s (its configuration is not in the paste; the scenario uses AVG)",
	"left.copies":            "the copies of %[1]s beyond the second",
	"left.client-id":         "the client id %[1]q (not a valid scenario id; called %[2]s)",
	"left.client":            "the %[1]s members' own client (no profile for it: they run as the current Java client)",
	"left.topic":             "the topic %[1]s",
	"left.subscription":      "the subscription of %[1]s (%[2]s), whose client id is not among the members",
	"left.subscription-name": "the subscription of %[1]s (%[2]q, not a valid scenario name)",
	"left.tags":              "the members' different tag expressions for %[1]s (the simulated messages carry no tags)",
	"left.expr":              "the expression %[3]q of %[1]s for %[2]s (not tags the scenario can name: it subscribes every message)",
	// What the user sees, a finding's explanation, in parts.
	"sees.ok":                "every queue of %[1]s has exactly one owner under %[2]s (spread %[3]d)",
	"sees.ok.observed":       "; the %[1]d queues whose owner is observed agree",
	"sees.duplicate":         "%[1]d connections share the id %[2]s: each copy pulls the same queues (messages consumed twice)",
	"sees.duplicate.orphans": "; %[1]s %[2]s is pulled by nobody",
	"sees.loopback":          "their ids differ only by the part after '@' (the PID or instance name): two processes with the same PID on two hosts get the same id and split the work as one (duplicate-client-id)",
	"sees.mixed.both":        "Computed with each member's own client, on %[1]s: %[2]s pulled twice, %[3]s pulled by nobody. ",
	"sees.mixed.twice":       "Computed with each member's own client, on %[1]s: %[2]s pulled twice. ",
	"sees.mixed.nobody":      "Computed with each member's own client, on %[1]s: %[2]s pulled by nobody. ",
	"sees.mixed.agree":       "Computed with each member's own client, Java and Go agree on %[1]s: every queue has one owner. ",
	"sees.mixed.avg":         "Under %[1]s a Go v2 client sorts and splits as Java does (byte order instead of UTF-16 order only matters for exotic characters, spec §9.1.4), so the two agree; Go clients before v2.0.0-rc2 sorted descending and overlapped (rocketmq-client-go#419). Every Go v2 client reports V4_5_2, so the version column cannot tell them apart",
	"sees.mixed.hash":        "Under CONSISTENT_HASH the Go client builds another ring (CRC-32 keys, spec §9.1.3): Java and Go members compute different allocations, so queues are pulled twice and others by nobody (rocketmq-client-go#419)",
	"sees.mixed.nearby":      "The Go client's MachineNearby is plain AVG (spec §9.1.11): Go members ignore machine rooms while Java members honour them, so queues overlap and go unowned",
	"sees.mixed.other":       "The clients implement %[1]s differently (spec §9.1.3)",
	"sees.idle":              "%[1]d connections for %[2]d queues: the members after the first %[2]d in client-id order pull nothing and only stand by",
	"sees.idle.not-in-list":  "the Go client takes nothing when its own id is missing from the broker's list (spec §9.1.3): its queues stay with nobody until the broker sees its heartbeat",
	"sees.unowned":           "these queues are in no member's allocation: their messages pile up until the group changes",
	"sees.unowned.observed":  "%[1]d queues of %[2]s are held by no client",
	"sees.unowned.caveat":    " (consumerProgress prints N/A both for a queue nobody holds and for every queue after a client that cannot answer the running-info request, formats §3: confirm with consumerStatus -i per client)",
	"sees.double":            "the members' own allocations overlap: these queues are consumed twice and their offsets overwrite each other",
	"sees.double.observed":   "two members pull the same queue: messages are consumed twice and offsets overwrite each other",
	"sees.the-topic":         "the topic",
	"sees.rw.more-read":      "%[1]s on %[2]s: %[3]d read queues but %[4]d write queues: consumers are given queues %[5]d–%[6]d, which nobody writes, so members holding only those consume nothing",
	"sees.rw.more-write":     "%[1]s on %[2]s: %[3]d write queues but %[4]d read queues: messages written to queues %[5]d–%[6]d are pulled by nobody",
	"sees.rw.rows":           "read and write queue counts differ: either consumers are given queues nobody writes, or messages go to queues nobody reads",
	"sees.unwritten":         "the other queues of %[1]s hold %[2]d messages or more, these none: producers do not send to them",
	"sees.subscription":      "the broker keeps the subscription of the latest heartbeat: each member's share of a topic it does not subscribe is never consumed, and tags of the loser are filtered out (spec §5.7)",
	"sees.blocked":           "the owner has messages cached for this queue and has not consumed any for more than a minute: a stall inside the consumer (a slow or stuck listener, an orderly lock), not a balancing fault",
	"sees.lag":               "one owner, and only one of its queues falls behind: a stall inside the consumer (a poison message, a slow key, an orderly lock), not balancing",
	"sees.grpc":              "retry topics named %%RETRY%%group_topic belong to gRPC consumers: the proxy, not the client, assigns queues (POP, spec §8.1), so client-side strategies and the expected allocation do not apply",
	// The lines behind a finding.
	"evidence.topic":         "%[1]s: %[2]d queues (%[3]s)",
	"evidence.members":       "%[1]d member(s) (%[2]s)",
	"evidence.connection":    "connection of %[1]s",
	"evidence.from":          "%[1]s from %[2]s",
	"evidence.language":      "%[1]d %[2]s member(s), e.g. %[3]s %[4]s",
	"evidence.no-queue":      "%[1]s gets no queue of %[2]s",
	"evidence.readable":      "%[1]s has %[2]d readable queues (%[3]s)",
	"evidence.cid-all":       "cidAll=%[1]s consumerId=%[2]s",
	"evidence.member":        "member %[1]s",
	"evidence.no-owner":      "%[1]s has no owner",
	"evidence.not-held":      "%[1]s is in no member's running info",
	"evidence.computes":      "%[1]s (%[2]s) computes %[3]s",
	"evidence.computes-none": "%[1]s (%[2]s) computes none",
	"evidence.held-by":       "%[1]s held by %[2]s",
	"evidence.counts":        "readQueueNums %[1]d, writeQueueNums %[2]d",
	"evidence.progress-rows": "consumerProgress lists %[1]d queues (read queues)",
	"evidence.status-rows":   "topicStatus lists %[1]d queues (write queues, up to 5.2)",
	"evidence.unwritten":     "%[1]s broker offset 0",
	"evidence.line":          "%[1]s",
	"evidence.subscribes":    "%[1]s: %[2]s",
	"evidence.offsets":       "%[1]s broker offset %[2]d, consumer offset %[3]d",
	"evidence.owner":         "owner %[1]s",
	"evidence.retry-topic":   "retry topic %[1]s",
	// Where a topic's queues or the group's members were read.
	"source.topic-route":   "topicRoute",
	"source.offset-rows":   "offset rows (one per read queue)",
	"source.status-rows":   "topicStatus rows (write queues; read queues assumed equal)",
	"source.queues":        "%[1]s",
	"source.retry-assumed": "assumed: one queue per broker (retryQueueNums defaults to 1)",
	"source.connection":    "consumerConnection",
	"source.go-cid-all":    "a Go client's cidAll",
	"source.status":        "consumerStatus",
	"source.running-info":  "running info",
	// What the reader notes about the pastes, and the inputs it refuses.
	"note.dashboard-status": "the Dashboard answered status %[1]d: %[2]s",
	"note.remoting-header":  "remoting header skipped (language %[1]s, version %[2]s)",
	"note.json-unknown":     "JSON from line %[1]d to %[2]d not recognised (keys: %[3]s)",
	"note.json-mid":         "the JSON at line %[1]d starts inside a document (the paste begins mid-way); read as far as it goes",
	"note.json-stops":       "the JSON that starts at line %[1]d stops at line %[2]d: what follows is not JSON",
	"note.json-cut":         "the JSON that starts at line %[1]d is cut at line %[2]d (the paste ends inside it); read as far as it goes",
	"note.retry-stop":       "consumerStatus of 4.0–4.1 stops here on a %%RETRY%% queue (ROCKETMQ-291, fixed in 4.2): the lines it would have printed next are missing",
	"note.skipped":          "skipped: %[1]s",
	"note.mark":             "the %[1]q before the row is not part of the output (a mark?); read without it",
	"note.cut-line":         "the paste ends inside this line, which is cut: %[1]q",
	"note.not-recognised":   "not recognised: %[1]q",
	"note.cut-names":        "%[1]s or %[2]s is exactly as long as consumerProgress cuts names (%[3]d for topics, 32 for brokers): the real name may be longer (formats §3)",
	"note.unused-part":      "lines of #%[1]s# are not used for the diagnosis",
	"note.after-value":      "%[1]q after the value is not part of the output (a mark?)",
	"note.cut-client":       "the client id at line %[1]d may be cut: the paste ends on it",
	"note.too-many":         "more than %[1]d notes for %[2]s; the rest are not listed",
	"json.too-many":         "more than %[1]d JSON values; the reader stops here",
	"json.too-deep":         "JSON nested deeper than %[1]d levels at line %[2]d; the reader stops here",
	"json.unbalanced":       "JSON closes more than %[1]d levels it never opened (line %[2]d); the reader stops here",
	"input.too-large":       "%[1]s is %[2]d bytes; the limit is %[3]d MiB per input (paste the outputs; a client log may be larger)",
	"input.too-much":        "%[1]s goes past %[2]d MiB for all inputs together; it was not read",
	"input.nul":             "%[1]s has a NUL byte at offset %[2]d: it is not text an admin tool prints",
	"input.control":         "%[1]s has %[2]d invalid or control bytes in %[3]d: it is not text an admin tool prints",
	// What the Dashboard's page tables (tables.go) assume, miss and note.
	"assumed.dashboard-queues":  "%[1]s has the %[2]d queues the Dashboard's consume detail lists, all on %[3]s; dashboard 2.0.0 lists the first broker's only (rocketmq-dashboard#297): paste the topic's route (topicRoute or its ROUTER dialog) if it has queues on other brokers",
	"missing.dashboard-owner":   "whether the %[1]d queues of %[2]s with an empty consumerClient are owned: the Dashboard leaves the cell empty also for a client that cannot answer the running-info request (Go, gRPC and C++ clients), for every client after one that failed, and for the second process of a duplicate id",
	"note.table-guessed":        "the columns of this table are guessed from their content (line %[1]d): %[2]s",
	"note.table-cut-header":     "the paste ends inside this table header; only its first columns are known: %[1]q",
	"note.table-cut-row":        "the paste ends inside this row (%[1]d of %[2]d cells): it is not used",
	"note.table-row":            "this row does not fit the table above it: %[1]q",
	"note.table-capped":         "cells beyond the first %[1]d of a row, and bytes beyond %[2]d in a cell, are not read",
	"note.table-no-topic":       "the queue rows from line %[1]d name no topic: no Topic row or dialog title above them gives it",
	"note.track":                "a message's track (message detail page): group %[1]s is %[2]s for it",
	"note.dash-quantity":        "the consumer list's Quantity for %[1]s is %[2]d connections, not client ids: the connections pasted show %[3]d distinct client id(s) in %[4]d row(s), so some client id has several connections: duplicate client ids (two processes with one id) or one client connected more than once (an old connection not yet expired); or the list and the connections were copied at different moments",
	"note.dash-quantity.detail": "the consumer list's Quantity for %[1]s is %[2]d connections, not client ids, and the consume detail names %[3]d distinct client id(s): duplicate client ids or several connections per client would explain it, and so would clients the consume detail cannot name (holding no queue, or not answering the Dashboard); paste the CLIENT dialog, one row per connection, to tell",
	"note.dash-delay":           "the consumer list's Delay for %[1]s is %[2]d, the consume detail's queues add up to %[3]d, all on %[4]s: dashboard 2.0.0 lists the first broker's queues only (rocketmq-dashboard#297), so the other brokers' queues are missing from the detail; else the two were copied at different times",
	"note.dash-broadcast":       "%[1]s consumes BROADCASTING: each client keeps its own offsets (apache/rocketmq#1539), so the broker-side Delay and diffTotal (%[2]d here) say nothing of how far its clients are (4.9 brokers show 0, 5.3 other values: apache/rocketmq#9354)",
	"note.dash-empty-sdk":       "%[1]d queue(s) show no consumerClient, and the group has %[2]s member(s) (%[3]d: %[4]s): the Dashboard cannot read their running info (Go: apache/rocketmq-client-go#301, #664; C++: apache/rocketmq-client-cpp#402), so the queues they hold, and those of every client asked after them, show empty: an empty cell is no sign of an unowned queue here",
	"note.dash-empty-grpc":      "%[1]d queue(s) show no consumerClient, and the group has gRPC consumers (its %%RETRY%%group_topic retry topics): the Dashboard cannot read their running info (rocketmq-dashboard#356), so their cells are empty whoever holds the queues: an empty cell is no sign of an unowned queue here",
}

// Field is an option with which a reader fills what the pastes do not say.
type Field string

// The fields of Options that the diagnosis's words point at.
const (
	FieldQueues   Field = "queues"
	FieldTopic    Field = "topic"
	FieldGroup    Field = "group"
	FieldStrategy Field = "strategy"
)

// FieldName is a Field named as a noun: "--queues".
type FieldName Field

// Terms word fields: Hint says how to fill one ("pass --queues"), Name names it ("--queues");
// Said words a sentence that is a value of another (nil: in English).
type Terms struct {
	Hint func(Field) string
	Name func(FieldName) string
	Said func(Said) string
}

// CLI are the command line's terms: its flags.
var CLI = Terms{
	Hint: func(f Field) string { return "pass --" + string(f) },
	Name: func(f FieldName) string { return "--" + string(f) },
}

// Said is one sentence of the diagnosis: the key of its words and the values they take.
type Said struct {
	Key  string
	Args []any
}

// say makes a Said; an unknown key is a bug (every key is in Words).
func say(key string, args ...any) Said {
	if _, ok := Words[key]; !ok {
		panic("admin: no words for " + key)
	}
	return Said{Key: key, Args: args}
}

// String is the sentence in English, its fields worded as the command line words them.
func (s Said) String() string {
	return s.Word(Words[s.Key], " and ", CLI)
}

// Word fills format (the sentence's words in some language) with the sentence's values, its
// fields worded in terms and a list joined by and.
func (s Said) Word(format string, and string, terms Terms) string {
	args := make([]any, len(s.Args))
	for i, a := range s.Args {
		switch v := a.(type) {
		case Field:
			a = terms.Hint(v)
		case FieldName:
			a = terms.Name(v)
		case Said:
			if terms.Said != nil {
				a = terms.Said(v)
			} else {
				a = v.String()
			}
		}
		args[i] = a
	}
	return FormatWords(format, args, and)
}

// SaidError is an error that is one sentence of the diagnosis, so that a reader can word it in
// its own language and terms.
type SaidError struct{ Said Said }

func (e *SaidError) Error() string { return e.Said.String() }

// Sentence returns the sentence an error is, if it is one.
func Sentence(err error) (Said, bool) {
	var se *SaidError
	if errors.As(err, &se) {
		return se.Said, true
	}
	return Said{}, false
}

func sayErr(key string, args ...any) error { return &SaidError{Said: say(key, args...)} }

// sources are the keys of the places a topic's queues (Topic.Source) or the group's members
// (Group.MembersSource) are read from.
var sources = map[string]string{
	"topicRoute":                       "source.topic-route",
	"offset rows (one per read queue)": "source.offset-rows",
	"topicStatus rows (write queues; read queues assumed equal)": "source.status-rows",
	"--queues": "source.queues",
	"assumed: one queue per broker (retryQueueNums defaults to 1)": "source.retry-assumed",
	"consumerConnection":   "source.connection",
	"a Go client's cidAll": "source.go-cid-all",
	"consumerStatus":       "source.status",
	"running info":         "source.running-info",
}

// sourceSaid is a source as a sentence, a value of another.
func sourceSaid(source string) any {
	key, ok := sources[source]
	switch {
	case !ok:
		return source
	case key == "source.queues":
		return say(key, FieldName(FieldQueues))
	}
	return say(key)
}
