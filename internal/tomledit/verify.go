package tomledit

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/repo-manager/repo/internal/jsonvalue"
)

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
	if !tomlEqual(pruned(old.decoded, table, names), pruned(d.decoded, table, names)) {
		return fmt.Errorf("tomledit: %s changed other parts of the document; nothing was changed", what)
	}
	return nil
}

// pruned returns m without table.name for each name, and without the
// tables of the path that this leaves empty. It copies the maps it changes,
// the path's, and leaves m as it is. When the path does not lead to a table,
// it returns m.
func pruned(m map[string]any, table []string, names []string) map[string]any {
	p, _ := prunedPath(m, table, names)
	return p
}

// prunedPath is pruned; ok is false when the path does not lead to a
// table.
func prunedPath(m map[string]any, table []string, names []string) (map[string]any, bool) {
	c := make(map[string]any, len(m))
	if len(table) == 0 {
		for k, v := range m {
			c[k] = v
		}
		for _, name := range names {
			delete(c, name)
		}
		return c, true
	}
	sub, ok := m[table[0]].(map[string]any)
	if !ok {
		return m, false
	}
	p, ok := prunedPath(sub, table[1:], names)
	if !ok {
		return m, false
	}
	for k, v := range m {
		c[k] = v
	}
	if len(p) == 0 {
		delete(c, table[0])
	} else {
		c[table[0]] = p
	}
	return c, true
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
// order, numbers compare by value (20 equals 20.0) as TOML holds them.
func jsonEqual(a, b []byte) bool { return jsonvalue.Equal(a, b, numberEqual) }

// numberEqual is jsonvalue's number rule applied to what a TOML reader
// holds: two integers exactly (TOML integers are 64-bit), anything else as
// float64 (TOML floats are; an integer next to a float is read as one).
func numberEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	if isInt64(a) && isInt64(b) {
		return jsonvalue.SameNumber(a, b)
	}
	return jsonvalue.SameFloat(a, b)
}

func isInt64(n json.Number) bool {
	_, err := strconv.ParseInt(string(n), 10, 64)
	return err == nil
}
