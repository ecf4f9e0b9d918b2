package scenario

import (
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
)

// With two problems, validation names the one the format has always named first: the table's
// order and each rule's place in it keep the file's order of checks.
func TestValidationNamesTheFirstProblemInTheFormatsOrder(t *testing.T) {
	ts := int64(MaxDuration) + 1
	for _, c := range []struct {
		edit func(*Scenario)
		want string
	}{
		{func(s *Scenario) { s.Consumers[0].ConsumeTimestampMs = &ts },
			"consumers[0].consumeTimestampMs: set, but consumeFromWhere is LAST_OFFSET; it applies to TIMESTAMP only"},
		{func(s *Scenario) {
			s.Producers[0].Mode, s.Producers[0].Threads, s.Producers[0].Keys = "async", 3, &cluster.KeysConfig{}
		},
			"producers[0].keys.count: 0; want 1…1000000"},
		{func(s *Scenario) { s.Brokers[0].Queues, s.Brokers[0].LatencyMs = MaxQueues+1, -1 },
			"brokers[0].queues: 4097; want 0…4096"},
		{func(s *Scenario) { s.Topic, s.Brokers = "a b", nil },
			`topic: "a b" has ' '; allowed are letters, digits and % | _ -`},
		{func(s *Scenario) { s.History = &cluster.HistoryConfig{Messages: -1, Deleted: 1} },
			"history.messages: -1; want 0…1000000000 per queue"},
	} {
		s := valid()
		c.edit(&s)
		if err := s.Validate(); err == nil || err.Error() != c.want {
			t.Errorf("Validate() = %v; want %s", err, c.want)
		}
	}
}
