// Package series records the playground's metrics over virtual time, for its charts and their
// CSV and JSON exports.
//
// The session hands the Recorder a snapshot at every multiple of IntervalMs (from 0) and tells
// it of every action (Mark) and of time travel (Truncate). From each snapshot the recorder
// keeps only counts:
//
//   - per consumer: how many process queues it holds and how many messages it has consumed
//     (cumulative; a restarted process starts again from 0, which reads as a counter reset);
//   - per queue: its backlog (stored, not yet consumed);
//   - per broker: the sends it received and the sends to it that failed (cumulative);
//   - the run's totals: produced, consumed, backlog and duplicates (cumulative), and the
//     consume failures sent back, dead-lettered, and the messages filtered by tag (cumulative).
//
// A jump forward in time may skip multiples: the series then has a gap, and the rates after it
// are averages over the gap. Rates are derived when read: a consumer's msg/s at a sample is the growth of its consumed
// count since the previous sample divided by the time between them, and a broker's share is
// its part of all sends made in that interval (the shares of one sample sum to 1; when nothing
// was sent they are null). The first sample has no rates.
//
// Memory is bounded: when the samples exceed MaxSamples, or the values kept (samples times
// series) exceed MaxValues while more than MinSamples are kept, the interval doubles and every
// other sample goes, so that the times kept stay multiples of the new interval. A large
// cluster's series are thus thinned sooner: the large preset (about 500 series) keeps 500 to
// 1,000 samples, so that reading them all (lbscope.series(), a chart after time travel) stays a
// few tens of milliseconds in the page, and 4,096 queues never keep 3,600 samples each. A
// consumer, queue or broker that first appears later has no value before (null in JSON, an
// empty cell in CSV).
// Every change that rewrites what a reader already fetched (truncation, thinning, a replaced
// sample, dropped marks) gives the recorder a new epoch, unique in the process (a new
// recorder has one too): a reader fetching only new samples refetches everything when the
// epoch it holds is not the current one.
//
// # CSV columns
//
// One row per sample, in this order of columns (names and ids sort in natural order, c2
// before c10; queues by broker, then by queue id):
//
//	t_ms                          virtual time of the sample, ms
//	consumer.<id>.queues          process queues held
//	consumer.<id>.consumed        messages consumed by its current process (cumulative)
//	consumer.<id>.msgs_per_s      consumption since the previous sample, messages per second
//	queue.<broker>:<n>.backlog    messages stored in the queue and not yet consumed (with several
//	                              groups, one per group: queue.<group> <topic>/<broker>:<n>.backlog)
//	broker.<name>.sends           sends the broker received (cumulative)
//	broker.<name>.failures        sends to it that failed (cumulative)
//	broker.<name>.share           its fraction of all sends since the previous sample, 0…1
//	produced                      messages produced (cumulative)
//	consumed                      distinct messages consumed (cumulative)
//	backlog                       messages stored and not yet consumed, all queues
//	duplicates                    further deliveries of consumed messages (cumulative)
//	retried                       failed messages sent back to a delay ladder (cumulative)
//	dead_lettered                 failed messages put on a dead-letter topic (cumulative)
//	filtered                      messages a group passed over for their tags (cumulative)
//	actions                       the actions taken after the previous sample, up to this one,
//	                              joined by "; " (actions after the last sample are only in
//	                              the JSON export)
package series

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/route"
)

// Bounds of a recorder.
const (
	BaseIntervalMs = 1000    // the interval of an empty recorder
	MaxSamples     = 3600    // past this, the interval doubles and every other sample goes
	MaxValues      = 1 << 19 // past this many values (samples × series) too,
	MinSamples     = 256     // unless no more than this many samples are kept
	MaxMarks       = 2000    // past this, the oldest marks go
)

// missing is the stored value of a count that had no value at a sample (the thing did not
// exist yet, or no longer). Every recorded count is non-negative.
const missing = -1

// Mark is an action at a moment, shown as a vertical marker on the charts.
type Mark struct {
	T    int64  `json:"t"`
	Text string `json:"text"`
}

type consumerCols struct{ queues, consumed []int64 }

