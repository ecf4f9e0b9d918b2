package admin

// The words of the log reader and the history, added to Words and FindingWords (and so to the
// dictionary's "api.said.*" and "api.finding.*").
var logWords = map[string]string{
	"log.too-many":           "more than %[1]d lines about rebalancing in all: the history stops here (cut the logs to the window of interest)",
	"left.log-members":       "the log lines of %[1]d members beyond the first %[2]d (a group rarely has more)",
	"log.read":               "%[1]d log lines: %[2]d about rebalancing read, %[3]d skipped (other log lines, stack traces)",
	"input.too-large-log":    "%[1]s is %[2]d bytes; the limit is %[3]d MiB per log (cut it to the window of interest)",
	"assumed.log-zone":       "log stamps without a zone are read in UTC%[1]s, as RocketMQ's default pattern prints them (%[2]s to change it)",
	"sees.flapping":          "the member's rounds keep giving queues away and taking them back: each handover stops consumption on them and may consume messages twice",
	"sees.views":             "two members rebalancing at the same moment (within %[1]s) counted different consumers: each computes its share from another list, so their shares overlap or leave queues to nobody",
	"sees.double-window":     "two members pulled the queue at once: the new owner started before the old one gave it up; messages of that span may be consumed twice",
	"sees.orphan-window":     "nobody pulled the queue: its messages waited until the next owner's round",
	"sees.storm":             "more rounds than the 20 s rebalance gives (%[1]d a minute) with the same consumer and queue counts and no notification: every round that moves queues pauses them",
	"sees.differs":           "the member took other queues than the strategy gives it from the lists its logs show: it computed from another consumer list or route, or runs another strategy",
	"sees.ok.history":        "every round whose lists are known is what the strategy gives; no member flapped, stormed or saw another group",
	"evidence.round":         "%[1]s at %[2]s: mqAllSize %[3]d, cidAllSize %[4]d, result %[5]s",
	"evidence.took":          "%[1]s took %[2]s at %[3]s",
	"evidence.gave-up":       "%[1]s gave up %[2]s at %[3]s",
	"evidence.double-window": "%[1]s from %[2]s for %[3]s: %[4]s",
	"evidence.orphan-window": "%[1]s from %[2]s for %[3]s: %[4]s",
	"evidence.storm":         "%[1]s, %[2]s: %[3]d rounds within a minute from %[4]s",
	"evidence.differs":       "%[1]s at %[2]s took %[3]s; expected %[4]s (%[5]s)",
	"evidence.checked":       "%[1]d rounds of %[2]d members held against %[3]s",
	// What the scenario of a history leaves out.
	"left.log-relative":   "the member %[1]s, whose log stamps have no date (not on the others' timeline)",
	"left.log-member-id":  "the member %[1]q (not a valid scenario id)",
	"left.log-holdings":   "%[1]d logged holdings beyond the first %[2]d",
	"left.log-topic":      "the logged holdings of %[1]s (a scenario has one topic)",
	"scenario.no-members": "no member of the logs is on one timeline: the scenario needs one",
}

var logFindingWords = map[string]struct{ Title, Fix string }{
	"rebalance-flapping": {"%[1]s took and gave up %[2]s back and forth (%[3]d changes, every %[4]s)",
		"a member's view of the group keeps changing: look for a consumer that restarts or loses its connection (the broker's NETTY EVENT and SCAN lines), members with different subscriptions, or heartbeats that expire (120 s)"},
	"views-disagree": {"%[1]s counted %[2]d consumers while %[3]s counted %[4]d at %[5]s",
		"one member's consumer list is stale or partial: a member that does not reach every broker, or whose heartbeat a broker has not seen; check consumerConnection on each broker"},
	"double-owned-window": {"%[1]d spans in which a queue had two owners, the longest %[2]s (%[3]s from %[4]s)",
		"short spans are a handover's own (the new owner starts before the old one's round); long ones mean a member kept a queue it should have given up (orderly lock or removal failures: the [WRONG] and lock lines)"},
	"orphaned-window": {"%[1]d spans in which a queue had no owner, the longest %[2]s (%[3]s from %[4]s)",
		"after a member leaves, its queues wait for the others' next round: at once after the broker's notification, up to 20 s without one (a heartbeat expiry sends none); long spans: check that the brokers notify (notifyConsumerIdsChangedEnable) and that members rebalance"},
	"rebalance-storm": {"%[1]s rebalanced up to %[2]d times a minute (quiet: %[3]d)",
		"find what changes so often: members joining and leaving (the notifications), or on 5.2+ a queue whose lock keeps failing, retried every second"},
	"allocation-differs": {"%[1]d rounds differ from what %[2]s gives",
		"compare the member's cidAllSize and mqAllSize with the others': a stale consumer list or route, or another strategy on that member"},
	"allocation-ok.history": {"the logged rounds are what %[1]s gives",
		"nothing to fix in the balancing over the logged rounds; spans without an owner or with two are the handovers' own"},
}

// FieldLogZone is the zone of log stamps that carry none.
const FieldLogZone Field = "log-zone"

func init() {
	for k, v := range logWords {
		Words[k] = v
	}
	for k, v := range logFindingWords {
		FindingWords[k] = v
	}
	Codes = append(Codes, CodeRebalanceFlapping, CodeViewsDisagree, CodeDoubleOwnedWindow, CodeOrphanedWindow, CodeRebalanceStorm, CodeAllocationDiffers)
}
