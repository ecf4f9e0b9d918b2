package scenario

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/profile"
)

// Clock formats virtual milliseconds as mm:ss, or h:mm:ss from an hour on.
func Clock(ms int64) string { return cluster.Clock(ms) }

// isolationQuiet is how long a broker must go without a new isolation before another one is
// printed on its own line: a slow broker is isolated again every few seconds.
const isolationQuiet = 30000

// failureQuiet is how long a member's sends-back must pause before the next is told.
const failureQuiet = 5000

// maxRepeatTimes bounds the times of repeated isolations listed on the summary line.
const maxRepeatTimes = 12

// Text is the run as a readable timeline: what happened when, in words, then the anomalies,
// the final assignment and the counts. It needs a Result run with Events.
func (r *Result) Text(s Scenario) string {
	var b strings.Builder
	snap := r.Snapshot
	plural := pluralRun(snap)
	if plural {
		b.WriteString(pluralHeader(r, s))
	} else {
		_, queues := topicQueues(s.Config)
		model := snap.MessageModel
		fmt.Fprintf(&b, "seed %d · %s on %s · %s%s · %s · %s · until %s\n", r.Seed,
			count(queues, "queue"), count(len(s.Brokers), "broker"), count(len(s.Consumers), "consumer"),
			clientCounts(s.Consumers), strategyName(s), model, Clock(r.Until))
	}
	if s.Title != "" {
		fmt.Fprintf(&b, "%s\n", s.Title)
	}
	b.WriteString("\n")

	lastIsolation := map[string]int64{}
	repeats := map[string]int{}
	repeatAt := map[string][]string{}
	// A failing listener sends messages back every step, and a broker revives a dead POP
	// member's messages every second: the first of a run of them is told, the others within
	// 5 s of the last are counted, per member, cause and broker (a message's own climb of the
	// delay ladder, 10 s a step at least, is told whole).
	lastFailure := map[string]int64{}
	failureRepeats := map[string]int64{}
	var failureKeys []string
	for _, e := range r.Events {
		switch e.Kind {
		case cluster.EventInfo:
			if e.Cause != cluster.CauseSendBack && e.Cause != cluster.CauseDeadLetter && e.Cause != cluster.CauseSuspend && e.Cause != cluster.CauseRevive {
				break
			}
			key := e.Cause + " " + e.Consumer + " " + e.Group + " " + e.Broker
			if t, ok := lastFailure[key]; ok && e.T-t < failureQuiet {
				lastFailure[key] = e.T
				if failureRepeats[key] == 0 {
					failureKeys = append(failureKeys, key)
				}
				if e.Cause == cluster.CauseSuspend {
					failureRepeats[key]++ // a suspension's N is its message's failures, not messages
				} else {
					failureRepeats[key] += e.N
				}
				continue
			}
			lastFailure[key] = e.T
		case cluster.EventIsolation:
			if t, ok := lastIsolation[e.Broker]; ok && e.T-t < isolationQuiet {
				lastIsolation[e.Broker] = e.T
				repeats[e.Broker]++
				if len(repeatAt[e.Broker]) < maxRepeatTimes {
					repeatAt[e.Broker] = append(repeatAt[e.Broker], Clock(e.T))
				}
				continue
			}
			lastIsolation[e.Broker] = e.T
		case cluster.EventAnomaly:
			continue // listed with their durations below
		}
		marker := " "
		if e.Kind == cluster.EventAction {
			marker = ">"
		}
		if e.Kind == cluster.EventDetail {
			// A pop or an ack: the millisecond matters (a long poll's hold, §8.6.6).
			fmt.Fprintf(&b, "%s.%03d %s\n", Clock(e.T), e.T%1000, e.Text)
			continue
		}
		fmt.Fprintf(&b, "%s %s %s\n", Clock(e.T), marker, e.Text)
	}
	for _, a := range r.Actions {
		if a.Error != "" {
			fmt.Fprintf(&b, "%s ! %s refused: %s\n", Clock(a.T), a.Type, a.Error)
		}
	}
	if brokers := sortedKeys(repeats); len(brokers) > 0 {
		for _, name := range brokers {
			at := strings.Join(repeatAt[name], " ")
			if repeats[name] > maxRepeatTimes {
				at += " …"
			}
			fmt.Fprintf(&b, "        (%s was avoided again %s, from %s; repeats within 30 s are not listed)\n", name, count(repeats[name], "more time"), at)
		}
	}

	for _, key := range failureKeys {
		f := strings.Fields(key)
		what, through := "sent back", "through"
		switch f[0] {
		case cluster.CauseDeadLetter:
			what = "dead-lettered"
		case cluster.CauseRevive:
			what, through = "revived", "on" // a broker's revive rounds, one a second
		}
		who := f[1]
		if len(f) == 4 {
			who += " in " + f[2]
		}
		if f[0] == cluster.CauseSuspend {
			fmt.Fprintf(&b, "        (%s's queues on %s were suspended %s more; repeats within 5 s are not listed)\n", who, f[len(f)-1], count(int(failureRepeats[key]), "time"))
			continue
		}
		fmt.Fprintf(&b, "        (%s had %s more %s %s %s; repeats within 5 s are not listed)\n", who, count(int(failureRepeats[key]), "message"), what, through, f[len(f)-1])
	}

	if len(r.Anomalies) > 0 {
		b.WriteString("\nanomalies (a queue pulled by two consumers, or by none)\n")
		for _, g := range groupAnomalies(r.Anomalies) {
			a := g.first
			end, dur := "…", "still open"
			if a.End != 0 {
				end, dur = Clock(a.End), msText(a.End-a.Start)
			}
			who := ""
			if len(a.Owners) > 0 {
				who = " by " + strings.Join(a.Owners, ", ")
			}
			group := ""
			if a.Group != "" {
				group = a.Group + " "
			}
			fmt.Fprintf(&b, "  %s–%s  %-7s %s%s%s (%s)\n", Clock(a.Start), end, a.Kind, group, compactShort(g.queues, strings.Join(g.queues, " ")), who, dur)
		}
	}

	var converged []string
	for _, a := range r.Actions {
		switch {
		case a.ConvergedMs != nil:
			converged = append(converged, fmt.Sprintf("%s %s %s: settled %s later", Clock(a.T), a.Type, a.ID+a.Broker, msText(*a.ConvergedMs)))
		case a.Unsettled:
			converged = append(converged, fmt.Sprintf("%s %s %s: not settled before the next action", Clock(a.T), a.Type, a.ID+a.Broker))
		}
	}
	if len(converged) > 0 {
		b.WriteString("\nconvergence\n")
		for _, line := range converged {
			fmt.Fprintf(&b, "  %s\n", line)
		}
	}

	fmt.Fprintf(&b, "\nfinal assignment at %s\n", Clock(r.Final.TimeMs))
	if plural {
		b.WriteString(pluralAssignment(snap))
	}
	width, mixed := 0, false
	for _, c := range snap.Consumers {
		width = max(width, len(c.ID))
		mixed = mixed || c.Client != string(profile.Default)
	}
	for _, c := range snap.Consumers {
		if plural {
			break
		}
		qs := strings.Join(c.Queues, " ")
		if qs == "" {
			qs = "(none)"
			if c.Subscription != "" {
				qs = "(none: it subscribes " + c.Subscription + ")"
			}
		}
		status := c.Status
		if mixed {
			status = fmt.Sprintf("%-3s %s", c.ClientMark, c.Status) // the SDK it runs: J, J4, Go
		}
		fmt.Fprintf(&b, "  %-*s  %-11s %s\n", width, c.ID, status, compactShort(c.Queues, qs))
	}

	m := r.Metrics
	b.WriteString("\nmetrics\n")
	fmt.Fprintf(&b, "  produced %d · consumed %d · duplicates %d · lost %d · backlog %d · in flight %d · send failures %d\n",
		m.Produced, m.Consumed, m.Duplicates, m.Lost, m.Backlog, m.InFlight, m.SendFailures)
	var sends []string
	for _, name := range sortedKeys(m.SendsPerBroker) {
		sends = append(sends, fmt.Sprintf("%s %d", name, m.SendsPerBroker[name]))
	}
	fmt.Fprintf(&b, "  sends per broker: %s\n", strings.Join(sends, ", "))
	if m.Suspensions > 0 {
		fmt.Fprintf(&b, "  orderly queues suspended after a failed message %d times\n", m.Suspensions)
	}
	if m.Retried > 0 || m.DeadLettered > 0 || m.LocalRetries > 0 {
		fmt.Fprintf(&b, "  consume failures: retried %d · reconsumed %d · dead-lettered %d · on the delay ladder now %d · on retry queues %d · waiting for a local retry %d\n",
			m.Retried, m.Reconsumed, m.DeadLettered, m.Delayed, m.RetryBacklog, m.LocalRetries)
		if m.Expired > 0 {
			fmt.Fprintf(&b, "  of them sent back by the consume-timeout clean-up, their listener still running %d\n", m.Expired)
		}
	}
	if m.Popped > 0 {
		fmt.Fprintf(&b, "  POP: popped %d · acked %d · invisible now %d · made invisible again after a failure %d · revived %d · dropped after their last failure %d\n",
			m.Popped, m.Acked, m.Invisible, m.ChangedInvisible, m.Revived, m.PopDropped)
	}
	if m.Filtered > 0 {
		fmt.Fprintf(&b, "  filtered %d (consumed by no one of their group: the tags of the member that pulled them, or of the subscription its broker holds, excluded them)\n", m.Filtered)
	}
	if m.Unread > 0 {
		fmt.Fprintf(&b, "  unread %d (written to write queues beyond their broker's read count: no consumer reads them)\n", m.Unread)
	}
	if m.Skipped > 0 {
		fmt.Fprintf(&b, "  skipped by consumeFromWhere %d (not lost: where a queue without an offset starts)\n", m.Skipped)
	}
	if m.StoredAfterTimeout > 0 {
		fmt.Fprintf(&b, "  stored though the client saw the send fail (a timeout, a closed connection, a throwing tier table) %d\n", m.StoredAfterTimeout)
	}
	if len(r.Sends) > 1 {
		b.WriteString("  stored between steps:\n")
		for _, sp := range r.Sends {
			var per []string
			for _, name := range sortedKeys(sp.PerBroker) {
				per = append(per, fmt.Sprintf("%s %d", name, sp.PerBroker[name]))
			}
			fmt.Fprintf(&b, "    %s–%s  %d (%d/s): %s\n", Clock(sp.From), Clock(sp.To), sp.Stored,
				sp.Stored*1000/max(sp.To-sp.From, 1), strings.Join(per, ", "))
		}
	}
	fmt.Fprintf(&b, "  rebalances that moved queues %d (of %d rounds)\n", m.Rebalances, m.Rounds)
	return b.String()
}