type queueCols struct {
	broker  string
	id      int
	backlog []int64
}

type brokerCols struct{ sends, failures []int64 }

// Recorder keeps samples of a session's snapshots at a fixed virtual interval. Its methods
// are safe for concurrent use: the game loop samples while the page reads.
type Recorder struct {
	mu       sync.Mutex
	interval int64
	epoch    int64
	times    []int64
	cons     map[string]*consumerCols
	queues   map[string]*queueCols
	brokers  map[string]*brokerCols
	// The run's totals: produced, consumed, backlog, duplicates, retried, dead-lettered, filtered.
	produced, consumed, backlog, duplicates []int64
	retried, deadLettered, filtered         []int64
	marks                                   []Mark
}

// epochs numbers every epoch of every recorder of the process, so that a reader holding one
// recorder's epoch sees a change when the session replaces its recorder (a new scenario).
var epochs atomic.Int64

// NewRecorder returns an empty recorder sampling every second of virtual time.
func NewRecorder() *Recorder {
	r := &Recorder{}
	r.clear()
	r.bump()
	return r
}

// bump gives the recorder a new epoch.
func (r *Recorder) bump() { r.epoch = epochs.Add(1) }

func (r *Recorder) clear() {
	r.interval = BaseIntervalMs
	r.times = nil
	r.cons = map[string]*consumerCols{}
	r.queues = map[string]*queueCols{}
	r.brokers = map[string]*brokerCols{}
	r.produced, r.consumed, r.backlog, r.duplicates = nil, nil, nil, nil
	r.retried, r.deadLettered, r.filtered = nil, nil, nil
	r.marks = nil
}

// IntervalMs is the current sampling period; the session samples at its multiples.
func (r *Recorder) IntervalMs() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.interval
}

// Epoch changes whenever samples or marks a reader may hold are rewritten or dropped; no two
// recorders of a process share an epoch.
func (r *Recorder) Epoch() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.epoch
}

// Len is the number of samples kept.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.times)
}

// LastMs is the last sample's time, -1 when there is none.
func (r *Recorder) LastMs() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.times) == 0 {
		return -1
	}
	return r.times[len(r.times)-1]
}

// Sample records s at s.TimeMs. A time that is not a multiple of IntervalMs is ignored (the
// series stays regular), so is one before the last sample (time travel must Truncate first);
// a sample at the last sample's time replaces it.
func (r *Recorder) Sample(s *cluster.Snapshot) {
	if s == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	t := s.TimeMs
	if t < 0 || t%r.interval != 0 {
		return
	}
	if n := len(r.times); n > 0 {
		last := r.times[n-1]
		if t < last {
			return
		}
		if t == last {
			r.cut(n - 1)
			r.bump()
		}
	}
	r.times = append(r.times, t)
	n := len(r.times) - 1
	for _, c := range s.Consumers {
		cc := r.cons[c.ID]
		if cc == nil {
			cc = &consumerCols{}
			r.cons[c.ID] = cc
		}
		// A process that is a member of several groups has an entry in each: its columns
		// are its whole process's, the sum of its memberships'.
		sum(&cc.queues, n, int64(len(c.Queues)))
		sum(&cc.consumed, n, c.Consumed)
	}
	for _, q := range s.Queues {
		name := q.Queue
		if q.Group != "" {
			name = q.Group + " " + q.Queue // each group's offsets and backlog of a queue are its own
		}
		qc := r.queues[name]
		if qc == nil {
			qc = &queueCols{broker: q.Broker, id: q.ID}
			r.queues[name] = qc
		}
		put(&qc.backlog, n, max(q.Backlog, 0))
	}
	for _, b := range s.Brokers {
		bc := r.brokers[b.Name]
		if bc == nil {
			bc = &brokerCols{}
			r.brokers[b.Name] = bc
		}
		put(&bc.sends, n, b.Sends)
		put(&bc.failures, n, b.Failures)
	}
	m := s.Metrics
	put(&r.produced, n, m.Produced)
	put(&r.consumed, n, m.Consumed)
	put(&r.backlog, n, max(m.Backlog, 0))
	put(&r.duplicates, n, m.Duplicates)
	put(&r.retried, n, m.Retried)
	put(&r.deadLettered, n, m.DeadLettered)
	put(&r.filtered, n, m.Filtered)
	r.each(func(col *[]int64) { pad(col, n+1) })
	for len(r.times) > MaxSamples || len(r.times) > MinSamples && len(r.times)*r.columns() > MaxValues {
		n := len(r.times)
		if r.thin(); len(r.times) == n {
			break // every sample is at a multiple of the new interval (gaps): nothing went
		}
	}
}

