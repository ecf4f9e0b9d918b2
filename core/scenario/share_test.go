package scenario

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
)

func sessionScenario(actions int) Scenario {
	s := Presets()["default"]
	s.Until = 30 * Minute
	for i := range actions {
		at := Duration(int64(i+1) * 20000)
		switch i % 4 {
		case 0:
			s.Timeline = append(s.Timeline, Step{At: at, Command: cluster.Command{Type: "killConsumer", ID: "c1"}})
		case 1:
			s.Timeline = append(s.Timeline, Step{At: at, Command: cluster.Command{Type: "restartConsumer", ID: "c1"}})
		case 2:
			s.Timeline = append(s.Timeline, Step{At: at, Command: cluster.Command{Type: "slowBroker", Broker: "broker-a", LatencyMs: ptrInt(2000)}})
		case 3:
			s.Timeline = append(s.Timeline, Step{At: at, Command: cluster.Command{Type: "addConsumer", ID: "c" + strconv.Itoa(10+i)}})
		}
	}
	return s
}

func ptrInt(v int) *int { return &v }

func TestShareRoundTripReproducesTheRun(t *testing.T) {
	s := sessionScenario(40)
	link, err := EncodeShare(Share{Scenario: s, TimeMs: 15 * 60000})
	if err != nil {
		t.Fatal(err)
	}
	if len(link) > 2000 {
		t.Errorf("a default session with 40 actions makes a %d-character link; want under 2,000", len(link))
	}
	got, err := DecodeShare("#s=" + link)
	if err != nil {
		t.Fatal(err)
	}
	if got.TimeMs != 15*60000 {
		t.Fatalf("time %d; want %d", got.TimeMs, 15*60000)
	}
	a, err := Run(withUntil(s, got.TimeMs), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(withUntil(got.Scenario, got.TimeMs), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Digest() != b.Digest() {
		t.Fatal("the scenario read back from the link runs differently from the original")
	}
}

func withUntil(s Scenario, t int64) Scenario {
	s.Until = Duration(t)
	return s
}

func TestDecodeShareErrors(t *testing.T) {
	good, err := EncodeShare(Share{Scenario: Presets()["small"], TimeMs: 1000})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		link, want string
	}{
		{"", "not a LBScope scenario link"},
		{"hello", "not a LBScope scenario link"},
		{"x.abc", "not a version number"},
		{"2." + good[2:], "newer LBScope"},
		{good[:len(good)/2], "incomplete or damaged"},
		{"1.!!!", "characters a share link never contains"},
		{"1." + strings.Repeat("A", MaxShareLen), "at most"},
		{"1.", "incomplete or damaged"},
	}
	for _, tt := range tests {
		_, err := DecodeShare(tt.link)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("DecodeShare(%.30q) = %v; want an error containing %q", tt.link, err, tt.want)
		}
	}
}

// A link whose content expands past 1 MiB is refused without expanding it all.
func TestDecodeShareBoundsDecompression(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`{"scenario":{"version":1,"title":"`)
	sb.WriteString(strings.Repeat("a", 3<<20))
	sb.WriteString(`"},"t":0}`)
	link := "1." + deflateBase64(t, []byte(sb.String()))
	if len(link) > MaxShareLen {
		t.Fatalf("test link too long (%d)", len(link))
	}
	_, err := DecodeShare(link)
	if err == nil || !strings.Contains(err.Error(), "expands to more than") {
		t.Fatalf("a 3 MiB bomb: %v; want the decompressed-size error", err)
	}
}

func FuzzDecodeShare(f *testing.F) {
	for _, name := range PresetNames() {
		link, err := EncodeShare(Share{Scenario: Presets()[name], TimeMs: 0})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(link)
		f.Add(link[:len(link)-3])
	}
	link, _ := EncodeShare(Share{Scenario: sessionScenario(8), TimeMs: 60000})
	f.Add(link)
	f.Add("1.")
	f.Add("#s=1.AAAA")
	f.Add("9.x")
	f.Fuzz(func(t *testing.T, link string) {
		sh, err := DecodeShare(link)
		if err != nil {
			return
		}
		// Whatever decodes is a valid scenario that encodes again and reads back the same.
		again, err := EncodeShare(sh)
		if err != nil {
			t.Fatalf("decoded share does not encode: %v", err)
		}
		back, err := DecodeShare(again)
		if err != nil || back.TimeMs != sh.TimeMs {
			t.Fatalf("re-encoded share does not read back: %v", err)
		}
	})
}

