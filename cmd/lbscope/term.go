package main

import (
	"strconv"
	"strings"
	"unicode"
)

// Terminal output. Client ids, broker names and file names reach the terminal from users'
// input; a control character in one (an ANSI escape, a carriage return, a newline, a
// right-to-left override) would rewrite what the terminal shows. Every printer passes such
// text through term (one field) or termText (a whole text of lines).

// term escapes every control and format character of s, newlines included, the way Go
// quotes them (\x1b, \n, \u202e); s without any is returned as it is.
func term(s string) string { return escape(s, false) }

// termText is term for a text of lines: newlines and tabs stay, everything else is escaped.
func termText(s string) string { return escape(s, true) }

func escape(s string, keepLines bool) string {
	if strings.IndexFunc(s, func(r rune) bool { return unsafeRune(r, keepLines) }) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if !unsafeRune(r, keepLines) {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRuneToASCII(r) // '\x1b', '\n', '\u202e'
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

func unsafeRune(r rune, keepLines bool) bool {
	if keepLines && (r == '\n' || r == '\t') {
		return false
	}
	return r == unicode.ReplacementChar || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) ||
		r == '\u2028' || r == '\u2029'
}
