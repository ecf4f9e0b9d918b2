package series

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// run drives a real cluster of preset, sampling at every multiple of the recorder's interval
// up to untilMs and applying each action at its time (after that moment's sample, as the
// session does between two samples).
type action struct {
	at  int64
	cmd cluster.Command
}

func run(t *testing.T, r *Recorder, preset string, untilMs int64, actions ...action) *cluster.Cluster {
	t.Helper()
	c, err := cluster.New(scenario.Presets()[preset].Config)
	if err != nil {
		t.Fatal(err)
	}
	advance(t, r, c, untilMs, actions...)
	return c
}

func advance(t *testing.T, r *Recorder, c *cluster.Cluster, untilMs int64, actions ...action) {
	t.Helper()
	for {
		iv := r.IntervalMs()
		next := (c.Now()/iv + 1) * iv
		if c.Now() == 0 && r.Len() == 0 {
			next = 0
		}
		for len(actions) > 0 && actions[0].at < next {
			c.Advance(actions[0].at)
			if err := c.Apply(actions[0].cmd); err != nil {
				t.Fatal(err)
			}
			r.Mark(actions[0].at, actions[0].cmd.Type+" "+actions[0].cmd.ID)
			actions = actions[1:]
		}
		if next > untilMs {
			return
		}
		c.Advance(next)
		s := c.Snapshot()
		r.Sample(&s)
	}
}

