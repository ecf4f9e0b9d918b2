package scenario

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: whatever the scenario decoder accepts is a valid scenario whose file reads back
// the same, and whose work can be estimated; everything else is an error, never a panic.
// The seed corpus is every scenario file of the repository and the presets.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "scenarios", "*.json"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	for _, name := range PresetNames() {
		data, err := Presets()[name].Marshal()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(observedFile)) // a history read from logs, with every field
	f.Add([]byte(`{"version": 0}`))
	f.Add([]byte(`{"version": 1, "brokers": [{"name": "b", "queues": 1}], "timing": {"flowStepMs": 1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("Parse accepted a scenario Validate refuses: %v", err)
		}
		out, err := s.Marshal()
		if err != nil {
			t.Fatalf("an accepted scenario does not marshal: %v", err)
		}
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("a marshalled scenario does not read back: %v\n%s", err, out)
		}
		again, _ := back.Marshal()
		if !bytes.Equal(out, again) {
			t.Fatalf("a scenario changes on a round trip:\n%s\n%s", out, again)
		}
		if w := WorkOf(s); w.Units < 0 || w.PerSecond < 0 {
			t.Fatalf("negative work estimate %+v", w)
		}
	})
}

// FuzzParseAt: the --at parser gives a step the scenario checks accept or an error naming the
// flag.
func FuzzParseAt(f *testing.F) {
	for _, name := range CommandNames() {
		f.Add(ExampleAt(name))
	}
	for _, s := range []string{"60s:killConsumer:c1", "1h:setProducerRate:0", "0s:addBroker:b:4096", "25h:killConsumer:c1",
		"60s:setStrategy:CONSISTENT_HASH:99999999999999999999", "::", "60s:slowBroker:broker-a:-1", "60s:addConsumer:\x1b[31m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, at string) {
		st, err := ParseAt(at)
		if err != nil {
			if !bytes.HasPrefix([]byte(err.Error()), []byte("--at ")) {
				t.Fatalf("error %q does not name --at", err)
			}
			return
		}
		if st.At < 0 || st.At > MaxDuration {
			t.Fatalf("step at %d, outside 0…24h", st.At)
		}
	})
}
