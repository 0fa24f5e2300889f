package fio

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// HostFacts are the simulated machine's values of fio's reserved keywords (fio HOWTO,
// "Reserved keywords"): $pagesize, $mb_memory and $ncpus. A job file that uses them gets
// the simulated host's page size, memory and CPU count, not the machine running the
// simulator's.
type HostFacts struct {
	PageSize int64 // bytes
	MemoryMB int64 // megabytes of host memory
	CPUs     int64 // online CPUs
}

// DefaultHostFacts are used when the caller gives none: a 4 KiB page, 1 GiB and 4 CPUs
// (the fastdrain-small host).
var DefaultHostFacts = HostFacts{PageSize: 4096, MemoryMB: 1024, CPUs: 4}

// expandValue applies fio's substitutions to an option value (fio HOWTO, "Environment
// variables" and "Reserved keywords", and "Job file parameters" for expressions):
//   - ${NAME} is the environment variable NAME, or "" if it is not set;
//   - $pagesize, $mb_memory and $ncpus are the host's values;
//   - a value in parentheses, or one that used a reserved keyword, is an integer arithmetic
//     expression (+ - * / % ^ and parentheses) and is replaced by its value.
//
// expr reports whether the value was an expression (fio: in expressions, times are in
// microseconds).
func expandValue(v string, env func(string) (string, bool), host HostFacts) (out string, expr bool, err error) {
	var b strings.Builder
	for {
		i := strings.Index(v, "${")
		if i < 0 {
			b.WriteString(v)
			break
		}
		j := strings.IndexByte(v[i:], '}')
		if j < 0 {
			return "", false, fmt.Errorf("%q: \"${\" without a closing \"}\"", v)
		}
		b.WriteString(v[:i])
		if env != nil {
			if val, ok := env(v[i+2 : i+j]); ok {
				b.WriteString(val)
			}
		}
		v = v[i+j+1:]
	}
	out = b.String()
	keyword := false
	for _, kw := range []struct {
		name string
		val  int64
	}{{"$pagesize", host.PageSize}, {"$mb_memory", host.MemoryMB}, {"$ncpus", host.CPUs}} {
		if strings.Contains(out, kw.name) {
			out = strings.ReplaceAll(out, kw.name, strconv.FormatInt(kw.val, 10))
			keyword = true
		}
	}
	if !keyword && !(strings.HasPrefix(out, "(") && strings.HasSuffix(out, ")")) {
		return out, false, nil
	}
	n, err := evalExpr(out)
	if err != nil {
		return "", false, err
	}
	return strconv.FormatInt(n, 10), true, nil
}

// exprParser evaluates integer arithmetic: + - * / % ^ (power, right-associative) and
// parentheses over non-negative integer literals (decimal or 0x hexadecimal), with unary
// minus. Overflow, division by zero and a negative power are errors.
type exprParser struct {
	s   string
	pos int
}

var errOverflow = errors.New("overflows a 64-bit integer")

// evalExpr evaluates s.
func evalExpr(s string) (int64, error) {
	p := &exprParser{s: s}
	v, err := p.sum()
	if err == nil {
		p.skip()
		if p.pos != len(p.s) {
			err = fmt.Errorf("unexpected %q at %d", p.s[p.pos:], p.pos)
		}
	}
	if err != nil {
		return 0, fmt.Errorf("%q is not an integer expression: %w", s, err)
	}
	return v, nil
}

func (p *exprParser) skip() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

func (p *exprParser) peek() byte {
	p.skip()
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

// sum := product {(+|-) product}
func (p *exprParser) sum() (int64, error) {
	v, err := p.product()
	for err == nil {
		op := p.peek()
		if op != '+' && op != '-' {
			break
		}
		p.pos++
		var w int64
		if w, err = p.product(); err != nil {
			break
		}
		if op == '-' {
			w = -w
		}
		if (w > 0 && v > math.MaxInt64-w) || (w < 0 && v < math.MinInt64-w) {
			return 0, errOverflow
		}
		v += w
	}
	return v, err
}

// product := power {(*|/|%) power}
func (p *exprParser) product() (int64, error) {
	v, err := p.power()
	for err == nil {
		op := p.peek()
		if op != '*' && op != '/' && op != '%' {
			break
		}
		p.pos++
		var w int64
		if w, err = p.power(); err != nil {
			break
		}
		switch op {
		case '*':
			if v != 0 && (w > math.MaxInt64/absInt(v) || w < -math.MaxInt64/absInt(v)) {
				return 0, errOverflow
			}
			v *= w
		case '/', '%':
			if w == 0 {
				return 0, errors.New("division by zero")
			}
			if op == '/' {
				v /= w
			} else {
				v %= w
			}
		}
	}
	return v, err
}

func absInt(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// power := unary [^ power]
func (p *exprParser) power() (int64, error) {
	b, err := p.unary()
	if err != nil || p.peek() != '^' {
		return b, err
	}
	p.pos++
	e, err := p.power()
	if err != nil {
		return 0, err
	}
	if e < 0 {
		return 0, errors.New("negative power")
	}
	switch b {
	case 0, 1:
		if e == 0 {
			return 1, nil
		}
		return b, nil
	case -1:
		return 1 - 2*(e&1), nil
	}
	r := int64(1)
	for range e {
		if b != 0 && (r > math.MaxInt64/absInt(b) || r < -math.MaxInt64/absInt(b)) {
			return 0, errOverflow
		}
		r *= b
	}
	return r, nil
}

// unary := -unary | ( sum ) | number
func (p *exprParser) unary() (int64, error) {
	switch p.peek() {
	case '-':
		p.pos++
		v, err := p.unary()
		return -v, err
	case '(':
		p.pos++
		v, err := p.sum()
		if err != nil {
			return 0, err
		}
		if p.peek() != ')' {
			return 0, errors.New("missing \")\"")
		}
		p.pos++
		return v, nil
	}
	start := p.pos
	for p.pos < len(p.s) && (p.s[p.pos] >= '0' && p.s[p.pos] <= '9' || p.s[p.pos] == 'x' || p.s[p.pos] == 'X' ||
		p.s[p.pos] >= 'a' && p.s[p.pos] <= 'f' || p.s[p.pos] >= 'A' && p.s[p.pos] <= 'F') {
		p.pos++
	}
	if start == p.pos {
		return 0, errors.New("expected a number")
	}
	v, err := strconv.ParseInt(p.s[start:p.pos], 0, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", p.s[start:p.pos])
	}
	return v, nil
}
