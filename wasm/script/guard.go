package script

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
)

// The memory guard. Starlark counts steps, not bytes: `s = s + s` forty times asks for a
// terabyte in forty steps, and `list(range(1 << 40))` in one. So each call pays for the
// values it builds, before they are built, out of a budget of MaxAlloc bytes; the source is
// rewritten (rewrite.go) so that every operator, method and builtin that can build a value
// goes through the builtins here. What a value costs is a model of Go's memory, the same on
// every platform, so that the same call stops at the same place everywhere:
//
//   - a string or bytes: its length, plus 16;
//   - a list or tuple: 16 per item, plus 48 (a list) or 24 (a tuple);
//   - a dict or set: 128 per entry (56 and its share of the buckets, which are copied as the
//     table grows), plus 48;
//   - an int that a 64-bit word does not hold: its bytes, plus 32 (and at most maxIntBits);
//   - repr and str of a value, % and format: the text they make, found by walking the
//     values; one text is at most maxText bytes, where the walk stops, so that a list
//     holding another many times over cannot make the walk itself long.
//
// The budget counts everything built during the call, garbage included: it bounds what the
// call can make, not only what it keeps. What is not counted (a function's frame, an
// iterator, a float) is small and bounded per step, so by the step budget.
const (
	slotSize   = 16 // an item of a list or tuple
	listSize   = 48
	tupleSize  = 24
	entrySize  = 128 // an entry of a dict or set, with its share of the table as it grows
	stringSize = 16
	intSize    = 32
	maxIntBits = 1 << 16
	maxText    = 4 << 20
)

// budget is what one call may still build.
type budget struct{ used, limit int64 }

const budgetKey = "lbscope.budget"

func budgetOf(t *starlark.Thread) *budget {
	b, _ := t.Local(budgetKey).(*budget)
	if b == nil {
		b = &budget{limit: MaxAlloc}
		t.SetLocal(budgetKey, b)
	}
	return b
}

// memoryError is the message of a call stopped by its memory budget.
func memoryError(what string) error {
	return fmt.Errorf("the strategy would build more than its budget of %d MiB of memory: %s", MaxAlloc>>20, what)
}

// pay takes n bytes out of the call's budget, or says that what would cost them is over it.
func pay(t *starlark.Thread, n int64, what func() string) error {
	b := budgetOf(t)
	if n < 0 || n > b.limit-b.used {
		return memoryError(what())
	}
	b.used += n
	return nil
}

func left(t *starlark.Thread) int64 {
	b := budgetOf(t)
	return b.limit - b.used
}

// mul is a·b, saturating at the largest int64 (sizes are compared with the budget only).
func mul(a, b int64) int64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	if a > (1<<62)/b {
		return 1 << 62
	}
	return a * b
}

func items(n int64, what string) func() string {
	return func() string { return fmt.Sprintf("a %s of %d items", what, n) }
}

func bytesOf(n int64, what string) func() string {
	return func() string { return fmt.Sprintf("a %s of %d bytes", what, n) }
}

// sizeOf is what a value just built costs, counting its items but not what they hold (they
// were paid for when they were built).
func sizeOf(v starlark.Value) int64 {
	switch v := v.(type) {
	case starlark.String:
		return int64(len(v)) + stringSize
	case starlark.Bytes:
		return int64(len(v)) + stringSize
	case *starlark.List:
		return int64(v.Len())*slotSize + listSize
	case starlark.Tuple:
		return int64(len(v))*slotSize + tupleSize
	case *starlark.Dict:
		return int64(v.Len())*entrySize + listSize
	case *starlark.Set:
		return int64(v.Len())*entrySize + listSize
	case starlark.Int:
		if _, ok := v.Int64(); ok {
			return 0
		}
		return int64(v.BigInt().BitLen()+7)/8 + intSize
	}
	return 0
}

// length is len(v) for a value that has one, else -1.
func length(v starlark.Value) int64 { return int64(starlark.Len(v)) }

// textSize is how many bytes str(v) (or repr(v), when quoted) makes at most, or more than
// limit when it makes more: the walk stops there.
func textSize(v starlark.Value, quoted bool, limit int64) int64 {
	w := textWalk{limit: limit}
	w.walk(v, quoted)
	return w.n
}

type textWalk struct {
	n, limit int64
	path     []starlark.Value // the containers being walked, for cycles
}

