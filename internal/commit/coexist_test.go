package commit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/bigmem"
	"github.com/repo-manager/repo/internal/fileio"
	"github.com/repo-manager/repo/internal/fsfault"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// These tests play the programs repo shares its files with, as they
// really behave (see docs/coexistence.md): tools that save in place,
// tools that swap a file the long way, tools that keep a file open and
// write into it later, and a run that dies halfway.

// claudeJSON is a ~/.claude.json with n projects and an account: what a
// tool's save must never lose.
func claudeJSON(n int) string {
	projects := map[string]any{}
	for i := range n {
		projects[fmt.Sprintf("/p/%d", i)] = map[string]any{"history": []string{strings.Repeat("h", 50)}}
	}
	b, _ := json.MarshalIndent(map[string]any{"oauthAccount": map[string]string{"email": "me@example.com"}, "projects": projects}, "", "  ")
	return string(b) + "\n"
}

// projectsIn counts the projects of a ~/.claude.json, and says whether it
// still has the account.
func projectsIn(t *testing.T, path string) (int, bool) {
	t.Helper()
	var doc struct {
		OAuth    map[string]any `json:"oauthAccount"`
		Projects map[string]any `json:"projects"`
	}
	if err := json.Unmarshal([]byte(read(t, path)), &doc); err != nil {
		t.Fatalf("%s is not valid JSON: %v", path, err)
	}
	return len(doc.Projects), doc.OAuth != nil
}

// saveInPlace plays a tool that saves path in place, as Gemini CLI does
// (and Claude Code did for ~/.claude.json): open with O_TRUNC, then write
// — here with a pause between the two. It returns once the file is
// truncated; wait returns when the tool has written.
func saveInPlace(t *testing.T, path, content string, pause time.Duration) (wait func()) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(pause)
		f.WriteString(content)
		f.Close()
	}()
	return func() { <-done }
}

// A sync that starts while a tool is in the middle of an in-place save
// (the file truncated, the content not yet written) waits for the save
// instead of planning from the empty file: the tool's projects and account
// survive, with repo's entries added — whether or not the record already
// knows the file. On main this lost everything but repo's entries.
func TestInPlaceSaveDuringSync(t *testing.T) {
	withSettle(t, 500*time.Millisecond, 5*time.Second)
	for _, recorded := range []bool{false, true} {
		t.Run(fmt.Sprintf("recorded=%v", recorded), func(t *testing.T) {
			env := testEnv(t)
			path := filepath.Join(env.Home, ".claude.json")
			content := claudeJSON(200)
			write(t, path, content)
			if recorded {
				syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
				content = read(t, path)
			}
			// The tool pauses 100 ms; the settling waits 500 ms: room for a
			// loaded machine to be late with the tool's write.
			wait := saveInPlace(t, path, content, 100*time.Millisecond)
			syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
			wait()
			if n, account := projectsIn(t, path); n != 201 || !account {
				t.Fatalf("after the sync: %d projects (want 201), account kept %v", n, account)
			}
			if !strings.Contains(read(t, path), `"command": "node"`) {
				t.Fatal("repo's entry is missing")
			}
			if p, _ := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude"); len(p.Stale()) != 0 {
				t.Fatal("a second sync is not a no-op")
			}
		})
	}
}

// A file that has stayed empty while the record says repo wrote entries
// into it is refused, with what to do: an empty file is what an in-place
// save looks like halfway, and planning from it would drop what the tool
// is writing. Writing {} into it (or deleting it) makes the next run work.
func TestEmptyFileRepoWroteIntoIsRefused(t *testing.T) {
	withSettle(t, 30*time.Millisecond, 2*time.Second)
	env := testEnv(t)
	path := filepath.Join(env.Home, ".claude.json")
	write(t, path, claudeJSON(3))
	syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	write(t, path, "")
	time.Sleep(2 * fileio.SettleFor)
	_, err := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	if err == nil || !strings.Contains(err.Error(), ".claude.json: is empty, but repo wrote 1 entry into it") || !strings.Contains(err.Error(), "write {} into it") {
		t.Fatalf("err = %v, want the refusal of an empty file repo wrote into", err)
	}
	write(t, path, "{}\n")
	syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	if !strings.Contains(read(t, path), `"command": "node"`) {
		t.Fatal("repo's entry was not written after the user wrote {}")
	}
}

