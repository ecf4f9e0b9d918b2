package narrate

import (
	"slices"
	"strconv"
	"strings"
)

// Ranges compresses queue names ("broker-a:0", "broker-a:1", …) into one item per broker in
// the order the brokers first appear, each with its queue ids sorted and runs joined by an
// en dash: ["broker-a:0–3,6", "broker-b:1"]. A name without ":id" is kept as it is.
func Ranges(queues []string) []string {
	var order []string
	ids := map[string][]int{}
	var odd []string
	for _, q := range queues {
		i := strings.LastIndexByte(q, ':')
		n, err := strconv.Atoi(q[i+1:])
		if i < 0 || err != nil {
			odd = append(odd, q)
			continue
		}
		b := q[:i]
		if _, ok := ids[b]; !ok {
			order = append(order, b)
		}
		ids[b] = append(ids[b], n)
	}
	out := make([]string, 0, len(order)+len(odd))
	for _, b := range order {
		ns := ids[b]
		slices.Sort(ns)
		ns = slices.Compact(ns)
		var sb strings.Builder
		sb.WriteString(b)
		sb.WriteByte(':')
		for k := 0; k < len(ns); {
			end := k
			for end+1 < len(ns) && ns[end+1] == ns[end]+1 {
				end++
			}
			if k > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(strconv.Itoa(ns[k]))
			if end > k {
				sb.WriteString("–")
				sb.WriteString(strconv.Itoa(ns[end]))
			}
			k = end + 1
		}
		out = append(out, sb.String())
	}
	return append(out, odd...)
}