func (w *textWalk) walk(v starlark.Value, quoted bool) {
	if w.n > w.limit {
		return
	}
	switch v := v.(type) {
	case starlark.String:
		if quoted {
			w.n += 2 + quotedLen(string(v))
		} else {
			w.n += int64(len(v))
		}
		return
	case starlark.Bytes:
		w.n += 3 + 4*int64(len(v))
		return
	case starlark.Int:
		w.n += int64(v.BigInt().BitLen())/3 + 2
		return
	case *starlark.List, starlark.Tuple, *starlark.Dict, *starlark.Set, *starlarkstruct.Struct:
	default:
		w.n += int64(len(v.Type())) + 32 // None, a bool, a float, a function: short
		return
	}
	for _, p := range w.path {
		if p == v {
			w.n += 5 // the interpreter prints a value inside itself as [...]
			return
		}
	}
	w.path = append(w.path, v)
	defer func() { w.path = w.path[:len(w.path)-1] }()
	switch v := v.(type) {
	case *starlark.List:
		w.n += 2
		for i := range v.Len() {
			w.n += 2
			if w.walk(v.Index(i), true); w.n > w.limit {
				return
			}
		}
	case starlark.Tuple:
		w.n += 3
		for _, x := range v {
			w.n += 2
			if w.walk(x, true); w.n > w.limit {
				return
			}
		}
	case *starlark.Dict:
		w.n += 2
		for _, kv := range v.Items() {
			w.n += 4
			if w.walk(kv[0], true); w.n > w.limit {
				return
			}
			if w.walk(kv[1], true); w.n > w.limit {
				return
			}
		}
	case *starlark.Set:
		w.n += 7
		for x := range starlark.Elements(v) {
			w.n += 2
			if w.walk(x, true); w.n > w.limit {
				return
			}
		}
	case *starlarkstruct.Struct:
		w.n += int64(len(v.Constructor().String())) + 2
		for _, name := range v.AttrNames() {
			x, _ := v.Attr(name)
			w.n += int64(len(name)) + 5
			if w.walk(x, true); w.n > w.limit {
				return
			}
		}
	}
}

// quotedLen bounds the length of a string's Starlark quotation, less the quotes: a byte
// that may be escaped counts as its escape, \xNN.
func quotedLen(s string) int64 {
	n := int64(len(s))
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c >= 0x7f || c == '"' || c == '\\' {
			n += 3
		}
	}
	return n
}

// textLimit is how far a walk for the size of a text goes: the budget left, and maxText.
func textLimit(t *starlark.Thread) int64 { return min(left(t), maxText) }

func payText(t *starlark.Thread, bound int64, what string) error {
	if bound > maxText {
		return fmt.Errorf("the strategy would make %s of more than %d MiB (str, repr, %% or format of a value that large)", what, maxText>>20)
	}
	return pay(t, bound, func() string { return fmt.Sprintf("%s of %d bytes", what, bound) })
}

// The builtins the rewritten source calls, and the universe's builtins that build values,
// guarded under their own names.
var guards = starlark.StringDict{}

func init() {
	for _, b := range []struct {
		name string
		fn   func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)
	}{
		{"$add", binary(syntax.PLUS)}, {"$mul", binary(syntax.STAR)}, {"$mod", binary(syntax.PERCENT)},
		{"$or", binary(syntax.PIPE)}, {"$xor", binary(syntax.CIRCUMFLEX)}, {"$shl", binary(syntax.LTLT)},
		{"$sub", binary(syntax.MINUS)}, {"$and", binary(syntax.AMP)},
		{"$iadd", inplaceAdd}, {"$ior", inplaceOr}, {"$setindex", setIndex}, {"$augindex", augIndex},
		{"$lit", built}, {"$elem", charge(slotSize)}, {"$entry", charge(entrySize)}, {"$grow", grow},
		{"$star", star}, {"$call", callMethod}, {"$attr", attr},
	} {
		guards[b.name] = starlark.NewBuiltin(b.name, b.fn)
	}
	for _, name := range []string{"list", "tuple", "set", "dict", "sorted", "reversed", "enumerate", "zip", "str", "repr", "fail", "print", "getattr", "bytes"} {
		orig := starlark.Universe[name].(*starlark.Builtin)
		guards[name] = starlark.NewBuiltin(name, universal(orig))
	}
}