// columns is the number of series: each sample's values.
func (r *Recorder) columns() int {
	return 1 + 7 + 2*len(r.cons) + len(r.queues) + 2*len(r.brokers)
}

// put sets (*col)[n] to v, padding the samples before with missing.
func put(col *[]int64, n int, v int64) {
	if len(*col) > n { // an id listed twice in one snapshot: the last wins
		(*col)[n] = v
		return
	}
	pad(col, n)
	*col = append(*col, v)
}

// sum adds v to (*col)[n] when this sample has a value there already, else puts it.
func sum(col *[]int64, n int, v int64) {
	if len(*col) > n && (*col)[n] != missing {
		(*col)[n] += v
		return
	}
	put(col, n, v)
}

func pad(col *[]int64, n int) {
	for len(*col) < n {
		*col = append(*col, missing)
	}
}

// each calls fn on every column, in no particular order.
func (r *Recorder) each(fn func(*[]int64)) {
	for _, c := range r.cons {
		fn(&c.queues)
		fn(&c.consumed)
	}
	for _, q := range r.queues {
		fn(&q.backlog)
	}
	for _, b := range r.brokers {
		fn(&b.sends)
		fn(&b.failures)
	}
	fn(&r.produced)
	fn(&r.consumed)
	fn(&r.backlog)
	fn(&r.duplicates)
	fn(&r.retried)
	fn(&r.deadLettered)
	fn(&r.filtered)
}

// cut keeps the first n samples and forgets whatever exists only after them.
func (r *Recorder) cut(n int) {
	r.times = r.times[:n]
	r.each(func(col *[]int64) { *col = (*col)[:n] })
	r.prune()
}

// prune forgets consumers, queues and brokers that have no value in any kept sample.
func (r *Recorder) prune() {
	empty := func(col []int64) bool { return !slices.ContainsFunc(col, func(v int64) bool { return v != missing }) }
	maps.DeleteFunc(r.cons, func(_ string, c *consumerCols) bool { return empty(c.queues) })
	maps.DeleteFunc(r.queues, func(_ string, q *queueCols) bool { return empty(q.backlog) })
	maps.DeleteFunc(r.brokers, func(_ string, b *brokerCols) bool { return empty(b.sends) })
}

// thin doubles the interval and keeps the samples at its multiples.
func (r *Recorder) thin() {
	r.interval *= 2
	keep := make([]int, 0, len(r.times)/2+1)
	for i, t := range r.times {
		if t%r.interval == 0 {
			keep = append(keep, i)
		}
	}
	filter := func(col *[]int64) {
		out := (*col)[:0]
		for _, i := range keep {
			out = append(out, (*col)[i])
		}
		*col = out
	}
	filter(&r.times)
	r.each(filter)
	r.prune()
	r.bump()
}

// Mark records an action at time t for the charts' markers. The same action at the same time
// is kept once (a replay after time travel marks again what it replays).
func (r *Recorder) Mark(t int64, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := Mark{T: t, Text: text}
	i, _ := slices.BinarySearchFunc(r.marks, t, func(m Mark, t int64) int {
		if m.T <= t {
			return -1 // after every mark at t: marks at one time keep their order
		}
		return 1
	})
	for j := i - 1; j >= 0 && r.marks[j].T == t; j-- {
		if r.marks[j] == m {
			return
		}
	}
	if i < len(r.marks) {
		r.bump() // inserted before marks a reader may hold
	}
	r.marks = slices.Insert(r.marks, i, m)
	if len(r.marks) > MaxMarks {
		r.marks = slices.Delete(r.marks, 0, len(r.marks)-MaxMarks)
		r.bump()
	}
}

