package scenario

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/profile"
)

// Flags are the command line's description of a run. A field tagged flag:"NAME" is the field
// table's setting whose Flag is NAME (cluster.Fields): the command line defines it from that
// entry, and a zero value takes the entry's FlagDefault, the "default" preset's shape, so
// that a run built from flags always has traffic.
type Flags struct {
	Topic, Group    string   // "": TopicTest, GroupTest
	Brokers         int      `flag:"brokers"` // named broker-a, broker-b, … (see BrokerNames)
	QueuesPerBroker int      `flag:"queues"`
	Consumers       int      `flag:"consumers"` // named c1 … cN; ignored when ConsumerIDs is set
	ConsumerIDs     []string // client ids in any real format, e.g. 10.0.0.1@4012
	Producers       int      `flag:"producers"`        // named p1 … pN
	Rate            int      `flag:"rate"`             // messages per second of each producer (a run without traffic: --at 0s:setProducerRate:0)
	ProducerClient  string   `flag:"producer-client"`  // the SDK the producers run: java (""), java-4.9, go-2.1.2 ("go")
	ProducerThreads int      `flag:"producer-threads"` // sending threads of each producer; 0: as many as the rate needs (one per 125 msg/s)
	ProducerMode    string   `flag:"producer-mode"`    // sync ("") or async
	// LatencyMax and NotAvailableDuration are every producer's own latency tiers (nil: the
	// client's table), unchecked as the client leaves them (spec §2.12).
	LatencyMax           []int64 `flag:"latency-max"`
	NotAvailableDuration []int64 `flag:"not-available-duration"`
	Strategy             string  `flag:"strategy"` // "": AVG
	Params               allocate.Params
	MessageModel         string `flag:"model"` // "": CLUSTERING
	LatencyFault         bool   `flag:"latency-fault"`
	FaultTable           string `flag:"fault-table"` // "": current
	Seed                 int64  `flag:"seed"`        // used as given (0 is a seed like any other)
	Until                Duration
	At                   []string // timeline steps in the form ParseAt reads
}

// flagDefault is the default of a flag-built cluster's count or rate, from the field table.
func flagDefault(flag string) (value, limit int) {
	f, _ := cluster.FieldByFlag(flag)
	n, _ := strconv.Atoi(f.FlagDefaultText())
	if f.Type == cluster.ArgList {
		return n, f.Len
	}
	return n, int(f.Max)
}