func binary(op syntax.Token) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		x, y := args[0], args[1]
		if err := payBinary(t, op, x, y); err != nil {
			return nil, err
		}
		if err := tablesInTime(t, x, y); err != nil {
			return nil, err
		}
		return starlark.Binary(op, x, y)
	}
}

// payBinary pays for x op y before it is computed.
func payBinary(t *starlark.Thread, op syntax.Token, x, y starlark.Value) error {
	switch op {
	case syntax.PLUS, syntax.PIPE, syntax.CIRCUMFLEX:
		if xi, ok := x.(starlark.Int); ok {
			if yi, ok := y.(starlark.Int); ok {
				return payInt(t, max(bitLen(xi), bitLen(yi))+1)
			}
		}
		if op == syntax.PLUS {
			switch x.(type) {
			case starlark.String, starlark.Bytes:
				if sameType(x, y) {
					n := length(x) + length(y)
					return pay(t, n+stringSize, bytesOf(n, x.Type()))
				}
			case *starlark.List, starlark.Tuple:
				if sameType(x, y) {
					n := length(x) + length(y)
					return pay(t, n*slotSize+listSize, items(n, x.Type()))
				}
			}
			return nil
		}
		switch x.(type) {
		case *starlark.Dict, *starlark.Set:
			if sameType(x, y) {
				n := length(x) + length(y)
				return pay(t, n*entrySize+listSize, items(n, x.Type()))
			}
		}
	case syntax.STAR:
		if xi, ok := x.(starlark.Int); ok {
			if yi, ok := y.(starlark.Int); ok {
				return payInt(t, bitLen(xi)+bitLen(yi))
			}
			x, y = y, x // n * seq
		}
		n, ok := y.(starlark.Int)
		if !ok {
			return nil
		}
		times, ok := n.Int64()
		if !ok || times < 0 {
			times = 0 // the interpreter refuses a huge count; a negative one makes nothing
		}
		switch x.(type) {
		case starlark.String, starlark.Bytes:
			total := mul(length(x), times)
			return pay(t, total+stringSize, bytesOf(total, x.Type()))
		case *starlark.List, starlark.Tuple:
			total := mul(length(x), times)
			return pay(t, mul(total, slotSize)+listSize, items(total, x.Type()))
		}
	case syntax.PERCENT:
		f, ok := x.(starlark.String)
		if !ok {
			return nil
		}
		// Each % directive prints at most the largest of the values.
		var vals []starlark.Value
		switch y := y.(type) {
		case starlark.Tuple:
			vals = y
		case *starlark.Dict:
			for _, kv := range y.Items() {
				vals = append(vals, kv[1])
			}
		default:
			vals = []starlark.Value{y}
		}
		return payFormat(t, string(f), '%', vals)
	case syntax.LTLT:
		if xi, ok := x.(starlark.Int); ok {
			if yi, ok := y.(starlark.Int); ok {
				if n, ok := yi.Int64(); ok && n > 0 && n < 1<<20 {
					return payInt(t, bitLen(xi)+int(n))
				}
			}
		}
	}
	return nil
}

func sameType(x, y starlark.Value) bool { return x.Type() == y.Type() }

func bitLen(i starlark.Int) int {
	if v, ok := i.Int64(); ok {
		n := 0
		for v != 0 && v != -1 {
			v >>= 1
			n++
		}
		return n
	}
	return i.BigInt().BitLen()
}

// payInt refuses an int of more than maxIntBits (a strategy's arithmetic is Java's, on 32 and
// 64 bits; a larger int only makes multiplication slow) and pays for one past 64.
func payInt(t *starlark.Thread, bits int) error {
	if bits > maxIntBits {
		return fmt.Errorf("the result would be an int of %d bits; the limit is %d (a Java long has 64)", bits, maxIntBits)
	}
	if bits < 63 {
		return nil
	}
	return pay(t, int64(bits+7)/8+intSize, func() string { return fmt.Sprintf("an int of %d bits", bits) })
}

// payFormat pays for formatting vals into f, each directive (a % or a {) printing at most
// the largest of them.
func payFormat(t *starlark.Thread, f string, directive byte, vals []starlark.Value) error {
	widest := int64(0)
	for _, v := range vals {
		widest = max(widest, textSize(v, true, textLimit(t)))
	}
	bound := int64(len(f)) + mul(int64(strings.Count(f, string(directive))), widest) + stringSize
	return payText(t, bound, "a string")
}

