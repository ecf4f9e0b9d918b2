package view

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
)

// TestLayoutsMatchComputeZoom runs random sequences of frames, each changing one thing of the
// snapshot or the page (or nothing a layout reads), and asserts that Layouts.Compute gives a
// layout equal to a fresh ComputeZoom every time, that it hands the last one out again when
// nothing a layout reads changed, and that no layout handed out is changed afterwards.
func TestLayoutsMatchComputeZoom(t *testing.T) {
	t.Cleanup(func() { UseTheme(DarkTheme) })
	ink, white := Ink, White
	t.Cleanup(func() { Ink, White = ink, white })
	type handed struct {
		l, want *Layout
	}
	for _, preset := range []string{"small", "default", "large"} {
		rng := rand.New(rand.NewPCG(7, uint64(len(preset))))
		s := presetSnap(t, preset, 30000)
		stage, lang, zoom := Rect{W: 1280, H: 720}, EN, 1.0
		var c Layouts
		var out []handed
		hits, misses := 0, 0
		var prev *Layout
		for step := range 600 {
			changed := true // whether this step changes something a layout reads
			switch rng.IntN(20) {
			case 0:
				stage = sizes[rng.IntN(len(sizes))]
				stage.X, stage.Y = float64(rng.IntN(3)), float64(rng.IntN(3))
			case 1:
				lang = []string{EN, ZH}[rng.IntN(2)]
			case 2:
				zoom = []float64{1, PresentZoom}[rng.IntN(2)]
			case 3:
				UseTheme([]Theme{DarkTheme, LightTheme}[rng.IntN(2)])
			case 4:
				Ink, White = []Color{ink, white}[rng.IntN(2)], []Color{white, ink}[rng.IntN(2)]
			case 5:
				b := &s.Brokers[rng.IntN(len(s.Brokers))]
				b.Queues = max(0, b.Queues+rng.IntN(3)-1) // the snapshot's queues no longer match
			case 6:
				b := &s.Brokers[rng.IntN(len(s.Brokers))]
				b.Name += "x"
			case 7:
				if len(s.Producers) > 0 {
					s.Producers[rng.IntN(len(s.Producers))].Rate += rng.IntN(3) - 1
				}
			case 8:
				if len(s.Producers) > 0 {
					s.Producers[rng.IntN(len(s.Producers))].ID += "p"
				}
			case 9:
				if len(s.Producers) > 1 && rng.IntN(2) == 0 {
					s.Producers = slices.Clone(s.Producers[:len(s.Producers)-1])
				} else {
					s.Producers = append(slices.Clone(s.Producers), cluster.ProducerView{ID: "p" + strconv.Itoa(step), Rate: 100})
				}
			case 10:
				if len(s.Consumers) > 0 {
					cv := &s.Consumers[rng.IntN(len(s.Consumers))]
					cv.ClientID = []string{"", cv.ID, cv.ID + "#2"}[rng.IntN(3)]
				}
			case 11:
				if len(s.Consumers) > 0 {
					cv := &s.Consumers[rng.IntN(len(s.Consumers))]
					cv.ID = []string{cv.ID + "0", "c" + strconv.Itoa(step), "consumer-" + strconv.Itoa(step)}[rng.IntN(3)]
				}
			case 12:
				if len(s.Consumers) > 1 && rng.IntN(2) == 0 {
					s.Consumers = slices.Clone(s.Consumers[:len(s.Consumers)-1])
				} else {
					id := "c" + strconv.Itoa(100+step)
					s.Consumers = append(slices.Clone(s.Consumers), cluster.ConsumerView{ID: id, ClientID: id, Status: cluster.StatusAlive})
				}
			case 13:
				if len(s.Consumers) > 1 {
					i, j := rng.IntN(len(s.Consumers)), rng.IntN(len(s.Consumers))
					s.Consumers[i], s.Consumers[j] = s.Consumers[j], s.Consumers[i]
				}
			case 14:
				switch n := len(s.Proxies); {
				case n > 0 && rng.IntN(3) == 0:
					s.Proxies = slices.Clone(s.Proxies[:n-1])
				case n > 0 && rng.IntN(2) == 0:
					s.Proxies = slices.Clone(s.Proxies)
					s.Proxies[rng.IntN(n)].Name += "x"
				default:
					s.Proxies = append(slices.Clone(s.Proxies), cluster.ProxyView{Name: "proxy-" + strconv.Itoa(step), Clients: []string{}})
				}
			default: // what the frames of a run change
				changed = false
				s.TimeMs += 100
				if len(s.Proxies) > 0 {
					px := &s.Proxies[rng.IntN(len(s.Proxies))]
					px.Down = !px.Down
					px.Clients = nil
					for _, cv := range s.Consumers[:rng.IntN(len(s.Consumers)+1)] {
						px.Clients = append(px.Clients, cv.ID)
					}
				}
				if len(s.Consumers) > 0 {
					cv := &s.Consumers[rng.IntN(len(s.Consumers))]
					cv.Status = []string{cluster.StatusAlive, cluster.StatusIdle, cluster.StatusKilled}[rng.IntN(3)]
					cv.NextRebalanceMs += 1000
				}
				if len(s.Queues) > 0 {
					q := &s.Queues[rng.IntN(len(s.Queues))]
					q.Backlog++
					if len(s.Consumers) > 0 {
						q.Owners = []string{s.Consumers[rng.IntN(len(s.Consumers))].ID}
					}
				}
				s.Brokers[rng.IntN(len(s.Brokers))].Sends++
			}
			got := c.Compute(&s, stage, lang, zoom)
			want := ComputeZoom(&s, stage, lang, zoom)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, step %d: the layout handed out differs from ComputeZoom's", preset, step)
			}
			if got == prev {
				hits++
			} else {
				misses++
				if !changed && prev != nil && reflect.DeepEqual(prev, want) {
					t.Fatalf("%s, step %d: a new layout though nothing it reads changed", preset, step)
				}
				out = append(out, handed{got, want})
			}
			prev = got
		}
		for i, h := range out {
			if !reflect.DeepEqual(h.l, h.want) {
				t.Fatalf("%s: layout %d was changed after it was handed out", preset, i)
			}
		}
		if hits < 200 || misses < 100 {
			t.Fatalf("%s: %d layouts reused and %d computed: the sequence does not exercise both", preset, hits, misses)
		}
	}
}

// TestBoxesLeaveTheLayout asserts that moving the hit boxes (the page's layout() shifts them
// to the viewport) does not move the layout's boxes, which the next frames share.
func TestBoxesLeaveTheLayout(t *testing.T) {
	s := presetSnap(t, "default", 30000)
	for _, zoom := range []float64{1, PresentZoom} {
		l := ComputeZoom(&s, Rect{W: 1280, H: 720}, EN, zoom)
		want := ComputeZoom(&s, Rect{W: 1280, H: 720}, EN, zoom)
		hb := l.Boxes(nil)
		hb.Shift(100, 50)
		if !reflect.DeepEqual(l, want) {
			t.Fatalf("zoom %v: shifting the hit boxes moved the layout's boxes", zoom)
		}
		if len(hb.Consumers) == 0 || hb.Consumers[0].X != l.Consumers[0].X*zoom+100 {
			t.Fatalf("zoom %v: the hit boxes did not move", zoom)
		}
	}
}
