package scaling

import "strings"

// promQLRate reports whether a Prometheus query is a rate of events: every
// series it reads is inside rate(), irate() or increase(), and what wraps
// them is only sum, avg, max or min (with by/without). Anything else (a
// ratio, a histogram_quantile of a rate, count, a comparison, a number)
// leaves the signal unknown: a query that merely contains rate( is not a
// rate. This is an allowlist, so what it does not recognise stays unknown
// and no law is evaluated on a guess.
func promQLRate(q string) bool {
	toks, ok := promTokens(q)
	if !ok || len(toks) == 0 {
		return false
	}
	type frame struct {
		fn     string // the call this paren opens ("" for a grouping paren, "by" for a label list)
		inRate bool   // inside rate/irate/increase
	}
	var stack []frame
	inRate := func() bool { return len(stack) > 0 && stack[len(stack)-1].inRate }
	sawRate := false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		next := ""
		if i+1 < len(toks) {
			next = toks[i+1]
		}
		switch {
		case t == "(":
			stack = append(stack, frame{inRate: inRate()})
		case t == ")":
			if len(stack) == 0 {
				return false
			}
			stack = stack[:len(stack)-1]
		case t == ",":
			if len(stack) == 0 || stack[len(stack)-1].fn != "by" {
				return false // a second argument: topk(5, …), quantile(0.9, …)
			}
		case isPromIdent(t) && next == "(":
			switch strings.ToLower(t) {
			case "rate", "irate", "increase":
				if inRate() {
					return false
				}
				sawRate = true
				stack = append(stack, frame{fn: t, inRate: true})
				i++
			case "sum", "avg", "max", "min":
				if inRate() {
					return false
				}
				stack = append(stack, frame{fn: t})
				i++
			case "by", "without":
				stack = append(stack, frame{fn: "by"})
				i++
			default:
				return false
			}
		case isAggregation(t) && (strings.EqualFold(next, "by") || strings.EqualFold(next, "without")):
			// sum by (pod) (rate(...)): skip the label list to the call.
			j := i + 2
			if j >= len(toks) || toks[j] != "(" {
				return false
			}
			for j++; j < len(toks) && toks[j] != ")"; j++ {
				if toks[j] != "," && !isPromIdent(toks[j]) {
					return false
				}
			}
			if j+1 >= len(toks) || toks[j+1] != "(" || inRate() {
				return false
			}
			stack = append(stack, frame{fn: t})
			i = j + 1
		case isPromIdent(t):
			if len(stack) > 0 && stack[len(stack)-1].fn == "by" {
				continue // a label name in by (...)
			}
			if !inRate() {
				return false // a series read outside a rate
			}
		default:
			return false // an operator or a number
		}
	}
	return sawRate && len(stack) == 0
}

// promTokens splits a query into identifiers and ( ) , tokens, dropping
// label matchers {…} and range selectors […] (with what is quoted in
// them). It fails on anything else outside them, which promQLRate would
// refuse anyway, and on unbalanced brackets.
func promTokens(q string) ([]string, bool) {
	var out []string
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '{' || c == '[':
			close := byte('}')
			if c == '[' {
				close = ']'
			}
			j, ok := skipBracket(q, i+1, close)
			if !ok {
				return nil, false
			}
			i = j
		case c == '(' || c == ')' || c == ',':
			out = append(out, q[i:i+1])
			i++
		case isIdentByte(c, true):
			j := i + 1
			for j < len(q) && isIdentByte(q[j], false) {
				j++
			}
			out = append(out, q[i:j])
			i = j
		default:
			out = append(out, q[i:i+1]) // an operator, a digit, a quote: refused by the caller
			i++
		}
	}
	return out, true
}

// skipBracket returns the index after the bracket that closes at close,
// skipping quoted strings.
func skipBracket(q string, i int, close byte) (int, bool) {
	for i < len(q) {
		switch c := q[i]; c {
		case close:
			return i + 1, true
		case '"', '\'', '`':
			j := i + 1
			for j < len(q) && q[j] != c {
				if q[j] == '\\' && c != '`' {
					j++
				}
				j++
			}
			if j >= len(q) {
				return 0, false
			}
			i = j + 1
		case '{', '[', '}', ']':
			return 0, false
		default:
			i++
		}
	}
	return 0, false
}

func isIdentByte(c byte, first bool) bool {
	return c == '_' || c == ':' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9')
}

func isPromIdent(t string) bool { return t != "" && isIdentByte(t[0], true) }

func isAggregation(t string) bool {
	switch strings.ToLower(t) {
	case "sum", "avg", "max", "min":
		return true
	}
	return false
}
