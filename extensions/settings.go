package extensions

import (
	"fmt"
	"math"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/internal/termtext"
)

// Settings are how an author wants a server run, beyond what it runs: the
// tool-neutral members of an MCP file's entry that each tool gets in its
// own field where it has one (toolprofiles.Settings). A nil or zero field
// was not given.
type Settings struct {
	// Enabled false keeps the server declared but off: written disabled
	// where the tool has a toggle, not written where it has none.
	Enabled *bool
	// IncludeTools, when given, are the only tools of the server a tool
	// offers; ExcludeTools are never offered.
	IncludeTools []string
	ExcludeTools []string
	// AutoApprove are tools the tool may call without asking each time.
	AutoApprove []string
	// StartupTimeout is how long, in seconds, a tool waits for the server
	// to start (initialize and list its tools); ToolTimeout how long it
	// waits for one tool call. 0: not given.
	StartupTimeout int64
	ToolTimeout    int64
}

// MaxTimeout caps a timeout, in seconds (24 hours): a larger value is far
// more likely milliseconds written by mistake than a wish.
const MaxTimeout = 86400

// IsZero reports whether no setting was given.
func (s *Settings) IsZero() bool {
	return s.Enabled == nil && s.IncludeTools == nil && s.ExcludeTools == nil && s.AutoApprove == nil &&
		s.StartupTimeout == 0 && s.ToolTimeout == 0
}

// Off reports whether the author switched the server off.
func (s *Settings) Off() bool { return s.Enabled != nil && !*s.Enabled }

// settingFields are the members of an entry that parseSetting reads.
var settingFields = []string{"enabled", "includeTools", "excludeTools", "autoApprove", "startupTimeout", "toolTimeout"}

// parseSetting reads member field of a server entry into s; ok is false
// when field is not a setting.
func parseSetting(s *Settings, server, field string, f gjson.Result, fail failFunc) (ok bool, err error) {
	switch field {
	case "enabled":
		if f.Type != gjson.True && f.Type != gjson.False {
			return true, fail(f.Index, server, field, "must be true or false, not "+kind(f))
		}
		v := f.Bool()
		s.Enabled = &v
	case "includeTools", "excludeTools", "autoApprove":
		list, err := toolNames(f, server, field, fail)
		if err != nil {
			return true, err
		}
		if field == "includeTools" && len(list) == 0 {
			return true, fail(f.Index, server, field, "an empty list offers no tool at all; to turn the server off, write \"enabled\": false")
		}
		switch field {
		case "includeTools":
			s.IncludeTools = list
		case "excludeTools":
			s.ExcludeTools = list
		default:
			s.AutoApprove = list
		}
	case "startupTimeout", "toolTimeout":
		n, err := seconds(f, server, field, fail)
		if err != nil {
			return true, err
		}
		if field == "startupTimeout" {
			s.StartupTimeout = n
		} else {
			s.ToolTimeout = n
		}
	default:
		return false, nil
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