// A tool that swaps its file the long way (Qwen Code renames the old file
// aside to .orig, then the new one in) leaves a moment with no file. A
// sync that looks in that moment, for a file the record says it wrote
// into, waits for the file instead of creating one with repo's entries
// alone, which the tool's rename would then replace.
func TestFileBrieflyMissingIsWaitedFor(t *testing.T) {
	withSettle(t, 500*time.Millisecond, 5*time.Second)
	env := testEnv(t)
	path := filepath.Join(env.Root, ".qwen", "settings.json")
	write(t, path, "{\"theme\": \"dark\"}\n")
	mustSync(t, env, []extensions.Server{server}, "qwen")
	saved := strings.Replace(read(t, path), `"dark"`, `"light"`, 1)
	if err := os.Rename(path, path+".orig"); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(100 * time.Millisecond)
		os.WriteFile(path+".tmp", []byte(saved), 0o644)
		os.Rename(path+".tmp", path)
		os.Remove(path + ".orig")
	}()
	p := planFor(t, env, []string{"qwen"})
	<-done
	if len(p.Files) == 0 || !p.Files[0].Existed || string(p.Files[0].Before) != saved {
		t.Fatalf("planned from %q, want the tool's new file", p.Files[0].Before)
	}
	if len(p.Stale()) != 0 {
		t.Fatal("the tool's file already holds repo's entry: nothing to write")
	}
}

// A file that is half written (a prefix that does not parse) when repo
// reads it, and whole an instant later, is planned from the whole file.
func TestHalfWrittenFileIsReadAgain(t *testing.T) {
	withSettle(t, 500*time.Millisecond, 5*time.Second)
	env := testEnv(t)
	path := filepath.Join(env.Root, ".gemini", "settings.json")
	whole := "{\n  \"theme\": \"dark\",\n  \"general\": {\"vimMode\": true}\n}\n"
	write(t, path, whole[:20])
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(100 * time.Millisecond)
		f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		f.WriteString(whole[20:])
		f.Close()
	}()
	mustSync(t, env, []extensions.Server{server}, "gemini")
	<-done
	got := read(t, path)
	if !strings.Contains(got, "vimMode") || !strings.Contains(got, `"command": "node"`) {
		t.Fatalf("result:\n%s", got)
	}
}

// A file that keeps changing while repo waits for it to settle stops the
// run with ErrUnsteady after settleMax, and nothing is written. The writer
// is a goroutine: on a loaded machine it can stall for longer than the
// settling time, and then the file did settle; such a run is repeated.
func TestFileThatNeverSettles(t *testing.T) {
	withSettle(t, 200*time.Millisecond, 600*time.Millisecond)
	env := testEnv(t)
	path := filepath.Join(env.Root, ".gemini", "settings.json")
	targets, _, err := target.Build([]extensions.Server{server}, profiles(t, "gemini"), toolprofiles.ScopeProject, env)
	if err != nil {
		t.Fatal(err)
	}
	for attempt := 1; ; attempt++ {
		write(t, path, "{")
		stop := make(chan struct{})
		done := make(chan time.Duration)
		go func() {
			var maxGap time.Duration
			last := time.Now()
			for i := 0; ; i++ {
				select {
				case <-stop:
					done <- max(maxGap, time.Since(last))
					return
				case <-time.After(10 * time.Millisecond):
					os.WriteFile(path, []byte(fmt.Sprintf("{ %d", i)), 0o644)
					maxGap, last = max(maxGap, time.Since(last)), time.Now()
				}
			}
		}()
		_, err = plan.Build(env, targets, plan.Options{})
		close(stop)
		stalled := <-done >= fileio.SettleFor
		switch {
		case errors.Is(err, fileio.ErrUnsteady):
			return
		case stalled && attempt < 5:
			t.Logf("attempt %d: the writer stalled for the settling time; again", attempt)
		default:
			t.Fatalf("err = %v, want ErrUnsteady (writer stalled: %v)", err, stalled)
		}
	}
}

