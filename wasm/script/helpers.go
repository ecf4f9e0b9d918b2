package script

import (
	"crypto/md5"
	"fmt"
	"hash/crc32"
	"math"
	"unicode/utf16"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// predeclared are the names every strategy file sees besides Starlark's built-ins: what a
// port of a Java strategy or selector needs.
var predeclared = starlark.StringDict{
	"java": starlarkstruct.FromStringDict(starlark.String("java"), starlark.StringDict{
		"hash_code": starlark.NewBuiltin("java.hash_code", hashCode),
		"div":       starlark.NewBuiltin("java.div", javaDiv),
		"mod":       starlark.NewBuiltin("java.mod", javaMod),
		"abs":       starlark.NewBuiltin("java.abs", javaAbs),
	}),
	"md5":   starlark.NewBuiltin("md5", md5Digest),
	"crc32": starlark.NewBuiltin("crc32", crc32Sum),
}

func init() {
	for name, b := range guards {
		predeclared[name] = b
	}
}

// hashCode is Java's String.hashCode: s[0]*31^(n-1) + … + s[n-1] over UTF-16 code units,
// in 32-bit arithmetic.
func hashCode(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &s); err != nil {
		return nil, err
	}
	var h int32
	for _, u := range utf16.Encode([]rune(s)) {
		h = 31*h + int32(u)
	}
	return starlark.MakeInt(int(h)), nil
}

func twoInts(b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (int64, int64, error) {
	var x, y int64
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 2, &x, &y); err != nil {
		return 0, 0, err
	}
	if y == 0 {
		return 0, 0, fmt.Errorf("%s: ArithmeticException: / by zero", b.Name())
	}
	return x, y, nil
}

// javaDiv is Java's a / b on longs: the quotient rounded toward zero (Starlark's // floors).
func javaDiv(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, y, err := twoInts(b, args, kwargs)
	if err != nil {
		return nil, err
	}
	if x == math.MinInt64 && y == -1 {
		return starlark.MakeInt64(x), nil // Java's overflow
	}
	return starlark.MakeInt64(x / y), nil
}

// javaMod is Java's a % b on longs: the remainder has the sign of a (Starlark's % has b's).
func javaMod(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, y, err := twoInts(b, args, kwargs)
	if err != nil {
		return nil, err
	}
	if y == -1 {
		return starlark.MakeInt(0), nil
	}
	return starlark.MakeInt64(x % y), nil
}

// javaAbs is Math.abs on an int: Integer.MIN_VALUE stays negative, as in Java (the classic
// `Math.abs(key.hashCode()) % n` bug).
func javaAbs(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x int64
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	if x < math.MinInt32 || x > math.MaxInt32 {
		return nil, fmt.Errorf("%s: %d is not a Java int", b.Name(), x)
	}
	if x < 0 && x != math.MinInt32 {
		x = -x
	}
	return starlark.MakeInt64(x), nil
}

// bytesArg is a string or bytes argument's bytes (a string as UTF-8, as Java's
// getBytes(UTF_8)).
func bytesArg(b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) ([]byte, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &v); err != nil {
		return nil, err
	}
	switch s := v.(type) {
	case starlark.String:
		return []byte(s), nil
	case starlark.Bytes:
		return []byte(s), nil
	}
	return nil, fmt.Errorf("%s: want a string or bytes, got %s", b.Name(), v.Type())
}

// md5Digest is the MD5 digest of a string's (or bytes') UTF-8 bytes, as a list of 16 ints,
// each 0…255 (Java's byte is that minus 256 when it is 128 or more).
func md5Digest(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	data, err := bytesArg(b, args, kwargs)
	if err != nil {
		return nil, err
	}
	sum := md5.Sum(data)
	out := make([]starlark.Value, len(sum))
	for i, x := range sum {
		out[i] = starlark.MakeInt(int(x))
	}
	return starlark.NewList(out), nil
}

// crc32Sum is java.util.zip.CRC32's getValue() of a string's UTF-8 bytes: IEEE, unsigned.
func crc32Sum(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	data, err := bytesArg(b, args, kwargs)
	if err != nil {
		return nil, err
	}
	return starlark.MakeUint64(uint64(crc32.ChecksumIEEE(data))), nil
}
