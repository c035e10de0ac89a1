package plan

import (
	"bytes"
	"strings"
)

// The scanners of redaction (redact.go): each walks a whole text of its
// format family, keeping the key each scalar is the value of and the
// containers it is in, and hands every scalar to redactor.value and every
// comment to redactor.comment. They need no valid document: what they
// cannot read as a value is left alone.

// frame is a container the scanner is in: the key it is the value of (or
// the one its container has), the last value in it (a flag, for the value
// after it), and whether it is a list.
type frame struct {
	name   token
	last   token
	list   bool
	indent int // YAML: the indentation of its key
}

func (r *redactor) names(stack []frame) []string {
	out := make([]string, len(stack))
	for i, f := range stack {
		out[i] = r.text(f.name)
	}
	return out
}

// scanJSON walks JSON from b[from] (a line's start), and JSONC when
// comments is set (// and /* */).
func (r *redactor) scanJSON(from int, comments bool) {
	b := r.b
	stack := []frame{{}}
	var key token
	for i := from; i < len(b); {
		c := b[i]
		switch {
		case c == '"':
			t, end := jsonString(b, i)
			j := end
			for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\r' || b[j] == '\n') {
				j++
			}
			if j < len(b) && b[j] == ':' {
				key, i = t, j+1
				continue
			}
			r.value(stack, key, t)
			key, i = token{}, end
		case c == '{' || c == '[':
			stack = append(stack, frame{name: r.inherit(stack, key), list: c == '['})
			key = token{}
			i++
		case c == '}' || c == ']':
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			key = token{}
			i++
		case c == ',':
			key = token{}
			i++
		case comments && c == '/' && i+1 < len(b) && b[i+1] == '/':
			end := lineEnd(b, i)
			r.comment(i+2, end)
			i = end
		case comments && c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := bytes.Index(b[i+2:], []byte("*/"))
			if end < 0 {
				end = len(b) - i - 2
			}
			r.comment(i+2, i+2+end)
			i += 2 + end + 2
		default:
			i++
		}
	}
}

// value judges a scalar of the innermost container: under its key, or in
// a list under the list's name, after the list's previous value.
func (r *redactor) value(stack []frame, key token, t token) {
	top := &stack[len(stack)-1]
	if r.visible(t.start, t.end) {
		prev := ""
		if top.list {
			prev = r.text(top.last)
		}
		name := r.text(key)
		if name == "" {
			name = r.text(top.name)
		}
		r.judge(t, name, prev, r.names(stack))
	}
	top.last = t
}

// inherit is the name a new container goes by: its key, else (a list in a
// list) its container's.
func (r *redactor) inherit(stack []frame, key token) token {
	if key.lazy || key.value != "" {
		return key
	}
	return stack[len(stack)-1].name
}

// named is a key known by its text.
func named(k string) token { return token{value: k} }

// jsonString reads the JSON string whose quote is at b[i]: its token and
// the offset after its closing quote.
func jsonString(b []byte, i int) (token, int) {
	j, escaped := i+1, false
	// The common string, without escapes, in vectorised steps.
	if q := bytes.IndexByte(b[j:], '"'); q >= 0 && bytes.IndexByte(b[j:j+q], '\\') < 0 && bytes.IndexByte(b[j:j+q], '\n') < 0 {
		j += q
	} else {
		for j < len(b) && b[j] != '"' && b[j] != '\n' {
			if b[j] == '\\' {
				escaped = true
				j++
			}
			j++
		}
	}
	end := min(j, len(b))
	t := token{start: i + 1, end: end, exact: !escaped, lazy: true}
	if end < len(b) && b[end] == '"' {
		end++
	}
	return t, end
}