// inplaceAdd is x += y: a list is extended in place, as the interpreter does.
func inplaceAdd(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, y := args[0], args[1]
	if l, ok := x.(*starlark.List); ok {
		if it, ok := y.(starlark.Iterable); ok {
			if err := extend(t, l, it, "apply += to"); err != nil {
				return nil, err
			}
			return l, nil
		}
	}
	if err := payBinary(t, syntax.PLUS, x, y); err != nil {
		return nil, err
	}
	return starlark.Binary(syntax.PLUS, x, y)
}

// extend appends the items of it to l, paying for each.
func extend(t *starlark.Thread, l *starlark.List, it starlark.Iterable, verb string) error {
	if n := length(it); n >= 0 {
		if err := pay(t, mul(n, slotSize), items(int64(l.Len())+n, "list")); err != nil {
			return err
		}
		var items []starlark.Value
		if it == l {
			items = make([]starlark.Value, l.Len()) // l += l
			for i := range items {
				items[i] = l.Index(i)
			}
			for _, x := range items {
				if err := l.Append(x); err != nil {
					return fmt.Errorf("cannot %s frozen list", verb)
				}
			}
			return nil
		}
	}
	unknown := length(it) < 0
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		if unknown {
			if err := pay(t, slotSize, items(int64(l.Len())+1, "list")); err != nil {
				return err
			}
		}
		if err := l.Append(x); err != nil {
			return fmt.Errorf("cannot %s frozen list", verb)
		}
	}
	return nil
}

// inplaceOr is x |= y: a dict is updated in place, as the interpreter does.
func inplaceOr(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, y := args[0], args[1]
	if err := tablesInTime(t, x, y); err != nil {
		return nil, err
	}
	if xd, ok := x.(*starlark.Dict); ok {
		if yd, ok := y.(*starlark.Dict); ok {
			if err := pay(t, int64(yd.Len())*entrySize, items(int64(xd.Len()+yd.Len()), "dict")); err != nil {
				return nil, err
			}
			for _, kv := range yd.Items() {
				if err := xd.SetKey(kv[0], kv[1]); err != nil {
					return nil, fmt.Errorf("cannot apply |= to frozen hash table")
				}
			}
			return xd, nil
		}
	}
	if err := payBinary(t, syntax.PIPE, x, y); err != nil {
		return nil, err
	}
	return starlark.Binary(syntax.PIPE, x, y)
}

// setIndex is x[k] = v (called as $setindex(v, x, k), the value evaluated first): a new key
// of a dict is paid for.
func setIndex(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	v, x, k := args[0], args[1], args[2]
	switch x := x.(type) {
	case starlark.HasSetKey:
		if d, ok := x.(*starlark.Dict); ok {
			if _, found, _ := d.Get(k); !found {
				if err := pay(t, entrySize, items(int64(d.Len())+1, "dict")); err != nil {
					return nil, err
				}
			}
		}
		return starlark.None, x.SetKey(k, v)
	case starlark.HasSetIndex:
		n := x.Len()
		i, err := starlark.AsInt32(k)
		if err != nil {
			return nil, err
		}
		orig := i
		if i < 0 {
			i += n
		}
		if i < 0 || i >= n {
			return nil, outOfRange(orig, n, x)
		}
		return starlark.None, x.SetIndex(i, v)
	}
	return nil, fmt.Errorf("%s value does not support item assignment", x.Type())
}

func outOfRange(i, n int, x starlark.Value) error {
	if n == 0 {
		return fmt.Errorf("index %d out of range: empty %s", i, x.Type())
	}
	return fmt.Errorf("%s index %d out of range [%d:%d]", x.Type(), i, -n, n-1)
}

// getIndex is x[k] as the interpreter reads it.
func getIndex(x, k starlark.Value) (starlark.Value, error) {
	switch x := x.(type) {
	case starlark.Mapping:
		v, found, err := x.Get(k)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("key %v not in %s", k, x.Type())
		}
		return v, nil
	case starlark.Indexable:
		n := x.Len()
		i, err := starlark.AsInt32(k)
		if err != nil {
			return nil, fmt.Errorf("%s index: %s", x.Type(), err)
		}
		orig := i
		if i < 0 {
			i += n
		}
		if i < 0 || i >= n {
			return nil, outOfRange(orig, n, x)
		}
		return x.Index(i), nil
	}
	return nil, fmt.Errorf("unhandled index operation %s[%s]", x.Type(), k.Type())
}

