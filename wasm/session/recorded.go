package session

import "github.com/lbscope/lbscope/core/scenario"

// Recorded returns the published state as a scenario: the loaded one with everything done so
// far (the timeline steps that ran and the page's commands, with their times) followed by the
// steps still to come, running until at least the published time, which it also returns.
// Running the scenario to that time reproduces the published state. Safe from any goroutine.
func (s *Session) Recorded() (scenario.Scenario, int64, error) {
	s.mu.Lock()
	base, rec, next, now := s.pubScn, s.pubRecord, s.pubNext, s.last.TimeMs
	s.mu.Unlock()
	sc, err := recorded(base, rec, next, now)
	if err != nil {
		return scenario.Scenario{}, 0, err
	}
	return sc, now, nil
}
