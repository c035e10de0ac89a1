package writers

import (
	"context"
	"fmt"
	"strings"

	"github.com/repo-manager/repo/internal/termtext"
	"github.com/repo-manager/repo/internal/trustgate"
)

// UntrustedError ends a sync that would have written servers the user
// has not trusted into local- or user-scope files, where no tool asks
// before starting them: nothing is written. Run returns the report of
// what would have been written with it.
type UntrustedError struct {
	Servers []Untrusted
}

func (e *UntrustedError) Error() string {
	names := make([]string, len(e.Servers))
	for i, u := range e.Servers {
		names[i] = termtext.Safe(u.Server)
	}
	return fmt.Sprintf("nothing written: not trusted on this machine: %s; they would reach files outside the workspace, where no tool asks before starting them (Trust, or repo trust, after showing each definition)", strings.Join(names, ", "))
}

// PartialError ends a run that failed after writing files it could not
// put back (another program changed them since, or putting them back
// failed): Written names them; Err says which and why.
type PartialError struct {
	Written []File
	Err     error
}

func (e *PartialError) Error() string { return e.Err.Error() }
func (e *PartialError) Unwrap() error { return e.Err }

// Trust records that the user trusts these servers, as an UntrustedError
// showed them (each Untrusted.Definition), in the workspace of opts.Root:
// what `repo trust` does when the user says yes. A server whose
// definition changed since it was shown is not trusted: Trust returns an
// error naming it, and trusts none. Trust is kept per user and workspace,
// in the state folder, never in the workspace.
func Trust(opts Options, servers []Untrusted) error {
	r := newRun(context.Background(), opts)
	w, err := r.load()
	if err != nil {
		return err
	}
	unlock, err := r.locking().Workspace(w.Env)
	if err != nil {
		return err
	}
	defer unlock()
	store, err := trustgate.Open(w)
	if err != nil {
		return err
	}
	defs := trustgate.Definitions(w)
	for _, u := range servers {
		s := w.Server(u.Server)
		if s == nil {
			return fmt.Errorf("%s: the workspace declares no server of that name", termtext.Safe(u.Server))
		}
		if d := defs[u.Server]; u.digest == "" || d.Digest() != u.digest {
			return fmt.Errorf("%s: its definition changed since it was shown, or was never shown; show it again (run again) before trusting it", termtext.Safe(u.Server))
		}
	}
	for _, u := range servers {
		d := defs[u.Server]
		trustgate.Trust(store, u.Server, d, trustgate.Shown(*w.Server(u.Server), d))
	}
	return store.Save(w.Env.Display)
}
