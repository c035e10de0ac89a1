//go:build linux && repodev

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"sync"
)

// rpcConn speaks newline-delimited JSON-RPC 2.0 with a child process over its stdio
// (codex app-server).
type rpcConn struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr syncBuffer

	mu      sync.Mutex
	nextID  int
	waiting map[int]chan rpcMsg
	notes   []rpcMsg
	changed chan struct{} // closed and replaced whenever a notification arrives
	done    chan struct{} // closed when stdout ends
}

type rpcMsg struct {
	ID     *int            `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

func startRPC(cmd *exec.Cmd) (*rpcConn, error) {
	c := &rpcConn{cmd: cmd, waiting: map[int]chan rpcMsg{}, changed: make(chan struct{}), done: make(chan struct{})}
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = &c.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go c.read(stdout)
	return c, nil
}

func (c *rpcConn) read(r io.Reader) {
	defer close(c.done)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var m rpcMsg
			if json.Unmarshal(line, &m) == nil {
				c.mu.Lock()
				if m.ID != nil && m.Method == "" {
					if ch, ok := c.waiting[*m.ID]; ok {
						ch <- m
						delete(c.waiting, *m.ID)
					}
				} else if m.Method != "" {
					c.notes = append(c.notes, m)
					close(c.changed)
					c.changed = make(chan struct{})
				}
				c.mu.Unlock()
			}
		}
		if err != nil {
			return
		}
	}
}

func (c *rpcConn) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = c.stdin.Write(append(b, '\n'))
	return err
}

func (c *rpcConn) notify(method string, params any) error {
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		m["params"] = params
	}
	return c.send(m)
}

// call sends a request and decodes its result into out.
func (c *rpcConn) call(ctx context.Context, method string, params, out any) error {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan rpcMsg, 1)
	c.waiting[id] = ch
	c.mu.Unlock()
	if err := c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %s", method, m.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(m.Result, out)
		}
		return nil
	case <-c.done:
		return fmt.Errorf("%s: the client exited: %s", method, oneLine(c.stderr.String(), 300))
	case <-ctx.Done():
		return fmt.Errorf("%s: no answer: %w", method, ctx.Err())
	}
}

// waitNotes calls until(notifications) each time one arrives, until it returns true or ctx ends.
func (c *rpcConn) waitNotes(ctx context.Context, until func([]rpcMsg) bool) bool {
	for {
		c.mu.Lock()
		notes, ch := append([]rpcMsg(nil), c.notes...), c.changed
		c.mu.Unlock()
		if until(notes) {
			return true
		}
		select {
		case <-ch:
		case <-c.done:
			return until(notes)
		case <-ctx.Done():
			return false
		}
	}
}

func (c *rpcConn) notifications() []rpcMsg {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]rpcMsg(nil), c.notes...)
}

func (c *rpcConn) close() {
	_ = c.stdin.Close()
	_ = killGroup(c.cmd)
	_ = c.cmd.Wait()
}

// syncBuffer is a bytes.Buffer safe for the writer goroutine of exec and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