func strategyName(s Scenario) string {
	name := s.Strategy
	if len(s.Groups) > 0 {
		name = s.Groups[0].Strategy
	}
	if name.IsZero() {
		return "AVG"
	}
	return strings.ToUpper(name.Name)
}

func msText(ms int64) string {
	if ms < 1000 {
		return fmt.Sprintf("%d ms", ms)
	}
	if ms%1000 == 0 || ms >= 10000 {
		return fmt.Sprintf("%d s", (ms+500)/1000)
	}
	return fmt.Sprintf("%.1f s", float64(ms)/1000)
}

// compactShort folds "broker-a:0 broker-a:1 broker-a:2" into "broker-a:0-2".
func compactShort(qs []string, fallback string) string {
	if len(qs) == 0 {
		return fallback
	}
	var out []string
	i := 0
	for i < len(qs) {
		broker, id, ok := splitShort(qs[i])
		if !ok {
			return fallback
		}
		j, ids := i+1, []int{id}
		for j < len(qs) {
			b2, id2, ok2 := splitShort(qs[j])
			if !ok2 || b2 != broker {
				break
			}
			ids = append(ids, id2)
			j++
		}
		out = append(out, broker+":"+ranges(ids))
		i = j
	}
	return strings.Join(out, " ")
}

func splitShort(q string) (string, int, bool) {
	k := strings.LastIndexByte(q, ':')
	if k < 0 {
		return "", 0, false
	}
	var id int
	if _, err := fmt.Sscanf(q[k+1:], "%d", &id); err != nil {
		return "", 0, false
	}
	return q[:k], id, true
}

