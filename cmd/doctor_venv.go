package cmd

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/toolprofiles"
)

// A venv is checked by reading it, never by running it: in a fresh clone
// of someone else's repository, the venv's python is their file. What is
// read is what Python itself reads to start from a venv: pyvenv.cfg, whose
// home = names the folder of the interpreter the venv was made from, and
// the venv's python, a link to that interpreter (or to another link in the
// venv, python -> python3 -> /usr/bin/python3.12) or a copy of it.

// pyvenvCfgMax bounds what is read of pyvenv.cfg: a few lines in a real
// venv, and a workspace's file could be a link to something endless.
const pyvenvCfgMax = 64 << 10

// venvState is what reading a venv found: its problem, if any, and else
// where its python leads and the home it was made from.
type venvState struct {
	problem string // empty when the venv looks sound
	target  string // the venv python with every link followed
	home    string // pyvenv.cfg's home
}

// inspectVenv reads ext's venv (which exists): pyvenv.cfg and its home,
// and the venv python.
func inspectVenv(ext *extensions.Extension, goos string, show func(string) string) venvState {
	cfg := filepath.Join(ext.Venv, "pyvenv.cfg")
	home, problem := pyvenvHome(cfg, show)
	if problem != "" {
		return venvState{problem: problem}
	}
	switch fi, err := os.Stat(home); {
	case errors.Is(err, fs.ErrNotExist):
		return venvState{problem: fmt.Sprintf("the Python it was made from is gone: %s says home = %s, which does not exist", show(cfg), termtext.Safe(home))}
	case err != nil:
		return venvState{problem: fmt.Sprintf("%s says home = %s, which cannot be read: %v", show(cfg), termtext.Safe(home), unwrapPathError(err))}
	case !fi.IsDir():
		return venvState{problem: fmt.Sprintf("%s says home = %s, which is not a folder", show(cfg), termtext.Safe(home))}
	case !hasPython(home):
		return venvState{problem: fmt.Sprintf("the Python it was made from is gone: %s says home = %s, which holds no python", show(cfg), termtext.Safe(home))}
	}
	py := ext.Python
	fi, err := os.Lstat(py)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return venvState{problem: fmt.Sprintf("venv python %s does not exist", show(py))}
	case err != nil:
		return venvState{problem: fmt.Sprintf("venv python %s cannot be read: %v", show(py), unwrapPathError(err))}
	}
	target := py
	if fi.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(py); err != nil {
			link, _ := os.Readlink(py)
			if errors.Is(err, fs.ErrNotExist) {
				return venvState{problem: fmt.Sprintf("venv python %s is a link to %s, which does not exist", show(py), termtext.Safe(link))}
			}
			return venvState{problem: fmt.Sprintf("venv python %s is a link to %s, which cannot be followed: %v", show(py), termtext.Safe(link), unwrapPathError(err))}
		}
	}
	switch fi, err := os.Stat(target); {
	case err != nil:
		return venvState{problem: fmt.Sprintf("venv python %s cannot be read: %v", show(py), unwrapPathError(err))}
	case !fi.Mode().IsRegular():
		return venvState{problem: fmt.Sprintf("venv python %s%s is not a file", show(py), arrow(py, target, show))}
	case goos != "windows" && fi.Mode().Perm()&0o111 == 0:
		return venvState{problem: fmt.Sprintf("venv python %s%s is not executable", show(py), arrow(py, target, show))}
	}
	return venvState{target: target, home: home}
}

// pyvenvHome reads the home = line of a pyvenv.cfg as Python does (the
// first line whose key, before "=", is home in any case, both sides
// trimmed), and says what is wrong when it cannot.
func pyvenvHome(cfg string, show func(string) string) (home, problem string) {
	fi, err := os.Stat(cfg)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Sprintf("%s has no pyvenv.cfg, so Python does not take it for a venv", show(filepath.Dir(cfg)))
	case err != nil:
		return "", fmt.Sprintf("%s cannot be read: %v", show(cfg), unwrapPathError(err))
	case !fi.Mode().IsRegular():
		return "", fmt.Sprintf("%s is not a file", show(cfg))
	}
	f, err := os.Open(cfg)
	if err != nil {
		return "", fmt.Sprintf("%s cannot be read: %v", show(cfg), unwrapPathError(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, pyvenvCfgMax+1))
	switch {
	case err != nil:
		return "", fmt.Sprintf("%s cannot be read: %v", show(cfg), unwrapPathError(err))
	case len(data) > pyvenvCfgMax:
		return "", fmt.Sprintf("%s is larger than %d KiB, which no venv writes", show(cfg), pyvenvCfgMax>>10)
	case !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0:
		return "", fmt.Sprintf("%s is not text", show(cfg))
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, pyvenvCfgMax+1)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(key), "home") {
			continue
		}
		home = strings.TrimSpace(value)
		if !toolprofiles.Absolute(home) {
			return "", fmt.Sprintf("%s says home = %s, which is not an absolute path", show(cfg), termtext.Safe(home))
		}
		return home, ""
	}
	return "", fmt.Sprintf("%s has no home = line naming the Python the venv was made from", show(cfg))
}

// hasPython reports whether folder holds an interpreter, as the home of a
// venv does: python, python3, python3.12, python.exe.
func hasPython(folder string) bool {
	entries, err := os.ReadDir(folder)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if strings.HasPrefix(strings.ToLower(e.Name()), "python") && !e.IsDir() {
			return true
		}
	}
	return false
}

// arrow is " (→ target)" when following links led elsewhere.
func arrow(path, target string, show func(string) string) string {
	if target == path {
		return ""
	}
	return " (→ " + show(target) + ")"
}

func unwrapPathError(err error) error {
	var perr *fs.PathError
	if errors.As(err, &perr) {
		return perr.Err
	}
	return err
}
