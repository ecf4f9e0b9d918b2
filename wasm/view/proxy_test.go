package view

import (
	"fmt"
	"image"
	"math"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
)

// proxyRun is a scenario file's run at ms as the canvas first shows it (its first group of
// several), and the same run a second after its first proxy is killed.
func proxyRun(t *testing.T, name string, ms int64) (up, down cluster.Snapshot) {
	t.Helper()
	c, _ := fileCluster(t, name)
	c.Advance(ms)
	s := c.Snapshot()
	if len(s.Proxies) == 0 {
		t.Fatalf("%s has no proxy", name)
	}
	up = Project(&s, "")
	if err := c.Apply(cluster.Command{Type: "killProxy", Proxy: s.Proxies[0].Name}); err != nil {
		t.Fatal(err)
	}
	c.Advance(ms + 1000)
	s = c.Snapshot()
	down = Project(&s, "")
	return up, down
}

// Each proxy has its box in the producers' row, left of the producers and centred with them,
// clear of everything else, a target of 24 units or more, found by HitTest; on a laptop its
// name and its consumers' count fit it. A run without producers still gets the row for its
// proxies.
func TestProxyLayout(t *testing.T) {
	killed, _ := proxyRun(t, "grpc-proxy-killed", 20000)
	producer, _ := proxyRun(t, "grpc-producer", 10000)
	alone := killed
	alone.Producers = nil
	for _, s := range []*cluster.Snapshot{&killed, &producer, &alone} {
		for _, size := range sizes {
			for _, lang := range []string{EN, ZH} {
				for _, zoom := range []float64{1, PresentZoom} {
					t.Run(fmt.Sprintf("%d-producers/%gx%g/%s/%g", len(s.Producers), size.W, size.H, lang, zoom), func(t *testing.T) {
						l := ComputeZoom(s, size, lang, zoom)
						checkLayout(t, s, l)
						// Centred together in the row.
						right := l.Proxies[len(l.Proxies)-1].Right()
						if len(l.Producers) > 0 {
							right = l.Producers[len(l.Producers)-1].Right()
						}
						if left := l.Proxies[0].X - l.Bounds.X; math.Abs(left-(l.Bounds.Right()-right)) > 1 {
							t.Errorf("the row runs from %g to %g in %+v: not centred", l.Proxies[0].X, right, l.Bounds)
						}
						for _, px := range l.Proxies {
							for _, p := range l.Producers {
								if p.X < px.Right() || p.Y != px.Y {
									t.Errorf("producer %s %+v is not right of proxy %s %+v in its row", p.ID, p.Rect, px.ID, px.Rect)
								}
							}
							hit := ProxyHit(px)
							if hit.H < minTargetCSS || hit.W < minTargetCSS {
								t.Errorf("proxy %s's target is %gx%g", px.ID, hit.W, hit.H)
							}
							if len(l.Groups) > 0 && hit.Overlaps(l.Groups[len(l.Groups)-1].Rect) || hit.Overlaps(l.LegendHit()) {
								t.Errorf("proxy %s's target %+v covers a tab or the legend button", px.ID, hit)
							}
							for _, b := range l.Brokers {
								if hit.Overlaps(b.Rect) {
									t.Errorf("proxy %s's target %+v covers broker %s", px.ID, hit, b.Name)
								}
							}
							if size.W >= 960 && zoom == 1 && TextWidth(px.ID)+8+proxyWordsW(lang) > px.W-proxyBand-8 {
								t.Errorf("proxy %s's words do not fit its %g-unit box", px.ID, px.W)
							}
						}
					})
				}
			}
		}
	}
}

// wordsAt reports whether s is drawn in col at (x, y) on img (k device pixels per unit) as the
// font draws it alone on fill: every pixel of its glyphs there, and nothing else inked.
func wordsAt(img *image.RGBA, k, x, y float64, s string, col, fill Color) bool {
	px := image.Rect(int(math.Floor(x*k)), int(math.Floor(y*k)), int(math.Ceil((x+TextWidth(s))*k)), int(math.Ceil((y+GlyphH)*k)))
	var ref Canvas
	face := ref.SetScale(k)
	ref.Rect(LayerMarks, Rect{x - 3, y - 1, TextWidth(s) + 6, GlyphH + 2}, fill)
	ref.Text(LayerMarks, x, y, s, col)
	refImg := image.NewRGBA(img.Rect)
	for _, m := range ref.Meshes(LayerMarks) {
		for i := 0; i+2 < len(m.Indices); i += 3 {
			raster(refImg, m.Vertices[m.Indices[i]], m.Vertices[m.Indices[i+1]], m.Vertices[m.Indices[i+2]], face.W, face.H, face.Pix)
		}
	}
	want, got := inkMask(refImg, px, col, fill), inkMask(img, px, col, fill)
	glyph := 0
	for i := range want {
		if want[i] != got[i] {
			return false
		}
		if want[i] {
			glyph++
		}
	}
	return glyph > 0
}

