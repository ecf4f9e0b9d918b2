package script

import (
	"fmt"

	"go.starlark.net/syntax"
)

// rewrite makes every expression of f that builds a value pay for it before the interpreter
// builds it (see guard.go): an operator that can grow a value (+ * % | ^ <<, and their
// augmented forms) becomes a call of a guarded builtin, a method that can grow one (append,
// join, replace, update…) a call through $call, a list, tuple or dict display and a slice are
// charged what they hold, a comprehension each element it adds, an item assignment each key
// it adds to a dict. The guarded builtins are predeclared under names that no source can
// spell ("$add"), so a script can neither call nor shadow them. Positions stay those of the
// source, so messages name the user's line.
//
// What it cannot rewrite safely is refused with a message: an augmented assignment to a
// field whose target calls a function (`f().x += 1` would call f twice), and a loop whose
// variable is an item (`for d[k] in …`).
func rewrite(f *syntax.File) error {
	r := &rewriter{}
	f.Stmts = r.stmts(f.Stmts)
	return r.err
}

type rewriter struct{ err error }

func (r *rewriter) fail(pos syntax.Position, format string, args ...any) {
	if r.err == nil {
		r.err = syntax.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}
}

// guarded are the operators whose result can be larger than both operands together, and
// those that build a set from sets (- and &), which the watchdog times (bounds.go).
var guarded = map[syntax.Token]string{
	syntax.PLUS: "$add", syntax.STAR: "$mul", syntax.PERCENT: "$mod",
	syntax.PIPE: "$or", syntax.CIRCUMFLEX: "$xor", syntax.LTLT: "$shl",
	syntax.MINUS: "$sub", syntax.AMP: "$and",
}

// augmented are the augmented assignments of the guarded operators, with their builtin
// (+= and |= extend a list or a dict in place, as the interpreter does).
var augmented = map[syntax.Token]string{
	syntax.PLUS_EQ: "$iadd", syntax.STAR_EQ: "$mul", syntax.PERCENT_EQ: "$mod",
	syntax.PIPE_EQ: "$ior", syntax.CIRCUMFLEX_EQ: "$xor", syntax.LTLT_EQ: "$shl",
	syntax.MINUS_EQ: "$sub", syntax.AMP_EQ: "$and",
}

func call(pos syntax.Position, fn string, args ...syntax.Expr) *syntax.CallExpr {
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: pos, Name: fn}, Lparen: pos, Args: args, Rparen: pos}
}

func str(pos syntax.Position, s string) *syntax.Literal {
	return &syntax.Literal{Token: syntax.STRING, TokenPos: pos, Raw: fmt.Sprintf("%q", s), Value: s}
}

func (r *rewriter) stmts(ss []syntax.Stmt) []syntax.Stmt {
	for i, s := range ss {
		ss[i] = r.stmt(s)
	}
	return ss
}

func (r *rewriter) stmt(s syntax.Stmt) syntax.Stmt {
	switch s := s.(type) {
	case *syntax.AssignStmt:
		return r.assign(s)
	case *syntax.DefStmt:
		r.params(s.Params)
		s.Body = r.stmts(s.Body)
	case *syntax.ExprStmt:
		s.X = r.expr(s.X)
	case *syntax.IfStmt:
		s.Cond = r.expr(s.Cond)
		s.True = r.stmts(s.True)
		s.False = r.stmts(s.False)
	case *syntax.ForStmt:
		s.X = r.expr(s.X)
		s.Vars = r.loopVars(s.Vars)
		s.Body = r.stmts(s.Body)
	case *syntax.WhileStmt:
		s.Cond = r.expr(s.Cond)
		s.Body = r.stmts(s.Body)
	case *syntax.ReturnStmt:
		if s.Result != nil {
			s.Result = r.expr(s.Result)
		}
	}
	return s
}

func (r *rewriter) params(ps []syntax.Expr) {
	for _, p := range ps {
		if b, ok := p.(*syntax.BinaryExpr); ok && b.Op == syntax.EQ {
			b.Y = r.expr(b.Y) // a default value
		}
	}
}