// A --check plan maps a large file instead of reading it; a file changed
// under the mapping is not judged (its bytes may mix two versions): the
// plan reports ErrUnsteady, and is made again.
func TestMappedFileChangedWhilePlanned(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("files are not mapped on Windows")
	}
	path := filepath.Join(t.TempDir(), "big.json")
	data := bytes.Repeat([]byte(" "), 2*bigmem.MapThreshold)
	data[0], data[len(data)-1] = '{', '}'
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var unmap []func()
	defer func() {
		for _, u := range unmap {
			u()
		}
	}()
	got, v, mapped, err := fileio.ReadTarget(path, true, &unmap)
	if err != nil || !mapped || len(got) != len(data) {
		t.Fatalf("readTarget: %v, mapped %v", err, mapped)
	}
	if err := fileio.CheckSteady(path, v); err != nil {
		t.Fatalf("an unchanged file is not steady: %v", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt([]byte("{\"x\":1"), 0)
	f.Close()
	if err := fileio.CheckSteady(path, v); !errors.Is(err, fileio.ErrUnsteady) {
		t.Fatalf("a file written under the mapping: %v, want ErrUnsteady", err)
	}
}

// A tool that opened its file before repo swapped it, and writes into it
// after (its descriptor still points at the inode repo replaced), would
// write where nobody reads. Apply notices the write in the replaced inode
// before it lets it go, puts it back, and stops with ErrChanged, so the
// run is planned again from the tool's save.
func TestWriteIntoReplacedFileIsPutBack(t *testing.T) {
	if fileio.WritesInPlace {
		t.Skip("files are written in place here: there is no replaced file to write into")
	}
	env := testEnv(t)
	path := filepath.Join(env.Home, ".claude.json")
	write(t, path, claudeJSON(2))
	p, err := planScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	if err != nil {
		t.Fatal(err)
	}
	tool, err := os.OpenFile(path, os.O_RDWR, 0) // opened before the swap
	if err != nil {
		t.Fatal(err)
	}
	defer tool.Close()
	saved := claudeJSON(3)
	// Once the record's intent and the config are swapped, and checked:
	// before the folders' fsync.
	fsys := fsfault.New().Before(fsfault.Sync, env.Home, 1, func() {
		tool.Truncate(0)
		tool.WriteAt([]byte(saved), 0)
	})
	applied, err := apply(p, Interrupt{}, fsys)
	if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "wrote into it while repo was replacing it") {
		t.Fatalf("err = %v, want ErrChanged for a write into the replaced file", err)
	}
	if len(applied.Written) != 0 {
		t.Fatalf("%d files reported written", len(applied.Written))
	}
	if got := read(t, path); got != saved {
		t.Fatalf("the tool's save was not put back:\n%s", got)
	}
	syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	if n, _ := projectsIn(t, path); n != 4 {
		t.Fatalf("%d projects after the next sync, want the tool's 3 and the workspace", n)
	}
}

// A run killed after writing some files and before the last record
// (runtime.Goexit in the middle of the commits plays SIGKILL: nothing is
// put back) leaves state the next run takes as it is: every entry repo
// wrote is repo's in whichever version the file holds — the next run
// neither asks for --adopt nor leaves a removed server's entry behind.
func TestRunKilledBetweenConfigAndRecord(t *testing.T) {
	env := testEnv(t)
	ids := []string{"claude", "cursor", "gemini"}
	v1 := server
	other := extensions.Server{Name: "t", Extension: "ext2", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "node", Args: []string{"t.js"}}}
	mustSync(t, env, []extensions.Server{v1, other}, ids...)
	v2 := v1
	v2.Args = []string{"s.js", "--v2"}

	// Kill a sync that updates s and removes t after its first config.
	targets, _, err := target.Build([]extensions.Server{v2}, profiles(t, ids...), toolprofiles.ScopeProject, env)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Build(env, targets, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Files[len(p.Files)-1].Intent == nil {
		t.Fatal("a sync that updates and removes entries has no intent record")
	}
	killAfter(t, p, 2) // the intent record and one config

	// The next run, with v3 wanted and t still gone: no --adopt, t removed
	// everywhere, no hand-edit warnings.
	v3 := v1
	v3.Args = []string{"s.js", "--v3"}
	targets, _, err = target.Build([]extensions.Server{v3}, profiles(t, ids...), toolprofiles.ScopeProject, env)
	if err != nil {
		t.Fatal(err)
	}
	next, err := plan.Build(env, targets, plan.Options{})
	if err != nil {
		t.Fatalf("the run after the kill: %v", err)
	}
	if len(next.Warnings) > 0 {
		t.Errorf("warnings after the kill: %q", next.Warnings)
	}
	if _, err := Apply(next); err != nil {
		t.Fatal(err)
	}
	for _, f := range next.Files {
		if f.Scope == "record" {
			if strings.Contains(string(f.After), "previous") {
				t.Errorf("%s keeps an intent after a whole run:\n%s", f.Display, f.After)
			}
			continue
		}
		got := read(t, f.Path)
		if strings.Contains(got, "t.js") || !strings.Contains(got, "--v3") {
			t.Errorf("%s after the run:\n%s", f.Display, got)
		}
	}
}

