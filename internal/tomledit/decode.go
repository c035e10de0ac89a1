package tomledit

// Decoding a large document with go-toml.
//
// go-toml's decoding takes time quadratic in the number of tables under one
// table: its tracker of the keys seen so far looks each new table up among
// all the entries made after its parent (internal/tracker SeenTracker.find).
// A config.toml with 10,000 servers takes about a second to decode, and
// every edit decodes its result.
//
// So the servers of a large top-level table W (more than chunkServers of
// them) are decoded chunkServers at a time, each part as a document of its
// own, and the rest of the document as one more. Every line still goes
// through go-toml's checks. What the parts cannot see of each other is
// settled by the document's tree, which the whole file was walked for
// before (scan):
//
//   - a server n goes into a part only if it is written as [W.n…] tables
//     with their key/values and nothing else: no key/value anywhere (a
//     top-level dotted key, a key in [W], an inline table) defines W.n or
//     anything under it, and it is not an array of tables [[W.n]]. Its
//     tables then make up the whole subtree W.n, and no other part or the
//     rest touches it;
//   - W is a table in the tree: made by [W], by the headers under it or by
//     top-level dotted keys, not an inline table, an array of tables or a
//     value. A part's headers only pass through W on their way down, which
//     go-toml allows into any such table. Conversely, what the rest does to
//     W (a [W] header, the headers of other servers; top-level dotted keys
//     come before every header) is allowed or refused alike whether the
//     parts' headers went through W before or not. The one exception, [[W]]
//     after a [W.n] header, is an error the tree reports already.
//
// The document is then valid when the parts and the rest are, and decodes
// to the rest's data with the parts' servers added under W. When a part
// does not decode, or the document is not as described, the whole document
// is decoded at once: go-toml has the last word, and says where the error
// is. FuzzParse compares the two ways on small parts.

// chunkServers is how many servers of one table go-toml decodes at a time.
const chunkServers = 128

// decode validates the document with go-toml and returns what it decodes
// to, the servers of large tables size at a time.
func (d *Doc) decode(size int) (map[string]any, error) {
	if m, ok := d.decodeParts(size); ok {
		return m, nil
	}
	return validate(d.data[d.bom:])
}

// decodeParts decodes the document in parts (see above); ok is false when
// no table is large enough, or some part does not decode.
func (d *Doc) decodeParts(size int) (map[string]any, bool) {
	part, wides := d.cutParts(size)
	if len(wides) == 0 {
		return nil, false
	}
	texts := d.partTexts(part, wides[len(wides)-1].last)
	m, err := validate(texts[0])
	if err != nil {
		return nil, false
	}
	if m == nil { // nothing but servers
		m = map[string]any{}
	}
	for _, w := range wides {
		if !addPartServers(m, w, texts) {
			return nil, false
		}
	}
	return m, true
}

// wideTable is a top-level table whose servers are decoded in parts: its
// key, and its first and last part.
type wideTable struct {
	key         string
	first, last int
}

// cutParts puts the table headers of the servers of each large top-level
// table in parts of size servers, numbered from 1 (part[i] is the part of
// d.exprs[i]; 0 is the rest of the document), and returns those tables.
func (d *Doc) cutParts(size int) (part []int, wides []wideTable) {
	part = make([]int, len(d.exprs))
	parts := 0
	for _, w := range d.root.keys {
		clean := d.partServers(w, size)
		if len(clean) <= size {
			continue
		}
		for i, e := range clean {
			for _, h := range e.sections {
				part[h] = parts + 1 + i/size
			}
		}
		wides = append(wides, wideTable{w, parts + 1, parts + (len(clean)+size-1)/size})
		parts = wides[len(wides)-1].last
	}
	return part, wides
}

// partServers returns the servers of the top-level table w that a part
// may hold, those written as [w.n…] tables only (see above); none when w
// is not a table of more than size keys.
func (d *Doc) partServers(w string, size int) []*entry {
	t := d.root.kids[w]
	if t.kind != nTable || t.how == inlineValue || len(t.keys) <= size {
		return nil
	}
	es, err := d.lookupEntries([]string{w}, t.keys)
	if err != nil {
		return nil
	}
	var clean []*entry
	for _, name := range t.keys {
		if e := es[name]; !e.notTables && len(e.sections) > 0 {
			clean = append(clean, e)
		}
	}
	return clean
}

// partTexts returns the text of each of the parts 0 to parts: the lines
// of its expressions in file order, a key/value going to the part of the
// header it is under.
func (d *Doc) partTexts(part []int, parts int) [][]byte {
	texts := make([][]byte, parts+1)
	for i, x := range d.exprs {
		if x.kind == kKeyVal && x.hdr >= 0 {
			part[i] = part[x.hdr]
		}
		b := append(texts[part[i]], d.data[x.start:x.end]...)
		if b[len(b)-1] != '\n' { // the last line of the file
			b = append(b, '\n')
		}
		texts[part[i]] = b
	}
	return texts
}

// addPartServers decodes the parts of table w and adds their servers to
// the table w of m, the rest's data; false when a part does not decode to
// servers of w only, or a server is defined twice.
func addPartServers(m map[string]any, w wideTable, texts [][]byte) bool {
	servers, ok := map[string]any{}, true
	if v, there := m[w.key]; there {
		servers, ok = v.(map[string]any)
	}
	if !ok {
		return false
	}
	m[w.key] = servers
	for k := w.first; k <= w.last; k++ {
		pm, err := validate(texts[k])
		if err != nil || len(pm) != 1 {
			return false
		}
		some, ok := pm[w.key].(map[string]any)
		if !ok {
			return false
		}
		for name, v := range some {
			if _, dup := servers[name]; dup {
				return false
			}
			servers[name] = v
		}
	}
	return true
}
