package cmd

import (
	"bytes"
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
	if exitCode(nil, &buf) != ExitOK || exitCode(errStale, &buf) != ExitStale || buf.Len() != 0 {
		t.Fatal("ok and stale must be silent with codes 0 and 1")
	}
	if exitCode(usagef("bad"), &buf) != ExitError || !bytes.Contains(buf.Bytes(), []byte("repo: bad")) {
		t.Fatalf("usage error: %q", buf.String())
	}
}

// Colour needs a terminal-like stream (a character device: /dev/null is
// one) and no NO_COLOR.
func TestColor(t *testing.T) {
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer devnull.Close()
	env := map[string]string{}
	f := &Factory{IO: IOStreams{ErrOut: devnull}, Getenv: func(k string) string { return env[k] }}
	if !f.Color() || f.paint(green, "x") != "\x1b[32mx\x1b[0m" {
		t.Fatal("no colour on a character device")
	}
	env["NO_COLOR"] = "1"
	if f.Color() || f.paint(green, "x") != "x" {
		t.Fatal("colour despite NO_COLOR")
	}
	delete(env, "NO_COLOR")
	f.IO.ErrOut = &bytes.Buffer{}
	if f.Color() {
		t.Fatal("colour into a buffer")
	}
}