// Truncate drops every sample and mark after t (time travelled back to t). A negative t
// empties the recorder and restores the base interval.
func (r *Recorder) Truncate(t int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n, _ := slices.BinarySearch(r.times, t+1)
	m, _ := slices.BinarySearchFunc(r.marks, t+1, func(m Mark, t int64) int {
		if m.T < t {
			return -1
		}
		return 1
	})
	if n == len(r.times) && m == len(r.marks) && (n > 0 || r.interval == BaseIntervalMs) {
		return
	}
	r.cut(n)
	r.marks = r.marks[:m]
	if n == 0 {
		r.interval = BaseIntervalMs
	}
	r.bump()
}

// Reset empties the recorder (a new scenario).
func (r *Recorder) Reset() { r.Truncate(-1) }

// Ints is a series of counts; JSON writes a missing value as null.
type Ints []int64

// MarshalJSON writes the counts as a JSON array with null for missing values.
func (v Ints) MarshalJSON() ([]byte, error) { return v.appendJSON(make([]byte, 0, 2+len(v)*4)), nil }

func (v Ints) appendJSON(b []byte) []byte {
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		if x == missing {
			b = append(b, "null"...)
		} else {
			b = appendInt(b, x)
		}
	}
	return append(b, ']')
}

const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

// appendInt is strconv.AppendInt(b, x, 10), twice as fast in WebAssembly, where a large
// preset's series() writes about a million of them.
func appendInt(b []byte, x int64) []byte {
	if x < 0 {
		if x == math.MinInt64 {
			return strconv.AppendInt(b, x, 10)
		}
		return appendUint(append(b, '-'), uint64(-x))
	}
	return appendUint(b, uint64(x))
}

func appendUint(b []byte, x uint64) []byte {
	var buf [20]byte
	i := len(buf)
	for x >= 100 {
		q := x / 100
		r := x - q*100
		i -= 2
		buf[i], buf[i+1] = digitPairs[2*r], digitPairs[2*r+1]
		x = q
	}
	if x >= 10 {
		i -= 2
		buf[i], buf[i+1] = digitPairs[2*x], digitPairs[2*x+1]
	} else {
		i--
		buf[i] = byte('0' + x)
	}
	return append(b, buf[i:]...)
}

// Rates is a series of derived values; JSON writes NaN (no value) as null.
type Rates []float64

// MarshalJSON writes the rates as a JSON array with null for NaN.
func (v Rates) MarshalJSON() ([]byte, error) { return v.appendJSON(make([]byte, 0, 2+len(v)*6)), nil }

func (v Rates) appendJSON(b []byte) []byte {
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendRate(b, x, "null")
	}
	return append(b, ']')
}

func appendRate(b []byte, x float64, none string) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(b, none...)
	}
	// A value of at most three decimals (every msg/s rate) is written as its thousandths: the
	// digits strconv's shortest form has, without its cost (twice as fast in WebAssembly).
	if k := math.Round(x * 1000); x >= 0 && x < 1e9 && k/1000 == x && !math.Signbit(x) {
		whole, frac := uint64(k)/1000, uint64(k)%1000
		b = appendUint(b, whole)
		if frac != 0 {
			b = append(b, '.', byte('0'+frac/100))
			if frac%100 != 0 {
				b = append(b, byte('0'+frac/10%10))
				if frac%10 != 0 {
					b = append(b, byte('0'+frac%10))
				}
			}
		}
		return b
	}
	return strconv.AppendFloat(b, x, 'f', -1, 64)
}

// ConsumerSeries is one consumer's samples.
type ConsumerSeries struct {
	ID       string `json:"id"`
	Queues   Ints   `json:"queues"`
	Consumed Ints   `json:"consumed"`
	MsgsPerS Rates  `json:"msgsPerS"`
}

// QueueSeries is one queue's samples.
type QueueSeries struct {
	Queue   string `json:"queue"` // "broker-a:0"; with several groups "GID_ORDER TopicPay/broker-a:0", one per group
	Broker  string `json:"broker"`
	Backlog Ints   `json:"backlog"`
}