// On the rasterised canvas, in both themes and languages at 1 and 2 device pixels per unit, an
// up proxy's box says its name and its clients' count and shows no warning colour; a down
// one is framed and crossed out in the warning colour and says its name and that it is down,
// both readable over the cross.
func TestProxyUpAndDownOnThePNG(t *testing.T) {
	defer UseTheme(DarkTheme)
	up, down := proxyRun(t, "grpc-proxy-killed", 20000)
	if n := len(up.Proxies[0].Clients); n != 3 || !down.Proxies[0].Down || len(down.Proxies[0].Clients) != 0 {
		t.Fatalf("proxy-1 holds %d clients up, %+v down; the test reads 3, then none", n, down.Proxies[0])
	}
	for _, th := range []Theme{DarkTheme, LightTheme} {
		UseTheme(th)
		for _, lang := range []string{EN, ZH} {
			for _, k := range []float64{1, 2} {
				for _, s := range []*cluster.Snapshot{&up, &down} {
					l := ComputeLang(s, Rect{0, 0, 960, 600}, lang)
					b, ok := l.Proxy("proxy-1")
					if !ok {
						t.Fatal("no box for proxy-1")
					}
					img := render(Frame{Snap: s, Layout: l, Speed: 1, Lang: lang, Paused: true}, k)
					pv := s.Proxies[0]
					y := b.Y + math.Floor((b.H-GlyphH)/2)
					name, fill, right, rightCol := TextColor, Panel, Word(lang, "canvas.proxy.consumers", 3), Dim
					if pv.Down {
						name, fill, right, rightCol = Dim, PanelDown, Word(lang, "canvas.DOWN"), Warn
					}
					what := fmt.Sprintf("%s %s ×%g down=%v", th.Name, lang, k, pv.Down)
					if !wordsAt(img, k, b.X+proxyBand+4, y, "proxy-1", name, fill) {
						t.Errorf("%s: the box does not read proxy-1", what)
					}
					if !wordsAt(img, k, b.Right()-4-TextWidth(right), y, right, rightCol, fill) {
						t.Errorf("%s: the box does not read %q", what, right)
					}
					warn := 0
					want := toRGBA(Warn)
					for y := int(b.Y * k); y < int(math.Ceil(b.Bottom()*k)); y++ {
						for x := int(b.X * k); x < int(math.Ceil(b.Right()*k)); x++ {
							if p := img.RGBAAt(x, y); near(p.R, want.R) && near(p.G, want.G) && near(p.B, want.B) {
								warn++
							}
						}
					}
					if pv.Down && warn < int(60*k) || !pv.Down && warn > 0 {
						t.Errorf("%s: %d pixels of the warning colour on the box", what, warn)
					}
				}
			}
		}
	}
}

