package cluster

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/selector"
)

// unlisted is every setting under the struct type t (the fields a scenario file gives, by
// their JSON names) that the field table lacks, and every number it lists without limits.
func unlisted(scope string, t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if !sf.IsExported() || name == "-" {
			continue
		}
		path := name
		if scope != "" {
			path = scope + "." + name
		}
		f, ok := Field(path)
		if !ok {
			out = append(out, path+": no entry")
			continue
		}
		ft := sf.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch ft.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if f.Type != ArgInt || (f.Min >= f.Max && f.MaxOf == "") {
				out = append(out, path+": a number without limits")
			}
		case reflect.Slice:
			switch {
			case ft.Elem().Kind() == reflect.Struct:
				if f.Type != ArgList || f.Len == 0 {
					out = append(out, path+": a list without a length limit")
				}
				out = append(out, unlisted(path+"[]", ft.Elem())...)
			case ft.Elem().Kind() == reflect.String:
				if f.Type != ArgStrings || f.Len == 0 || f.Charset == nil {
					out = append(out, path+": a list of names without limits")
				}
			case f.Type != ArgInts || f.Len == 0 || f.Min >= f.Max:
				out = append(out, path+": a list of numbers without limits")
			}
		case reflect.Float32, reflect.Float64:
			if f.Type != ArgFloat || f.FMin >= f.FMax {
				out = append(out, path+": a number without limits")
			}
		case reflect.Map:
			if ft.Elem().Kind() == reflect.Interface { // attributes: CheckAttributes bounds their values
				if f.Type != ArgObject || f.Len == 0 {
					out = append(out, path+": an object of attributes without limits")
				}
				continue
			}
			if f.Type != ArgShares || f.Len == 0 || f.Charset == nil || f.FMin >= f.FMax {
				out = append(out, path+": an object of shares without limits")
			}
		case reflect.Struct:
			if ft.Name() == "Params" {
				continue // the strategy's parameters: the strategy table's (allocate.AllParams)
			}
			if ft == reflect.TypeFor[allocate.Choice]() {
				continue // a strategy's name (its entry), or its name and source: CheckChoice
			}
			if ft == reflect.TypeFor[selector.Choice]() {
				continue // a selector's name and source: CheckSelector
			}
			if f.Type != ArgObject {
				out = append(out, path+": an object that is not ArgObject")
			}
			out = append(out, unlisted(path, ft)...)
		}
	}
	return out
}

// Every setting of a cluster's initial state is an entry of the field table, and every
// number has its limits there: a field added to Config or a struct under it without an entry
// fails here, so no door accepts it unbounded.
func TestEveryFieldHasAnEntry(t *testing.T) {
	for _, m := range unlisted("", reflect.TypeFor[Config]()) {
		t.Error(m)
	}
}

// The check above catches a new number without an entry, and an entry without limits.
func TestAFieldWithoutAnEntryIsCaught(t *testing.T) {
	type broker struct {
		Name   string `json:"name"`
		Queues int    `json:"queues"`
		Weight int    `json:"weight,omitempty"`
	}
	got := unlisted("brokers[]", reflect.TypeFor[broker]())
	if want := []string{"brokers[].weight: no entry"}; !reflect.DeepEqual(got, want) {
		t.Errorf("unlisted = %q; want %q", got, want)
	}
	f, _ := Field("brokers[].queues")
	max := f.Max
	f.Max = 0
	defer func() { f.Max = max }()
	if got := unlisted("brokers[]", reflect.TypeFor[broker]()); len(got) != 2 || got[0] != "brokers[].queues: a number without limits" {
		t.Errorf("an entry without limits: unlisted = %q", got)
	}
}