// BrokerSeries is one broker's samples.
type BrokerSeries struct {
	Name     string `json:"name"`
	Sends    Ints   `json:"sends"`
	Failures Ints   `json:"failures"`
	Share    Rates  `json:"share"`
}

// Data is the samples from a time on, column by column: every series is aligned with T.
type Data struct {
	Epoch      int64            `json:"epoch"`
	IntervalMs int64            `json:"intervalMs"`
	FromMs     int64            `json:"fromMs"`
	LastMs     int64            `json:"lastMs"` // the last sample's time (-1: none)
	T          []int64          `json:"t"`
	Consumers  []ConsumerSeries `json:"consumers"`
	Queues     []QueueSeries    `json:"queues"`
	Brokers    []BrokerSeries   `json:"brokers"`
	Produced   Ints             `json:"produced"`
	Consumed   Ints             `json:"consumed"`
	Backlog    Ints             `json:"backlog"`
	Duplicates Ints             `json:"duplicates"`
	// Consume failures and tags (cumulative): messages sent back to a delay ladder, put on a
	// dead-letter topic, passed over for their tags.
	Retried      Ints   `json:"retried"`
	DeadLettered Ints   `json:"deadLettered"`
	Filtered     Ints   `json:"filtered"`
	Marks        []Mark `json:"marks"` // the actions at fromMs or later, in time order
}

// AppendJSON appends d as JSON to b: the same value encoding/json writes for it, written
// directly. lbscope.series() of a large preset after an hour holds about a million numbers,
// and encoding/json, which re-reads every Marshaler's output, took several times as long.
func (d Data) AppendJSON(b []byte) []byte {
	// Room for every value at four bytes (a large preset's values average 3.3 with their
	// commas), so that appending seldom copies what it wrote.
	values := 1 + 7 + 3*len(d.Consumers) + len(d.Queues) + 3*len(d.Brokers)
	b = slices.Grow(b, values*len(d.T)*4+len(d.Marks)*64+len(d.Queues)*64+1024)
	b = append(b, `{"epoch":`...)
	b = strconv.AppendInt(b, d.Epoch, 10)
	b = append(b, `,"intervalMs":`...)
	b = strconv.AppendInt(b, d.IntervalMs, 10)
	b = append(b, `,"fromMs":`...)
	b = strconv.AppendInt(b, d.FromMs, 10)
	b = append(b, `,"lastMs":`...)
	b = strconv.AppendInt(b, d.LastMs, 10)
	b = append(b, `,"t":`...)
	b = Ints(d.T).appendJSON(b)
	b = append(b, `,"consumers":[`...)
	for i, c := range d.Consumers {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(append(b, `{"id":`...), c.ID)
		b = c.Queues.appendJSON(append(b, `,"queues":`...))
		b = c.Consumed.appendJSON(append(b, `,"consumed":`...))
		b = c.MsgsPerS.appendJSON(append(b, `,"msgsPerS":`...))
		b = append(b, '}')
	}
	b = append(b, `],"queues":[`...)
	for i, q := range d.Queues {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(append(b, `{"queue":`...), q.Queue)
		b = appendString(append(b, `,"broker":`...), q.Broker)
		b = q.Backlog.appendJSON(append(b, `,"backlog":`...))
		b = append(b, '}')
	}
	b = append(b, `],"brokers":[`...)
	for i, br := range d.Brokers {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(append(b, `{"name":`...), br.Name)
		b = br.Sends.appendJSON(append(b, `,"sends":`...))
		b = br.Failures.appendJSON(append(b, `,"failures":`...))
		b = br.Share.appendJSON(append(b, `,"share":`...))
		b = append(b, '}')
	}
	b = append(b, ']')
	for _, col := range []struct {
		name string
		v    Ints
	}{{"produced", d.Produced}, {"consumed", d.Consumed}, {"backlog", d.Backlog}, {"duplicates", d.Duplicates},
		{"retried", d.Retried}, {"deadLettered", d.DeadLettered}, {"filtered", d.Filtered}} {
		b = append(append(append(b, `,"`...), col.name...), `":`...)
		b = col.v.appendJSON(b)
	}
	b = append(b, `,"marks":`...)
	if d.Marks == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, m := range d.Marks {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(append(b, `{"t":`...), m.T, 10)
			b = appendString(append(b, `,"text":`...), m.Text)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// MarshalJSON writes d with AppendJSON.
func (d Data) MarshalJSON() ([]byte, error) { return d.AppendJSON(nil), nil }

// appendString appends s as a JSON string, escaped as encoding/json escapes it.
func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always encodes
	return append(b, q...)
}

// Data returns the samples at fromMs or later and the marks at fromMs or later. Every
// consumer, queue and broker recorded is listed, with null where it has no value. Rates at
// the first sample returned are computed from the sample before it, when there is one.
func (r *Recorder) Data(fromMs int64) Data {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.data(fromMs, slices.Clone)
}

// AppendJSON appends Data(fromMs) as JSON to b, written from the recorder's own columns
// rather than from copies of them.
func (r *Recorder) AppendJSON(b []byte, fromMs int64) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.data(fromMs, func(col []int64) []int64 { return col }).AppendJSON(b)
}

