// Package jsonvalue compares JSON values by meaning: member order and
// insignificant whitespace do not matter. How two numbers compare is the
// caller's rule, because the editors differ: jsonedit keeps a number's
// spelling, tomledit has TOML's integers and floats, yamledit YAML's
// number forms, and the planner compares what encoding/json would decode.
package jsonvalue

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
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

// SameText is the rule that numbers are equal when spelled alike: 1 and
// 1.0 differ.
func SameText(x, y json.Number) bool { return x == y }

// SameFloat is encoding/json's rule: numbers are equal when they decode to
// the same float64 (1 equals 1.0; a number out of float64's range equals
// nothing, as encoding/json refuses it).
func SameFloat(x, y json.Number) bool {
	f, errX := strconv.ParseFloat(string(x), 64)
	g, errY := strconv.ParseFloat(string(y), 64)
	return errX == nil && errY == nil && f == g
}
