package admin

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits of the JSON reader.
const (
	MaxJSONDepth  = 64
	MaxJSONValues = 200000
)

// jnode is a value of the lenient JSON reader. Objects keep their members in order; a key is
// any value, because fastjson writes map keys that are objects ({"brokerName":…}:{…}) or bare
// integers ({0:"addr"}), formats §1, §4.
type jnode struct {
	kind    byte // 'o' object, 'a' array, 's' string, 'n' number or bare word
	str     string
	members []jmember
	elems   []*jnode
	line    int
	cut     bool // the paste ends (or stops being JSON) before it closes
}

type jmember struct {
	key  *jnode // nil when the key was cut off before the paste starts
	val  *jnode
	line int
}

func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != 'o' {
		return nil
	}
	for _, m := range n.members {
		if m.key != nil && (m.key.kind == 's' || m.key.kind == 'n') && m.key.str == key {
			return m.val
		}
	}
	return nil
}

func (n *jnode) text() string {
	if n == nil || (n.kind != 's' && n.kind != 'n') {
		return ""
	}
	return n.str
}

func (n *jnode) int64() (int64, bool) {
	if n == nil || n.kind != 'n' {
		return 0, false
	}
	v, err := strconv.ParseInt(n.str, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(n.str, 64)
		if ferr != nil {
			return 0, false
		}
		return int64(f), true
	}
	return v, true
}

// jsonResult is what parseJSON read: the root, where it stopped, and why.
type jsonResult struct {
	root     *jnode
	end      int  // byte offset just after the last byte used
	endLine  int  // line of end
	cutStart bool // the JSON begins inside a document (implicit outer levels)
	cut      bool // it ends before its root closes
	err      Said // why the reader stopped, if it did
	stopLine int  // where it stopped being JSON (0: it did not)
}

type jcontainer struct {
	n        *jnode
	key      *jnode // object: a key waiting for its value
	haveKey  bool   // object: key read and ':' seen
	implicit bool   // opened before the paste starts
}

