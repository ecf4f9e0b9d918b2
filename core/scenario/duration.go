package scenario

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Duration is a span of virtual time in milliseconds. In JSON it is either a number of
// milliseconds or a string such as "250ms", "90s", "5m", "1m30s" or "1h"; it is written back as
// the shortest such string.
type Duration int64

// Durations a scenario may use.
const (
	Millisecond Duration = 1
	Second               = 1000 * Millisecond
	Minute               = 60 * Second
	Hour                 = 60 * Minute

	// MaxDuration bounds every time in a scenario: a run covers at most one virtual day.
	MaxDuration = 24 * Hour
	// DefaultUntil is how long a scenario runs when it does not say.
	DefaultUntil = 5 * Minute
)

// Ms is the duration in milliseconds.
func (d Duration) Ms() int64 { return int64(d) }

// ParseDuration reads "250ms", "90s", "5m", "1m30s", "1h" (any form time.ParseDuration
// accepts) and "0", rejecting negative values, values beyond 24h and fractions of a
// millisecond. time.ParseDuration only parses text; it reads no clock.
func ParseDuration(s string) (Duration, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("duration is empty; want e.g. 250ms, 90s, 5m or 1m30s")
	}
	if _, err := strconv.ParseUint(t, 10, 64); err == nil && t != "0" {
		return 0, fmt.Errorf("duration %q has no unit; write %sms, or the number %s without quotes", s, t, t)
	}
	d, err := time.ParseDuration(t)
	if err != nil {
		return 0, fmt.Errorf("duration %q is not a duration; want e.g. 250ms, 90s, 5m or 1m30s", s)
	}
	if d%time.Millisecond != 0 {
		return 0, fmt.Errorf("duration %q is not a whole number of milliseconds", s)
	}
	v := Duration(d / time.Millisecond)
	if err := v.check(); err != nil {
		return 0, err
	}
	return v, nil
}

// check enforces 0…24h.
func (d Duration) check() error {
	if d < 0 || d > MaxDuration {
		return fmt.Errorf("duration %s is outside 0s…24h", d)
	}
	return nil
}

// String is the shortest text form: milliseconds below one second ("250ms"), otherwise hours,
// minutes and seconds with zero parts left out and a fraction of a second as decimals
// ("90s" is written "1m30s", "5m", "1h5s", "1.5s").
func (d Duration) String() string {
	if d == 0 {
		return "0s"
	}
	if d < 0 {
		return "-" + (-d).String()
	}
	if d < Second {
		return strconv.FormatInt(int64(d), 10) + "ms"
	}
	var b []byte
	if h := d / Hour; h > 0 {
		b = strconv.AppendInt(b, int64(h), 10)
		b = append(b, 'h')
	}
	if m := d % Hour / Minute; m > 0 {
		b = strconv.AppendInt(b, int64(m), 10)
		b = append(b, 'm')
	}
	if rest := d % Minute; rest > 0 {
		b = strconv.AppendInt(b, int64(rest/Second), 10)
		if ms := rest % Second; ms > 0 {
			frac := fmt.Sprintf("%03d", int64(ms))
			b = append(b, '.')
			b = append(b, strings.TrimRight(frac, "0")...)
		}
		b = append(b, 's')
	}
	return string(b)
}

// MarshalJSON writes the string form.
func (d Duration) MarshalJSON() ([]byte, error) {
	return strconv.AppendQuote(nil, d.String()), nil
}

// UnmarshalJSON reads a number of milliseconds or a duration string; null leaves d unchanged.
func (d *Duration) UnmarshalJSON(data []byte) error {
	v, err := durationFromJSON(data)
	if err != nil {
		return err
	}
	if v != nil {
		*d = *v
	}
	return nil
}

// durationFromJSON parses one JSON value; nil for null.
func durationFromJSON(data []byte) (*Duration, error) {
	data = bytes.TrimSpace(data)
	switch {
	case string(data) == "null":
		return nil, nil
	case len(data) > 0 && data[0] == '"':
		s, err := strconv.Unquote(string(data))
		if err != nil {
			return nil, fmt.Errorf("duration %s is not a JSON string", data)
		}
		v, err := ParseDuration(s)
		if err != nil {
			return nil, err
		}
		return &v, nil
	}
	n, err := strconv.ParseInt(string(data), 10, 64)
	if err != nil {
		if _, ferr := strconv.ParseFloat(string(data), 64); ferr == nil {
			return nil, fmt.Errorf("duration %s: want whole milliseconds 0…%d or a string like \"90s\"", data, int64(MaxDuration))
		}
		return nil, fmt.Errorf("duration %s: want a number of milliseconds or a string like \"90s\"", data)
	}
	v := Duration(n)
	if err := v.check(); err != nil {
		return nil, err
	}
	return &v, nil
}

// Set implements flag.Value, so that a command line can take "--until 5m".
func (d *Duration) Set(s string) error {
	v, err := ParseDuration(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}