func consumerOf(t *testing.T, d Data, id string) ConsumerSeries {
	t.Helper()
	for _, c := range d.Consumers {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no series for consumer %s in %v", id, d.Consumers)
	return ConsumerSeries{}
}

func at(d Data, ms int64) int {
	i, ok := slices.BinarySearch(d.T, ms)
	if !ok {
		return -1
	}
	return i
}

func kill(id string) cluster.Command { return cluster.Command{Type: "killConsumer", ID: id} }

func TestKilledConsumersQueuesMoveAndItsThroughputDrops(t *testing.T) {
	r := NewRecorder()
	run(t, r, "small", 30_000, action{10_500, kill("c2")})
	d := r.Data(0)
	if len(d.T) != 31 || d.T[0] != 0 || d.T[30] != 30_000 {
		t.Fatalf("samples at %v; want every second from 0 to 30 s", d.T)
	}
	before, after := at(d, 10_000), at(d, 20_000)
	c2 := consumerOf(t, d, "c2")
	if c2.Queues[before] == 0 {
		t.Fatalf("c2 holds no queue before the kill")
	}
	if c2.Queues[after] != 0 {
		t.Errorf("c2 holds %d queues 10 s after it was killed; want 0", c2.Queues[after])
	}
	if !(c2.MsgsPerS[before] > 0) {
		t.Errorf("c2 consumed %v msg/s before the kill; want > 0", c2.MsgsPerS[before])
	}
	if c2.MsgsPerS[after] != 0 {
		t.Errorf("c2 consumed %v msg/s after the kill; want 0", c2.MsgsPerS[after])
	}
	total := func(i int) (n int64) {
		for _, c := range d.Consumers {
			n += c.Queues[i]
		}
		return n
	}
	queues := int64(len(d.Queues))
	if got := total(after); got != queues {
		t.Errorf("the consumers hold %d queues 10 s after the kill; want all %d", got, queues)
	}
	for _, id := range []string{"c1", "c3"} {
		c := consumerOf(t, d, id)
		if c.Queues[after] <= c.Queues[before] {
			t.Errorf("%s holds %d queues after the kill, %d before; want more", id, c.Queues[after], c.Queues[before])
		}
	}
	if len(d.Marks) != 1 || d.Marks[0].T != 10_500 || d.Marks[0].Text != "killConsumer c2" {
		t.Errorf("marks %v; want the kill at 10500", d.Marks)
	}
	if d.Duplicates[after] < d.Duplicates[before] {
		t.Errorf("duplicates went down from %d to %d; a cumulative count", d.Duplicates[before], d.Duplicates[after])
	}
	if !math.IsNaN(c2.MsgsPerS[0]) {
		t.Errorf("a rate at the first sample: %v; want none (null)", c2.MsgsPerS[0])
	}
}

func TestSharesSumToOne(t *testing.T) {
	r := NewRecorder()
	// Sends block their threads (spec §2.7): with fault tolerance on and a 600 ms broker the
	// producer keeps sending around it, so every second has sends to share out.
	run(t, r, "default", 20_000, action{1_000, cluster.Command{Type: "setLatencyFault", On: ptr(true)}},
		action{5_000, cluster.Command{Type: "slowBroker", Broker: "broker-a", LatencyMs: ptr(600)}})
	d := r.Data(0)
	if len(d.Brokers) != 4 {
		t.Fatalf("%d brokers; want 4", len(d.Brokers))
	}
	checked := 0
	for i := range d.T {
		sum, none := 0.0, 0
		for _, b := range d.Brokers {
			if math.IsNaN(b.Share[i]) {
				none++
				continue
			}
			if b.Share[i] < 0 || b.Share[i] > 1 {
				t.Errorf("%s's share at %d ms is %v", b.Name, d.T[i], b.Share[i])
			}
			sum += b.Share[i]
		}
		if none == len(d.Brokers) {
			continue
		}
		checked++
		if none != 0 || math.Abs(sum-1) > 1e-9 {
			t.Errorf("shares at %d ms sum to %v with %d null; want 1", d.T[i], sum, none)
		}
	}
	if checked < len(d.T)-2 {
		t.Errorf("only %d of %d samples have shares", checked, len(d.T))
	}
}

func ptr[T any](v T) *T { return &v }

func TestConsumerThatJoinsLaterHasNoValueBefore(t *testing.T) {
	r := NewRecorder()
	run(t, r, "small", 10_000, action{4_200, cluster.Command{Type: "addConsumer", ID: "c10"}})
	d := r.Data(0)
	ids := []string{}
	for _, c := range d.Consumers {
		ids = append(ids, c.ID)
	}
	if want := []string{"c1", "c2", "c3", "c10"}; !slices.Equal(ids, want) {
		t.Fatalf("consumers %v; want natural order %v", ids, want)
	}
	c10 := consumerOf(t, d, "c10")
	for i, ts := range d.T {
		if ts <= 4000 && c10.Queues[i] != missing {
			t.Errorf("c10 has %d queues at %d ms, before it existed", c10.Queues[i], ts)
		}
		if ts >= 5000 && c10.Queues[i] == missing {
			t.Errorf("c10 has no value at %d ms", ts)
		}
	}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Consumers []struct {
			ID     string   `json:"id"`
			Queues []*int64 `json:"queues"`
		} `json:"consumers"`
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if q := back.Consumers[3].Queues; q[0] != nil || q[len(q)-1] == nil {
		t.Errorf("c10's queues in JSON start %v and end %v; want null then a count", q[0], q[len(q)-1])
	}
}

func TestCSV(t *testing.T) {
	r := NewRecorder()
	run(t, r, "small", 12_000, action{3_000, cluster.Command{Type: "addConsumer", ID: "c4"}}, action{6_500, kill("c1")})
	recs, err := csv.NewReader(bytes.NewReader(r.CSV())).ReadAll() // fails on rows of unequal length
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+13 {
		t.Fatalf("%d rows; want a header and 13 samples", len(recs))
	}
	head := recs[0]
	col := func(name string) int {
		i := slices.Index(head, name)
		if i < 0 {
			t.Fatalf("no column %q in %v", name, head)
		}
		return i
	}
	if head[0] != "t_ms" {
		t.Errorf("first column %q; want t_ms", head[0])
	}
	order := []int{col("consumer.c1.queues"), col("consumer.c4.msgs_per_s"), col("queue.broker-a:0.backlog"),
		col("queue.broker-a:3.backlog"), col("queue.broker-b:0.backlog"), col("broker.broker-a.sends"),
		col("broker.broker-b.share"), col("duplicates"), col("actions")}
	if !slices.IsSorted(order) {
		t.Errorf("columns out of order: %v", head)
	}
	c4 := col("consumer.c4.queues")
	if recs[1][c4] != "" || recs[len(recs)-1][c4] == "" {
		t.Errorf("c4's queues are %q at 0 ms and %q at the end; want empty, then a count", recs[1][c4], recs[len(recs)-1][c4])
	}
	acts := col("actions")
	if got := recs[1+7][acts]; got != "killConsumer c1" {
		t.Errorf("actions of the 7 s row: %q; want the kill at 6.5 s", got)
	}
	if got := recs[1+6][acts]; got != "" {
		t.Errorf("actions of the 6 s row: %q; want none", got)
	}
	if got := recs[len(recs)-1][col("consumer.c1.queues")]; got != "0" {
		t.Errorf("killed c1 holds %q queues at the end; want 0", got)
	}
	// The JSON export holds the same samples.
	var doc struct {
		Format string  `json:"format"`
		T      []int64 `json:"t"`
		Marks  []Mark  `json:"marks"`
	}
	if err := json.Unmarshal(r.JSON(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Format != "lbscope-series/1" || len(doc.T) != 13 || len(doc.Marks) != 2 {
		t.Errorf("JSON export: format %q, %d samples, %d marks", doc.Format, len(doc.T), len(doc.Marks))
	}
}

func TestTruncateDropsLaterSamplesAndMarks(t *testing.T) {
	r := NewRecorder()
	c := run(t, r, "small", 20_000, action{5_500, kill("c1")}, action{15_500, kill("c2")})
	e := r.Epoch()
	r.Truncate(12_000)
	d := r.Data(0)
	if d.LastMs != 12_000 || d.T[len(d.T)-1] != 12_000 {
		t.Errorf("last sample at %d; want 12000", d.LastMs)
	}
	if len(d.Marks) != 1 || d.Marks[0].T != 5_500 {
		t.Errorf("marks %v; want only the kill at 5.5 s", d.Marks)
	}
	if r.Epoch() == e {
		t.Error("the epoch did not change on truncation")
	}
	// An earlier sample than the last is ignored; the next one continues the series.
	s := c.Snapshot() // at 20 s
	s.TimeMs = 11_000
	r.Sample(&s)
	if r.Len() != len(d.T) {
		t.Errorf("a sample before the last was taken: %d samples, %d before", r.Len(), len(d.T))
	}
	e = r.Epoch()
	r.Truncate(12_000)
	if r.Epoch() != e {
		t.Error("a truncation that dropped nothing changed the epoch")
	}
	r.Reset()
	if r.Len() != 0 || len(r.Data(0).Consumers) != 0 || len(r.Data(0).Marks) != 0 {
		t.Errorf("Reset left %d samples", r.Len())
	}
}

func TestRestartedConsumerCountsAgainFromZero(t *testing.T) {
	r := NewRecorder()
	run(t, r, "small", 20_000, action{4_500, kill("c1")}, action{8_500, cluster.Command{Type: "restartConsumer", ID: "c1"}})
	c1 := consumerOf(t, r.Data(0), "c1")
	for i, v := range c1.MsgsPerS {
		if v < 0 {
			t.Errorf("c1 consumed %v msg/s at sample %d", v, i)
		}
	}
	if c1.MsgsPerS[len(c1.MsgsPerS)-1] <= 0 {
		t.Errorf("the restarted c1 consumes nothing at the end")
	}
}

func TestThinningKeepsMultiplesOfTheNewInterval(t *testing.T) {
	r := NewRecorder()
	run(t, r, "small", (MaxSamples+10)*BaseIntervalMs, action{1_800_500, kill("c3")})
	if r.IntervalMs() != 2*BaseIntervalMs {
		t.Fatalf("interval %d after %d samples; want %d", r.IntervalMs(), MaxSamples+10, 2*BaseIntervalMs)
	}
	d := r.Data(0)
	if len(d.T) > MaxSamples {
		t.Errorf("%d samples kept; want at most %d", len(d.T), MaxSamples)
	}
	for i, ts := range d.T {
		if ts%r.IntervalMs() != 0 || (i > 0 && ts-d.T[i-1] != r.IntervalMs()) {
			t.Fatalf("sample %d at %d ms; want consecutive multiples of %d", i, ts, r.IntervalMs())
		}
	}
	if d.T[len(d.T)-1] != (MaxSamples+10)*BaseIntervalMs {
		t.Errorf("the last sample at %d", d.T[len(d.T)-1])
	}
	c3 := consumerOf(t, d, "c3")
	n := len(d.T) - 1
	if c3.Queues[n] != 0 || c3.MsgsPerS[n] != 0 {
		t.Errorf("killed c3 at the end: %d queues, %v msg/s; want 0, 0", c3.Queues[n], c3.MsgsPerS[n])
	}
	// Rates over the doubled interval stay per second: the producer's 100 msg/s spread over
	// the live consumers.
	var sum float64
	for _, c := range d.Consumers {
		sum += c.MsgsPerS[n]
	}
	if sum < 50 || sum > 150 {
		t.Errorf("the consumers take %v msg/s together; want about the producer's 100", sum)
	}
}

func TestDataFromReturnsOnlyNewerSamples(t *testing.T) {
	r := NewRecorder()
	run(t, r, "small", 10_000, action{7_200, kill("c2")})
	all, part := r.Data(0), r.Data(6_001)
	if !slices.Equal(part.T, all.T[7:]) {
		t.Fatalf("Data(6001) samples %v; want %v", part.T, all.T[7:])
	}
	for i, c := range part.Consumers {
		if !slices.Equal(c.MsgsPerS, all.Consumers[i].MsgsPerS[7:]) {
			t.Errorf("%s's rates from 6001: %v; want %v", c.ID, c.MsgsPerS, all.Consumers[i].MsgsPerS[7:])
		}
	}
	if len(part.Marks) != 1 || part.Epoch != all.Epoch {
		t.Errorf("marks %v, epoch %d vs %d", part.Marks, part.Epoch, all.Epoch)
	}
}

func TestMarkKeepsTimeOrderAndIgnoresRepeats(t *testing.T) {
	r := NewRecorder()
	r.Mark(3000, "b")
	r.Mark(1000, "a")
	r.Mark(3000, "c")
	r.Mark(3000, "b")
	got := r.Data(0).Marks
	want := []Mark{{1000, "a"}, {3000, "b"}, {3000, "c"}}
	if !slices.Equal(got, want) {
		t.Errorf("marks %v; want %v", got, want)
	}
}

func TestConcurrentSamplingAndReading(t *testing.T) {
	r := NewRecorder()
	c, err := cluster.New(scenario.Presets()["small"].Config)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if d := r.Data(0); len(d.Produced) != len(d.T) {
				t.Errorf("%d totals for %d samples", len(d.Produced), len(d.T))
				return
			}
			if b := r.CSV(); !strings.HasPrefix(string(b), "t_ms") {
				t.Errorf("CSV starts %.20q", b)
				return
			}
		}
	}()
	for ms := int64(0); ms <= 20_000; ms += r.IntervalMs() {
		c.Advance(ms)
		s := c.Snapshot()
		r.Sample(&s)
		r.Mark(ms, "tick")
		if ms == 10_000 {
			r.Truncate(5_000)
		}
	}
	close(stop)
	wg.Wait()
}

// The session replaces its recorder when a scenario is loaded: a page holding the old
// recorder's epoch must see a change.
func TestEveryRecorderHasItsOwnEpoch(t *testing.T) {
	a, b := NewRecorder(), NewRecorder()
	if a.Epoch() == b.Epoch() {
		t.Errorf("two recorders share epoch %d", a.Epoch())
	}
}

// A run with several groups: a process in two groups counts all its queues and messages, each
// group's backlog of a queue is its own series, and the messages sent back for a retry are
// counted.
func TestSeveralGroups(t *testing.T) {
	r := NewRecorder()
	c := run(t, r, "groups", 30_000)
	s := c.Snapshot()
	d := r.Data(0)
	var queues, consumed int64
	for _, m := range s.Consumers {
		if m.ID == "c3" {
			queues += int64(len(m.Queues))
			consumed += m.Consumed
		}
	}
	c3 := consumerOf(t, d, "c3")
	if last := len(d.T) - 1; c3.Queues[last] != queues || c3.Consumed[last] != consumed || queues == 0 {
		t.Errorf("c3 holds %d queues, consumed %d; want its two memberships' %d and %d", c3.Queues[last], c3.Consumed[last], queues, consumed)
	}
	names := map[string]bool{}
	for _, q := range d.Queues {
		names[q.Queue] = true
	}
	if !names["GID_ORDER TopicPay/broker-a:0"] || !names["GID_AUDIT TopicPay/broker-a:0"] || len(names) != len(s.Queues) {
		t.Errorf("queues %v; want one series per group and queue, %d", names, len(s.Queues))
	}
	if last := len(d.T) - 1; d.Retried[last] == 0 || d.Retried[last] != s.Metrics.Retried || d.DeadLettered[last] != 0 || d.Filtered[last] != 0 {
		t.Errorf("retried %d, dead-lettered %d, filtered %d; want the metrics' %d, 0, 0", d.Retried[last], d.DeadLettered[last], d.Filtered[last], s.Metrics.Retried)
	}
	recs, err := csv.NewReader(bytes.NewReader(r.CSV())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if head := recs[0]; !slices.Contains(head, "retried") || !slices.Contains(head, "dead_lettered") || !slices.Contains(head, "filtered") {
		t.Errorf("CSV columns %v", head)
	}
}

// Data's direct JSON is, byte for byte, what encoding/json writes for the same value through
// reflection: the charts and the exports read one or the other.
func TestDataJSONIsEncodingJSONs(t *testing.T) {
	type plain Data // without Data's MarshalJSON
	r := NewRecorder()
	run(t, r, "large", 40_000, action{12_000, kill("c3")}, action{30_000, kill("c5")})
	r.Mark(41_000, `restart "c3" <b>&</b> 🙂 \ ü`)
	for _, from := range []int64{0, 20_000, 41_000, 90_000} {
		d := r.Data(from)
		want, err := json.Marshal(plain(d))
		if err != nil {
			t.Fatal(err)
		}
		if got := r.AppendJSON(nil, from); !bytes.Equal(got, want) {
			t.Fatalf("from %d: AppendJSON differs from encoding/json:\n%.400s\n%.400s", from, got, want)
		}
	}
	d := r.Data(0)
	d.Marks, d.Consumers[0].MsgsPerS, d.Produced = nil, nil, nil
	want, _ := json.Marshal(plain(d))
	if got, _ := json.Marshal(d); !bytes.Equal(got, want) {
		t.Fatalf("nil lists: %.300s\nwant %.300s", got, want)
	}
}

// BenchmarkDataJSON is lbscope.series() of the large preset's first half hour, every sample.
func BenchmarkDataJSON(b *testing.B) {
	r := NewRecorder()
	c, err := cluster.New(scenario.Presets()["large"].Config)
	if err != nil {
		b.Fatal(err)
	}
	for ms := int64(0); ms <= 1_800_000; ms += 1000 {
		c.Advance(ms)
		s := c.Snapshot()
		r.Sample(&s)
	}
	for b.Loop() {
		out := r.AppendJSON(nil, 0)
		b.SetBytes(int64(len(out)))
	}
}

// The fast number writers write strconv's digits.
func TestNumbersAsStrconvWritesThem(t *testing.T) {
	ints := []int64{0, 1, 9, 10, 99, 100, 101, 999, 1000, 12345, 1<<31 - 1, 1 << 53, math.MaxInt64, -1, -10, -12345, math.MinInt64}
	for x := int64(1); x < math.MaxInt64/7; x = x*7 + 3 {
		ints = append(ints, x, -x)
	}
	for _, x := range ints {
		if got, want := string(appendInt(nil, x)), strconv.FormatInt(x, 10); got != want {
			t.Errorf("appendInt(%d) = %s", x, got)
		}
	}
	rates := []float64{0, 0.5, 1, 0.001, 0.01, 0.1, 0.25, 1.125, 12.3, 999999999.999, 1e9, 1.0 / 3, 2.0 / 3, 0.1 + 0.2, 1e-7, 123456.789, 1e20}
	for k := int64(0); k < 2_000_000; k += 997 {
		rates = append(rates, math.Round(float64(k)/7*1000)/1000, float64(k)/1000)
	}
	for _, x := range rates {
		if got, want := string(appendRate(nil, x, "null")), strconv.FormatFloat(x, 'f', -1, 64); got != want {
			t.Errorf("appendRate(%v) = %s; want %s", x, got, want)
		}
	}
}

// A large cluster is thinned by its values, not only its samples: the large preset's 500-odd
// series keep at most MaxValues values, at consecutive multiples of the doubled interval, and
// the small preset's few series keep every second up to MaxSamples.
func TestLargeClusterThinsByValues(t *testing.T) {
	r := NewRecorder()
	run(t, r, "large", 1_500_000, action{600_500, kill("c3")})
	d := r.Data(0)
	cols := 8 + 2*len(d.Consumers) + len(d.Queues) + 2*len(d.Brokers)
	if cols < 400 {
		t.Fatalf("the large preset records %d series; the test wants several hundred", cols)
	}
	if len(d.T)*cols > MaxValues || len(d.T) < MinSamples {
		t.Errorf("%d samples × %d series kept; want at most %d values and at least %d samples", len(d.T), cols, MaxValues, MinSamples)
	}
	if r.IntervalMs() < 2*BaseIntervalMs {
		t.Errorf("interval %d ms after 1,500 s of the large preset; want it doubled", r.IntervalMs())
	}
	for i, ts := range d.T {
		if ts%r.IntervalMs() != 0 || (i > 0 && ts-d.T[i-1] != r.IntervalMs()) {
			t.Fatalf("sample %d at %d ms; want consecutive multiples of %d", i, ts, r.IntervalMs())
		}
	}
	if c3 := consumerOf(t, d, "c3"); c3.Queues[len(d.T)-1] != 0 || c3.Queues[1] == 0 {
		t.Errorf("killed c3 holds %d queues at the second sample and %d at the end; want some, then 0", c3.Queues[1], c3.Queues[len(d.T)-1])
	}
	small := NewRecorder()
	run(t, small, "small", 1_500_000)
	if small.IntervalMs() != BaseIntervalMs || small.Len() != 1501 {
		t.Errorf("the small preset keeps %d samples every %d ms; want 1,501 every second", small.Len(), small.IntervalMs())
	}
}