// data is Data, its columns passed through col: a copy, or the recorder's own while it is
// locked.
func (r *Recorder) data(fromMs int64, col func([]int64) []int64) Data {
	from, _ := slices.BinarySearch(r.times, fromMs)
	d := Data{
		Epoch: r.epoch, IntervalMs: r.interval, FromMs: fromMs, LastMs: -1,
		T:         col(r.times[from:]),
		Consumers: []ConsumerSeries{}, Queues: []QueueSeries{}, Brokers: []BrokerSeries{},
		Produced: col(r.produced[from:]), Consumed: col(r.consumed[from:]),
		Backlog: col(r.backlog[from:]), Duplicates: col(r.duplicates[from:]),
		Retried: col(r.retried[from:]), DeadLettered: col(r.deadLettered[from:]), Filtered: col(r.filtered[from:]),
		Marks: []Mark{},
	}
	if n := len(r.times); n > 0 {
		d.LastMs = r.times[n-1]
	}
	if d.T == nil {
		d.T = []int64{}
	}
	for _, id := range sortedKeys(r.cons) {
		c := r.cons[id]
		d.Consumers = append(d.Consumers, ConsumerSeries{ID: id,
			Queues: col(c.queues[from:]), Consumed: col(c.consumed[from:]),
			MsgsPerS: r.rates(c.consumed, from)})
	}
	for _, q := range r.queueOrder() {
		qc := r.queues[q]
		d.Queues = append(d.Queues, QueueSeries{Queue: q, Broker: qc.broker, Backlog: col(qc.backlog[from:])})
	}
	names := sortedKeys(r.brokers)
	shares := r.shares(names, from)
	for i, name := range names {
		b := r.brokers[name]
		d.Brokers = append(d.Brokers, BrokerSeries{Name: name,
			Sends: col(b.sends[from:]), Failures: col(b.failures[from:]), Share: shares[i]})
	}
	m, _ := slices.BinarySearchFunc(r.marks, fromMs, func(m Mark, t int64) int {
		if m.T < t {
			return -1
		}
		return 1
	})
	d.Marks = append(d.Marks, r.marks[m:]...)
	return d
}

// growth is how much a cumulative count grew from sample i-1 to sample i; ok is false when
// either has no value. A count that went down was reset (a restarted consumer's new process
// counts from 0), so all of its current value is growth.
func growth(col []int64, i int) (d int64, ok bool) {
	if i < 1 || col[i] == missing || col[i-1] == missing {
		return 0, false
	}
	if col[i] < col[i-1] {
		return col[i], true
	}
	return col[i] - col[i-1], true
}

// rates is the per-second growth of a cumulative count at samples from on.
func (r *Recorder) rates(col []int64, from int) Rates {
	out := make(Rates, 0, len(col)-from)
	for i := from; i < len(col); i++ {
		d, ok := growth(col, i)
		if !ok {
			out = append(out, math.NaN())
			continue
		}
		dt := float64(r.times[i]-r.times[i-1]) / 1000
		out = append(out, math.Round(float64(d)/dt*1000)/1000)
	}
	return out
}

