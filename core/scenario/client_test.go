package scenario

import (
	"strings"
	"testing"
)

// --consumer-ids names each member's client after its id; an IPv6 id keeps its colons.
func TestConsumerIDsNameTheirClient(t *testing.T) {
	s, err := FromFlags(Flags{ConsumerIDs: []string{"10.0.0.1@4012:go", "10.0.0.2@4013", "10.0.0.3@4011:java-4.9", "fe80::1@4014"}, Strategy: "CONSISTENT_HASH"})
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]string{{"10.0.0.1@4012", "go"}, {"10.0.0.2@4013", ""}, {"10.0.0.3@4011", "java-4.9"}, {"fe80::1@4014", ""}}
	for i, k := range s.Consumers {
		if k.ID != want[i][0] || k.Client != want[i][1] {
			t.Errorf("consumer %d: %q client %q; want %q client %q", i, k.ID, k.Client, want[i][0], want[i][1])
		}
	}
	r, err := Run(s, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	clients := map[string]string{}
	for _, cv := range r.Snapshot.Consumers {
		clients[cv.ID] = cv.Client
	}
	if clients["10.0.0.1@4012"] != "go-2.1.2" || clients["10.0.0.2@4013"] != "java" || clients["10.0.0.3@4011"] != "java-4.9" {
		t.Errorf("snapshot clients %v; want go-2.1.2, java, java-4.9", clients)
	}
}

// A scenario file's client is checked: an unknown one, and one that cannot run the group's
// strategy, are errors naming the field.
func TestScenarioClientErrors(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{`{"version":1,"brokers":[{"name":"b","queues":2}],"consumers":[{"id":"c1"},{"id":"c2","client":"rust"}]}`,
			`consumers[1].client: unknown client profile "rust"`},
		{`{"version":1,"brokers":[{"name":"b","queues":2}],"consumers":[{"id":"c1","client":"go"}],"strategy":"MACHINE_ROOM_NEARBY-CONSISTENT_HASH"}`,
			`consumers[0].client: go-2.1.2 cannot run strategy MACHINE_ROOM_NEARBY-CONSISTENT_HASH`},
	} {
		_, err := Parse([]byte(tc.json))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%s) = %v; want an error containing %q", tc.json, err, tc.want)
		}
	}
}
