package api

import (
	"strings"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/narrate"
)

// narrState is the live region's narration state: what it said last, so that a frame that
// repeats it at once (a burst of identical refusals, a key held down) is not spoken twice.
type narrState struct {
	last  string
	lastT int64
}

// repeatMs is how long, in virtual time, the same narration is not repeated.
const repeatMs = 1000

// narrateFrame tells the frame's events as one "narration" note in the page's language: the
// frame's sentences, at the time of its last event.
func (a *API) narrateFrame(events []cluster.Event) []Note {
	lang := a.Sess.Lang()
	sentences := narrate.Frame(events, lang)
	if len(sentences) == 0 {
		return nil
	}
	sep := ". "
	if lang == narrate.ZH {
		sep = "。"
	}
	text := strings.Join(sentences, sep)
	t := events[len(events)-1].T
	if text == a.narr.last && t >= a.narr.lastT && t-a.narr.lastT < repeatMs {
		return nil
	}
	a.narr.last, a.narr.lastT = text, t
	return []Note{{Kind: "narration", T: t, Text: text}}
}