func lineEnd(b []byte, i int) int {
	if j := bytes.IndexByte(b[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(b)
}

// scanTOML walks TOML: table headers name the keys under them, key =
// value pairs, inline tables and arrays, the four kinds of string, and
// comments.
func (r *redactor) scanTOML() {
	b := r.b
	stack := []frame{{}}
	key := ""
	expectKey := true
	for i := 0; i < len(b); {
		c := b[i]
		top := &stack[len(stack)-1]
		switch {
		case c == '\n':
			if len(stack) == 1 {
				expectKey, key = true, ""
			}
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#':
			end := lineEnd(b, i)
			r.comment(i+1, end)
			i = end
		case c == '[' && len(stack) == 1 && expectKey:
			// A table header: its last segment names the keys below it.
			end := i
			for end < len(b) && b[end] != '\n' && b[end] != '#' {
				end++
			}
			stack[0] = frame{name: named(lastSegment(string(bytes.Trim(bytes.TrimSpace(b[i:end]), "[]"))))}
			i = end
		case expectKey && (c == '"' || c == '\'' || bareKey(c)):
			k, end := tomlKey(b, i)
			key, expectKey, i = k, false, end
		case c == '"' || c == '\'':
			t, end := tomlString(b, i)
			r.value(stack, named(key), t)
			if top.list {
				key = ""
			}
			i = end
		case c == '[' || c == '{':
			stack = append(stack, frame{name: r.inherit(stack, named(key)), list: c == '['})
			key, expectKey = "", c == '{'
			i++
		case c == ']' || c == '}':
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			i++
		case c == ',':
			if !top.list {
				key, expectKey = "", true
			}
			i++
		default:
			i++
		}
	}
}

func bareKey(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// tomlKey reads a (dotted) key up to its '=', returning its last segment
// and the offset after the '='.
func tomlKey(b []byte, i int) (string, int) {
	last := ""
	for i < len(b) && b[i] != '\n' {
		switch c := b[i]; {
		case c == '"' || c == '\'':
			t, end := tomlString(b, i)
			last, i = tokenText(b, t), end
		case bareKey(c):
			j := i
			for j < len(b) && bareKey(b[j]) {
				j++
			}
			last, i = string(b[i:j]), j
		case c == '=':
			return last, i + 1
		default:
			i++
		}
	}
	return last, i
}

// tomlString reads the string at b[i]: basic, literal or their multi-line
// forms.
func tomlString(b []byte, i int) (token, int) {
	q := b[i]
	if bytes.HasPrefix(b[i:], []byte{q, q, q}) {
		close := bytes.Index(b[i+3:], []byte{q, q, q})
		end := len(b)
		if close >= 0 {
			end = i + 3 + close
		}
		raw := string(b[i+3 : end])
		t := token{start: i + 3, end: end, value: raw, exact: q == '\'' || !strings.Contains(raw, `\`)}
		return t, min(end+3, len(b))
	}
	if q == '\'' {
		end := i + 1
		for end < len(b) && b[end] != '\'' && b[end] != '\n' {
			end++
		}
		return token{start: i + 1, end: end, value: string(b[i+1 : end]), exact: true}, min(end+1, len(b))
	}
	return jsonString(b, i)
}

// lastSegment is the last segment of a dotted TOML key or header.
func lastSegment(k string) string {
	k = strings.TrimSpace(k)
	if strings.HasSuffix(k, `"`) || strings.HasSuffix(k, `'`) {
		q := k[len(k)-1:]
		if j := strings.LastIndex(k[:len(k)-1], q); j >= 0 {
			return k[j+1 : len(k)-1]
		}
	}
	if j := strings.LastIndexByte(k, '.'); j >= 0 {
		return strings.TrimSpace(k[j+1:])
	}
	return k
}

// scanYAML walks YAML a line at a time: indentation opens and closes the
// mappings a key with no value on its line starts, "- " items belong to
// the key above, a block scalar's lines are its key's value, a flow
// collection is read as JSON-like text, and comments are judged as text.
func (r *redactor) scanYAML() {
	b := r.b
	var stack []frame
	block, blockName := -1, ""
	for ls := 0; ls < len(b); {
		le := lineEnd(b, ls)
		next := le + 1
		end := le
		if end > ls && b[end-1] == '\r' {
			end--
		}
		indent := 0
		for ls+indent < end && b[ls+indent] == ' ' {
			indent++
		}
		i := ls + indent
		switch {
		case i == end: // blank
		case block >= 0 && indent > block:
			r.judge(token{start: i, end: end, exact: true, lazy: true}, blockName, "", r.names(stack))
		default:
			block = -1
			r.yamlLine(&stack, indent, i, end, &block, &blockName)
		}
		ls = next
	}
}

// yamlLine reads one line of YAML whose content starts at b[i].
func (r *redactor) yamlLine(stack *[]frame, indent, i, end int, block *int, blockName *string) {
	b := r.b
	if b[i] == '#' {
		r.comment(i+1, end)
		return
	}
	if bytes.HasPrefix(b[i:end], []byte("---")) || bytes.HasPrefix(b[i:end], []byte("...")) {
		return
	}
	item := b[i] == '-' && (i+1 == end || b[i+1] == ' ')
	// Close the mappings this line is not inside of; a list may stand at
	// its key's own indentation.
	for len(*stack) > 0 {
		top := (*stack)[len(*stack)-1]
		if top.indent < indent || item && top.indent == indent && top.list {
			break
		}
		*stack = (*stack)[:len(*stack)-1]
	}
	for i < end && b[i] == '-' && (i+1 == end || b[i+1] == ' ') {
		i++
		for i < end && b[i] == ' ' {
			i++
		}
	}
	if i >= end {
		return
	}
	vEnd := yamlCommentStart(b, i, end)
	if vEnd < end {
		r.comment(vEnd+1, end)
	}
	key, vs, ok := yamlKey(b, i, vEnd)
	ctx := *stack
	if !ok { // a scalar of a list
		r.yamlValue(ctx, "", i, vEnd)
		return
	}
	for vs < vEnd && b[vs] == ' ' {
		vs++
	}
	keyIndent := i - lineStartOf(b, i)
	switch {
	case vs >= vEnd:
		*stack = append(*stack, frame{name: named(key), indent: keyIndent, list: true})
	case b[vs] == '|' || b[vs] == '>':
		*block, *blockName = keyIndent, key
	default:
		r.yamlValue(ctx, key, vs, vEnd)
	}
}

// yamlValue judges the value at b[vs:vEnd]: a quoted or plain scalar, or
// a flow collection read as JSON-like text.
func (r *redactor) yamlValue(stack []frame, key string, vs, vEnd int) {
	b := r.b
	for vEnd > vs && (b[vEnd-1] == ' ' || b[vEnd-1] == '\t') {
		vEnd--
	}
	if vEnd <= vs {
		return
	}
	ctx := stack // r.value notes the value as the list's last one
	if len(ctx) == 0 {
		ctx = []frame{{}}
	}
	switch b[vs] {
	case '"':
		t, _ := jsonString(b[:vEnd], vs)
		r.value(ctx, named(key), t)
	case '\'':
		t, _ := yamlSingle(b[:vEnd], vs)
		r.value(ctx, named(key), t)
	case '{', '[':
		sub := &redactor{b: b[:vEnd], allow: r.allow, shown: r.shown}
		sub.scanFlow(vs, r.names(ctx), key)
		r.found = append(r.found, sub.found...)
	default:
		r.value(ctx, named(key), token{start: vs, end: vEnd, exact: true, lazy: true})
	}
}

// scanFlow reads a YAML flow collection from b[i] to the end of r.b:
// quoted and plain scalars, keys before ':'.
func (r *redactor) scanFlow(i int, enclosing []string, key string) {
	b := r.b
	stack := []frame{{name: named(key)}}
	for _, n := range enclosing {
		stack = append([]frame{{name: named(n)}}, stack...)
	}
	key = ""
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"' || c == '\'':
			var t token
			var end int
			if c == '"' {
				t, end = jsonString(b, i)
			} else {
				t, end = yamlSingle(b, i)
			}
			if end < len(b) && b[end] == ':' {
				key, i = tokenText(b, t), end+1
				continue
			}
			r.value(stack, named(key), t)
			key, i = "", end
		case c == '{' || c == '[':
			stack = append(stack, frame{name: r.inherit(stack, named(key)), list: c == '['})
			key = ""
			i++
		case c == '}' || c == ']':
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			key = ""
			i++
		case c == ',' || c == ' ':
			if c == ',' {
				key = ""
			}
			i++
		default:
			j := i
			for j < len(b) && !strings.ContainsRune(",{}[]", rune(b[j])) && !(b[j] == ':' && (j+1 == len(b) || b[j+1] == ' ')) {
				j++
			}
			k := j
			for k > i && b[k-1] == ' ' {
				k--
			}
			if j < len(b) && b[j] == ':' {
				key, i = string(b[i:k]), j+1
				continue
			}
			r.value(stack, named(key), token{start: i, end: k, exact: true, lazy: true})
			key, i = "", max(j, i+1)
		}
	}
}

// yamlSingle reads the single-quoted YAML scalar at b[i] (” is a quote)
// on its line.
func yamlSingle(b []byte, i int) (token, int) {
	j, doubled := i+1, false
	for j < len(b) && b[j] != '\n' {
		if b[j] == '\'' {
			if j+1 < len(b) && b[j+1] == '\'' {
				doubled = true
				j += 2
				continue
			}
			break
		}
		j++
	}
	t := token{start: i + 1, end: j, value: strings.ReplaceAll(string(b[i+1:j]), "''", "'"), exact: !doubled}
	if j < len(b) && b[j] == '\'' {
		j++
	}
	return t, j
}

// yamlKey reads "key:" at b[i:end]: the key and where its value starts.
func yamlKey(b []byte, i, end int) (string, int, bool) {
	if b[i] == '"' || b[i] == '\'' {
		var t token
		var e int
		if b[i] == '"' {
			t, e = jsonString(b[:end], i)
		} else {
			t, e = yamlSingle(b[:end], i)
		}
		for e < end && b[e] == ' ' {
			e++
		}
		if e < end && b[e] == ':' && (e+1 == end || b[e+1] == ' ') {
			return tokenText(b, t), e + 1, true
		}
		return "", 0, false
	}
	if b[i] == '{' || b[i] == '[' {
		return "", 0, false
	}
	for j := i; j < end; j++ {
		if b[j] == ':' && (j+1 == end || b[j+1] == ' ' || b[j+1] == '\t') {
			return strings.TrimSpace(string(b[i:j])), j + 1, true
		}
	}
	return "", 0, false
}

// yamlCommentStart is where a comment starts on the line b[i:end] (a '#'
// at the start or after a space, outside quotes), else end.
func yamlCommentStart(b []byte, i, end int) int {
	var q byte
	for j := i; j < end; j++ {
		switch c := b[j]; {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			if j == i || b[j-1] == ' ' || b[j-1] == ':' || b[j-1] == '[' || b[j-1] == '{' || b[j-1] == ',' {
				q = c
			}
		case c == '#' && (j == i || b[j-1] == ' ' || b[j-1] == '\t'):
			return j
		}
	}
	return end
}

func lineStartOf(b []byte, i int) int { return bytes.LastIndexByte(b[:i], '\n') + 1 }