// Each entry is whole: a doc line, a known type, values for an enumeration, characters for a
// name, a struct for its scope; the table's order puts a struct's fields after it.
func TestFieldTableEntriesAreWhole(t *testing.T) {
	types := map[string]bool{ArgInt: true, ArgString: true, ArgEnum: true, ArgBool: true, ArgInts: true, ArgObject: true, ArgList: true,
		ArgFloat: true, ArgStrings: true, ArgShares: true}
	flags := map[string]string{}
	for _, f := range Fields() {
		switch {
		case f.Doc == "":
			t.Errorf("%s: no doc", f.Path)
		case !types[f.Type]:
			t.Errorf("%s: type %q", f.Path, f.Type)
		case f.Type == ArgEnum && len(f.Enum) == 0 && !f.Loose:
			t.Errorf("%s: an enumeration without values", f.Path)
		case f.Type == ArgString && f.Required && f.Charset == nil:
			t.Errorf("%s: a required name without a character set", f.Path)
		case f.Type == ArgList && f.Unit == "":
			t.Errorf("%s: a list without the noun its errors count", f.Path)
		}
		if f.Flag != "" {
			if g, dup := flags[f.Flag]; dup {
				t.Errorf("flag --%s is %s's and %s's", f.Flag, g, f.Path)
			}
			flags[f.Flag] = f.Path
		}
		if f.Type == ArgEnum && f.Default != "" && !f.Loose && !strings.Contains(" "+strings.Join(f.Enum, " ")+" ", " "+f.Default+" ") {
			t.Errorf("%s: default %q is not one of %v", f.Path, f.Default, f.Enum)
		}
	}
}

// The table's limits are what a check reports, in its words; an entry's defaults are the
// engine's.
func TestFieldChecks(t *testing.T) {
	base := Config{Brokers: []BrokerConfig{{Name: "broker-a", Queues: 4}}, Consumers: []ConsumerConfig{{ID: "c1"}}}
	for _, c := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) {}, ""},
		{func(c *Config) { c.Brokers[0].Queues = 4097 }, "brokers[0].queues: 4097; want 0…4096"},
		{func(c *Config) { c.Brokers = make([]BrokerConfig, 65) }, "brokers: 65 brokers; the limit is 64"},
		{func(c *Config) { c.Consumers[0].ConsumeFromWhere = "CONSUME_FROM_FIRST_OFFSET" }, ""},
		{func(c *Config) { c.Consumers[0].ConsumeFromWhere = "NOW" }, `consumers[0].consumeFromWhere: "NOW"; want LAST_OFFSET, FIRST_OFFSET or TIMESTAMP (CONSUME_FROM_ may precede them)`},
		{func(c *Config) { c.Consumers[0].SlowMs = -1 }, "consumers[0].slowMs: -1; want 0…86400000 (24 h)"},
		{func(c *Config) { c.Consumers[0].ID = "" }, "consumers[0].id: missing"},
		{func(c *Config) { c.Consumers[0].Subscription = &SubscriptionConfig{} }, "consumers[0].subscription.topic: missing"},
		{func(c *Config) { c.Producers = []ProducerConfig{{ID: "p1", LatencyMax: []int64{0, MaxTierMs + 1}}} }, "producers[0].latencyMax[1]: 86400001; want -86400000…86400000 (24 h either way)"},
		{func(c *Config) { c.History = &HistoryConfig{Messages: 5, Deleted: 6} }, "history.deleted: 6; want 0…5 (history.messages)"},
		{func(c *Config) { c.Timing.PullBatchSize = 1025 }, "timing.pullBatchSize: 1025; want 0…1024"},
		{func(c *Config) { c.MessageModel = "P2P" }, `messageModel: "P2P"; want CLUSTERING or BROADCASTING`},
	} {
		cfg := base
		cfg.Brokers = append([]BrokerConfig(nil), base.Brokers...)
		cfg.Consumers = append([]ConsumerConfig(nil), base.Consumers...)
		c.edit(&cfg)
		err := CheckFields(cfg, nil)
		if got := errText(err); got != c.want {
			t.Errorf("CheckFields = %q; want %q", got, c.want)
		}
	}
	var called []string
	rules := func(field, p string, i int) error {
		if field == "consumers[].id" || field == "timing.flowStepMs" {
			called = append(called, p+" "+strconv.Itoa(i))
		}
		return nil
	}
	if err := CheckFields(base, rules); err != nil || !reflect.DeepEqual(called, []string{"consumers[0] 0", "timing -1"}) {
		t.Errorf("rules called for %q (%v)", called, err)
	}
	if d := DefaultTiming(); d.RebalanceWaitInterval != 20000 || d.PullBatchSize != 32 || d.FlowStepMs != 50 || d.ExpiryNotifies {
		t.Errorf("DefaultTiming() = %+v", d)
	}
	if got := (Timing{HeartbeatInterval: 7}).WithDefaults(); got.HeartbeatInterval != 7 || got.ScanInterval != 10000 {
		t.Errorf("WithDefaults keeps what is set and fills the rest: %+v", got)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