// A proxy's hover card says whether it is up, which gRPC clients are registered on it and
// which gRPC producers send through it; its click menu offers what the command table allows
// from its status, and opens under its box, clear of it, inside the stage.
func TestProxyCardAndMenu(t *testing.T) {
	up, down := proxyRun(t, "grpc-proxy-killed", 20000)
	for _, tc := range []struct {
		s    *cluster.Snapshot
		lang string
		want []string
		item string
	}{
		{&up, EN, []string{"proxy-1 up", "gRPC consumers registered: G1, P1, P2"}, "killProxy"},
		{&down, EN, []string{"proxy-1 DOWN", "its clients' receives, acks and sends fail until it is restored", "no gRPC consumer registered"}, "restoreProxy"},
		{&up, ZH, []string{"proxy-1 正常", "当前的 gRPC 消费者：G1、P1、P2"}, "killProxy"},
		{&down, ZH, []string{"proxy-1 宕机", "恢复前，经它的消费与发送全部失败", "当前无 gRPC 消费者"}, "restoreProxy"},
	} {
		l := ComputeLang(tc.s, Rect{0, 0, 960, 600}, tc.lang)
		f := Frame{Snap: tc.s, Layout: l, Lang: tc.lang}
		got := TooltipLines(f, HitProxy, "proxy-1")
		clients := append([]string(nil), tc.s.Proxies[0].Clients...)
		if len(clients) > 0 {
			// The clients in registration order, whatever it was.
			want := []string{tc.want[0], Word(tc.lang, "canvas.tip.proxyConsumers", joinList(tc.lang, clients))}
			if !strings.Contains(want[1], "G1") || !strings.Contains(want[1], "P1") || !strings.Contains(want[1], "P2") {
				t.Fatalf("clients %q", clients)
			}
			tc.want = want
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s card %q; want %q", tc.lang, got, tc.want)
		}
		b, _ := l.Proxy("proxy-1")
		x, y := b.Center()
		m := ProxyMenu(tc.s.Proxies[0], x, y, l.Bounds, tc.lang).Beside(l, l.Bounds)
		if len(m.Items) != 1 || m.Items[0].Key != tc.item || m.Items[0].Cmd.Proxy != "proxy-1" || m.Items[0].Cmd.Type != tc.item {
			t.Errorf("%s menu %+v; want %s of proxy-1", tc.lang, m.Items, tc.item)
		}
		if spec, _ := cluster.Lookup(tc.item); m.Items[0].Label != spec.WordsIn(tc.lang).Label {
			t.Errorf("item %q; the table says %q", m.Items[0].Label, spec.WordsIn(tc.lang).Label)
		}
		if m.Overlaps(ProxyHit(b)) || !m.Within(l.Bounds) || m.Y < b.Bottom() {
			t.Errorf("%s menu %+v: not under proxy-1's box %+v inside the stage", tc.lang, m.Rect, b.Rect)
		}
		for _, it := range m.Items {
			if it.W < 24 || it.H < 24 {
				t.Errorf("item %s is %gx%g", it.Key, it.W, it.H)
			}
		}
	}
	// A proxy inside the brokers (local mode) stops with its broker: its menu offers nothing.
	local := cluster.ProxyView{Name: "proxy-1", Mode: cluster.ProxyLocal, Clients: []string{"G1"}}
	if m := ProxyMenu(local, 10, 10, Rect{0, 0, 960, 600}, EN); len(m.Items) != 0 {
		t.Errorf("a local-mode proxy's menu offers %+v; want nothing (killProxy refuses it)", m.Items)
	}
	// The gRPC producers that send through it.
	producer, _ := proxyRun(t, "grpc-producer", 10000)
	l := ComputeLang(&producer, Rect{0, 0, 960, 600}, EN)
	got := TooltipLines(Frame{Snap: &producer, Layout: l, Lang: EN}, HitProxy, "proxy-1")
	if last := got[len(got)-1]; last != "gRPC producers through it: p1, orders" {
		t.Errorf("card %q", got)
	}
	if TooltipLines(Frame{Snap: &producer, Layout: l, Lang: EN}, HitProxy, "no-such-proxy") != nil {
		t.Error("a card for a proxy that is not there")
	}
}

// The legend explains a proxy's box in a run that has proxies, and only there.
func TestLegendExplainsProxies(t *testing.T) {
	up, _ := proxyRun(t, "grpc-proxy-killed", 20000)
	plain := presetSnap(t, "small", 20000)
	for _, s := range []*cluster.Snapshot{&up, &plain} {
		for _, lang := range []string{EN, ZH} {
			l := ComputeLang(s, Rect{0, 0, 1280, 720}, lang)
			lg := LegendCard(Frame{Snap: s, Layout: l, Lang: lang, Speed: 1, Legend: true})
			has := false
			for _, r := range lg.Rows {
				has = has || r.Sample == SampleProxy
			}
			if has != (len(s.Proxies) > 0) {
				t.Errorf("%s, %d proxies: the legend explains proxies: %v", lang, len(s.Proxies), has)
			}
		}
	}
}

// The most proxies a cluster may have, with the longest names, on every stage: their boxes
// narrow alike and stay inside the row, clear of the producers and of each other; a box too
// narrow for the name draws what fits, and nothing fails.
func TestProxyLayoutCrowded(t *testing.T) {
	up, _ := proxyRun(t, "grpc-proxy-killed", 20000)
	s := up
	s.Proxies = nil
	for i := range cluster.MaxProxies {
		s.Proxies = append(s.Proxies, cluster.ProxyView{Name: fmt.Sprintf("%02d-", i) + strings.Repeat("x", 61), Down: i%2 == 1, Clients: []string{"P1"}})
	}
	for _, size := range sizes {
		for _, zoom := range []float64{1, PresentZoom} {
			for _, lang := range []string{EN, ZH} {
				l := ComputeZoom(&s, size, lang, zoom)
				checkLayout(t, &s, l)
				var c Canvas
				Draw(&c, Frame{Snap: &s, Layout: l, Lang: lang, Speed: 1})
			}
		}
	}
}