// assign rewrites x = y and x op= y.
func (r *rewriter) assign(s *syntax.AssignStmt) syntax.Stmt {
	rhs := r.expr(s.RHS)
	if s.Op != syntax.EQ {
		fn, grows := augmented[s.Op]
		if !grows {
			s.LHS, s.RHS = r.target(s.LHS), rhs
			return s
		}
		if ix, ok := s.LHS.(*syntax.IndexExpr); ok {
			// x[k] op= y as $augindex("op", x, k, y): x and k are evaluated once.
			return &syntax.ExprStmt{X: call(s.OpPos, "$augindex", str(s.OpPos, fn), r.expr(ix.X), r.expr(ix.Y), rhs)}
		}
		if !r.plain(s.LHS) {
			r.fail(s.OpPos, "%s with a call in its target is not supported: assign the call's result to a name first", s.Op)
			return s
		}
		// x op= y is x = op(x, y), x being read and written at the same place; plain makes
		// evaluating x's parts twice harmless.
		rhs = call(s.OpPos, fn, r.expr(clone(s.LHS)), rhs)
		s = &syntax.AssignStmt{OpPos: s.OpPos, Op: syntax.EQ, LHS: s.LHS, RHS: rhs}
	}
	if ix, ok := s.LHS.(*syntax.IndexExpr); ok {
		// d[k] = v as $setindex(v, d, k): the value first, as the interpreter evaluates it.
		return &syntax.ExprStmt{X: call(ix.Lbrack, "$setindex", rhs, r.expr(ix.X), r.expr(ix.Y))}
	}
	if n := itemTargets(s.LHS); n > 0 {
		// a[0], b = …: each item assigned may add a key.
		rhs = call(s.OpPos, "$grow", &syntax.Literal{Token: syntax.INT, TokenPos: s.OpPos, Raw: fmt.Sprint(n * entrySize), Value: int64(n * entrySize)}, rhs)
	}
	s.LHS, s.RHS = r.target(s.LHS), rhs
	return s
}

// itemTargets counts the item assignments (x[k]) among an assignment's targets.
func itemTargets(e syntax.Expr) int {
	switch e := e.(type) {
	case *syntax.IndexExpr:
		return 1
	case *syntax.ParenExpr:
		return itemTargets(e.X)
	case *syntax.TupleExpr:
		n := 0
		for _, x := range e.List {
			n += itemTargets(x)
		}
		return n
	case *syntax.ListExpr:
		n := 0
		for _, x := range e.List {
			n += itemTargets(x)
		}
		return n
	}
	return 0
}

// target rewrites the parts of an assignment's target that are read (x and k of x[k]).
func (r *rewriter) target(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.IndexExpr:
		e.X, e.Y = r.expr(e.X), r.expr(e.Y)
	case *syntax.DotExpr:
		e.X = r.expr(e.X)
	case *syntax.ParenExpr:
		e.X = r.target(e.X)
	case *syntax.TupleExpr:
		for i, x := range e.List {
			e.List[i] = r.target(x)
		}
	case *syntax.ListExpr:
		for i, x := range e.List {
			e.List[i] = r.target(x)
		}
	}
	return e
}

// loopVars checks a loop's variables: names only, as a loop could otherwise grow a dict
// with no expression to charge.
func (r *rewriter) loopVars(e syntax.Expr) syntax.Expr {
	if n := itemTargets(e); n > 0 {
		start, _ := e.Span()
		r.fail(start, "a loop variable that is an item (x[k]) is not supported: assign it in the loop's body")
	}
	return r.target(e)
}

// plain reports whether evaluating e twice is the same as once: no call anywhere in it.
func (r *rewriter) plain(e syntax.Expr) bool {
	ok := true
	syntax.Walk(e, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CallExpr, *syntax.Comprehension, *syntax.LambdaExpr:
			ok = false
		}
		return ok
	})
	return ok
}

// clone copies an expression that plain accepted, so that the copy can be resolved and
// compiled apart from the original.
func clone(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.Ident:
		c := *e
		c.Binding = nil
		return &c
	case *syntax.Literal:
		c := *e
		return &c
	case *syntax.ParenExpr:
		c := *e
		c.X = clone(e.X)
		return &c
	case *syntax.DotExpr:
		c := *e
		c.X = clone(e.X)
		c.Name = clone(e.Name).(*syntax.Ident)
		return &c
	case *syntax.IndexExpr:
		c := *e
		c.X, c.Y = clone(e.X), clone(e.Y)
		return &c
	case *syntax.SliceExpr:
		c := *e
		c.X = clone(e.X)
		for _, p := range []*syntax.Expr{&c.Lo, &c.Hi, &c.Step} {
			if *p != nil {
				*p = clone(*p)
			}
		}
		return &c
	case *syntax.BinaryExpr:
		c := *e
		c.X, c.Y = clone(e.X), clone(e.Y)
		return &c
	case *syntax.UnaryExpr:
		c := *e
		if e.X != nil {
			c.X = clone(e.X)
		}
		return &c
	case *syntax.CondExpr:
		c := *e
		c.Cond, c.True, c.False = clone(e.Cond), clone(e.True), clone(e.False)
		return &c
	case *syntax.TupleExpr:
		c := *e
		c.List = cloneList(e.List)
		return &c
	case *syntax.ListExpr:
		c := *e
		c.List = cloneList(e.List)
		return &c
	case *syntax.DictExpr:
		c := *e
		c.List = cloneList(e.List)
		return &c
	case *syntax.DictEntry:
		c := *e
		c.Key, c.Value = clone(e.Key), clone(e.Value)
		return &c
	}
	panic(fmt.Sprintf("script: clone of %T", e))
}

