package admin

import (
	"fmt"
	"strings"
)

// FindingWords are the English words of each kind of finding, by variant (the code, or the
// code and a case: "unowned-queues.observed"): its title and fix as fmt formats whose verbs
// name their argument ("%[2]d"), filled by the finding's Args. The project's dictionary
// (assets/words.json) holds the same texts in English and Chinese as
// "api.finding.<variant>.title" and ".fix", which the page shows; a test holds its English to
// these. An argument that is a list ([]string) reads "a and b" in English.
var FindingWords = map[string]struct{ Title, Fix string }{
	"allocation-ok": {"the allocation is sound",
		"nothing to fix in the balancing; if messages pile up on one queue, look inside its owner (consumerStatus -i, jstack)"},
	"allocation-ok.incomplete": {"the allocation is sound",
		"nothing to fix in the balancing; if messages pile up on one queue, look inside its owner (consumerStatus -i, jstack). The member list came from %[1]s, which hides duplicate ids: check with %[2]s"},
	"duplicate-client-id": {"duplicate client id %[1]s",
		"give every process its own client id: a distinct instanceName (ClientConfig#setInstanceName, -Drocketmq.client.name) or client IP; containers with the same IP and PID collide (apache/rocketmq#2760, #1547). A restarted process whose old connection is still registered is listed twice until it expires (120 s, spec §5.6)"},
	"loopback-client-ip": {"%[1]d members report the client IP 127.0.0.1",
		"make the hosts resolve to a routable address, or set the client IP explicitly (ClientConfig#setClientIP); the client id is clientIP@instanceName (spec §1.2)"},
	"loopback-client-ip.hosts": {"%[1]d members report the client IP 127.0.0.1 from %[2]d hosts",
		"make the hosts resolve to a routable address, or set the client IP explicitly (ClientConfig#setClientIP); the client id is clientIP@instanceName (spec §1.2)"},
	"mixed-sdk": {"members of %[1]s in one group",
		"keep one SDK per group, or use AVG, which both compute alike"},
	"idle-consumers": {"%[1]d of %[2]d members get no queue of %[3]s",
		"add read (and write) queues to %[3]s (mqadmin updateTopic -r N -w N) or run fewer consumers"},
	"idle-consumers.not-in-list": {"%[1]s is not in the consumer list it was given",
		"usually transient after a start; if it persists, the broker asked is not receiving this client's heartbeats (check its connection to every master)"},
	"unowned-queues": {"%[1]s: %[2]s pulled by nobody",
		"see the duplicate-client-id finding: each id must be unique"},
	"unowned-queues.clients": {"%[1]s: %[2]s pulled by nobody",
		"the members' clients disagree (see mixed-sdk): keep one SDK per group, or use AVG"},
	"unowned-queues.observed": {"%[1]s: %[2]d queues observed without an owner",
		"compare with the expected allocation: a missing member, a duplicate id or a member with another subscription leaves its share unpulled"},
	"double-owned-queues": {"%[1]s: %[2]s pulled by more than one member",
		"the members' clients disagree (see mixed-sdk): keep one SDK per group, or use AVG"},
	"double-owned-queues.observed": {"%[1]d queues held by more than one member",
		"members disagree about the group (different consumer lists, strategies or SDKs): make every member see the same list and run the same strategy"},
	"read-write-mismatch": {"%[1]s on %[2]s: read %[3]d ≠ write %[4]d",
		"make them equal (mqadmin updateTopic -r N -w N); shrink write first, wait until the extra read queues are drained, then shrink read"},
	"read-write-mismatch.no-topic": {"the topic on %[1]s: read %[2]d ≠ write %[3]d",
		"make them equal (mqadmin updateTopic -r N -w N); shrink write first, wait until the extra read queues are drained, then shrink read"},
	"read-write-mismatch.rows": {"%[1]s on %[2]s: %[3]d queues in consumerProgress, %[4]d in topicStatus",
		"confirm with mqadmin topicRoute -t %[1]s, then make the counts equal (mqadmin updateTopic -r N -w N)"},
	"unwritten-queues": {"%[1]s: %[2]d queues never written",
		"check the write queue count and perm of those brokers (topicRoute), and producers' MessageQueueSelector"},
	"subscription-mismatch": {"members subscribe differently",
		"every member of a group must subscribe the same topics with the same expressions; use a group per subscription"},
	"lag-on-owned-queue": {"%[1]s lags %[2]d behind while %[3]s's other queues keep up",
		"take a jstack of the owner and look at what consumes that queue"},
	"lag-on-owned-queue.blocked": {"a queue stalls inside its owner %[1]s",
		"take a jstack of %[1]s (consumerStatus -i … -s) and look at the consume threads"},
	"grpc-consumers": {"the group's consumers are 5.x gRPC (proxy) clients",
		"diagnose with the proxy's view (consumerProgress, the broker's POP metrics) rather than with allocation"},
}

// worded gives f the title and fix of its variant's words filled with args.
func worded(f Finding, variant string, args ...any) Finding {
	w, ok := FindingWords[variant]
	if !ok {
		panic("admin: no words for the finding " + variant) // a bug: every variant is in the table
	}
	f.Words, f.Args = variant, args
	f.Title, f.Fix = FormatWords(w.Title, args, " and "), FormatWords(w.Fix, args, " and ")
	return f
}

// FormatWords fills a finding's format with its args, a list argument joined with and.
func FormatWords(format string, args []any, and string) string {
	if !strings.Contains(format, "%") {
		return format
	}
	out := make([]any, len(args))
	for i, a := range args {
		if l, ok := a.([]string); ok {
			a = strings.Join(l, and)
		}
		out[i] = a
	}
	return fmt.Sprintf(format, out...)
}
