package cluster

import "strconv"

// Fill sets the arguments of cmd that a driver applying it at once may leave out, from c as
// it is now, through cmd's Fill hook (nothing for a command without one).
func Fill(c *Cluster, cmd *Command) {
	if s, ok := Lookup(cmd.Type); ok && s.Fill != nil {
		s.Fill(c, cmd)
	}
}

// NextConsumerID is the first c<N> (N = 1, 2, …) no consumer uses. One of c1…c<len(cs)+1> is
// free, so only those are marked: a set of every id was a fortieth of a frame's allocations.
func NextConsumerID(cs []ConsumerView) string {
	used := make([]bool, len(cs)+2)
	for _, c := range cs {
		if n, ok := consumerNumber(c.ID); ok && n < len(used) {
			used[n] = true
		}
	}
	n := 1
	for used[n] {
		n++
	}
	return "c" + strconv.Itoa(n)
}

// consumerNumber is N when id is "c" + strconv.Itoa(N) for some N ≥ 1.
func consumerNumber(id string) (int, bool) {
	if len(id) < 2 || id[0] != 'c' || id[1] == '0' || len(id) > 10 {
		return 0, false // more than 9 digits: past any count of consumers
	}
	n := 0
	for _, d := range []byte(id[1:]) {
		if d < '0' || d > '9' {
			return 0, false
		}
		n = n*10 + int(d-'0')
	}
	return n, true
}
