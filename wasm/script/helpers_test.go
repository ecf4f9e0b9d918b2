package script

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.starlark.net/starlark"

	"github.com/lbscope/lbscope/core/route"
)

// The helpers give what Java gives for the same call (values from a JVM: "hello".hashCode()
// is 99162322, "polygenelubricants".hashCode() is Integer.MIN_VALUE, -7 / 2 is -3, -7 % 2
// is -1, CRC32 of "123456789" is 0xCBF43926).
func TestJavaHelpers(t *testing.T) {
	for expr, want := range map[string]string{
		`java.hash_code("")`:                   "0",
		`java.hash_code("hello")`:              "99162322",
		`java.hash_code("polygenelubricants")`: "-2147483648",
		`java.hash_code("中文")`:                 "646394",
		`java.hash_code("😀")`:                  "1772899",
		`java.div(-7, 2)`:                      "-3",
		`java.mod(-7, 2)`:                      "-1",
		`java.div(7, -2)`:                      "-3",
		`java.mod(7, -2)`:                      "1",
		`-7 // 2`:                              "-4",
		`-7 % 2`:                               "1",
		`java.abs(-5)`:                         "5",
		`java.abs(java.hash_code("polygenelubricants"))`: "-2147483648",
		`crc32("123456789")`:                             "3421780262",
		`crc32("")`:                                      "0",
		`md5("")[:4]`:                                    "[212, 29, 140, 217]",
		`md5("a")[0]`:                                    "12",
	} {
		v, err := starlark.EvalOptions(options, &starlark.Thread{}, "t", expr, predeclared)
		require.NoError(t, err, expr)
		assert.Equal(t, want, v.String(), expr)
	}
	_, err := starlark.EvalOptions(options, &starlark.Thread{}, "t", "java.mod(3, 0)", predeclared)
	assert.ErrorContains(t, err, "ArithmeticException: / by zero")
}

// A composite-key selector against a hot key: select gets the queues, the message and the
// send's argument, and its answer is one of the queues.
func TestSelect(t *testing.T) {
	p := load(t, `
def select(queues, message, arg):
    key = message.key
    if key == "hot":
        key = key + "#" + str(arg)
    return queues[java.abs(java.hash_code(key)) % len(queues)]
`)
	mqs := []route.MessageQueue{{Topic: "T", BrokerName: "a", QueueID: 0}, {Topic: "T", BrokerName: "a", QueueID: 1}, {Topic: "T", BrokerName: "b", QueueID: 0}}
	got, err := p.Select(mqs, Message{Key: "order-17"}, nil)
	require.NoError(t, err)
	h := int32(0)
	for _, c := range "order-17" {
		h = 31*h + c
	}
	assert.Equal(t, mqs[int(h)%3], got)
	spread := map[route.MessageQueue]bool{}
	for i := range 12 {
		q, err := p.Select(mqs, Message{Key: "hot"}, i)
		require.NoError(t, err)
		spread[q] = true
	}
	assert.Len(t, spread, 3, "the hot key's messages spread over every queue")

	bad := load(t, "def select(queues, message, arg):\n    return 'a:0'\n")
	_, err = bad.Select(mqs, Message{}, nil)
	assert.ErrorContains(t, err, `test.star:1:1: select returned "a:0", which is not one of the queues passed in`)
	assert.False(t, bad.HasAllocate())
	assert.Error(t, Register(bad), "a file without allocate is no allocation strategy")
}
