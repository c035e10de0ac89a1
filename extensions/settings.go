package extensions

import (
	"fmt"
	"math"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/internal/setting"
	"github.com/repo-manager/repo/internal/termtext"
)

// MaxTimeout caps a timeout, in seconds (24 hours): a larger value is far
// more likely milliseconds written by mistake than a wish.
const MaxTimeout = setting.MaxSeconds

// Settings (settings_gen.go) has a field per row of the settings table,
// and accessors by name (Bool, Tools, Seconds) for the code that handles
// every setting of a kind alike.

// Given reports whether the author gave the setting name.
func (s *Settings) Given(name string) bool {
	r, _ := setting.Lookup(name)
	switch r.Kind {
	case setting.Bool:
		return s.Bool(name) != nil
	case setting.Tools:
		return s.Tools(name) != nil
	case setting.Seconds:
		return s.Seconds(name) != 0
	}
	return false
}

// IsZero reports whether no setting was given.
func (s *Settings) IsZero() bool {
	for _, r := range setting.Table {
		if s.Given(r.Name) {
			return false
		}
	}
	return true
}

// Off reports whether the author switched the server off.
func (s *Settings) Off() bool { return s.Enabled != nil && !*s.Enabled }

// parseSetting reads member field of a server entry into s, as the
// settings table says its kind is spelled; ok is false when field is not a
// setting.
func parseSetting(s *Settings, server, field string, f gjson.Result, fail failFunc) (ok bool, err error) {
	r, ok := setting.Lookup(field)
	if !ok {
		return false, nil
	}
	switch r.Kind {
	case setting.Bool:
		if f.Type != gjson.True && f.Type != gjson.False {
			return true, fail(f.Index, server, field, "must be true or false, not "+kind(f))
		}
		s.setBool(field, f.Bool())
	case setting.Tools:
		list, err := toolNames(f, server, field, fail)
		if err != nil {
			return true, err
		}
		if r.Empty != "" && len(list) == 0 {
			return true, fail(f.Index, server, field, r.Empty)
		}
		s.setTools(field, list)
	case setting.Seconds:
		n, err := seconds(f, server, field, fail)
		if err != nil {
			return true, err
		}
		s.setSeconds(field, n)
	}
	return true, nil
}

// toolNames reads a list of tool names: non-empty strings, each once.
func toolNames(f gjson.Result, server, field string, fail failFunc) ([]string, error) {
	list, err := stringList(f, server, field, fail)
	if err != nil {
		return nil, err
	}
	i := 0
	f.ForEach(func(_, e gjson.Result) bool {
		name := list[i]
		switch {
		case strings.TrimSpace(name) == "":
			err = fail(e.Index, server, fmt.Sprintf("%s[%d]", field, i), "a tool name must not be empty")
		case termtext.Check(name) != nil:
			err = fail(e.Index, server, fmt.Sprintf("%s[%d]", field, i), "a tool name must be printable: "+termtext.Check(name).Error())
		case name != strings.TrimSpace(name):
			err = fail(e.Index, server, fmt.Sprintf("%s[%d]", field, i), fmt.Sprintf("%q: a tool name has no leading or trailing spaces", name))
		}
		for j := range i {
			if err == nil && list[j] == name {
				err = fail(e.Index, server, fmt.Sprintf("%s[%d]", field, i), fmt.Sprintf("%q is listed twice", name))
			}
		}
		i++
		return err == nil
	})
	return list, err
}

// seconds reads a timeout: a whole number of seconds, 1 to MaxTimeout.
func seconds(f gjson.Result, server, field string, fail failFunc) (int64, error) {
	if f.Type != gjson.Number {
		return 0, fail(f.Index, server, field, "must be a number of seconds, not "+kind(f))
	}
	v := f.Float()
	if v != math.Trunc(v) {
		return 0, fail(f.Index, server, field, fmt.Sprintf("%s: give a whole number of seconds", f.Raw))
	}
	if v < 1 || v > MaxTimeout {
		return 0, fail(f.Index, server, field, fmt.Sprintf("%s: give 1 to %d seconds (is it in milliseconds? the unit is seconds)", f.Raw, MaxTimeout))
	}
	return int64(v), nil
}
