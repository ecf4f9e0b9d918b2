package scenario

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A share link carries a scenario — its initial configuration, seed and the actions performed
// so far with their times — and the moment it was shared, in a URL fragment:
//
//	#s=1.<base64url of the deflated JSON {"scenario": …, "t": ms}>
//
// The number before the dot is the link format's version.
const (
	ShareVersion = 1
	// MaxShareLen bounds the fragment a decoder accepts before doing anything else.
	MaxShareLen = 64 << 10
)

// Share is what a link reproduces: run Scenario to TimeMs.
type Share struct {
	Scenario Scenario
	TimeMs   int64
}

type shareJSON struct {
	Scenario json.RawMessage `json:"scenario"`
	T        int64           `json:"t"`
}

// EncodeShare writes the fragment value (without "#s="). Compact JSON, deflated at the best
// level, base64url without padding: a default playground session with a few dozen actions
// stays well under 2,000 characters.
// sourceBytes is the length of the sources s carries: its strategy's, its groups' and its
// setStrategy steps', and its producers' selectors'.
func sourceBytes(s Scenario) int {
	n := len(s.Strategy.Source)
	for _, g := range s.Groups {
		n += len(g.Strategy.Source)
	}
	for _, p := range s.Producers {
		if p.Selector != nil {
			n += len(p.Selector.Source)
		}
	}
	for _, st := range s.Timeline {
		n += len(st.Source)
	}
	return n
}

func EncodeShare(sh Share) (string, error) {
	if err := sh.Scenario.Validate(); err != nil {
		return "", err
	}
	if sh.TimeMs < 0 || sh.TimeMs > sh.Scenario.End().Ms() {
		return "", fmt.Errorf("share: time %d is outside the scenario (0…%d)", sh.TimeMs, sh.Scenario.End().Ms())
	}
	sc, err := json.Marshal(sh.Scenario)
	if err != nil {
		return "", err
	}
	body, err := json.Marshal(shareJSON{Scenario: sc, T: sh.TimeMs})
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write(body)
	w.Close()
	link := strconv.Itoa(ShareVersion) + "." + base64.RawURLEncoding.EncodeToString(buf.Bytes())
	if len(link) > MaxShareLen {
		// A link no reader would open: said here, not found out by whoever receives it.
		msg := fmt.Sprintf("share: the link would be %d characters long; a share link is at most %d", len(link), MaxShareLen)
		if o := sh.Scenario.Observed; o != nil {
			msg += fmt.Sprintf(": the history read from logs (%d holdings, %d rounds) is too large for a link; share the scenario file instead", len(o.Holdings), len(o.Rounds))
		} else if n := sourceBytes(sh.Scenario); n > 0 {
			msg += fmt.Sprintf(": the strategies' and selectors' sources (%d bytes) are too large for a link; share the scenario file instead", n)
		}
		return "", errors.New(msg)
	}
	return link, nil
}

// DecodeShare reads a fragment value ("1.…", or a whole "#s=1.…" fragment). Every limit is
// checked before memory is spent on it: the link's length, the decompressed size (a scenario
// file's 1 MiB), then the scenario's own limits. Errors say what is wrong in words a person
// who pasted a link understands.
func DecodeShare(fragment string) (Share, error) {
	v := strings.TrimPrefix(strings.TrimPrefix(fragment, "#"), "s=")
	if len(v) > MaxShareLen {
		return Share{}, fmt.Errorf("the link is %d characters long; a share link is at most %d", len(v), MaxShareLen)
	}
	version, payload, ok := strings.Cut(v, ".")
	if !ok || version == "" {
		return Share{}, errors.New("the link is not a LBScope scenario link (it should look like #s=1.…)")
	}
	n, err := strconv.Atoi(version)
	if err != nil || n < 1 {
		return Share{}, fmt.Errorf("the link format %q is not a version number", version)
	}
	if n > ShareVersion {
		return Share{}, fmt.Errorf("the link was made by a newer LBScope (link format %d; this one reads %d): update LBScope to open it", n, ShareVersion)
	}
	packed, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(payload, "="))
	if err != nil {
		return Share{}, errors.New("the link is damaged: it has characters a share link never contains (was it cut or edited?)")
	}
	r := flate.NewReader(bytes.NewReader(packed))
	body, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return Share{}, errors.New("the link is incomplete or damaged: its compressed data ends too early (was it cut off when copied?)")
	}
	if len(body) > MaxBytes {
		return Share{}, fmt.Errorf("the link expands to more than %d bytes; a scenario is at most 1 MiB", MaxBytes)
	}
	var sj shareJSON
	if err := json.Unmarshal(body, &sj); err != nil || sj.Scenario == nil {
		return Share{}, errors.New("the link is damaged: its content is not a scenario")
	}
	s, err := Parse(sj.Scenario)
	if err != nil {
		return Share{}, fmt.Errorf("the link's scenario is invalid: %w", err)
	}
	if sj.T < 0 || sj.T > s.End().Ms() {
		return Share{}, fmt.Errorf("the link's time %d ms is outside its scenario (0…%d ms)", sj.T, s.End().Ms())
	}
	return Share{Scenario: s, TimeMs: sj.T}, nil
}
