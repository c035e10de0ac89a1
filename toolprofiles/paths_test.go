package toolprofiles

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestExpandPath(t *testing.T) {
	root := filepath.FromSlash("/work/repo")
	tests := []struct {
		name    string
		path    string
		vars    map[string]string
		home    string // default /h
		want    string // slash form; empty when an error is expected
		wantErr string
	}{
		{name: "default used when X unset", path: "${X:-~/.x}/f", want: "/h/.x/f"},
		{name: "default used when X empty", path: "${X:-~/.x}/f", vars: map[string]string{"X": ""}, want: "/h/.x/f"},
		{name: "X set", path: "${X:-~/.x}/f", vars: map[string]string{"X": "/opt/x"}, want: "/opt/x/f"},
		{name: "X set to a ~ path", path: "${X:-/d}/f", vars: map[string]string{"X": "~/y"}, want: "/h/y/f"},
		{name: "tilde alone", path: "~", want: "/h"},
		{name: "tilde slash", path: "~/a", want: "/h/a"},
		{name: "tilde inside a name is literal", path: "~a/b", want: "/work/repo/~a/b"},
		{name: "two variables", path: "${A}/${B:-b}/c", vars: map[string]string{"A": "/a"}, want: "/a/b/c"},
		{name: "absolute", path: "/etc/x.json", want: "/etc/x.json"},
		{name: "relative joined to root", path: ".cursor/mcp.json", want: "/work/repo/.cursor/mcp.json"},
		{name: "relative cleaned", path: "./a/../b.json", want: "/work/repo/b.json"},
		{name: "unset variable without default", path: "${APPDATA}/Code/User/mcp.json", wantErr: "environment variable APPDATA is not set"},
		{name: "unterminated", path: "${X:-~/.x/f", wantErr: "unterminated ${"},
		{name: "no home", path: "~/a", home: "-", wantErr: "home directory is not known"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := fakeEnv("linux", tt.vars)
			switch tt.home {
			case "-":
				env.Home = ""
			case "":
			default:
				env.Home = tt.home
			}
			got, err := ExpandPath(tt.path, root, env)
			if tt.wantErr != "" {
				if err == nil {
					t.Fatalf("ExpandPath(%q) = %q, want an error containing %q", tt.path, got, tt.wantErr)
				}
				if !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), tt.path) {
					t.Fatalf("ExpandPath(%q) error %q, want it to name the path and contain %q", tt.path, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ExpandPath(%q): %v", tt.path, err)
			}
			if want := filepath.FromSlash(tt.want); got != want {
				t.Fatalf("ExpandPath(%q) = %q, want %q", tt.path, got, want)
			}
		})
	}
}

func TestExpandPathNilGetenv(t *testing.T) {
	got, err := ExpandPath("${X:-~/.x}/f", "/r", Env{Home: "/h"})
	if err != nil || got != filepath.FromSlash("/h/.x/f") {
		t.Fatalf("got %q, %v", got, err)
	}
}
