package tomledit

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/pelletier/go-toml/v2"
	"github.com/repo-manager/repo/internal/jsonvalue"
)

// verifySet checks a document produced by Set on old: the entry reads back
// as value, is editable, and nothing else in the document changed.
func (d *Doc) verifySet(old *Doc, table []string, name string, value []byte) error {
	e, err := d.lookupEntry(table, name)
	if err != nil {
		return fmt.Errorf("tomledit: Set: re-reading the result: %w", err)
	}
	if e.node == nil {
		return fmt.Errorf("tomledit: Set: server %s is missing from the result", quoteForMessage(name))
	}
	if e.notTables {
		return fmt.Errorf("tomledit: Set: server %s is not a table in the result", quoteForMessage(name))
	}
	if got := e.node.appendJSON(nil); !jsonEqual(got, value) {
		return fmt.Errorf("tomledit: Set: server %s reads back as %s, want %s", quoteForMessage(name), got, value)
	}
	return d.verifyRest(old, table, []string{name}, "Set of server "+quoteForMessage(name))
}

// verifyDelete checks a document produced by Delete on old.
func (d *Doc) verifyDelete(old *Doc, table []string, name string) error {
	e, err := d.lookupEntry(table, name)
	if err != nil {
		return fmt.Errorf("tomledit: Delete: re-reading the result: %w", err)
	}
	if e.node != nil {
		return fmt.Errorf("tomledit: Delete: server %s is still in the result", quoteForMessage(name))
	}
	return d.verifyRest(old, table, []string{name}, "Delete of server "+quoteForMessage(name))
}

// verifyRest checks with go-toml that d and old decode to the same data once
// the servers edited (names) are taken out of both. what names the edit for
// the message.
func (d *Doc) verifyRest(old *Doc, table []string, names []string, what string) error {
	var a, b map[string]any
	if err := toml.Unmarshal(old.data[old.bom:], &a); err != nil {
		return fmt.Errorf("tomledit: %s: decoding the original: %w", what, err)
	}
	if err := toml.Unmarshal(d.data[d.bom:], &b); err != nil {
		return fmt.Errorf("tomledit: %s: decoding the result: %w", what, err)
	}
	prune(a, table, names)
	prune(b, table, names)
	if !tomlEqual(a, b) {
		return fmt.Errorf("tomledit: %s changed other parts of the document; nothing was changed", what)
	}
	return nil
}

// prune deletes table.name for each name from m, then the tables of the path
// that are left empty.
func prune(m map[string]any, table []string, names []string) {
	maps := []map[string]any{m}
	cur := m
	for _, k := range table {
		next, ok := cur[k].(map[string]any)
		if !ok {
			return
		}
		cur = next
		maps = append(maps, cur)
	}
	for _, name := range names {
		delete(cur, name)
	}
	for i := len(table) - 1; i >= 0; i-- {
		if len(maps[i+1]) != 0 {
			return
		}
		delete(maps[i], table[i])
	}
}

// tomlEqual compares values decoded by go-toml; NaN equals NaN.
func tomlEqual(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !tomlEqual(v, w) {
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
			if !tomlEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case float64:
		y, ok := b.(float64)
		if !ok {
			return false
		}
		return x == y && math.Signbit(x) == math.Signbit(y) || math.IsNaN(x) && math.IsNaN(y)
	}
	return reflect.DeepEqual(a, b)
}

// jsonEqual compares two JSON documents semantically: objects ignore member
// order, numbers compare by value (20 equals 20.0).
func jsonEqual(a, b []byte) bool { return jsonvalue.Equal(a, b, numberEqual) }

// numberEqual compares JSON numbers by value: exactly as integers when both
// are 64-bit integers, else as float64.
func numberEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	i, err1 := strconv.ParseInt(string(a), 10, 64)
	j, err2 := strconv.ParseInt(string(b), 10, 64)
	if err1 == nil && err2 == nil {
		return i == j
	}
	f, err1 := strconv.ParseFloat(string(a), 64)
	g, err2 := strconv.ParseFloat(string(b), 64)
	return err1 == nil && err2 == nil && f == g
}