// FromFlags builds and validates a scenario from command-line values. Steps given with At may
// come in any order: they are sorted by time, keeping the given order for equal times.
func FromFlags(f Flags) (Scenario, error) {
	// Counts are checked before anything is allocated for them.
	for _, c := range []struct {
		name, flag string
		v          *int
	}{
		{"brokers", "brokers", &f.Brokers},
		{"queuesPerBroker", "queues", &f.QueuesPerBroker},
		{"consumers", "consumers", &f.Consumers},
		{"producers", "producers", &f.Producers},
		{"rate", "rate", &f.Rate},
	} {
		def, limit := flagDefault(c.flag)
		if *c.v == 0 {
			*c.v = def
		}
		if err := checkRange(c.name, *c.v, 0, limit); err != nil {
			return Scenario{}, err
		}
	}
	brokers, queues, consumers, producers, rate := f.Brokers, f.QueuesPerBroker, f.Consumers, f.Producers, f.Rate
	if len(f.ConsumerIDs) > MaxConsumers {
		return Scenario{}, fmt.Errorf("consumers: %d client ids; the limit is %d", len(f.ConsumerIDs), MaxConsumers)
	}
	if len(f.At) > MaxSteps {
		return Scenario{}, fmt.Errorf("timeline: %d steps; the limit is %d", len(f.At), MaxSteps)
	}

	ids := f.ConsumerIDs
	if len(ids) == 0 {
		ids = consumerIDs(consumers)
	}
	topic, group := f.Topic, f.Group
	if topic == "" {
		topic = DefaultTopic
	}
	if group == "" {
		group = DefaultGroup
	}
	strategy := f.Strategy
	if strategy == "" {
		strategy = cluster.DefaultOf("strategy")
	}
	s := Scenario{
		Version: Version,
		Config: cluster.Config{
			Seed:         f.Seed,
			Topic:        topic,
			Group:        group,
			Brokers:      brokerConfigs(brokers, queues),
			Consumers:    consumerConfigsWithClients(ids), // "10.0.0.1@4012:go" names the client
			Producers:    make([]cluster.ProducerConfig, producers),
			Strategy:     allocate.Named(strategy),
			Params:       f.Params,
			MessageModel: f.MessageModel,
			LatencyFault: f.LatencyFault,
			FaultTable:   f.FaultTable,
		},
		Until: f.Until,
	}
	client := ""
	if f.ProducerClient != "" {
		prof, err := profile.Lookup(f.ProducerClient)
		if err != nil {
			return Scenario{}, fmt.Errorf("producer-client: %w", err)
		}
		if prof.Name != profile.Default {
			client = string(prof.Name) // the file names the profile, not an alias
		}
	}
	threads := presetThreads(rate)
	if f.ProducerThreads != 0 {
		if err := checkRange("producer-threads", f.ProducerThreads, 1, cluster.MaxSendThreads); err != nil {
			return Scenario{}, err
		}
		threads = f.ProducerThreads
	}
	mode := strings.ToLower(f.ProducerMode)
	switch mode {
	case "", cluster.SendSync:
		mode = ""
	case cluster.SendAsync:
		if f.ProducerThreads > 1 {
			return Scenario{}, fmt.Errorf("producer-threads: %d; an async producer's sends do not block, so threads applies to mode %s only", f.ProducerThreads, cluster.SendSync)
		}
		threads = 0
	default:
		return Scenario{}, fmt.Errorf("producer-mode: %s; want %s or %s", quote(f.ProducerMode), cluster.SendSync, cluster.SendAsync)
	}
	for _, tier := range []struct {
		name string
		v    []int64
	}{{"latency-max", f.LatencyMax}, {"not-available-duration", f.NotAvailableDuration}} {
		if len(tier.v) > cluster.MaxTiers {
			return Scenario{}, fmt.Errorf("%s: %d entries; the limit is %d", tier.name, len(tier.v), cluster.MaxTiers)
		}
		for i, v := range tier.v {
			if v < -cluster.MaxTierMs || v > cluster.MaxTierMs {
				return Scenario{}, fmt.Errorf("%s: entry %d, %d: want -%d…%d (24 h either way)", tier.name, i+1, v, cluster.MaxTierMs, cluster.MaxTierMs)
			}
		}
		if tier.v != nil && client == string(profile.Go212) {
			return Scenario{}, fmt.Errorf("%s: a %s producer has no latency fault tolerance (spec §9.1.8)", tier.name, profile.Go212)
		}
	}
	for i := range s.Producers {
		s.Producers[i] = cluster.ProducerConfig{ID: "p" + strconv.Itoa(i+1), Rate: rate, Threads: threads, Client: client, Mode: mode,
			LatencyMax: slices.Clone(f.LatencyMax), NotAvailableDuration: slices.Clone(f.NotAvailableDuration)}
	}
	if s.Until == 0 {
		s.Until = DefaultUntil
	}
	for _, at := range f.At {
		st, err := ParseAt(at)
		if err != nil {
			return Scenario{}, err
		}
		s.Timeline = append(s.Timeline, st)
	}
	slices.SortStableFunc(s.Timeline, func(a, b Step) int { return cmp.Compare(a.At, b.At) })
	if err := s.Validate(); err != nil {
		return Scenario{}, err
	}
	return s, nil
}