// A run that adds entries and is killed after its first config leaves
// them recorded: the record's intent is written before any config, so the
// next run takes the entries on disk as repo's (not as the user's own,
// which repo would leave in place for good) and the rest it adds; when
// the server goes, every one of them goes.
func TestRunKilledWhileAdding(t *testing.T) {
	env := testEnv(t)
	ids := []string{"claude", "cursor", "gemini"}
	targets, _, err := target.Build([]extensions.Server{server}, profiles(t, ids...), toolprofiles.ScopeProject, env)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Build(env, targets, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rec := p.Files[len(p.Files)-1]; rec.Intent == nil {
		t.Fatal("a sync that adds entries writes its record after them")
	}
	killAfter(t, p, 2) // the record's intent and one config

	next := syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeProject, ids...)
	if len(next.Yours) > 0 || len(next.Warnings) > 0 {
		t.Fatalf("after the kill: yours %+v, warnings %q", next.Yours, next.Warnings)
	}
	syncScope(t, env, nil, toolprofiles.ScopeProject, ids...)
	for _, f := range next.Files {
		if f.Scope == plan.ScopeRecord {
			continue
		}
		if got, err := os.ReadFile(f.Path); err == nil && strings.Contains(string(got), `"s"`) {
			t.Errorf("%s keeps the server after it went:\n%s", f.Display, got)
		}
	}
}

// killAfter applies p and stops the applying goroutine dead after n
// commits, as SIGKILL would: no file is put back.
func killAfter(t *testing.T, p *plan.Plan, n int) {
	t.Helper()
	fsys := fsfault.New().After(fsfault.Commit, "", n, runtime.Goexit)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		apply(p, Interrupt{}, fsys)
		t.Error("Apply was not stopped")
	}()
	wg.Wait()
}

// What ended runs leave next to a file — staged files never committed,
// replaced files never let go — is removed by the next writing run as soon
// as its process is gone, without waiting for an age (main waited a
// minute, so a sync right after a killed one kept them). A run that is
// still going keeps its own: one that holds its file locked, even under
// a process id this system cannot see (a dev container's), and one that
// has just created its file and not yet locked it. The user's files that
// merely look alike stay.
func TestStaleStagedFilesRemoved(t *testing.T) {
	env := testEnv(t)
	path := filepath.Join(env.Home, ".claude.json")
	write(t, path, claudeJSON(1))
	dir := filepath.Dir(path)
	staged := "." + filepath.Base(path) + ".repo-" // as tempPrefix names them
	dead := fmt.Sprintf("%s%d-123", staged, deadPID(t))
	earlier := staged + "789" // an earlier version's name, without a process id
	creating := fmt.Sprintf("%s%d-456", staged, os.Getpid())
	held := fmt.Sprintf("%s%d-321", staged, deadPID(t))
	alike := []string{staged + "backup", ".other.json.repo-1-2", ".claude.json.bak", ".claude.json.repo-1-2"}
	for _, name := range append([]string{dead, earlier, creating, held}, alike...) {
		write(t, filepath.Join(dir, name), "x")
	}
	lock, err := os.Open(filepath.Join(dir, held))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if ok, err := fileio.TryLock(lock); !ok || err != nil {
		t.Fatalf("cannot lock %s: %v", held, err)
	}
	syncScope(t, env, []extensions.Server{server}, toolprofiles.ScopeLocal, "claude")
	want := map[string]bool{dead: false, earlier: false, creating: true, held: true}
	for _, name := range alike {
		want[name] = true
	}
	for name, keep := range want {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != keep {
			t.Errorf("%s: exists %v, want %v", name, err == nil, keep)
		}
	}
	lock.Close()
	syncScope(t, env, []extensions.Server{server, {Name: "t", Extension: "ext", Spec: extensions.Spec{Transport: extensions.Stdio, Command: "t"}}}, toolprofiles.ScopeLocal, "claude")
	if _, err := os.Stat(filepath.Join(dir, held)); !fileio.IsMissing(err) {
		t.Errorf("%s: still there once its lock is gone", held)
	}
}

// deadPID is the id of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	for pid := 4_000_000; pid > 100_000; pid -= 7919 {
		if !fileio.ProcessAlive(pid) {
			return pid
		}
	}
	t.Skip("no unused process id found")
	return 0
}
