// Package jsonvalue compares JSON values by meaning: member order and
// insignificant whitespace do not matter, and numbers compare by
// SameNumber, the one rule of number equality: by exact decimal value,
// whatever the spelling (1000, 1e3 and 1000.0 are equal; 1 and
// 1.0000000000000000000001 are not).
//
// A reader that holds numbers as float64 (encoding/json, JavaScript, a
// TOML float) sees them after rounding: SameFloat is SameNumber of the
// rounded values. SameText is stricter than either: the spelling itself,
// for an editor that promises to keep it (jsonedit).
package jsonvalue

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"strconv"
	"strings"
)

// Decode decodes b, which must be one JSON value and nothing else but
// whitespace, with numbers as json.Number.
func Decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	for _, c := range b[dec.InputOffset():] {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return nil, errors.New("trailing data after the JSON value")
		}
	}
	return v, nil
}

// Equal reports whether a and b are each one JSON value, and equal ones
// when numbers compare by sameNumber.
func Equal(a, b []byte, sameNumber func(x, y json.Number) bool) bool {
	x, errA := Decode(a)
	y, errB := Decode(b)
	return errA == nil && errB == nil && EqualValues(x, y, sameNumber)
}

// EqualValues is Equal for values from Decode.
func EqualValues(a, b any, sameNumber func(x, y json.Number) bool) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !EqualValues(v, w, sameNumber) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !EqualValues(x[i], y[i], sameNumber) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		return ok && sameNumber(x, y)
	}
	return a == b // string, bool or nil
}

// SameNumber reports whether x and y are numbers of the same exact value,
// whatever their spelling: the one rule of number equality. A string that
// is not a number (see Decimal) equals nothing.
func SameNumber(x, y json.Number) bool {
	nx, dx, ex, okx := Decimal(string(x))
	ny, dy, ey, oky := Decimal(string(y))
	return okx && oky && nx == ny && dx == dy && ex.Cmp(ey) == 0
}

// Decimal splits a JSON number into sign, significant digits (no leading
// or trailing zeros; "0" for zero, which is never negative) and a power of
// ten: the number is ±digits × 10^exp. Two numbers are equal when their
// three parts are. ok is false when s is not a number.
func Decimal(s string) (neg bool, digits string, exp *big.Int, ok bool) {
	neg = strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, es := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, es = s[:i], s[i+1:]
	}
	ip, fp, _ := strings.Cut(mant, ".")
	exp = new(big.Int)
	if es != "" {
		if _, ok := exp.SetString(strings.TrimPrefix(es, "+"), 10); !ok {
			return false, "", nil, false
		}
	}
	if ip == "" && fp == "" {
		return false, "", nil, false
	}
	for _, c := range ip + fp {
		if c < '0' || c > '9' {
			return false, "", nil, false
		}
	}
	digits = ip + fp
	exp.Sub(exp, big.NewInt(int64(len(fp))))
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return false, "0", new(big.Int), true
	}
	t := strings.TrimRight(digits, "0")
	exp.Add(exp, big.NewInt(int64(len(digits)-len(t))))
	return neg, t, exp, true
}

// SameText is the rule that numbers are equal when spelled alike: 1 and
// 1.0 differ.
func SameText(x, y json.Number) bool { return x == y }

// SameFloat is SameNumber as encoding/json sees numbers: equal when they
// round to the same float64 (1 equals 1.0, and so does
// 1.0000000000000000000001; a number out of float64's range equals
// nothing, as encoding/json refuses it). The fuzz test holds it to
// SameNumber of the rounded values.
func SameFloat(x, y json.Number) bool {
	f, errX := strconv.ParseFloat(string(x), 64)
	g, errY := strconv.ParseFloat(string(y), 64)
	return errX == nil && errY == nil && f == g
}
