package gittrack

import (
	"strings"
	"sync"
)

// Session lists which paths git tracks once per run where Tracked would
// list once per question. A run asks several questions of one work tree
// (its machine-specific files, its ownership records and the files they
// claim, the files a credential would go into), and each listing reads the
// index, or runs git where repo leaves the index to git (index.go): in a
// pre-commit hook, a git process is about as long as the rest of a no-op
// check. Ask starts one listing of every path the run may ask about, in the
// background, as soon as the run knows them; Tracked answers from it when
// it covers the question, and lists itself otherwise. A Session's answers
// are the ones Tracked gives: an index entry matches a path only if the
// pathspec of that path would have listed it, whatever else was asked.
//
// The nil Session lists for each question. A Session is for one run: the
// index is listed once, and a later change to it is not seen until Forget.
type Session struct {
	mu   sync.Mutex
	asks []*asked
}

// asked is one listing started by Ask: the paths it lists (relative to
// top) and, once done is closed, the names listed or the error.
type asked struct {
	top   string
	specs map[string]bool
	done  chan struct{}
	names map[string]bool
	err   error
}

// NewSession is a Session with nothing asked yet.
func NewSession() *Session { return &Session{} }

// Ask starts listing, in the background, which of paths (absolute) git
// tracks in the work tree whose top folder is top. Paths outside top are
// left out; with none left, nothing is started. A failure is kept for the
// question it would have answered: a run that asks nothing of git never
// sees it.
func (s *Session) Ask(top string, paths []string) {
	if s == nil {
		return
	}
	_, rels := relsOf(top, paths)
	if len(rels) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.coveringLocked(top, rels) != nil {
		return // asked already
	}
	list := specs(rels)
	a := &asked{top: top, specs: make(map[string]bool, len(list)), done: make(chan struct{})}
	for _, rel := range list {
		a.specs[rel] = true
	}
	s.asks = append(s.asks, a)
	go func() {
		defer close(a.done)
		a.names, a.err = listed(top, list)
	}()
}

// Forget drops what was listed, for a run that plans again (a tool
// rewrote its file under it): its questions list afresh, as the files
// are read afresh.
func (s *Session) Forget() {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.asks = nil
	s.mu.Unlock()
}

// Tracked is the package's Tracked, answered from an earlier Ask of the
// same top that listed every path of the question when there is one.
func (s *Session) Tracked(top string, paths []string) (map[string]bool, error) {
	if s == nil {
		return Tracked(top, paths)
	}
	out, rels := relsOf(top, paths)
	if len(rels) == 0 {
		return out, nil
	}
	a := s.covering(top, rels)
	if a == nil {
		return Tracked(top, paths)
	}
	<-a.done
	if a.err != nil {
		return nil, a.err
	}
	answer(out, rels, a.names)
	return out, nil
}

// covering is the first Ask of top that listed every one of rels: each
// rel, or a folder above it (whose pathspec lists every name under it).
func (s *Session) covering(top string, rels map[string]string) *asked {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.coveringLocked(top, rels)
}

func (s *Session) coveringLocked(top string, rels map[string]string) *asked {
outer:
	for _, a := range s.asks {
		if a.top != top {
			continue
		}
		for _, rel := range rels {
			if !a.lists(rel) {
				continue outer
			}
		}
		return a
	}
	return nil
}

// lists reports whether a's pathspecs list every name at or under rel.
func (a *asked) lists(rel string) bool {
	if a.specs["."] {
		return true
	}
	for {
		if a.specs[rel] {
			return true
		}
		i := strings.LastIndexByte(rel, '/')
		if i < 0 {
			return false
		}
		rel = rel[:i]
	}
}
