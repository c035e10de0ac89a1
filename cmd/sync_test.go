package cmd

import (
	"bytes"
	"io"
	"os"
	"reflect"
	"testing"
)

// TestNewCmdSync checks flag parsing only: the options reach syncRun as
// given, and bad values are usage errors (exit 2) before anything runs.
func TestNewCmdSync(t *testing.T) {
	cases := []struct {
		args    []string
		want    SyncOptions
		wantErr bool
	}{
		{args: nil, want: SyncOptions{Scope: "project", Output: "text"}},
		{args: []string{"--check", "--dry-run"}, want: SyncOptions{Check: true, DryRun: true, Scope: "project", Output: "text"}},
		{args: []string{"--tool", "claude,vscode", "--tool", "zed"}, want: SyncOptions{Tools: []string{"claude", "vscode", "zed"}, Scope: "project", Output: "text"}},
		{args: []string{"--scope", "local", "-o", "json", "--adopt", "--root", "/w"}, want: SyncOptions{Scope: "local", Output: "json", Adopt: true, Root: "/w"}},
		{args: []string{"--tool", " claude"}, want: SyncOptions{Tools: []string{" claude"}, Scope: "project", Output: "text"}},
		{args: []string{"--adopt-name", "github,notes", "--adopt-name", "fetch"}, want: SyncOptions{AdoptNames: []string{"github", "notes", "fetch"}, Scope: "project", Output: "text"}},
		{args: []string{"--adopt-name", ""}, wantErr: true},
		{args: []string{"--adopt-name", "github,"}, wantErr: true},
		{args: []string{"--tool", ""}, wantErr: true},
		{args: []string{"--tool", ","}, wantErr: true},
		{args: []string{"--tool", "claude", "--tool", ""}, wantErr: true},
		{args: []string{"--scope", "global"}, wantErr: true},
		{args: []string{"--output", "yaml"}, wantErr: true},
		{args: []string{"extra"}, wantErr: true},
	}
	for _, c := range cases {
		var got *SyncOptions
		f := &Factory{IO: IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
		cmd := newSyncCmd(f, func(o *SyncOptions) error { got = o; return nil })
		cmd.SetArgs(c.args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		err := cmd.Execute()
		if c.wantErr {
			if err == nil {
				t.Errorf("%v: no error", c.args)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		got.F = nil
		if !reflect.DeepEqual(*got, c.want) {
			t.Errorf("%v:\n got %+v\nwant %+v", c.args, *got, c.want)
		}
	}
}

func TestSplitIDs(t *testing.T) {
	got := splitIDs([]string{"claude, vscode", "claude", ",zed,"})
	if want := []string{"claude", "vscode", "zed"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestExitCodes(t *testing.T) {
	var buf bytes.Buffer
	if exitCode(nil, &buf, "repo sync") != ExitOK || exitCode(errStale, &buf, "repo sync") != ExitStale || buf.Len() != 0 {
		t.Fatal("ok and stale must be silent with codes 0 and 1")
	}
	if exitCode(usagef("bad"), &buf, "repo sync") != ExitError || buf.String() != "repo: bad\nrun 'repo sync --help' for usage\n" {
		t.Fatalf("usage error: %q", buf.String())
	}
}

// Colour: --color first, then NO_COLOR, CLICOLOR_FORCE, CLICOLOR=0 and
// TERM=dumb, then whether the stream is a terminal (a character device:
// /dev/null is one).
func TestColor(t *testing.T) {
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer devnull.Close()
	var buf bytes.Buffer
	for _, c := range []struct {
		mode string
		env  map[string]string
		w    io.Writer
		want bool
	}{
		{"", nil, devnull, true},
		{"auto", nil, devnull, true},
		{"auto", nil, &buf, false},
		{"auto", map[string]string{"NO_COLOR": "1"}, devnull, false},
		{"auto", map[string]string{"NO_COLOR": ""}, devnull, true},
		{"auto", map[string]string{"TERM": "dumb"}, devnull, false},
		{"auto", map[string]string{"CLICOLOR": "0"}, devnull, false},
		{"auto", map[string]string{"CLICOLOR_FORCE": "1"}, &buf, true},
		{"auto", map[string]string{"CLICOLOR_FORCE": "0"}, &buf, false},
		{"auto", map[string]string{"CLICOLOR_FORCE": "1", "NO_COLOR": "1"}, &buf, false},
		{"always", map[string]string{"NO_COLOR": "1"}, &buf, true},
		{"never", map[string]string{"CLICOLOR_FORCE": "1"}, devnull, false},
	} {
		f := &Factory{ColorMode: c.mode, Getenv: func(k string) string { return c.env[k] }}
		if got := f.colorOn(c.w); got != c.want {
			t.Errorf("--color %q, env %v, %T: colour %v, want %v", c.mode, c.env, c.w, got, c.want)
		}
		want := "x"
		if c.want {
			want = "\x1b[32mx\x1b[m"
		}
		if got := f.paint(c.w, green, "x"); got != want {
			t.Errorf("--color %q, env %v: paint = %q, want %q", c.mode, c.env, got, want)
		}
	}
}

// The diff is coloured as git colours it: headers bold up to the first
// hunk, so a removed line reading "-- x" is red, not a header.
func TestColorDiff(t *testing.T) {
	diff := "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@ ctx\n a\n--- x\n+++ y\n\\ No newline at end of file\n"
	want := "\x1b[1mdiff --git a/x b/x\x1b[m\n\x1b[1m--- a/x\x1b[m\n\x1b[1m+++ b/x\x1b[m\n" +
		"\x1b[36m@@ -1,3 +1,3 @@\x1b[m ctx\n a\n\x1b[31m--- x\x1b[m\n\x1b[32m+++ y\x1b[m\n\\ No newline at end of file\n"
	if got := colorDiff(diff); got != want {
		t.Errorf("colorDiff:\n got %q\nwant %q", got, want)
	}
}
