package jsonedit

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"runtime"
	"slices"
	"unicode/utf8"

	"github.com/repo-manager/repo/internal/par"
)

// validate is encoding/json.Valid and utf8.Valid in one pass, about ten
// times faster than the first alone: a ~/.claude.json of 100 MB is checked
// on every sync, and json.Valid's byte-at-a-time state machine was two
// thirds of the time. It accepts exactly what `json.Valid(b) &&
// utf8.Valid(b)` accepts (FuzzValidate holds it to that), nesting limit
// included. Error messages still come from encoding/json (jsonError): this
// only has to be right, and fast, about yes or no.
//
// While it reads, validate builds the index of large containers that walks
// use to skip values (see spans).
func validate(b []byte) (spans, bool) {
	if len(b) >= parallelMin && runtime.GOMAXPROCS(0) >= 2 {
		if idx, ok := validateHalves(b, len(b)/2); ok {
			return idx, true
		}
		// Not valid, or no place to split: the one-pass check decides.
	}
	return validateOnePass(b)
}

func validateOnePass(b []byte) (spans, bool) {
	v := validator{b: b}
	ok := v.run(skipWS(b, 0), sValue)
	return v.idx, ok
}

// maxDepth is encoding/json's nesting limit (maxNestingDepth).
const maxDepth = 10000

// indexMin is the smallest container the index remembers: smaller ones are
// quicker to scan again than to look up, and the threshold bounds the
// index to a few bytes per indexMin bytes of input at every depth. (A
// variable only so that tests can index every container.)
var indexMin = 512

// span is a container's '{' or '[' and its matching '}' or ']'.
type span struct{ open, close int }

// spans lists large containers by their opening offset, in document order.
type spans []span

// end returns the offset just past the container that opens at open, if
// the index knows it.
func (s spans) end(open int) (int, bool) {
	i, ok := slices.BinarySearchFunc(s, open, func(e span, t int) int { return e.open - t })
	if !ok {
		return 0, false
	}
	return s[i].close + 1, true
}

// shift returns the index of a document in which the value [from, to) of
// this one was replaced by a value of n bytes whose own index is inner
// (offsets relative to its start). Containers around the value grow or
// shrink with it, the ones after it move.
func (s spans) shift(from, to, n int, inner spans) spans {
	delta := n - (to - from)
	out := make(spans, 0, len(s)+len(inner))
	i := 0
	for ; i < len(s) && s[i].open < from; i++ {
		e := s[i]
		if e.close >= from {
			e.close += delta // an ancestor of the value
			if e.close-e.open+1 < indexMin {
				continue
			}
		}
		out = append(out, e)
	}
	for _, e := range inner {
		out = append(out, span{e.open + from, e.close + from})
	}
	for ; i < len(s) && s[i].open < to; i++ {
	}
	for ; i < len(s); i++ {
		out = append(out, span{s[i].open + delta, s[i].close + delta})
	}
	return out
}

