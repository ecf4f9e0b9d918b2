package scenario

import (
	"fmt"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/profile"
)

// SplitClient splits a command-line consumer "<client id>[:<client>]" — "10.0.0.1@4012:go" —
// into the id and the client profile it runs ("" when none is named). The client is
// recognised only when the piece after the last ':' names a profile, so that an IPv6 id
// ("fe80::1@4012") stays whole.
func SplitClient(s string) (id, client string) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return s, ""
	}
	if _, err := profile.Lookup(s[i+1:]); err != nil || s[i+1:] == "" {
		return s, ""
	}
	return s[:i], s[i+1:]
}

// consumerConfigsWithClients is consumerConfigs for ids that may name their client.
func consumerConfigsWithClients(ids []string) []cluster.ConsumerConfig {
	out := make([]cluster.ConsumerConfig, len(ids))
	for i, s := range ids {
		id, client := SplitClient(s)
		out[i] = cluster.ConsumerConfig{ID: id, Client: client}
	}
	return out
}

// checkClient checks a consumer's client profile, and that its client can run the group's
// strategy (rocketmq-client-go's MACHINE_ROOM_NEARBY has no inner strategy, spec §9.1.3).
func checkClient(p string, k cluster.ConsumerConfig, choice allocate.Choice, params allocate.Params) error {
	if k.Client == "" {
		return nil
	}
	if len(k.Client) > MaxNameLen {
		return fmt.Errorf("%s.client: %d characters; the limit is %d", p, len(k.Client), MaxNameLen)
	}
	prof, err := profile.Lookup(k.Client)
	if err != nil {
		return fmt.Errorf("%s.client: %w", p, err)
	}
	strategy := choice.Name
	if strategy == "" {
		strategy = "AVG"
	}
	if prof.IsGo() && choice.Scripted() {
		return fmt.Errorf("%s.client: %s cannot run strategy %s: a strategy given with its source runs in the Java clients' rebalance here", p, prof.Name, choice.Name)
	}
	if prof.IsGo() {
		if _, err := prof.Strategy(strategy, params); err != nil {
			return fmt.Errorf("%s.client: %s cannot run strategy %s: %w", p, prof.Name, strings.ToUpper(strategy), err)
		}
	}
	return nil
}