// augIndex is x[k] op= y ($augindex("op", x, k, y)): x and k evaluated once, as the
// interpreter does, the operation guarded as x op= y is.
func augIndex(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	op := guards[string(args[0].(starlark.String))].(*starlark.Builtin)
	x, k, y := args[1], args[2], args[3]
	old, err := getIndex(x, k)
	if err != nil {
		return nil, err
	}
	v, err := starlark.Call(t, op, starlark.Tuple{old, y}, nil)
	if err != nil {
		return nil, err
	}
	return setIndex(t, nil, starlark.Tuple{v, x, k}, nil)
}

// built pays for a value a display ([…], (…), {…}) or a slice has just built: at most as
// large as the source or the value sliced.
func built(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	v := args[0]
	if err := pay(t, sizeOf(v), func() string { return fmt.Sprintf("a %s of %d", v.Type(), length(v)) }); err != nil {
		return nil, err
	}
	return v, nil
}

// charge pays n for an item a comprehension adds.
func charge(n int64) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		if err := pay(t, n, func() string { return "a comprehension's items" }); err != nil {
			return nil, err
		}
		return args[0], nil
	}
}

// grow pays args[0] bytes and gives args[1].
func grow(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	n, _ := args[0].(starlark.Int).Int64()
	if err := pay(t, n, func() string { return "the items assigned" }); err != nil {
		return nil, err
	}
	return args[1], nil
}

