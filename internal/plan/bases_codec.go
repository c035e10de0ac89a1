package plan

import (
	"maps"
	"slices"

	"github.com/repo-manager/repo/internal/stdjson"
)

// The bases file's text, without reflection (internal/stdjson). The file
// is json.MarshalIndent(basesFile, "", "  ") and a newline (files written
// by earlier versions stay byte for byte); a sync reads it and plans it
// anew on every run, and encoding/json's reflection and second, indenting
// pass made that about a fifth of a first sync's instructions.
// bases_codec_test.go checks both directions against encoding/json.

// appendBases appends f as json.MarshalIndent(f, "", "  ") renders it,
// and a newline: map keys sorted, empty sections left out (omitempty),
// strings escaped as encoding/json does (HTML characters included).
func appendBases(b []byte, f *basesFile) []byte {
	b = append(b, "{\n  \"version\": "...)
	b = stdjson.AppendInt(b, f.Version)
	b = append(b, ",\n  \"root\": "...)
	b = stdjson.AppendString(b, f.Root)
	b = appendBasesSection(b, "workspace", f.Workspace)
	b = appendBasesSection(b, "user", f.User)
	return append(b, "\n}\n"...)
}

func appendBasesSection(b []byte, name string, m map[string]string) []byte {
	if len(m) == 0 {
		return b
	}
	b = append(b, ",\n  \""...)
	b = append(b, name...)
	b = append(b, "\": {"...)
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		b = stdjson.AppendString(b, k)
		b = append(b, ": "...)
		b = stdjson.AppendString(b, m[k])
	}
	return append(b, "\n  }"...)
}

// basesSize is about the length of f's text, to allocate it once.
func basesSize(f *basesFile) int {
	n := 64 + len(f.Root)
	for _, m := range []map[string]string{f.Workspace, f.User} {
		for k, v := range m {
			n += 16 + len(k) + len(v) + len(v)/4 // escaped quotes
		}
	}
	return n
}

// decodeCanonicalBases reads data as appendBases writes it, byte for byte,
// and nothing else: another layout, an escape the encoder does not write,
// raw text it would escape, keys out of order or twice, another version,
// anything after the last brace — each gives ok false, and readBasesFile
// then reads the file with encoding/json as before. So for every file
// this reader takes, encoding/json reads the same, and appendBases gives
// the file's bytes back (FuzzBasesDecode checks both): a store the plan
// leaves as it was is known unchanged without encoding it again.
func decodeCanonicalBases(data []byte) (f basesFile, ok bool) {
	r := stdjson.NewReader(data)
	if !r.Lit("{\n  \"version\": 1,\n  \"root\": ") {
		return f, false
	}
	f.Version = 1
	if f.Root, ok = r.Str(); !ok {
		return f, false
	}
	if r.Lit(",\n  \"workspace\": {") {
		if f.Workspace, ok = basesSection(r); !ok {
			return f, false
		}
	}
	if r.Lit(",\n  \"user\": {") {
		if f.User, ok = basesSection(r); !ok {
			return f, false
		}
	}
	if !r.Lit("\n}\n") || !r.Done() {
		return f, false
	}
	return f, true
}

// basesSection reads the members of a section after its opening brace, up
// to its closing one: at least one, keys in strictly increasing order.
func basesSection(r *stdjson.Reader) (map[string]string, bool) {
	m := map[string]string{}
	prev := ""
	for first := true; ; first = false {
		if !r.Lit("\n    ") {
			return nil, false
		}
		k, ok := r.Str()
		if !ok || (!first && k <= prev) || !r.Lit(": ") {
			return nil, false
		}
		v, ok := r.Str()
		if !ok {
			return nil, false
		}
		m[k], prev = v, k
		if r.Lit("\n  }") {
			return m, true
		}
		if !r.Lit(",") {
			return nil, false
		}
	}
}
