//go:build !js

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// clockTicks is Linux's USER_HZ, the unit of /proc/<pid>/stat's CPU times (100 on every
// architecture Go supports on Linux).
const clockTicks = 100

// treeCPU is the CPU time, in seconds, that the process root and its descendants have used,
// by process: /proc/<pid>/stat's utime + stime.
func treeCPU(root int) (map[int]float64, error) {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	parent, cpu := map[int]int{}, map[int]float64{}
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		raw, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue // it ended
		}
		// The command (field 2) is in parentheses and may hold spaces: split after it.
		s := string(raw)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 13 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		utime, _ := strconv.ParseFloat(f[11], 64)
		stime, _ := strconv.ParseFloat(f[12], 64)
		parent[pid], cpu[pid] = ppid, (utime+stime)/clockTicks
	}
	out := map[int]float64{}
	for pid, t := range cpu {
		for p := pid; p > 1; p = parent[p] {
			if p == root {
				out[pid] = t
				break
			}
		}
	}
	return out, nil
}

// browserCores is how many CPU cores the test browser (every process of it: browser, GPU,
// renderers) uses on average over window of page time.
func browserCores(b *testing.B, ctx context.Context, window time.Duration) float64 {
	b.Helper()
	proc := chromedp.FromContext(ctx).Browser.Process()
	require.NotNil(b, proc, "the browser's process")
	before, err := treeCPU(proc.Pid)
	require.NoError(b, err)
	t0 := time.Now()
	eval[bool](b, ctx, fmt.Sprintf(`new Promise(r => setTimeout(() => r(true), %d))`, window.Milliseconds()))
	after, err := treeCPU(proc.Pid)
	require.NoError(b, err)
	wall := time.Since(t0).Seconds()
	used := 0.0
	for pid, t := range after {
		used += t - before[pid] // a process started in the window counts whole
	}
	return used / wall
}

// BenchmarkBrowserCPU measures what the playground costs the machine it runs on: the CPU
// cores the whole browser uses (sampled from /proc over a window) on a blank page, on the
// playground paused, playing the default preset at 1×, playing the large preset at 10×, and
// on the embed's poster; and the longest main-thread block (a long-task observer) while the
// large preset plays at 10×. scripts/bench-browser.sh prints the figures with targets.
func BenchmarkBrowserCPU(b *testing.B) {
	ctx := playground(b)
	const window = 5 * time.Second
	settle := func(ms int) { eval[bool](b, ctx, fmt.Sprintf(`new Promise(r => setTimeout(() => r(true), %d))`, ms)) }
	for b.Loop() {
		open(b, ctx, "")
		dispatch(b, ctx, `{type: "pause"}`)
		settle(1500)
		b.ReportMetric(browserCores(b, ctx, window), "cpu-paused-cores")
		dispatch(b, ctx, `{type: "play"}`)
		settle(1000)
		b.ReportMetric(browserCores(b, ctx, window), "cpu-playing-1x-cores")

		dispatch(b, ctx, `{type: "load", preset: "large"}`)
		dispatch(b, ctx, `{type: "setSpeed", x: 10}`)
		dispatch(b, ctx, `{type: "play"}`)
		settle(1000)
		eval[bool](b, ctx, `(window.longTasks = [], new PerformanceObserver(l => window.longTasks.push(...l.getEntries().map(e => e.duration)))
			.observe({type: "longtask"}), true)`)
		b.ReportMetric(browserCores(b, ctx, window), "cpu-large-10x-cores")
		lt := eval[[]float64](b, ctx, `window.longTasks`)
		longest := 0.0
		for _, d := range lt {
			longest = max(longest, d)
		}
		b.ReportMetric(longest, "longtask-max-ms")
		b.ReportMetric(float64(len(lt)), "longtasks")

		require.NoError(b, chromedp.Do(ctx, chromedp.Navigate(browserEnv.url+"embed.html")))
		waitFor(b, ctx, `document.querySelector("#poster-picture svg rect") !== null && document.readyState === "complete"`)
		settle(1000)
		b.ReportMetric(browserCores(b, ctx, window), "cpu-poster-cores")

		// Last, in a settled browser: what the browser costs with no page to speak of.
		require.NoError(b, chromedp.Do(ctx, chromedp.Navigate("about:blank")))
		settle(1000)
		b.ReportMetric(browserCores(b, ctx, window), "cpu-blank-cores")
	}
}