// star pays for the copy that f(*x) and f(**x) make of x.
func star(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	v := args[0]
	if n := length(v); n > 0 {
		if err := pay(t, mul(n, entrySize), items(n, "call's arguments")); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// growers are the methods of the built-in types that build a value larger than a constant.
var growers = map[string]bool{
	// string
	"join": true, "replace": true, "format": true, "split": true, "rsplit": true, "splitlines": true,
	"upper": true, "lower": true, "title": true, "capitalize": true, "partition": true, "rpartition": true,
	// list
	"append": true, "extend": true, "insert": true,
	// dict and set
	"update": true, "setdefault": true, "items": true, "keys": true, "values": true,
	"add": true, "union": true, "symmetric_difference": true, "difference": true, "intersection": true,
}

// callMethod is x.name(args…) ($call(x, "name", args…)).
func callMethod(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, name := args[0], string(args[1].(starlark.String))
	return method(t, x, name, args[2:], kwargs)
}

func method(t *starlark.Thread, x starlark.Value, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	m, err := getattr(x, name)
	if err != nil {
		return nil, err
	}
	if err := payMethod(t, x, name, args, kwargs); err != nil {
		return nil, err
	}
	if err := tableMethodInTime(t, x, name, args); err != nil {
		return nil, err
	}
	if l, ok := x.(*starlark.List); ok && name == "extend" && len(args) == 1 && len(kwargs) == 0 {
		if it, ok := args[0].(starlark.Iterable); ok && length(it) < 0 {
			return starlark.None, extend(t, l, it, "extend")
		}
	}
	v, err := starlark.Call(t, m, args, kwargs)
	if err != nil {
		return nil, err
	}
	if isBuiltinType(x) {
		switch name {
		case "upper", "lower", "title", "capitalize", "split", "rsplit", "splitlines", "partition", "rpartition",
			"difference", "intersection", "union", "symmetric_difference", "keys", "values", "items", "replace", "format", "join":
			// Paid for already when it was bounded in advance; otherwise now (it is at
			// most a small multiple of x).
			if !paidAhead(x, name) {
				if err := pay(t, sizeOf(v)+itemsOf(v), func() string { return fmt.Sprintf("%s.%s's result", x.Type(), name) }); err != nil {
					return nil, err
				}
			}
		}
	}
	return v, nil
}

// itemsOf is what the tuples inside items()'s list cost.
func itemsOf(v starlark.Value) int64 {
	l, ok := v.(*starlark.List)
	if !ok || l.Len() == 0 {
		return 0
	}
	if _, ok := l.Index(0).(starlark.Tuple); !ok {
		return 0
	}
	return int64(l.Len()) * (tupleSize + 2*slotSize)
}

func isBuiltinType(x starlark.Value) bool {
	switch x.(type) {
	case starlark.String, starlark.Bytes, *starlark.List, *starlark.Dict, *starlark.Set:
		return true
	}
	return false
}

// paidAhead are the methods whose result payMethod bounded and paid in advance.
func paidAhead(x starlark.Value, name string) bool {
	_, isStr := x.(starlark.String)
	switch name {
	case "replace", "format", "join":
		return isStr
	case "union", "symmetric_difference":
		return true
	}
	return false
}

// payMethod pays in advance for the methods whose result can be much larger than x.
func payMethod(t *starlark.Thread, x starlark.Value, name string, args starlark.Tuple, kwargs []starlark.Tuple) error {
	switch x := x.(type) {
	case starlark.String:
		s := string(x)
		switch name {
		case "join":
			if len(args) != 1 {
				return nil
			}
			seq, ok := args[0].(starlark.Indexable)
			if !ok {
				return nil
			}
			n := int64(seq.Len())
			total := mul(int64(len(s)), n)
			for i := range seq.Len() {
				if e, ok := seq.Index(i).(starlark.String); ok {
					total += int64(len(e))
				}
				if total > left(t) {
					break
				}
			}
			return pay(t, total+stringSize, bytesOf(total, "string"))
		case "replace":
			if len(args) < 2 {
				return nil
			}
			old, ok1 := args[0].(starlark.String)
			repl, ok2 := args[1].(starlark.String)
			if !ok1 || !ok2 {
				return nil
			}
			count := int64(strings.Count(s, string(old)))
			if len(args) > 2 {
				if c, ok := args[2].(starlark.Int); ok {
					if c64, ok := c.Int64(); ok && c64 >= 0 {
						count = min(count, c64)
					}
				}
			}
			n := int64(len(s)) + mul(count, max(int64(len(repl))-int64(len(old)), 0))
			return pay(t, n+stringSize, bytesOf(n, "string"))
		case "format":
			vals := append([]starlark.Value(nil), args...)
			for _, kv := range kwargs {
				vals = append(vals, kv[1])
			}
			return payFormat(t, s, '{', vals)
		case "split", "rsplit", "splitlines":
			// At most one piece per byte, plus one; each a string header and an item.
			n := int64(len(s)) + 1
			if len(args) > 0 {
				if sep, ok := args[0].(starlark.String); ok && len(sep) > 0 {
					n = int64(strings.Count(s, string(sep))) + 1
				}
			}
			return pay(t, n*(slotSize+stringSize)+listSize, items(n, "list"))
		}
	case *starlark.List:
		switch name {
		case "append", "insert":
			return pay(t, slotSize, items(int64(x.Len())+1, "list"))
		case "extend":
			if len(args) == 1 {
				if n := length(args[0]); n >= 0 {
					return pay(t, mul(n, slotSize), items(int64(x.Len())+n, "list"))
				}
			}
		}
	case *starlark.Dict:
		switch name {
		case "update":
			n := int64(len(kwargs))
			for _, a := range args {
				n += max(length(a), 0)
			}
			return pay(t, mul(n, entrySize), items(int64(x.Len())+n, "dict"))
		case "setdefault":
			return pay(t, entrySize, items(int64(x.Len())+1, "dict"))
		}
	case *starlark.Set:
		switch name {
		case "add":
			return pay(t, entrySize, items(int64(x.Len())+1, "set"))
		case "union", "symmetric_difference":
			n := int64(x.Len())
			for _, a := range args {
				n += max(length(a), 0)
			}
			return pay(t, mul(n, entrySize)+listSize, items(n, "set"))
		}
	}
	return nil
}

// getattr is x.name as the interpreter reads it.
func getattr(x starlark.Value, name string) (starlark.Value, error) {
	if h, ok := x.(starlark.HasAttrs); ok {
		v, err := h.Attr(name)
		if err != nil {
			if nsa, ok := err.(starlark.NoSuchAttrError); ok {
				return nil, fmt.Errorf("%s", string(nsa))
			}
			return nil, err
		}
		if v != nil {
			return v, nil
		}
	}
	return nil, fmt.Errorf("%s has no .%s field or method", x.Type(), name)
}

// attr is x.name not called at once ($attr(x, "name")): a method that grows values is
// handed out guarded.
func attr(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, name := args[0], string(args[1].(starlark.String))
	return guardedAttr(x, name)
}

func guardedAttr(x starlark.Value, name string) (starlark.Value, error) {
	v, err := getattr(x, name)
	if err != nil || !isBuiltinType(x) || !growers[name] {
		return v, err
	}
	b, _ := v.(*starlark.Builtin)
	if b == nil {
		return v, nil
	}
	return starlark.NewBuiltin(b.Name(), func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return method(t, x, name, args, kwargs)
	}).BindReceiver(x), nil
}

// universal guards a builtin of the universe that builds a value from its arguments.
func universal(orig *starlark.Builtin) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	name := orig.Name()
	return func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var first starlark.Value = starlark.None
		if len(args) > 0 {
			first = args[0]
		}
		n := max(length(first), 0)
		var err error
		switch name {
		case "list", "tuple", "reversed":
			err = pay(t, mul(n, slotSize)+listSize, items(n, name))
		case "sorted":
			err = pay(t, mul(n, 2*slotSize)+listSize, items(n, "list"))
		case "set", "dict":
			n += int64(len(kwargs))
			if err = pay(t, mul(n, entrySize)+listSize, items(n, name)); err == nil {
				err = insertsInTime(t, name == "dict", args...)
			}
		case "enumerate":
			err = pay(t, mul(n, slotSize+tupleSize+2*slotSize)+listSize, items(n, "list"))
		case "zip":
			shortest := int64(-1)
			for _, a := range args {
				if l := length(a); shortest < 0 || l < shortest {
					shortest = l
				}
			}
			shortest = max(shortest, 0)
			err = pay(t, mul(shortest, slotSize+tupleSize+slotSize*int64(len(args)))+listSize, items(shortest, "list"))
		case "bytes":
			if s, ok := first.(starlark.String); ok {
				n = int64(len(s))
			}
			err = pay(t, n+stringSize, bytesOf(n, "bytes"))
		case "str", "repr":
			if _, isStr := first.(starlark.String); isStr && name == "str" {
				break // str of a string is the string
			}
			err = payText(t, textSize(first, name == "repr", textLimit(t))+stringSize, "a string")
		case "fail", "print":
			total := int64(0)
			for _, a := range args {
				total += textSize(a, false, textLimit(t)) + 1
			}
			for _, kv := range kwargs {
				total += textSize(kv[1], false, textLimit(t))
			}
			if err = payText(t, total, "a message"); err == nil && name == "print" {
				return starlark.None, nil // a strategy prints to nowhere
			}
		case "getattr":
			if len(args) >= 2 {
				if s, ok := args[1].(starlark.String); ok && growers[string(s)] && isBuiltinType(first) {
					return guardedAttr(first, string(s))
				}
			}
		}
		if err != nil {
			return nil, err
		}
		if name == "list" && len(args) == 1 && len(kwargs) == 0 && length(first) < 0 {
			if it, ok := first.(starlark.Iterable); ok {
				l := starlark.NewList(nil)
				return l, extend(t, l, it, "extend")
			}
		}
		return starlark.Call(t, orig, args, kwargs)
	}
}

// tablesInTime runs the watchdog over x op y when both are dicts or sets: the result is
// built by inserting their keys.
func tablesInTime(t *starlark.Thread, x, y starlark.Value) error {
	switch x.(type) {
	case *starlark.Dict, *starlark.Set:
		if sameType(x, y) {
			return insertsInTime(t, false, x, y)
		}
	}
	return nil
}

// tableMethodInTime runs the watchdog over the methods of a dict or set that insert many
// keys in one call (update, union and the set algebra, which build or probe a table of
// their arguments' keys).
func tableMethodInTime(t *starlark.Thread, x starlark.Value, name string, args starlark.Tuple) error {
	switch x.(type) {
	case *starlark.Dict:
		if name == "update" {
			return insertsInTime(t, true, args...)
		}
	case *starlark.Set:
		switch name {
		case "union", "update", "intersection", "difference", "symmetric_difference", "issubset", "issuperset", "intersection_update", "difference_update", "symmetric_difference_update":
			return insertsInTime(t, false, append(starlark.Tuple{x}, args...)...)
		}
	}
	return nil
}