type validator struct {
	b     []byte
	stack []byte // '{' or '[' per open container
	open  []int  // per open container: its index in idx
	idx   spans

	// A first half (partial) may end between two tokens, in state end.
	partial bool
	end     state

	// A second half starts inside containers it did not see open. outer
	// has the type of each it has been in so far, innermost first (0: not
	// known yet), closes where each closed; entered is where it came into
	// the last one, and deepest how far it ever went below the start.
	outer   []byte
	closes  []int
	entered int
	deepest int
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// special marks, with its high bit, each byte of x that ends a string's
// plain run: '"', '\\', a control byte or a non-ASCII byte. A subtraction
// borrows only upwards, so the lowest mark is always exact (a mark above
// it may not be).
func special(x uint64) uint64 {
	q := (x ^ (ones * '"')) - ones
	e := (x ^ (ones * '\\')) - ones
	c := x - ones*0x20
	return (q | e | c | x) & highs
}

// str checks the string whose '"' is at b[i] and returns the offset just
// past it, or -1. It is the hottest loop of all: a ~/.claude.json is
// nearly all long strings (pasted text, with an escape every few dozen
// bytes), so it looks at eight bytes at a time and handles the byte that
// stops it inline.
func (v *validator) str(i int) int {
	b := v.b
	i++
	for {
		for rest := b[i:]; len(rest) >= 16; rest = rest[16:] {
			if m := special(binary.LittleEndian.Uint64(rest)); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				goto stop
			}
			if m := special(binary.LittleEndian.Uint64(rest[8:])); m != 0 {
				i += 8 + bits.TrailingZeros64(m)/8
				goto stop
			}
			i += 16
		}
		for ; i < len(b); i++ {
			if c := b[i]; c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
				goto stop
			}
		}
		return -1
	stop:
		c := b[i]
		if c == '\\' && i+1 < len(b) && simpleEscape[b[i+1]] {
			i += 2 // the commonest stop in pasted text: \n, \", \\
			continue
		}
		switch {
		case c == '"':
			return i + 1
		case c == '\\':
			if i+1 >= len(b) {
				return -1
			}
			switch b[i+1] {
			case 'u':
				if i+6 > len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return -1
				}
				i += 6
			default:
				return -1
			}
		case c < 0x20:
			return -1
		case 0xC2 <= c && c <= 0xDF && i+1 < len(b) && b[i+1]&0xC0 == 0x80:
			i += 2 // a two-byte character (Latin, Greek, Cyrillic, ...)
		default: // a longer character, or not UTF-8
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n <= 1 {
				return -1
			}
			i += n
		}
	}
}

// simpleEscape marks the bytes that may follow a backslash, but 'u'.
var simpleEscape = [256]bool{'"': true, '\\': true, '/': true, 'b': true, 'f': true, 'n': true, 'r': true, 't': true}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number checks the number that starts at b[i] and returns the offset just
// past it, or -1.
func (v *validator) number(i int) int {
	b := v.b
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i++; i < len(b) && isDigit(b[i]); i++ {
		}
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return -1
		}
		for i++; i < len(b) && isDigit(b[i]); i++ {
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return -1
		}
		for i++; i < len(b) && isDigit(b[i]); i++ {
		}
	}
	return i
}