func cloneList(l []syntax.Expr) []syntax.Expr {
	out := make([]syntax.Expr, len(l))
	for i, x := range l {
		out[i] = clone(x)
	}
	return out
}

func (r *rewriter) list(l []syntax.Expr) {
	for i, x := range l {
		l[i] = r.expr(x)
	}
}

// intLiteral reports whether e is an int literal: x + 1 cannot grow a string or a list.
func intLiteral(e syntax.Expr) bool {
	l, ok := e.(*syntax.Literal)
	return ok && l.Token == syntax.INT
}

// literal reports whether e is a literal: "a" + "b" is as long as the source.
func literal(e syntax.Expr) bool {
	_, ok := e.(*syntax.Literal)
	return ok
}

func (r *rewriter) expr(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.BinaryExpr:
		e.X, e.Y = r.expr(e.X), r.expr(e.Y)
		fn, ok := guarded[e.Op]
		switch {
		case !ok, e.Op == syntax.PLUS && (intLiteral(e.X) || intLiteral(e.Y)),
			e.Op == syntax.PLUS && literal(e.X) && literal(e.Y), e.Op == syntax.PERCENT && intLiteral(e.Y):
			return e
		}
		return call(e.OpPos, fn, e.X, e.Y)
	case *syntax.UnaryExpr:
		if e.X != nil {
			e.X = r.expr(e.X)
		}
	case *syntax.ParenExpr:
		e.X = r.expr(e.X)
	case *syntax.CondExpr:
		e.Cond, e.True, e.False = r.expr(e.Cond), r.expr(e.True), r.expr(e.False)
	case *syntax.IndexExpr:
		e.X, e.Y = r.expr(e.X), r.expr(e.Y)
	case *syntax.SliceExpr:
		e.X = r.expr(e.X)
		for _, p := range []*syntax.Expr{&e.Lo, &e.Hi, &e.Step} {
			if *p != nil {
				*p = r.expr(*p)
			}
		}
		return call(e.Lbrack, "$lit", e)
	case *syntax.DotExpr:
		e.X = r.expr(e.X)
		if growers[e.Name.Name] {
			return call(e.Dot, "$attr", e.X, str(e.NamePos, e.Name.Name))
		}
	case *syntax.CallExpr:
		r.args(e.Args)
		if d, ok := e.Fn.(*syntax.DotExpr); ok && growers[d.Name.Name] {
			// x.m(args) as $call(x, "m", args): the method's growth is charged first.
			return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: d.Dot, Name: "$call"}, Lparen: e.Lparen,
				Args: append([]syntax.Expr{r.expr(d.X), str(d.NamePos, d.Name.Name)}, e.Args...), Rparen: e.Rparen}
		}
		e.Fn = r.expr(e.Fn)
	case *syntax.LambdaExpr:
		r.params(e.Params)
		e.Body = r.expr(e.Body)
	case *syntax.ListExpr:
		r.list(e.List)
		return call(e.Lbrack, "$lit", e)
	case *syntax.TupleExpr:
		r.list(e.List)
		if len(e.List) == 0 {
			return e
		}
		start, _ := e.Span()
		return call(start, "$lit", e)
	case *syntax.DictExpr:
		for _, x := range e.List {
			d := x.(*syntax.DictEntry)
			d.Key, d.Value = r.expr(d.Key), r.expr(d.Value)
		}
		return call(e.Lbrace, "$lit", e)
	case *syntax.Comprehension:
		r.clauses(e.Clauses)
		if d, ok := e.Body.(*syntax.DictEntry); ok {
			d.Key, d.Value = r.expr(d.Key), call(d.Colon, "$entry", r.expr(d.Value))
		} else {
			e.Body = call(e.Lbrack, "$elem", r.expr(e.Body))
		}
	}
	return e
}

func (r *rewriter) clauses(cs []syntax.Node) {
	for _, c := range cs {
		switch c := c.(type) {
		case *syntax.ForClause:
			c.X = r.expr(c.X)
			c.Vars = r.loopVars(c.Vars)
		case *syntax.IfClause:
			c.Cond = r.expr(c.Cond)
		}
	}
}

// args rewrites a call's arguments: *x and **x copy x into the call's tuple or dict.
func (r *rewriter) args(args []syntax.Expr) {
	for i, a := range args {
		switch a := a.(type) {
		case *syntax.UnaryExpr:
			if a.Op == syntax.STAR || a.Op == syntax.STARSTAR {
				a.X = call(a.OpPos, "$star", r.expr(a.X))
				continue
			}
		case *syntax.BinaryExpr:
			if a.Op == syntax.EQ { // name=value
				a.Y = r.expr(a.Y)
				continue
			}
		}
		args[i] = r.expr(a)
	}
}