// shares is, for each broker of names, its fraction of the sends made since the previous
// sample, at samples from on.
func (r *Recorder) shares(names []string, from int) []Rates {
	out := make([]Rates, len(names))
	for i := range out {
		out[i] = make(Rates, 0, len(r.times)-from)
	}
	grew := make([]int64, len(names))
	for i := from; i < len(r.times); i++ {
		var total int64
		for j, name := range names {
			d, _ := growth(r.brokers[name].sends, i)
			grew[j] = d
			total += d
		}
		for j, name := range names {
			v := math.NaN()
			if _, ok := growth(r.brokers[name].sends, i); ok && total > 0 {
				v = float64(grew[j]) / float64(total)
			}
			out[j] = append(out[j], v)
		}
	}
	return out
}

// queueOrder lists the queues by broker (natural order), then by queue id.
func (r *Recorder) queueOrder() []string {
	qs := slices.Collect(maps.Keys(r.queues))
	slices.SortFunc(qs, func(a, b string) int {
		qa, qb := r.queues[a], r.queues[b]
		if c := route.NaturalCompare(qa.broker, qb.broker); c != 0 {
			return c
		}
		if qa.id != qb.id {
			return qa.id - qb.id
		}
		return strings.Compare(a, b)
	})
	return qs
}

func sortedKeys[V any](m map[string]V) []string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, route.NaturalCompare)
	return keys
}

// JSON is the export of every sample and mark: Data(0) with a format tag.
func (r *Recorder) JSON() []byte {
	// {"format": …} and then Data's fields.
	flat := append([]byte(`{"format":"lbscope-series/1",`), r.AppendJSON(nil, 0)[1:]...)
	var b bytes.Buffer
	b.Grow(len(flat) * 5 / 4)
	if err := json.Indent(&b, flat, "", " "); err != nil {
		panic("series: " + err.Error()) // AppendJSON writes JSON
	}
	return append(b.Bytes(), '\n')
}

// CSV is the export of every sample as a table; the package comment lists its columns.
func (r *Recorder) CSV() []byte {
	d := r.Data(0)
	head := []string{"t_ms"}
	for _, c := range d.Consumers {
		head = append(head, "consumer."+c.ID+".queues", "consumer."+c.ID+".consumed", "consumer."+c.ID+".msgs_per_s")
	}
	for _, q := range d.Queues {
		head = append(head, "queue."+q.Queue+".backlog")
	}
	for _, b := range d.Brokers {
		head = append(head, "broker."+b.Name+".sends", "broker."+b.Name+".failures", "broker."+b.Name+".share")
	}
	head = append(head, "produced", "consumed", "backlog", "duplicates", "retried", "dead_lettered", "filtered", "actions")
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(head)
	ints := func(v Ints, i int) string {
		if v[i] == missing {
			return ""
		}
		return strconv.FormatInt(v[i], 10)
	}
	rate := func(v Rates, i int) string { return string(appendRate(nil, v[i], "")) }
	mark := 0
	row := make([]string, 0, len(head))
	for i, t := range d.T {
		row = append(row[:0], strconv.FormatInt(t, 10))
		for _, c := range d.Consumers {
			row = append(row, ints(c.Queues, i), ints(c.Consumed, i), rate(c.MsgsPerS, i))
		}
		for _, q := range d.Queues {
			row = append(row, ints(q.Backlog, i))
		}
		for _, b := range d.Brokers {
			row = append(row, ints(b.Sends, i), ints(b.Failures, i), rate(b.Share, i))
		}
		row = append(row, ints(d.Produced, i), ints(d.Consumed, i), ints(d.Backlog, i), ints(d.Duplicates, i),
			ints(d.Retried, i), ints(d.DeadLettered, i), ints(d.Filtered, i))
		var acts []string
		for ; mark < len(d.Marks) && d.Marks[mark].T <= t; mark++ {
			acts = append(acts, d.Marks[mark].Text)
		}
		row = append(row, strings.Join(acts, "; "))
		w.Write(row)
	}
	w.Flush()
	return buf.Bytes()
}
