package script

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.starlark.net/starlark"
)

// The guarded source computes what the plain interpreter computes: the same values and the
// same errors, for every construct the rewrite touches.
func TestGuardedSourceComputesTheSame(t *testing.T) {
	for _, src := range []string{
		"r = 'a' + 'b' + str(1) + repr('x\\n') + 'q' * 3 + 3 * 'w'",
		"r = [1] + [2]; r += (3, 4); r += range(2); r = r * 2",
		"r = (1,) + (2,) * 2",
		"l = [1]; m = l; l += [2]; r = (m, l)",
		"d = {'a': 1}; e = d; d |= {'b': 2}; r = (e, d | {'c': 3})",
		"s = set([1, 2]); r = sorted(s | set([3]))",
		"r = '%s-%d-%r' % ('a', 3, 'b') + '%(k)s' % {'k': 'v'}",
		"r = '{}+{x}'.format(1, x=[2])",
		"r = ','.join(['a', 'b']) + 'xax'.replace('x', 'yy') + 'A b'.lower().upper()",
		"r = ('a b  c'.split(), 'a,b'.split(','), 'x\\ny'.splitlines(), 'a=b'.partition('='))",
		"l = []; l.append(1); l.extend([2, 3]); l.insert(0, 0); f = l.append; f(4); r = l",
		"d = {}; d['a'] = 1; d.update(b=2); d.setdefault('c', 3); r = (d.items(), d.keys(), d.values())",
		"l = [0, 0]; l[1] = 5; l[-2] = 4; r = l",
		"d = {}; d['k'] = [1]; d['k'] += [2]; r = d",
		"l = [[1], [2]]; i = 1; l[i] += [3]; r = l",
		"l = [1, 2]; l[len(l) - 1] += 5; l[0] *= 3; r = l",
		"l = [1]; l[3] += 1",
		"d = {}; d['x'] += 1",
		"l = [1]; l[5] = 1",
		"a = [0, 0]; a[0], b = 1, 2; r = (a, b)",
		"r = [x * 2 for x in range(4) if x % 2] + [y for x in [[1, 2]] for y in x]",
		"r = {k: v for k, v in enumerate('ab')}",
		"r = (list(range(3)), tuple('ab'.elems()), dict(a=1), sorted([3, 1], reverse=True), reversed([1, 2]), zip([1, 2], 'ab'.elems()))",
		"r = (1 << 10, 7 ^ 2, 6 | 1, (1 << 62) * 4, 10 % 3, -7 % 3)",
		"def f(*a, **k): return (a, k)\nr = f(*[1, 2], **{'x': 3})",
		"r = [1, 2, 3][1:] + list('abc'.elems())[::-1]",
		"r = getattr([], 'append') != None and getattr('s', 'upper')()",
		"s = set(); s.add(1); r = (s.union([2]), s.difference([1]), s.intersection([1]), s.symmetric_difference([1, 3]))",
		"x = 1\nx += 2\nx *= 3\nx %= 5\nx |= 8\nx ^= 1\nx <<= 2\nr = x",
		"r = (lambda a, b = [1] + [2]: a + b)([0])",
		// errors: the same message
		"r = 'a' + 1",
		"r = [1] * 'a'",
		"r = '%d' % 'x'",
		"r = {}['missing']",
		"l = []; l[3] = 1",
		"l = (); l[0] = 1",
		"r = [].appendd(1)",
		"r = 'x'.join([1])",
		"r = list(1)",
		"l = [1]; l.freeze() if False else None; r = l.pop(5)",
	} {
		t.Run(src, func(t *testing.T) {
			src := "def main():\n    " + strings.ReplaceAll(src, "\n", "\n    ") + "\n    return r\nr = main()\n"
			want, wantErr := plainRun(src)
			got, gotErr := guardedRun(t, src)
			if wantErr != nil {
				require.Error(t, gotErr)
				assert.Equal(t, wantErr.Error(), (gotErr.(*Error)).Msg)
				return
			}
			require.NoError(t, gotErr)
			assert.Equal(t, want, got)
		})
	}
}

func plainRun(src string) (string, error) {
	th := &starlark.Thread{}
	g, err := starlark.ExecFileOptions(options, th, "t.star", src, nil)
	if err != nil {
		if ee, ok := err.(*starlark.EvalError); ok {
			return "", &Error{Msg: ee.Msg}
		}
		return "", err
	}
	return g["r"].String(), nil
}

func guardedRun(t *testing.T, src string) (string, error) {
	th := newThread("t.star", MaxSteps)
	g, err := run(th, func() (starlark.StringDict, error) { return compileAndRun(th, "t.star", []byte(src)) })
	if err != nil {
		return "", err
	}
	return g["r"].String(), nil
}
