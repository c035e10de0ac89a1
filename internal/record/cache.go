package record

import (
	"bytes"
	"maps"
	"slices"
	"sync"
)

// Cache keeps the records one run parsed, by path, with the bytes each
// was parsed from. A run reads its records in more than one step (the
// tools that leave, the tools' former places, the plan), and parsing
// (validating the JSON most of all) is most of what reading a record
// costs on a run that finds nothing to do. Each read still reads the
// file: only bytes equal to the ones parsed before are served from the
// cache, so a record another program or run wrote in between (before the
// workspace's lock was taken; between a plan and its retry after a file
// changed) is parsed again, and every read sees what is on disk, as
// without the cache.
//
// A nil *Cache reads and parses every time. Safe for concurrent use: two
// steps that read one record at once (writers runs the tools that leave
// beside the targets of the others) take turns, so the second finds what
// the first parsed.
type Cache struct {
	mu     sync.Mutex
	turns  map[string]*sync.Mutex // by path: held by the read under way
	byPath map[string]cached
	reads  map[string]int // by path: how many times it was read
	parses map[string]int // and parsed
}

type cached struct {
	data []byte
	rec  *Record
}

// NewCache is an empty cache, for one run.
func NewCache() *Cache {
	return &Cache{turns: map[string]*sync.Mutex{}, byPath: map[string]cached{}, reads: map[string]int{}, parses: map[string]int{}}
}

// Read is record.Read, with the record parsed only when its bytes differ
// from the last ones parsed for path. The record returned is the
// caller's own (a copy): callers change what they read.
func (c *Cache) Read(path, display string) (*Record, []byte, error) {
	if c != nil {
		defer c.turn(path)()
	}
	data, err := readBytes(path, display)
	if err != nil {
		return nil, nil, err
	}
	if data == nil {
		return &Record{Version: LatestVersion}, nil, nil
	}
	if c != nil {
		c.mu.Lock()
		hit, ok := c.byPath[path]
		c.reads[path]++
		c.mu.Unlock()
		if ok && bytes.Equal(hit.data, data) {
			return copyOf(hit.rec), data, nil
		}
	}
	r, err := Parse(data, display)
	if err != nil {
		return nil, nil, err
	}
	if c != nil {
		c.mu.Lock()
		c.byPath[path] = cached{data: data, rec: copyOf(r)}
		c.parses[path]++
		c.mu.Unlock()
	}
	return r, data, nil
}

// turn waits for the reads of path under way, and returns the end of
// this one's turn.
func (c *Cache) turn(path string) (done func()) {
	c.mu.Lock()
	t, ok := c.turns[path]
	if !ok {
		t = &sync.Mutex{}
		c.turns[path] = t
	}
	c.mu.Unlock()
	t.Lock()
	return t.Unlock
}

// Counts says how many times the record at path was read through the
// cache, and how many of those parsed it: once per run, unless the file
// changed during it. (A missing record is not counted: it has nothing to
// parse.)
func (c *Cache) Counts(path string) (reads, parses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads[path], c.parses[path]
}

// copyOf is a copy of r that shares nothing with it, nil and empty alike
// as Parse made them (Clone shares the entries' Defaults, which no one
// changes in place; a cache keeps its copy whatever its callers do).
func copyOf(r *Record) *Record {
	c := *r
	if r.Targets != nil {
		c.Targets = make([]*Entry, len(r.Targets))
	}
	for i, t := range r.Targets {
		e := &Entry{File: t.File, Key: slices.Clone(t.Key), Created: t.Created.Clone(), Entries: maps.Clone(t.Entries)}
		for name, o := range e.Entries {
			if o.Defaults != nil {
				o.Defaults = maps.Clone(o.Defaults)
				e.Entries[name] = o
			}
		}
		c.Targets[i] = e
	}
	return &c
}
