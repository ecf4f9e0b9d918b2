package cluster

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
)

// The id a new consumer gets is the first c<N> nobody uses, whatever else the ids look like.
func TestNextConsumerIDIsTheFirstFree(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	forms := []string{"c%d", "c%d", "c%d", "c0%d", "C%d", "c+%d", "c%d ", "x%d", "c-%d", "c%d0000000000"}
	for range 2000 {
		var cs []ConsumerView
		var ids []string
		used := map[string]bool{}
		for range r.IntN(12) {
			id := fmt.Sprintf(forms[r.IntN(len(forms))], r.IntN(14))
			cs = append(cs, ConsumerView{ID: id})
			ids = append(ids, id)
			used[id] = true
		}
		want := ""
		for n := 1; want == ""; n++ {
			if id := "c" + strconv.Itoa(n); !used[id] {
				want = id
			}
		}
		if got := NextConsumerID(cs); got != want {
			t.Fatalf("ids %q: next %s, want %s", ids, got, want)
		}
	}
}

// An addConsumer that names no id gets the first free c<N> from its Fill hook, one that names
// one keeps it, and a command without the hook is left as it is.
func TestFillNamesANewConsumer(t *testing.T) {
	c := mustNew(t, smallConfig(10)) // c1, c2, c3
	cmd := Command{Type: "addConsumer"}
	Fill(c, &cmd)
	if cmd.ID != "c4" {
		t.Fatalf("addConsumer filled with id %q; want c4", cmd.ID)
	}
	mustApply(t, c, cmd)
	mustApply(t, c, Command{Type: "killConsumer", ID: "c2"})
	next := Command{Type: "addConsumer"}
	if Fill(c, &next); next.ID != "c5" {
		t.Errorf("after c4 joined and c2 was killed: id %q; want c5 (a killed consumer keeps its id)", next.ID)
	}
	named := Command{Type: "addConsumer", ID: "zed"}
	if Fill(c, &named); named.ID != "zed" {
		t.Errorf("a given id became %q", named.ID)
	}
	kill := Command{Type: "killConsumer"}
	if Fill(c, &kill); kill.ID != "" {
		t.Errorf("killConsumer filled with id %q; it has no Fill hook", kill.ID)
	}
}