// ParseAt reads one timeline step in the command line's form TIME:TYPE[:ARG…], the arguments
// in the command table's order (cluster.CommandSpec.LineArgs):
//
//	60s:killConsumer:c1
//	30s:slowBroker:broker-a:2000
//	2m:setStrategy:CONSISTENT_HASH
//	10s:setLatencyFault:on          (on, off, true or false)
//	0s:setQueues:broker-a:8
//	45s:addConsumer:c9[:500]        (optional consume rate)
//	1m:setProducerRate:500[:p1]     (optional producer id; all producers without it)
//
// A client id may itself contain ':' (the pieces are joined back into it); when such an id
// ends in a number, addConsumer needs its consume rate written out, or the number is taken
// for the rate.
func ParseAt(s string) (Step, error) {
	fail := func(format string, a ...any) (Step, error) {
		return Step{}, fmt.Errorf("--at %q: %s", s, fmt.Sprintf(format, a...))
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 {
		return fail("want TIME:COMMAND[:ARGUMENT…], e.g. 60s:killConsumer:c1")
	}
	at, err := ParseDuration(parts[0])
	if err != nil {
		return fail("time: %v", err)
	}
	typ := parts[1]
	spec, ok := cluster.Lookup(typ)
	if !ok || spec.Target == cluster.TargetSession {
		if typ == "" {
			return fail("command missing; want one of %s", strings.Join(CommandNames(), ", "))
		}
		return Step{}, fmt.Errorf("--at %q: %v", s, unknownCommand("command", typ))
	}
	args := spec.LineArgs()
	example := exampleAt(parts[0], typ)
	vals, named, err := splitNamed(args, parts[2:])
	if err != nil {
		return fail("%v: %s", err, example)
	}
	nReq := 0
	for _, a := range args {
		if !a.Optional {
			nReq++
		}
	}
	if len(vals)+len(named) < nReq {
		return fail("%s: %s", needs(typ), example)
	}
	if extra := len(vals) - len(args); extra > 0 || (len(vals) >= 3 && len(args) > nReq) {
		vals = joinClientID(args, vals, nReq)
	}
	if len(vals) > len(args) {
		return fail("%s takes %s; got %d: %s", typ, count(len(args), "argument"), len(vals), example)
	}
	c := cluster.Command{Type: typ}
	for i, v := range vals {
		if err := cluster.SetArg(&c, args[i], v); err != nil {
			return fail("%v: %s", err, example)
		}
	}
	for _, nv := range named {
		i := slices.IndexFunc(args, func(a cluster.Arg) bool { return a.Name == nv[0] })
		if i < len(vals) {
			return fail("%s is given twice, by its place and by its name: %s", nv[0], example)
		}
		if err := cluster.SetArg(&c, args[i], nv[1]); err != nil {
			return fail("%v: %s", err, example)
		}
	}
	for i, a := range args {
		if f, ok := cluster.CommandField(c, a.Name); !a.Optional && i >= len(vals) && (!ok || f.IsZero()) {
			return fail("%s: %s", needs(typ), example)
		}
	}
	if err := validateCommand("", c); err != nil {
		return fail("%v", err)
	}
	return Step{At: at, Command: c}, nil
}

// splitNamed takes the NAME=VALUE pieces off the end of an --at step's arguments: an
// optional argument can be given by its name, so that the ones before it may be left out
// (60s:addConsumer:c9:kind=grpc-push). A piece after a named one that names no argument is
// the rest of that value, which held a ':' (a client id). No positional value can hold '=':
// no name's character set has it.
func splitNamed(args []cluster.Arg, pieces []string) (vals []string, named [][2]string, err error) {
	isName := func(p string) (string, string, bool) {
		k, v, ok := strings.Cut(p, "=")
		return k, v, ok && slices.ContainsFunc(args, func(a cluster.Arg) bool { return a.Name == k })
	}
	for i, p := range pieces {
		if _, _, ok := isName(p); !ok {
			if strings.Contains(p, "=") {
				return nil, nil, fmt.Errorf("%q names no argument of the command", p)
			}
			continue
		}
		vals = pieces[:i]
		for _, q := range pieces[i:] {
			k, v, ok := isName(q)
			switch {
			case ok && slices.ContainsFunc(named, func(nv [2]string) bool { return nv[0] == k }):
				return nil, nil, fmt.Errorf("%s is named twice", k)
			case ok:
				named = append(named, [2]string{k, v})
			case strings.Contains(q, "="):
				return nil, nil, fmt.Errorf("%q names no argument of the command", q)
			default:
				named[len(named)-1][1] += ":" + q
			}
		}
		return vals, named, nil
	}
	return pieces, nil, nil
}

// joinClientID puts back together a client id that contained ':'. Only a consumer's id can
// (spec §1.2 client ids; an IPv6 address); it sits first among the arguments, so it takes the
// pieces the arguments after it leave over. Arguments are positional: the arguments after the
// id take the last k pieces, in order, for the largest k whose pieces all read as their
// values (a number, one of its words), the required ones always taken.
func joinClientID(args []cluster.Arg, vals []string, nReq int) []string {
	if len(args) == 0 || args[0].Charset != &cluster.ClientIDName {
		return vals
	}
	after := 0
	for k := min(len(args)-1, len(vals)-1); k >= 0; k-- {
		fits := k >= nReq-1
		for i := 0; fits && i < k; i++ {
			a := args[1+i]
			fits = !a.Optional || pieceFits(a, vals[len(vals)-k+i])
		}
		if fits {
			after = k
			break
		}
	}
	keep := len(vals) - after
	id := strings.Join(vals[:keep], ":")
	return append([]string{id}, vals[keep:]...)
}

// pieceFits reports whether an --at piece reads as a value of a.
func pieceFits(a cluster.Arg, v string) bool {
	switch a.Type {
	case cluster.ArgInt:
		_, err := strconv.Atoi(v)
		return err == nil
	case cluster.ArgEnum:
		if a.Loose {
			return true // its values are the usual ones; the command's check decides
		}
		for _, e := range a.Enum {
			if strings.EqualFold(v, e) {
				return true
			}
		}
		return false
	}
	return true
}

// exampleAt is a well-formed step of the type, at the given time when it reads as one:
// "30s:slowBroker:broker-a:2000", "1m:setProducerRate:500[:p1]".
func exampleAt(at, typ string) string {
	if _, err := ParseDuration(at); err != nil {
		at = "30s"
	}
	spec, ok := cluster.Lookup(typ)
	if !ok {
		return at + ":" + typ
	}
	return spec.ExampleAt(at)
}

// FormatAt writes a step in the form ParseAt reads. Parameters of setStrategy have no place
// in that form and are left out.
func FormatAt(st Step) string {
	var b strings.Builder
	b.WriteString(st.At.String() + ":" + st.Type)
	spec, _ := cluster.Lookup(st.Type)
	var args []cluster.Arg
	if spec != nil {
		args = spec.LineArgs()
	}
	gap := false
	for _, a := range args {
		f, ok := cluster.CommandField(st.Command, a.Name)
		if !ok {
			break
		}
		if f.IsZero() {
			gap = true // the arguments after a missing one are written by name
			continue
		}
		if f.Kind() == reflect.Pointer {
			f = f.Elem()
		}
		b.WriteByte(':')
		if gap {
			b.WriteString(a.Name + "=")
		}
		switch f.Kind() {
		case reflect.Bool:
			b.WriteString(map[bool]string{true: "on", false: "off"}[f.Bool()])
		case reflect.Int:
			b.WriteString(strconv.FormatInt(f.Int(), 10))
		case reflect.Slice:
			for i := range f.Len() {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.FormatInt(f.Index(i).Int(), 10))
			}
		default:
			b.WriteString(f.String())
		}
	}
	return b.String()
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// ExampleAt is a well-formed --at step of the command type, e.g. "30s:slowBroker:broker-a:2000",
// for help texts.
func ExampleAt(typ string) string { return exampleAt("30s", typ) }
