package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/lbscope/lbscope/core/profile"
	"github.com/lbscope/lbscope/core/route"
)

// splitProfiles takes the ":CLIENT" suffix off each id. A suffix is the text after the last
// ':' when it names a profile; text there that looks like a name but is none is an error (a
// typo must not become part of an id). mixed reports whether any id had a suffix.
func splitProfiles(ids []string, def string) (members []profile.Member, mixed bool, err error) {
	dp, err := profile.Lookup(def)
	if err != nil {
		return nil, false, err
	}
	for _, id := range ids {
		m := profile.Member{ClientID: id, Profile: dp.Name}
		if i := strings.LastIndexByte(id, ':'); i >= 0 {
			suffix := id[i+1:]
			if p, err := profile.Lookup(suffix); err == nil && suffix != "" {
				m = profile.Member{ClientID: id[:i], Profile: p.Name}
				mixed = true
			} else if looksLikeName(suffix) {
				return nil, false, fmt.Errorf("%q: %w", id, err)
			}
		}
		if m.ClientID == "" {
			return nil, false, fmt.Errorf("%q: no client id before the profile", id)
		}
		members = append(members, m)
	}
	return members, mixed, nil
}

// looksLikeName: a letter first, then letters, digits, '.', '-' — not a port, not an
// IPv6 group followed by '@pid'.
func looksLikeName(s string) bool {
	if s == "" || !('a' <= s[0]|0x20 && s[0]|0x20 <= 'z') {
		return false
	}
	for _, r := range s {
		if !(r == '.' || r == '-' || '0' <= r && r <= '9' || 'a' <= r|0x20 && r|0x20 <= 'z') {
			return false
		}
	}
	return true
}

func printMixedTable(w io.Writer, f allocateFlags, v profile.MixedView, mqAll []route.MessageQueue) {
	brokers := map[string]bool{}
	for _, q := range mqAll {
		brokers[q.BrokerName] = true
	}
	counts := map[profile.Name]int{}
	for _, m := range v.Members {
		counts[m.Profile]++
	}
	var mix []string
	for _, n := range profile.Names() {
		if counts[n] > 0 {
			mix = append(mix, fmt.Sprintf("%d %s", counts[n], n))
		}
	}
	fmt.Fprintf(w, "%s · topic %s · %s on %s · %s (%s)\n", v.Strategy, f.topic,
		plural(len(mqAll), "queue"), plural(len(brokers), "broker"), plural(len(v.Members), "consumer"), strings.Join(mix, ", "))
	if f.noSort {
		fmt.Fprintln(w, "inputs used as written (--no-sort): each consumer's raw strategy call under its own client")
	} else {
		fmt.Fprintln(w, "each consumer sorts the inputs and runs the strategy under its own client's rules")
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CONSUMER\tCLIENT\tQUEUES\tCOUNT")
	for _, m := range v.Members {
		switch {
		case m.Crashed():
			fmt.Fprintf(tw, "%s\t%s\t%s: the process exits\t-\n", m.ClientID, m.Profile, m.Err)
		case m.Err != nil:
			fmt.Fprintf(tw, "%s\t%s\t%s\t-\n", m.ClientID, m.Profile, javaText(m.Err))
		case m.Queues == nil && m.Profile == profile.Go212:
			fmt.Fprintf(tw, "%s\t%s\t(nil: owns nothing)\t0\n", m.ClientID, m.Profile)
		case m.Queues == nil:
			fmt.Fprintf(tw, "%s\t%s\t(null: nothing configured)\t0\n", m.ClientID, m.Profile)
		case len(m.Queues) == 0:
			fmt.Fprintf(tw, "%s\t%s\t(none)\t0\n", m.ClientID, m.Profile)
		default:
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\n", m.ClientID, m.Profile, route.Compact(m.Queues), len(m.Queues))
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
	if len(v.Shared) == 0 && len(v.Orphans) == 0 {
		fmt.Fprintln(w, "every queue is pulled by exactly one consumer")
	}
	if len(v.Shared) > 0 {
		fmt.Fprintf(w, "pulled by more than one consumer (%d):\n", len(v.Shared))
		for _, sq := range v.Shared {
			fmt.Fprintf(w, "  %s  %s\n", sq.Queue.Short(), strings.Join(sq.Owners, ", "))
		}
	}
	if len(v.Orphans) > 0 {
		fmt.Fprintf(w, "not pulled by anyone (%d): %s\n", len(v.Orphans), route.Compact(v.Orphans))
	}
	if len(counts) > 1 && (len(v.Shared) > 0 || len(v.Orphans) > 0) {
		fmt.Fprintln(w, "the clients disagree: each computes its share by its own rules, so every rebalance gives the same conflict again")
	}
}

type jsonMixedMember struct {
	ClientID string   `json:"clientId"`
	Client   string   `json:"client"`
	Queues   []string `json:"queues"`
	Count    int      `json:"count"`
	Nil      bool     `json:"nil,omitempty"`
	Error    string   `json:"error,omitempty"`
	Crashed  bool     `json:"crashed,omitempty"`
}

type jsonShared struct {
	Queue  string   `json:"queue"`
	Owners []string `json:"owners"`
}

func printMixedJSON(w io.Writer, f allocateFlags, v profile.MixedView, mqAll []route.MessageQueue) int {
	out := struct {
		Strategy  string            `json:"strategy"`
		Topic     string            `json:"topic"`
		Sorted    bool              `json:"sorted"`
		Queues    []string          `json:"queues"`
		Consumers []jsonMixedMember `json:"consumers"`
		Shared    []jsonShared      `json:"shared"`
		Orphans   []string          `json:"orphans"`
	}{Strategy: v.Strategy, Topic: f.topic, Sorted: !f.noSort, Queues: shorts(mqAll), Shared: []jsonShared{}, Orphans: shorts(v.Orphans)}
	for _, m := range v.Members {
		jm := jsonMixedMember{ClientID: m.ClientID, Client: string(m.Profile), Queues: shorts(m.Queues), Count: len(m.Queues), Nil: m.Queues == nil && m.Err == nil}
		if m.Err != nil {
			jm.Error, jm.Crashed = javaText(m.Err), m.Crashed()
		}
		out.Consumers = append(out.Consumers, jm)
	}
	for _, sq := range v.Shared {
		out.Shared = append(out.Shared, jsonShared{Queue: sq.Queue.Short(), Owners: sq.Owners})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fail(w, "allocate", err)
	}
	return 0
}