// literal checks that b[i:] starts with word.
func (v *validator) literal(i int, word string) int {
	if len(v.b)-i < len(word) || string(v.b[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// push opens a container at b[i].
func (v *validator) push(i int) bool {
	if len(v.stack) >= maxDepth {
		return false
	}
	if v.outer != nil {
		v.deepest = max(v.deepest, len(v.stack)+1-(len(v.outer)-1))
	}
	v.stack = append(v.stack, v.b[i])
	v.open = append(v.open, len(v.idx))
	v.idx = append(v.idx, span{open: i, close: -1})
	return true
}

// pop closes the innermost container at b[i]. A small one leaves the index:
// everything opened after it is inside it, smaller still, and gone already,
// so it is the last entry.
func (v *validator) pop(i int) {
	n := len(v.stack) - 1
	k := v.open[n]
	v.stack, v.open = v.stack[:n], v.open[:n]
	if i-v.idx[k].open+1 < indexMin {
		v.idx = v.idx[:k]
		return
	}
	v.idx[k].close = i
}

// Where the validator stands between two tokens: what it expects next.
type state uint8

const (
	sValue        state = iota // a value (after ':' or ',' in an array)
	sValueOrClose              // a value or ']' (after '[')
	sKey                       // a key (after ',' in an object)
	sKeyOrClose                // a key or '}' (after '{')
	sAfter                     // ',' or a closing bracket (after a value)

	// What a step of run may return besides the state that comes next.
	sStop // the input ended where a first half may stop (see stop)
	sFail // not valid JSON
)

// run is the grammar of RFC 8259 as a loop over three states: before a
// value, after a value, and before an object key. It starts in state at
// offset i. The two halves of a parallel check change what happens at the
// edges (see validateHalves): a first half may end between two tokens
// (partial), a second half starts inside containers it does not know
// (outer). Neither costs the middle of the loop anything.
//
// run moves between the states; the steps (enter, scalar, key, and the
// edges: endAfterValue, afterOuter) are methods of their own. Strings,
// commas and closing brackets, the commonest tokens, stay in the loop.
func (v *validator) run(i int, at state) bool {
	b := v.b
	switch at {
	case sKey:
		goto key
	case sAfter:
		goto after
	}
value:
	if i >= len(b) {
		return v.stop(sValue)
	}
	switch b[i] {
	case '"':
		i = v.str(i)
	case '{', '[':
		switch i, at = v.enter(i); at {
		case sKey:
			goto key
		case sValue:
			goto value
		case sStop:
			return v.partial
		}
	default:
		i = v.scalar(i)
	}
	if i < 0 {
		return false
	}
after:
	for {
		if i = skipWS(b, i); i >= len(b) {
			return v.endAfterValue()
		}
		n := len(v.stack)
		if n == 0 {
			switch i, at = v.afterOuter(i); at {
			case sKey:
				goto key
			case sValue:
				goto value
			case sFail:
				return false
			}
			continue
		}
		switch c := b[i]; c {
		case ',':
			i = skipWS(b, i+1)
			if v.stack[n-1] == '{' {
				goto key
			}
			goto value
		case '}', ']':
			if v.stack[n-1] != c-2 { // '{' is '}' - 2, '[' is ']' - 2
				return false
			}
			v.pop(i)
			i++
		default:
			return false
		}
	}
key:
	if i >= len(b) {
		return v.stop(sKey)
	}
	if i = v.key(i); i < 0 {
		return false
	}
	goto value
}

// enter opens the object or array at b[i] and returns where its contents
// start and what comes first there: sKey in an object, sValue in an
// array, sAfter past a container closed at once ({} or []), sStop when
// the input ends inside it, and -1 when it is nested too deep.
func (v *validator) enter(i int) (int, state) {
	b := v.b
	if !v.push(i) {
		return -1, sFail
	}
	first, closing, open := sKey, byte('}'), sKeyOrClose
	if b[i] == '[' {
		first, closing, open = sValue, ']', sValueOrClose
	}
	if i = skipWS(b, i+1); i >= len(b) {
		v.stop(open)
		return i, sStop
	}
	if b[i] == closing {
		v.pop(i)
		return i + 1, sAfter
	}
	return i, first
}

// scalar checks the literal or number at b[i] and returns the offset just
// past it, or -1.
func (v *validator) scalar(i int) int {
	switch c := v.b[i]; c {
	case 't':
		return v.literal(i, "true")
	case 'f':
		return v.literal(i, "false")
	case 'n':
		return v.literal(i, "null")
	default:
		if c != '-' && !isDigit(c) {
			return -1
		}
		return v.number(i)
	}
}

// key checks the object key at b[i] and the ':' after it, and returns the
// offset of the value, or -1.
func (v *validator) key(i int) int {
	b := v.b
	if b[i] != '"' {
		return -1
	}
	if i = v.str(i); i < 0 {
		return -1
	}
	if i = skipWS(b, i); i >= len(b) || b[i] != ':' {
		return -1
	}
	return skipWS(b, i+1)
}

// endAfterValue is the input ending after a value: the end of the
// document when no container is open (a first half may stop there too),
// else a stop inside a container.
func (v *validator) endAfterValue() bool {
	if len(v.stack) > 0 {
		return v.stop(sAfter)
	}
	return !v.partial || v.stop(sAfter)
}

// afterOuter is what follows a value once no container the validator saw
// open is left: for a second half, a ',' or the close of a container it
// did not see open; for anything else, more after the top-level value,
// which is not JSON. It returns the offset and the state after the token:
// sKey or sValue after a ',', sAfter after a close, or sFail.
func (v *validator) afterOuter(i int) (int, state) {
	if v.outer == nil {
		return i, sFail // more after the top-level value
	}
	switch c := v.b[i]; c {
	case ',':
		t, ok := v.outerType(i + 1)
		if !ok {
			return i, sFail
		}
		i = skipWS(v.b, i+1)
		if t == '{' {
			return i, sKey
		}
		return i, sValue
	case '}', ']':
		if !v.closeOuter(i, c) {
			return i, sFail
		}
		return i + 1, sAfter
	}
	return i, sFail
}

// stop is the input ending in state at: an error, except for a first half.
func (v *validator) stop(at state) bool {
	v.end = at
	return v.partial
}

// parallelMin is the size from which validate checks two halves at once.
const parallelMin = 2 << 20

// validateHalves checks b as two halves on two cores: b[:s] from the
// start, and b[s:] from a key near mid, inside containers it cannot see
// open. Then the halves must fit: the first ends expecting a key in an
// object, the second closes exactly the containers the first left open,
// of the same kinds, and nothing follows. A yes is then the one-pass
// check's yes (FuzzValidateHalves holds it to that for every split); a
// no only means "ask the one-pass check", which also words the error.
func validateHalves(b []byte, mid int) (spans, bool) {
	s := splitPoint(b, mid)
	if s < 0 {
		return nil, false
	}
	first := validator{b: b[:s], partial: true}
	second := validator{b: b, outer: []byte{'{'}}
	// The file may be mapped: par.Both keeps the first half's reads
	// inside the caller's fault guard.
	var okFirst, okSecond bool
	par.Both(func() { okSecond = second.run(s, sKey) }, func() { okFirst = first.run(skipWS(first.b, 0), sValue) })
	if !okFirst || !okSecond {
		return nil, false
	}
	depth := len(first.stack)
	closed := len(second.outer) - 1
	if first.end != sKey && first.end != sKeyOrClose || depth == 0 || closed != depth ||
		len(second.stack) != 0 || skipWS(b, second.entered) != len(b) || depth+second.deepest > maxDepth {
		return nil, false
	}
	for k := range closed {
		if second.outer[k] != first.stack[depth-1-k] {
			return nil, false
		}
	}
	// The containers open at s close in the second half, innermost first.
	idx := first.idx
	for k := range closed {
		j := first.open[depth-1-k]
		if second.closes[k]-idx[j].open+1 < indexMin {
			idx = idx[:j] // small, so everything after it (inside it) is gone already
			continue
		}
		idx[j].close = second.closes[k]
	}
	return append(idx, second.idx...), true
}

// splitPoint finds where a second half can start, at or after mid: a key
// that begins a line. In valid JSON a raw line break is never inside a
// string, so what follows one is between two tokens, and a string
// followed by ':' there can only be a key. (In a document that is not
// valid this may guess wrong; the halves then do not fit.) -1 when no
// line within 1 MB of mid starts with a key.
func splitPoint(b []byte, mid int) int {
	limit := min(len(b), mid+1<<20)
	for i := mid; i < limit; {
		j := bytes.IndexByte(b[i:limit], '\n')
		if j < 0 {
			return -1
		}
		i += j + 1
		k := skipWS(b, i)
		if k < len(b) && b[k] == '"' {
			probe := validator{b: b}
			if e := probe.str(k); e > 0 {
				if e = skipWS(b, e); e < len(b) && b[e] == ':' {
					return k
				}
			}
		}
	}
	return -1
}

// outerType is the kind of the container the second half is in but did
// not see open, read off the token after a ',' at b[j-1] when not known
// yet: a key makes it an object.
func (v *validator) outerType(j int) (byte, bool) {
	u := len(v.outer) - 1
	if v.outer[u] != 0 {
		return v.outer[u], true
	}
	t := byte('[')
	if k := skipWS(v.b, j); k >= len(v.b) {
		return 0, false
	} else if v.b[k] == '"' {
		e := v.str(k)
		if e < 0 {
			return 0, false
		}
		if e = skipWS(v.b, e); e < len(v.b) && v.b[e] == ':' {
			t = '{'
		}
	}
	v.outer[u] = t
	return t, true
}

// closeOuter closes, with c at b[i], the container the second half is in
// but did not see open.
func (v *validator) closeOuter(i int, c byte) bool {
	t := byte('{')
	if c == ']' {
		t = '['
	}
	u := len(v.outer) - 1
	if v.outer[u] != 0 && v.outer[u] != t {
		return false
	}
	v.outer[u] = t
	v.closes = append(v.closes, i)
	v.outer = append(v.outer, 0)
	v.entered = i + 1
	return true
}