// A link carries the history read from logs; one too large for a link says so when it is
// made, rather than making a link nobody can open.
func TestShareCarriesObserved(t *testing.T) {
	s, err := Parse([]byte(observedFile))
	if err != nil {
		t.Fatal(err)
	}
	link, err := EncodeShare(Share{Scenario: s, TimeMs: 36000})
	if err != nil {
		t.Fatal(err)
	}
	sh, err := DecodeShare(link)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := s.Marshal()
	b, _ := sh.Scenario.Marshal()
	if string(a) != string(b) || sh.Scenario.Observed == nil {
		t.Errorf("the link's scenario differs:\n%s\n%s", a, b)
	}

	h := s.Observed.Holdings[0]
	s.Observed.Holdings = nil
	x := uint32(1)
	for i := range 6000 {
		x = x*1664525 + 1013904223 // refs and times a compressor cannot fold away
		h.Queue, h.From, h.Ref = i%2, Duration(x%100000), "member"+strconv.Itoa(int(x%97))+".log:"+strconv.Itoa(int(x>>8))
		to := h.From + 1 + Duration(x>>20)%1000
		h.To = &to
		s.Observed.Holdings = append(s.Observed.Holdings, h)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	_, err = EncodeShare(Share{Scenario: s, TimeMs: 0})
	if err == nil || !strings.Contains(err.Error(), "a share link is at most 65536") || !strings.Contains(err.Error(), "the history read from logs (6000 holdings, 2 rounds) is too large for a link; share the scenario file instead") {
		t.Errorf("a history too large for a link: %v", err)
	}
}

// A share link carries a strategy's source, the scenario's and a setStrategy step's, and runs
// the same; sources too large for a link are said so, with their size.
func TestShareCarriesStrategySources(t *testing.T) {
	data, err := os.ReadFile("../../testdata/scenarios/own-strategy-floor.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	link, err := EncodeShare(Share{Scenario: s, TimeMs: 70000})
	if err != nil {
		t.Fatal(err)
	}
	sh, err := DecodeShare(link)
	if err != nil {
		t.Fatal(err)
	}
	if sh.Scenario.Strategy != s.Strategy || sh.Scenario.Timeline[0].Source != s.Timeline[0].Source {
		t.Fatal("the link lost a strategy's source")
	}
	a, _ := Run(s, RunOptions{})
	b, _ := Run(sh.Scenario, RunOptions{})
	if a.Digest() != b.Digest() {
		t.Error("the scenario read back from the link runs differently")
	}

	// 62 KiB of a comment a compressor cannot fold (printable characters at random): within
	// a source's 64 KiB, not a link's.
	noise := make([]byte, 62<<10)
	x := uint32(7)
	for i := range noise {
		x = x*1664525 + 1013904223
		noise[i] = byte('!' + (x>>16)%94)
	}
	s.Strategy.Source = "# " + string(noise) + "\n" + s.Strategy.Source
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	_, err = EncodeShare(Share{Scenario: s, TimeMs: 0})
	if err == nil || !strings.Contains(err.Error(), "a share link is at most 65536") || !strings.Contains(err.Error(), "the strategies' and selectors' sources (") || !strings.Contains(err.Error(), "share the scenario file instead") {
		t.Errorf("sources too large for a link: %v", err)
	}
}

// A share link carries a producer's selector's source, and the scenario it opens runs the same.
func TestShareCarriesSelectorSources(t *testing.T) {
	data, err := os.ReadFile("../../testdata/scenarios/hot-key-composite.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	link, err := EncodeShare(Share{Scenario: s, TimeMs: 30000})
	if err != nil {
		t.Fatal(err)
	}
	sh, err := DecodeShare(link)
	if err != nil {
		t.Fatal(err)
	}
	if got := sh.Scenario.Producers[0].Selector; got == nil || *got != *s.Producers[0].Selector {
		t.Fatalf("the link lost the selector: %+v", got)
	}
	a, _ := Run(s, RunOptions{})
	b, _ := Run(sh.Scenario, RunOptions{})
	if a.Digest() != b.Digest() {
		t.Error("the scenario read back from the link runs differently")
	}
}