func ranges(ids []int) string {
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", ids[i], ids[j]))
		} else {
			parts = append(parts, fmt.Sprintf("%d", ids[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

type anomalyGroup struct {
	first  cluster.Anomaly
	queues []string
}

// groupAnomalies joins consecutive anomalies that differ only by queue, so a consumer's lost
// queues read as one line.
func groupAnomalies(as []cluster.Anomaly) []anomalyGroup {
	var out []anomalyGroup
	for _, a := range as {
		if n := len(out); n > 0 {
			g := &out[n-1]
			if g.first.Kind == a.Kind && g.first.Group == a.Group && g.first.Start == a.Start && g.first.End == a.End && slices.Equal(g.first.Owners, a.Owners) {
				g.queues = append(g.queues, a.Queue)
				continue
			}
		}
		out = append(out, anomalyGroup{first: a, queues: []string{a.Queue}})
	}
	for _, g := range out {
		slices.SortFunc(g.queues, func(x, y string) int {
			bx, ix, _ := splitShort(x)
			by, iy, _ := splitShort(y)
			if bx != by {
				return strings.Compare(bx, by)
			}
			return ix - iy
		})
	}
	return out
}

// clientCounts is " (2 java, 1 go-2.1.2)" for a group whose members do not all run the
// default client, in profile order; "" otherwise.
func clientCounts(cs []cluster.ConsumerConfig) string {
	n := map[profile.Name]int{}
	for _, k := range cs {
		p, err := profile.Lookup(k.Client)
		if err != nil {
			return ""
		}
		n[p.Name]++
	}
	if n[profile.Default] == len(cs) {
		return ""
	}
	var parts []string
	for _, name := range profile.Names() {
		if n[name] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[name], name))
		}
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// pluralRun reports whether the run had several topics or groups: its consumers name theirs.
func pluralRun(snap cluster.Snapshot) bool {
	return len(snap.Consumers) > 0 && snap.Consumers[0].Group != ""
}

// pluralHeader is a run of several topics or groups's first lines: the shape, then each
// group with its strategy, model and members.
func pluralHeader(r *Result, s Scenario) string {
	var b strings.Builder
	topics, queues := topicQueues(s.Config)
	fmt.Fprintf(&b, "seed %d · %s (%s) · %s on %s · %s%s · until %s\n", r.Seed,
		count(len(topics), "topic"), strings.Join(topics, ", "), count(queues, "queue"), count(len(s.Brokers), "broker"),
		count(len(s.Consumers), "consumer"), clientCounts(s.Consumers), Clock(r.Until))
	var groups []string
	members := map[string]int{}
	for _, c := range r.Snapshot.Consumers {
		if members[c.Group] == 0 {
			groups = append(groups, c.Group)
		}
		members[c.Group]++
	}
	for _, g := range s.Groups {
		if members[g.Name] == 0 {
			groups = append(groups, g.Name)
		}
	}
	var parts []string
	for _, name := range groups {
		strategy, model := strategyName(s), cmp.Or(s.MessageModel, cluster.Clustering)
		for _, g := range s.Groups {
			if g.Name == name {
				strategy, model = strings.ToUpper(cmp.Or(g.Strategy.Name, "AVG")), cmp.Or(g.MessageModel, cluster.Clustering)
			}
		}
		parts = append(parts, fmt.Sprintf("%s (%s · %s · %s)", name, strategy, model, count(members[name], "member")))
	}
	fmt.Fprintf(&b, "groups: %s\n", strings.Join(parts, ", "))
	return b.String()
}

// QueueCount is the queues of the cluster's declared topics on all brokers (format 1: the
// brokers' queues).
func QueueCount(c cluster.Config) int {
	_, n := topicQueues(c)
	return n
}

// topicQueues is the declared topics' names and their queues on every broker, in all.
func topicQueues(c cluster.Config) ([]string, int) {
	if len(c.Topics) == 0 {
		n := 0
		for _, b := range c.Brokers {
			n += b.Queues
		}
		return []string{cmp.Or(c.Topic, cluster.DefaultOf("topic"))}, n
	}
	var names []string
	n := 0
	for _, t := range c.Topics {
		names = append(names, t.Name)
		if len(t.Brokers) == 0 {
			for _, b := range c.Brokers {
				r, w := cmp.Or(t.ReadQueueNums, t.Queues, b.Queues), cmp.Or(t.WriteQueueNums, t.Queues, b.Queues)
				n += max(r, w)
			}
			continue
		}
		for _, tb := range t.Brokers {
			q := cmp.Or(tb.Queues, t.Queues)
			n += max(cmp.Or(tb.ReadQueueNums, t.ReadQueueNums, q), cmp.Or(tb.WriteQueueNums, t.WriteQueueNums, q))
		}
	}
	return names, n
}

// pluralAssignment is the final assignment per group, each member's queues per topic in the
// order it subscribes them.
func pluralAssignment(snap cluster.Snapshot) string {
	var b strings.Builder
	width, mixed := 0, false
	for _, c := range snap.Consumers {
		width = max(width, len(c.ID))
		mixed = mixed || c.Client != string(profile.Default)
	}
	group := ""
	for _, c := range snap.Consumers {
		if c.Group != group {
			group = c.Group
			fmt.Fprintf(&b, "  %s\n", group)
		}
		held := byTopic(c.Queues, snap.Topic)
		var parts []string
		for _, t := range c.Topics {
			qs := held[t]
			set := "(none)"
			if len(qs) > 0 {
				set = compactShort(qs, strings.Join(qs, " "))
			}
			parts = append(parts, t+" "+set)
		}
		status := c.Status
		if mixed {
			status = fmt.Sprintf("%-3s %s", c.ClientMark, c.Status)
		}
		fmt.Fprintf(&b, "    %-*s  %-11s %s\n", width, c.ID, status, strings.Join(parts, " · "))
	}
	return b.String()
}
