package view

import (
	"slices"

	"github.com/lbscope/lbscope/core/cluster"
)

// A run with several topics or groups (its snapshot lists its Groups) is shown one group at a
// time: the group's members, and in each broker's block its topics one above the other, its
// retry topic and its dead-letter topic set apart below them. A row of tabs under the header
// names every group with its lag; a click on one (or the g key, or the page's group choice)
// shows it. A run with one topic and one group has no Groups and is drawn as it always was.

// ShownGroup is the group of s the canvas shows when want is asked for: want when s has it,
// else s's first group; "" when s lists no groups.
func ShownGroup(s *cluster.Snapshot, want string) string {
	if len(s.Groups) == 0 {
		return ""
	}
	for i := range s.Groups {
		if s.Groups[i].Name == want {
			return want
		}
	}
	return s.Groups[0].Name
}

// NextGroup is the group after cur in s's order (the g key), the first after the last.
func NextGroup(s *cluster.Snapshot, cur string) string {
	for i := range s.Groups {
		if s.Groups[i].Name == cur {
			return s.Groups[(i+1)%len(s.Groups)].Name
		}
	}
	return ShownGroup(s, "")
}

// Pick projects snapshots onto the group the canvas shows, reusing its buffers from frame to
// frame (Draw and Update run every display frame).
type Pick struct {
	snap      cluster.Snapshot
	queues    []cluster.QueueView
	consumers []cluster.ConsumerView
	brokers   []cluster.BrokerView
	anomalies []cluster.Anomaly
}

// Of is what the canvas lays out and draws of s when group is asked for: s itself when s
// lists no groups; otherwise the shown group's (ShownGroup) part of s, Project's. It stays
// valid until the next call.
func (p *Pick) Of(s *cluster.Snapshot, group string) *cluster.Snapshot {
	if len(s.Groups) == 0 {
		return s
	}
	p.snap = *s
	p.queues, p.consumers, p.brokers, p.anomalies = project(&p.snap, ShownGroup(s, group), p.queues[:0], p.consumers[:0], p.brokers[:0], p.anomalies[:0])
	return &p.snap
}

// Project is s as the canvas shows group (ShownGroup's choice) of it: s when s lists no
// groups; otherwise a copy with the group's name in Group, its strategy and message model,
// only its queues (those of the topics it subscribes, its retry topic among them, and its
// dead-letter topic's), its members, its anomalies, and the brokers' client lists of its own;
// the producers, the messages on their way, the metrics and the list of groups as s has them.
// The copy shares s's strings and inner slices: read-only.
func Project(s *cluster.Snapshot, group string) cluster.Snapshot {
	out := *s
	if len(s.Groups) > 0 {
		project(&out, ShownGroup(s, group), nil, nil, nil, nil)
	}
	return out
}

// project narrows s, a copy of a snapshot with groups, to group in place, its lists built in
// the buffers given; it returns the buffers.
func project(s *cluster.Snapshot, group string, qs []cluster.QueueView, cs []cluster.ConsumerView, bs []cluster.BrokerView, as []cluster.Anomaly) ([]cluster.QueueView, []cluster.ConsumerView, []cluster.BrokerView, []cluster.Anomaly) {
	var g *cluster.GroupView
	for i := range s.Groups {
		if s.Groups[i].Name == group {
			g = &s.Groups[i]
		}
	}
	one := len(s.Groups) == 1 // a queue then names no group
	dlq := cluster.DLQTopic(group)
	for i := range s.Queues {
		q := &s.Queues[i]
		switch {
		case q.Topic == dlq && q.Group == "":
		case q.Group == group || one && q.Group == "":
			if !slices.Contains(g.Topics, q.Topic) {
				continue // a topic nobody of the group subscribes (with one group, queues name none)
			}
		default:
			continue
		}
		qs = append(qs, *q)
	}
	for i := range s.Consumers {
		if s.Consumers[i].Group == group {
			cs = append(cs, s.Consumers[i])
		}
	}
	for i := range s.Brokers {
		b := s.Brokers[i]
		if i < len(g.Listed) {
			b.Consumers = g.Listed[i]
		}
		bs = append(bs, b)
	}
	for i := range s.Anomalies {
		if a := &s.Anomalies[i]; a.Group == group || one && a.Group == "" {
			as = append(as, *a)
		}
	}
	s.Group, s.Strategy, s.MessageModel = group, g.Strategy, g.MessageModel
	if len(g.Topics) > 0 {
		s.Topic = g.Topics[0]
	}
	s.Queues, s.Consumers, s.Brokers, s.Anomalies = qs, cs, bs, as
	return qs, cs, bs, as
}

// Band kinds: a topic's queues, the group's retry topic's, its dead-letter topic's.
const (
	BandTopic = iota
	BandRetry
	BandDLQ
)

// bandKind is the kind of topic's band in group's view.
func bandKind(group, topic string) int {
	switch topic {
	case cluster.RetryTopic(group):
		return BandRetry
	case cluster.DLQTopic(group):
		return BandDLQ
	}
	return BandTopic
}