// parseJSON reads one JSON value (fastjson, Jackson, lenient) starting at data[pos], on line
// line. fragment says that the text starts inside a document: members and closers without
// their openers are accepted under implicit outer objects. It stops after the root closes, at
// the end of data, or at the first byte that cannot be JSON; it never recurses and is linear.
func parseJSON(data []byte, pos, line int, fragment bool) jsonResult {
	res := jsonResult{}
	var stack []*jcontainer
	values := 0
	depth := 0 // real and implicit levels
	if fragment {
		root := &jnode{kind: 'o', line: line, cut: true}
		stack = append(stack, &jcontainer{n: root, implicit: true})
		res.cutStart = true
		depth = 1
	}
	// attach puts v into the top container; it returns true when v is a completed root.
	attach := func(v *jnode) bool {
		if len(stack) == 0 {
			res.root = v
			return true
		}
		top := stack[len(stack)-1]
		switch top.n.kind {
		case 'a':
			top.n.elems = append(top.n.elems, v)
		case 'o':
			if top.haveKey {
				top.n.members = append(top.n.members, jmember{key: top.key, val: v, line: v.line})
				top.key, top.haveKey = nil, false
			} else if top.key == nil {
				top.key = v
			} else {
				// Two values with no ':' between them: keep the first as a value without key.
				top.n.members = append(top.n.members, jmember{val: top.key, line: top.key.line})
				top.key = v
			}
		}
		return false
	}
	flushKey := func(c *jcontainer) {
		if c.n.kind == 'o' && c.key != nil && !c.haveKey {
			c.n.members = append(c.n.members, jmember{val: c.key, line: c.key.line})
			c.key = nil
		}
	}
	finish := func() {
		res.end, res.endLine = pos, line
		if len(stack) > 0 {
			res.cut = true
			for _, c := range stack {
				flushKey(c)
				c.n.cut = true
			}
			if res.root == nil {
				res.root = stack[0].n
			}
		}
	}
	for pos < len(data) {
		c := data[pos]
		switch c {
		case ' ', '\t', '\r':
			pos++
			continue
		case '\n':
			pos++
			line++
			continue
		}
		values++
		if values > MaxJSONValues {
			res.err = say("json.too-many", MaxJSONValues)
			finish()
			return res
		}
		switch {
		case c == '{' || c == '[':
			if depth >= MaxJSONDepth {
				res.err = say("json.too-deep", MaxJSONDepth, line)
				finish()
				return res
			}
			kind := byte('o')
			if c == '[' {
				kind = 'a'
			}
			n := &jnode{kind: kind, line: line}
			attach(n)
			stack = append(stack, &jcontainer{n: n})
			depth++
			pos++
		case c == '}' || c == ']':
			pos++
			if len(stack) == 0 {
				// Only reachable in a non-fragment parse after the root closed; stop.
				pos--
				finish()
				return res
			}
			top := stack[len(stack)-1]
			flushKey(top)
			if top.implicit {
				// A closer whose opener is before the paste: the level so far becomes the
				// value of a member (key cut off) of a new implicit outer level.
				if depth >= MaxJSONDepth {
					res.err = say("json.unbalanced", MaxJSONDepth, line)
					finish()
					return res
				}
				outer := &jnode{kind: 'o', line: top.n.line, cut: true}
				outer.members = append(outer.members, jmember{val: top.n, line: top.n.line})
				stack[len(stack)-1] = &jcontainer{n: outer, implicit: true}
				depth++
				continue
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				res.root = top.n
				res.end, res.endLine = pos, line
				return res
			}
		case c == ',':
			pos++
			if len(stack) > 0 {
				flushKey(stack[len(stack)-1])
			}
		case c == ':':
			pos++
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				if top.n.kind == 'o' && top.key != nil {
					top.haveKey = true
				}
			}
		case c == '"' || c == '\'':
			s, next, ok := scanString(data, pos)
			if !ok {
				// A string cut by the end of the paste or by a line end.
				res.stopLine = line
				finish()
				return res
			}
			pos = next
			if attach(&jnode{kind: 's', str: s, line: line}) {
				res.end, res.endLine = pos, line
				return res
			}
		case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9') || isWordByte(c):
			start := pos
			for pos < len(data) && (isWordByte(data[pos]) || data[pos] == '.' || data[pos] == '-' || data[pos] == '+' || (data[pos] >= '0' && data[pos] <= '9')) {
				pos++
			}
			word := string(data[start:pos])
			if !jsonWord(word) {
				pos = start
				res.stopLine = line
				finish()
				return res
			}
			if attach(&jnode{kind: 'n', str: word, line: line}) {
				res.end, res.endLine = pos, line
				return res
			}
		default:
			res.stopLine = line
			finish()
			return res
		}
	}
	finish()
	return res
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// jsonWord accepts numbers and the literals; other bare words end the JSON.
func jsonWord(w string) bool {
	switch w {
	case "true", "false", "null", "NaN", "Infinity", "-Infinity":
		return true
	}
	_, err := strconv.ParseFloat(w, 64)
	return err == nil
}

// scanString reads a quoted string at data[pos]; a string never spans lines in these outputs,
// so a line end (or the end of data) before the closing quote is a cut.
func scanString(data []byte, pos int) (string, int, bool) {
	q := data[pos]
	var b strings.Builder
	i := pos + 1
	for i < len(data) {
		c := data[i]
		switch {
		case c == q:
			return b.String(), i + 1, true
		case c == '\n':
			return "", i, false
		case c == '\\' && i+1 < len(data):
			i++
			switch e := data[i]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'u':
				if i+4 < len(data) {
					if v, err := strconv.ParseUint(string(data[i+1:i+5]), 16, 32); err == nil {
						b.WriteRune(rune(v))
						i += 4
						break
					}
				}
				b.WriteByte('u')
			default:
				b.WriteByte(e)
			}
			i++
		default:
			_, size := utf8.DecodeRune(data[i:])
			b.Write(data[i : i+size])
			i += size
		}
	}
	return "", i, false
}
