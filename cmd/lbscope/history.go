package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/lbscope/lbscope/core/admin"
	"github.com/lbscope/lbscope/core/route"
)

// printHistory writes the rebalance history rebuilt from client logs: the members, each
// member's rounds, a timeline per queue and the membership changes.
func printHistory(w io.Writer, h *admin.History) {
	zone := "assumed, RocketMQ's default pattern; --log-zone to change"
	if h.ZoneGiven {
		zone = "--log-zone"
	}
	fmt.Fprintf(w, "\nrebalance history from client logs (stamps without a zone read in UTC%s, %s):\n", h.Zone, zone)
	at := func(t int64, m string) string {
		for _, x := range h.Members {
			if x.ID == m && x.Relative {
				return fmt.Sprintf("+%d ms", t) // off the common timeline
			}
		}
		return h.Stamp(t)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  MEMBER\tCLIENT\tFIRST LINE\tLAST LINE\tROUNDS\tINPUT")
	for _, m := range h.Members {
		id := m.ID
		if m.IDSource != "client id in the lines" {
			id += " (" + m.IDSource + ")"
		}
		client := m.Client
		if m.Version != "" {
			client += " " + m.Version
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%d\t%s\n", id, client, at(m.First, m.ID), at(m.Last, m.ID), m.Rounds, strings.Join(m.Inputs, ", "))
	}
	tw.Flush()
	if len(h.Rounds) > 0 {
		fmt.Fprintln(w, "\n  rounds:")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "    TIME\tMEMBER\tTOPIC\tMQALL\tCIDALL\tRESULT\tCHANGES\tEXPECTED\tLINE")
		for _, r := range h.Rounds {
			result := "-"
			if r.HasResult {
				result = compact(r.Result)
			}
			var ch []string
			if len(r.Added) > 0 {
				ch = append(ch, "+"+compact(r.Added))
			}
			if len(r.Removed) > 0 {
				ch = append(ch, "−"+compact(r.Removed))
			}
			if len(r.Dropped) > 0 {
				ch = append(ch, "re-created "+compact(r.Dropped))
			}
			if len(r.AddFailed) > 0 {
				ch = append(ch, "add failed "+compact(r.AddFailed))
			}
			if len(r.LockFailed) > 0 {
				ch = append(ch, "lock failed "+compact(r.LockFailed))
			}
			for _, w := range r.Rewound {
				ch = append(ch, fmt.Sprintf("%s resumed at %d, %d below its own commit %d (%s)", w.Queue.Short(), w.Resumed, w.Committed-w.Resumed, w.Committed, w.Ref))
			}
			if r.Failed != "" {
				ch = append(ch, "failed: "+r.Failed)
			}
			if len(r.NotInCidAll) > 0 {
				ch = append(ch, "not in cidAll "+strings.Join(r.NotInCidAll, " "))
			}
			if r.Cause != "" {
				ch = append(ch, "after a "+r.Cause)
			}
			exp := "-"
			if r.Agrees != nil {
				exp = "as computed"
				if !*r.Agrees {
					exp = "differs: " + compact(r.Expected)
				}
			}
			fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", at(r.At, r.Member), r.Member, dash(r.Topic), size(r.MQAllSize), size(r.CidAllSize),
				result, dash(strings.Join(ch, "; ")), exp, r.Ref)
		}
		tw.Flush()
	}
	if len(h.Queues) > 0 {
		fmt.Fprintln(w, "\n  who held each queue (from → to; ? start: held since before its first line; ? end: no line ends it):")
		for _, q := range h.Queues {
			var parts []string
			for _, iv := range q.Held {
				from, to := at(iv.From, iv.Member), at(iv.To, iv.Member)
				if !iv.FromKnown {
					from = "? " + from
				}
				if !iv.ToKnown {
					to = "? " + to
					if iv.ToBy != "" {
						to += " (" + iv.ToBy + ")"
					}
				}
				parts = append(parts, fmt.Sprintf("%s %s → %s", iv.Member, from, to))
			}
			fmt.Fprintf(w, "    %s:%s  %s\n", q.Queue.Topic, q.Queue.Short(), strings.Join(parts, " · "))
		}
	}
	if len(h.Routes) > 0 {
		fmt.Fprintln(w, "\n  route changes:")
		for _, c := range h.Routes {
			fmt.Fprintf(w, "    %s  %s: %s now %s (%s)\n", at(c.At, c.Member), c.Member, c.Topic, compact(c.Queues), c.Ref)
		}
	}
	if len(h.Membership) > 0 {
		fmt.Fprintln(w, "\n  membership:")
		for _, c := range h.Membership {
			who := c.Member
			if c.Group != "" {
				who = "group " + c.Group + ": " + who
			}
			fmt.Fprintf(w, "    %s  %s %s (%s, %s)\n", at(c.At, c.Member), strings.TrimSuffix(who, ": "), c.Kind, c.Source, c.Ref)
		}
	}
}

func compact(qs []route.MessageQueue) string {
	if len(qs) == 0 {
		return "(none)"
	}
	return route.Compact(qs)
}

func size(n int) string {
	if n < 0 {
		return "-"
	}
	return fmt.Sprint(n)
}
