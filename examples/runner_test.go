package examples

import (
	"strings"
	"testing"
	"unicode"
)

// A model of how a GitHub runner reads a step's output for workflow
// commands (actions/runner: ActionCommand.TryParseV2 and TryParse,
// ActionCommandManager.TryProcessCommand), so that a test can ask what
// the runner would do with what action/check.sh printed:
//
//   - output is split into lines at "\r\n", "\r" and "\n" (.NET's ReadLine);
//   - a line whose text, after leading blanks, starts with "::" and holds a
//     second "::" is a command: its name runs up to a blank or that "::",
//     the properties follow the blank, the data follows the "::";
//   - else a line holding "##[" and a later "]" anywhere is a command in the
//     old syntax ("##[name props]data");
//   - only registered names count, never an empty one; "stop-commands" with data T stops every
//     command until one named T (in either syntax, any case) resumes.

// runnerCommand is a command the runner would act on.
type runnerCommand struct {
	Name, Props, Data string
}

// registeredCommands are the names the runner knows.
var registeredCommands = []string{"error", "warning", "notice", "debug", "group", "endgroup", "add-mask",
	"set-output", "save-state", "add-matcher", "remove-matcher", "echo", "set-env", "add-path", "stop-commands"}

// runnerLines splits output as the runner reads it.
func runnerLines(out string) []string {
	out = strings.ReplaceAll(out, "\r\n", "\n")
	return strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' })
}

// parseCommand parses one line in either syntax; registered says which
// names count.
func parseCommand(line string, registered func(string) bool) (runnerCommand, bool) {
	if s := strings.TrimLeftFunc(line, unicode.IsSpace); strings.HasPrefix(s, "::") {
		if end := strings.Index(s[2:], "::"); end >= 0 {
			info := s[2 : 2+end]
			name, props, _ := strings.Cut(info, " ")
			if name != "" && registered(name) {
				return runnerCommand{Name: name, Props: strings.TrimSpace(props), Data: s[2+end+2:]}, true
			}
		}
	}
	i := strings.Index(line, "##[")
	if i < 0 {
		return runnerCommand{}, false
	}
	j := strings.Index(line[i:], "]")
	if j < 0 {
		return runnerCommand{}, false
	}
	info := line[i+3 : i+j]
	name, props, _ := strings.Cut(info, " ")
	if name == "" || !registered(name) {
		return runnerCommand{}, false
	}
	return runnerCommand{Name: name, Props: props, Data: line[i+j+1:]}, true
}

// obeyed lists the commands the runner would act on in out, but the
// stop-commands and their resuming, in order.
func obeyed(out string) []runnerCommand {
	var cmds []runnerCommand
	stopped, stopToken := false, ""
	for _, line := range runnerLines(out) {
		c, ok := parseCommand(line, func(name string) bool {
			if stopped && strings.EqualFold(name, stopToken) {
				return true
			}
			for _, r := range registeredCommands {
				if strings.EqualFold(name, r) {
					return true
				}
			}
			return false
		})
		switch {
		case !ok:
		case stopped:
			if strings.EqualFold(c.Name, stopToken) {
				stopped = false
			}
		case strings.EqualFold(c.Name, "stop-commands"):
			stopped, stopToken = true, c.Data
		default:
			cmds = append(cmds, c)
		}
	}
	return cmds
}

// TestRunnerModel pins the model to what the runner does with the lines
// the attacks below print.
func TestRunnerModel(t *testing.T) {
	for _, c := range []struct {
		out  string
		want []string // name:data of each command obeyed
	}{
		{"::error::x\n", []string{"error:x"}},
		{"  ::error title=t::m\n", []string{"error:m"}},
		{" ::error title=repo::All MCP configs verified\n", []string{"error:All MCP configs verified"}},
		{"+  \"##[warning]x\"\n", []string{"warning:x\""}},
		{"a\r::error::after a carriage return\n", []string{"error:after a carriage return"}},
		{"::unknown::x\n::error x\n", nil},
		{"::stop-commands::tok\n::error::hidden\n##[error]hidden\n::TOK::\n::error::shown\n", []string{"error:shown"}},
		{"::stop-commands::\n::error::hidden\n::::\n::error::still hidden\n", nil},
	} {
		var got []string
		for _, cmd := range obeyed(c.out) {
			got = append(got, cmd.Name+":"+cmd.Data)
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q: obeyed %q, want %q", c.out, got, c.want)
		}
	}
}
