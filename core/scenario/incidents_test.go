package scenario

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"
)

// Every incident of the registry is a preset, in both languages, citing its report.
func TestIncidentRegistry(t *testing.T) {
	seen := map[string]bool{}
	hasHan := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) })
	}
	for _, inc := range Registry() {
		if !strings.HasPrefix(inc.Name, "incident-") || seen[inc.Name] {
			t.Errorf("%q: want a unique name incident-…", inc.Name)
		}
		seen[inc.Name] = true
		if inc.Title.En == "" || inc.Text.En == "" || !hasHan(inc.Title.Zh) || !hasHan(inc.Text.Zh) {
			t.Errorf("%s: title %+v, text %+v; want both in English and Chinese", inc.Name, inc.Title, inc.Text)
		}
		if len(inc.Cites) == 0 {
			t.Errorf("%s cites no report", inc.Name)
		}
		for _, c := range inc.Cites {
			if !strings.Contains(c.Repo, "/") || c.Number <= 0 || c.URL() != "https://github.com/"+c.Repo+"/issues/"+strings.TrimPrefix(c.Label(), c.Repo+"#") {
				t.Errorf("%s: citation %+v (%s, %s)", inc.Name, c, c.Label(), c.URL())
			}
		}
		p, ok := Presets()[inc.Name]
		if !ok {
			t.Errorf("%s is not a preset", inc.Name)
			continue
		}
		if p.Title != inc.Title.En || !strings.Contains(p.Description, inc.Cites[0].Label()) {
			t.Errorf("%s: the preset's title %q and description %q; want the English title and the citation", inc.Name, p.Title, p.Description)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", inc.Name, err)
		}
	}
	if got := CiteText([]Cite{{"apache/rocketmq", 2760}, {"apache/rocketmq", 1547}, {"apache/rocketmq-client-go", 419}}); got != "apache/rocketmq#2760, #1547, apache/rocketmq-client-go#419" {
		t.Errorf("CiteText = %q", got)
	}
}

func runIncident(t *testing.T, name string) *Result {
	t.Helper()
	r, err := Run(Incidents()[name], RunOptions{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, a := range r.Actions {
		if a.Error != "" {
			t.Fatalf("%s: step %+v refused: %s", name, a.Command, a.Error)
		}
	}
	return r
}

// Each incident, run, shows what its report describes.
func TestIncidentsReproduceTheirReports(t *testing.T) {
	// The duplicate id leaves a block of queues to nobody while the broker lists it twice.
	r := runIncident(t, "incident-same-client-id")
	orphan := false
	for _, a := range r.Anomalies {
		if a.Kind == "orphan" && a.Start > 31000 && a.Start < 150000 && a.End-a.Start > 20000 {
			orphan = true
		}
	}
	if !orphan {
		t.Errorf("same client id: no lasting orphan while the id is listed twice; anomalies %+v", r.Anomalies)
	}

	// Java and Go under CONSISTENT_HASH: doubled and orphaned queues from the first rounds to
	// the end, before and after the Go member stops (rocketmq-client-go#419).
	r = runIncident(t, "incident-java-and-go-consistent-hash")
	lasting := map[string]bool{}
	for _, a := range r.Anomalies {
		if a.Start <= 1000 && a.End == 0 {
			lasting[a.Kind] = true
		}
	}
	if !lasting["overlap"] || !lasting["orphan"] {
		t.Errorf("java and go: an overlap and an orphan from the start to the end; got %v in %+v", lasting, r.Anomalies)
	}
	clients := map[string]int{}
	for _, k := range r.Snapshot.Consumers {
		clients[k.Client]++
	}
	if clients["java"] != 2 || clients["go-2.1.2"] != 2 {
		t.Errorf("java and go: clients %v; want 2 and 2", clients)
	}

	// Go containers: the replacement process has the same IP@PID with no fixed name; while
	// the brokers list it twice, the block of the second copy is pulled by nobody.
	for _, k := range Incidents()["incident-go-containers-same-ip-pid"].Consumers {
		if k.FixedInstanceName {
			t.Fatal("go containers: the incident must not need a fixed instance name")
		}
	}
	r = runIncident(t, "incident-go-containers-same-ip-pid")
	if k := r.Snapshot.Consumers[0]; k.ID != "10.0.1.1@1" || k.ClientID != "10.0.1.1@1" || k.Status != "alive" {
		t.Errorf("go containers: the replacement is %s %s %s; want 10.0.1.1@1 alive with the same client id", k.ID, k.ClientID, k.Status)
	}
	orphan = false
	for _, a := range r.Anomalies {
		if a.Kind == "orphan" && a.Start >= 30000 && a.Start < 40000 && a.End-a.Start > 60000 {
			orphan = true
		}
	}
	if !orphan {
		t.Errorf("go containers: no orphan lasting over a minute after the restart; anomalies %+v", r.Anomalies)
	}

	// Six consumers, four queues: two hold nothing at the end.
	r = runIncident(t, "incident-more-consumers-than-queues")
	idle := 0
	for _, qs := range r.Final.Assignment {
		if len(qs) == 0 {
			idle++
		}
	}
	if idle != 2 {
		t.Errorf("more consumers than queues: %d idle; want 2 (%v)", idle, r.Final.Assignment)
	}

	// A broker restart: its queues leave the allocation and come back.
	r = runIncident(t, "incident-broker-restart")
	left, back := false, false
	for _, rb := range r.Rebalances {
		hasB := false
		for _, q := range rb.Queues {
			hasB = hasB || strings.HasPrefix(q, "broker-b:")
		}
		if rb.T > 60000 && rb.T < 150000 && !hasB {
			left = true
		}
		if rb.T > 150000 && hasB {
			back = true
		}
	}
	if !left || !back {
		t.Errorf("broker restart: queues left %v, came back %v; rebalances %+v", left, back, r.Rebalances)
	}
}

// The scenario files of the incidents read and write queue counts and subscriptions are the
// presets themselves (their goldens and checks are in files_test.go).
func TestIncidentFilesArePresets(t *testing.T) {
	for file, name := range map[string]string{
		"read-more-than-write.json":    "incident-read-more-than-write",
		"write-more-than-read.json":    "incident-write-more-than-read",
		"different-subscriptions.json": "incident-different-subscriptions",
	} {
		s, _ := parseScenarioFile(t, file)
		p := Incidents()[name]
		if !reflect.DeepEqual(s.Config, p.Config) || s.Until != p.Until || len(s.Timeline) != len(p.Timeline) {
			t.Errorf("%s is not the preset %s:\n file   %+v\n preset %+v", file, name, s.Config, p.Config)
		}
	}
}

func parseScenarioFile(t *testing.T, name string) (Scenario, []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../../testdata/scenarios", name))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s, data
}
