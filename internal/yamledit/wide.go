package yamledit

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// Wide mappings. goccy/go-yaml's parser reads the keys of a block mapping
// by recursion, each level copying the members parsed after it: its time
// and memory grow with the square of the number of keys (10,000 Goose
// extensions took seconds and 500 MB to parse, 100,000 keys in a 1 MB file
// two minutes and 38 GB). A mapping with more than chunkKeys keys is
// therefore parsed in pieces: the lexer's tokens of each run of chunkKeys
// keys after the first are parsed alone (the tokens carry their positions
// in the whole file), the rest of the document with the first run in
// place, and the members of the pieces are appended to the mapping the
// first run made. FuzzWideParse holds the result to that of one parse.
//
// A piece starts at a key (with the comment lines right before it). A
// mapping whose keys carry anchors, tags or aliases, that has "?" keys, or
// that has a key right after a token waiting for its node (a tag, an
// anchor, a "-", a "?" or a block scalar header, after which goccy/go-yaml
// may take the following keys for that node's) is parsed in one piece up
// to maxWholeKeys keys, and refused beyond.

// chunkKeys is how many keys of one mapping a piece holds (a variable for
// the tests).
var chunkKeys = 256

// maxWholeKeys is the most keys of a mapping that cannot be cut that Parse
// reads.
const maxWholeKeys = 4096

// parsedWhole counts the documents parsed again in one piece after the
// pieces did not fit (for the tests).
var parsedWhole atomic.Int64

// blockLevel is an open block node while the tokens are read: its column,
// and for a mapping the token index of each key (or of the comment lines
// right before it).
type blockLevel struct {
	col     int
	keys    []int // where each member starts: its key, or the comment lines right before it
	keyToks []int // each member's key token
	// uncut: keys with anchors, tags or aliases, "?" keys, or a key after a
	// token waiting for its node: the mapping is parsed in one piece.
	uncut bool
}

// wideMapping is a mapping to parse in pieces: the token index of its first
// key, and the token ranges of the pieces after the first.
type wideMapping struct {
	firstKey int
	firstRun int // the keys before the first piece
	keys     int
	pieces   [][2]int
}

// scanTokens checks the nesting of the tokens, counted as limitScanner
// counts it on the bytes (one level for each "-", "?" or key at a column
// deeper than the open block nodes', one for each open "[" or "{"), and
// finds the mappings to parse in pieces.
func scanTokens(toks token.Tokens, limit int) ([]wideMapping, error) {
	s := tokenScan{toks: toks}
	for i, tk := range toks {
		if tk.Position == nil {
			continue
		}
		col, opens, err := s.step(i, tk)
		if err != nil {
			return nil, err
		}
		if opens && len(s.stack)+s.flow > limit {
			return nil, nestingError(max(tk.Position.Line, 1), max(col, 1), limit)
		}
	}
	// The end of the input closes what is still open.
	if err := s.closeTo(-1, s.ownLine(len(toks)), false); err != nil {
		return nil, err
	}
	return s.wide, nil
}

// tokenScan is scanTokens' state: the open block nodes, the depth of flow
// collections, and the wide mappings found so far. Its steps are methods,
// not closures, so that the loop over every token makes direct calls.
type tokenScan struct {
	toks  token.Tokens
	stack []blockLevel
	wide  []wideMapping
	flow  int
}

// step reads token i (with a position): it counts flow collections, closes
// the block nodes the token ends and records the members it starts. opens:
// the token may have made the nesting deeper, at column col.
func (s *tokenScan) step(i int, tk *token.Token) (col int, opens bool, err error) {
	col = tk.Position.Column
	switch tk.Type {
	case token.DocumentHeaderType, token.DocumentEndType:
		if err := s.closeTo(-1, s.ownLine(i), true); err != nil {
			return 0, false, err
		}
		s.flow = 0
		return col, false, nil
	case token.SequenceStartType, token.MappingStartType:
		s.flow++
		return col, true, nil
	case token.SequenceEndType, token.MappingEndType:
		s.flow = max(s.flow-1, 0)
		return col, false, nil
	case token.SequenceEntryType:
		if s.flow > 0 {
			return col, false, nil
		}
		if err := s.closeTo(col, s.ownLine(i), false); err != nil {
			return 0, false, err
		}
		if n := len(s.stack); n == 0 || s.stack[n-1].col < col {
			s.stack = append(s.stack, blockLevel{col: col})
		}
		return col, true, nil
	case token.MappingKeyType:
		// An explicit key ("? "): a member, but not one to cut at.
		if s.flow > 0 {
			return col, false, nil
		}
		if err := s.closeTo(col, s.ownLine(i), false); err != nil {
			return 0, false, err
		}
		s.addKey(i, i, true)
		return col, true, nil
	}
	return s.implicitKey(i, tk)
}

// implicitKey reads token i when it is a key of a block mapping (one a ":"
// follows), and reports no member otherwise.
func (s *tokenScan) implicitKey(i int, tk *token.Token) (col int, opens bool, err error) {
	toks := s.toks
	if s.flow > 0 || i+1 >= len(toks) || toks[i+1].Type != token.MappingValueType || toks[i+1].Position == nil {
		return 0, false, nil
	}
	if !sameLine(tk, toks[i+1]) {
		// A key whose colon is on a later line (goccy/go-yaml takes it):
		// a member, but not one to cut at.
		col = tk.Position.Column
		if err := s.closeTo(col, s.ownLine(i), false); err != nil {
			return 0, false, err
		}
		s.addKey(i, i, true)
		return col, true, nil
	}
	// A key, after its anchor, tag or alias marker if it has some.
	first := propsStart(toks, i)
	col = toks[first].Position.Column
	if err := s.closeTo(col, s.ownLine(first), false); err != nil {
		return 0, false, err
	}
	s.addKey(first, i, first != i)
	return col, true, nil
}

// closeTo closes the levels deeper than col at token at, keeping the
// mappings to cut in pieces; marker: at a document marker.
func (s *tokenScan) closeTo(col, at int, marker bool) error {
	for len(s.stack) > 0 && s.stack[len(s.stack)-1].col > col {
		lv := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		if len(lv.keys) <= chunkKeys {
			continue
		}
		if lv.uncut || !cuttableBefore(s.toks, at) {
			if len(lv.keys) > maxWholeKeys {
				return tooWideToParseWhole(s.toks, lv)
			}
			continue
		}
		if w, ok := cutMapping(lv, at, marker); ok {
			s.wide = append(s.wide, w)
		}
	}
	return nil
}

// tooWideToParseWhole is the refusal of a mapping that cannot be cut and
// has more keys than maxWholeKeys.
func tooWideToParseWhole(toks token.Tokens, lv blockLevel) error {
	tk := toks[lv.keyToks[0]]
	return &SyntaxError{Line: max(tk.Position.Line, 1), Col: max(tk.Position.Column, 1),
		Msg: fmt.Sprintf("this mapping has %d keys, and keys with anchors, tags or aliases, \"? \" keys or values ending in a tag or an anchor; repo reads up to %d keys of such a mapping", len(lv.keys), maxWholeKeys)}
}

// ownLine returns the index of the comment lines right before token i
// (i itself when there are none): they go with the node at i.
func (s *tokenScan) ownLine(i int) int {
	toks := s.toks
	for i > 0 && toks[i-1].Type == token.CommentType && toks[i-1].Position != nil &&
		(i < 2 || toks[i-2].Position == nil || toks[i-2].Position.Line < toks[i-1].Position.Line) {
		i--
	}
	return i
}

// addKey records a member of the block mapping at the column of token
// first (its key's properties, or the key), whose key is token key;
// uncut: the member rules out cutting the mapping.
func (s *tokenScan) addKey(first, key int, uncut bool) {
	col := s.toks[first].Position.Column
	if n := len(s.stack); n == 0 || s.stack[n-1].col < col {
		s.stack = append(s.stack, blockLevel{col: col})
	}
	lv := &s.stack[len(s.stack)-1]
	start := s.ownLine(first)
	// After a token that waits for its node, goccy/go-yaml may take
	// the keys that follow for that node's: the mapping is not what
	// its columns say, and is parsed in one piece.
	bad := len(lv.keys) > 0 && !cuttableBefore(s.toks, start)
	lv.keys = append(lv.keys, start)
	lv.keyToks = append(lv.keyToks, key)
	lv.uncut = lv.uncut || uncut || bad
}

// cuttableBefore reports whether a piece may start at token start: the
// last token before it, comments aside, must not be one after which
// goccy/go-yaml waits for a node (see reparse), which it accepts at the
// end of its input only.
func cuttableBefore(toks token.Tokens, start int) bool {
	j := start - 1
	for j >= 0 && toks[j].Type == token.CommentType {
		j--
	}
	return j >= 0 && !waitsForNode(toks, j)
}

// waitsForNode reports whether toks[j] is a token after which a node is
// due: a tag, an anchor (its "&" or its name), a "-", a "?" or a block
// scalar header.
func waitsForNode(toks token.Tokens, j int) bool {
	switch toks[j].Type {
	case token.TagType, token.AnchorType, token.SequenceEntryType, token.MappingKeyType, token.LiteralType, token.FoldedType:
		return true
	}
	return j > 0 && toks[j-1].Type == token.AnchorType && sameLine(toks[j-1], toks[j])
}

// propsStart returns the index of the first of the tokens right before
// toks[i] on its line that belong to its node: tags, anchors (an "&" and a
// name) and an alias's "*".
func propsStart(toks token.Tokens, i int) int {
	first := i
	if first > 0 && toks[first-1].Type == token.AliasType && sameLine(toks[first-1], toks[i]) {
		first--
	}
	for {
		switch {
		case first > 0 && toks[first-1].Type == token.TagType && sameLine(toks[first-1], toks[i]):
			first--
		case first > 1 && toks[first-2].Type == token.AnchorType && sameLine(toks[first-2], toks[i]):
			first -= 2
		default:
			return first
		}
	}
}

func sameLine(a, b *token.Token) bool {
	return a.Position != nil && b.Position != nil && a.Position.Line == b.Position.Line
}

// cutMapping splits the keys of lv after the first chunkKeys into pieces
// of chunkKeys keys, the last ending at token end. Before a document
// marker the last run stays with the first: goccy/go-yaml reads a
// mapping's last key differently when a "..." or "---" follows it.
func cutMapping(lv blockLevel, end int, marker bool) (wideMapping, bool) {
	first := max(chunkKeys, 2) // the first run must make a mapping, not a lone pair
	w := wideMapping{firstKey: lv.keyToks[0], firstRun: first, keys: len(lv.keys)}
	var starts []int
	for k := first; k < len(lv.keys); k += chunkKeys {
		starts = append(starts, lv.keys[k])
	}
	if marker && len(starts) > 0 {
		end = starts[len(starts)-1]
		starts = starts[:len(starts)-1]
	}
	for j, s := range starts {
		e := end
		if j+1 < len(starts) {
			e = starts[j+1]
		}
		w.pieces = append(w.pieces, [2]int{s, e})
	}
	return w, len(w.pieces) > 0
}

// piece is a range of tokens parsed alone: the whole document, or a run of
// keys of a wide mapping, without the pieces inside it.
type piece struct {
	from, to int
	inner    []*piece
	toks     token.Tokens
	file     *ast.File
}

// parseWide parses the tokens of a document holding wide mappings (see the
// top of this file). When the pieces do not fit together, or one fails to
// parse, and every mapping is small enough to parse in one piece, the
// document is parsed again as a whole (src lexed again: parsing changes
// tokens): the pieces only ever save time. Otherwise the failure is a
// *SyntaxError.
func parseWide(src string, toks token.Tokens, wide []wideMapping) (token.Tokens, *ast.File, error) {
	f, err := parsePieces(toks, wide)
	if err == nil {
		return toks, f, nil
	}
	parsedWhole.Add(1)
	widest := slices.MaxFunc(wide, func(a, b wideMapping) int { return a.keys - b.keys })
	if widest.keys > maxWholeKeys {
		var se *SyntaxError
		if !errors.As(err, &se) {
			tk := toks[widest.firstKey]
			se = &SyntaxError{Line: max(tk.Position.Line, 1), Col: max(tk.Position.Column, 1),
				Msg: fmt.Sprintf("this mapping has %d keys, and a layout that repo cannot read in parts; repo reads up to %d keys of such a mapping", widest.keys, maxWholeKeys)}
		}
		return nil, nil, se
	}
	toks = lexer.Tokenize(src)
	f, err = parser.Parse(toks, parser.ParseComments, parser.AllowDuplicateMapKey())
	if err != nil {
		return nil, nil, fromGoccy(err)
	}
	return toks, f, nil
}

// parsePieces parses the document in pieces and puts it together.
func parsePieces(toks token.Tokens, wide []wideMapping) (*ast.File, error) {
	root := &piece{from: 0, to: len(toks)}
	all, owner := cutPieces(wide)
	if err := nestPieces(root, all); err != nil {
		return nil, err
	}
	where := make([]*piece, len(toks)) // the piece each token went to
	fillPiece(root, toks, where)
	if err := parsePiece(root); err != nil {
		return nil, err
	}
	for _, p := range all {
		if err := parsePiece(p); err != nil {
			return nil, err
		}
	}
	if err := joinPieces(toks, wide, all, owner, where); err != nil {
		return nil, err
	}
	return root.file, nil
}

// cutPieces returns the pieces of the wide mappings, sorted by where they
// start and outer ones first, and for each the index of its mapping in
// wide.
func cutPieces(wide []wideMapping) ([]*piece, map[*piece]int) {
	var all []*piece
	owner := map[*piece]int{}
	for wi, w := range wide {
		for _, r := range w.pieces {
			p := &piece{from: r[0], to: r[1]}
			all = append(all, p)
			owner[p] = wi
		}
	}
	slices.SortFunc(all, func(a, b *piece) int {
		if a.from != b.from {
			return a.from - b.from
		}
		return b.to - a.to
	})
	return all, owner
}

// nestPieces puts each of the sorted pieces inside the innermost one
// holding it (root holds them all): pieces are disjoint or one holds the
// other, as the nodes of the document are.
func nestPieces(root *piece, sorted []*piece) error {
	stack := []*piece{root}
	for _, p := range sorted {
		for p.from >= stack[len(stack)-1].to {
			stack = stack[:len(stack)-1]
		}
		parent := stack[len(stack)-1]
		if p.to > parent.to {
			return fmt.Errorf("yamledit: internal error: pieces of the document overlap")
		}
		parent.inner = append(parent.inner, p)
		stack = append(stack, p)
	}
	return nil
}

// fillPiece gives each token of p to the innermost piece holding it (p
// itself or one inside it), and notes that piece in where.
func fillPiece(p *piece, toks token.Tokens, where []*piece) {
	i := p.from
	for _, c := range p.inner {
		for ; i < c.from; i++ {
			p.toks = append(p.toks, toks[i])
			where[i] = p
		}
		fillPiece(c, toks, where)
		i = c.to
	}
	for ; i < p.to; i++ {
		p.toks = append(p.toks, toks[i])
		where[i] = p
	}
}

// parsePiece parses the tokens of p alone.
func parsePiece(p *piece) error {
	f, err := parser.Parse(p.toks, parser.ParseComments, parser.AllowDuplicateMapKey())
	if err != nil {
		return fromGoccy(err)
	}
	p.file = f
	return nil
}

// joinPieces appends the members of each parsed piece to the mapping its
// wide mapping's first run made (found by its first key's token, in the
// piece that token went to), in the order of the pieces.
func joinPieces(toks token.Tokens, wide []wideMapping, sorted []*piece, owner map[*piece]int, where []*piece) error {
	mappings := pieceMappings{}
	at := make([]int, len(wide)) // where the next piece's members go
	for i, w := range wide {
		at[i] = w.firstRun
	}
	for _, p := range sorted {
		wi := owner[p]
		w := wide[wi]
		m := mappings.of(where[w.firstKey], toks[w.firstKey])
		vals, ok := pieceMembers(p.file, toks[p.from:p.to])
		if m == nil || !ok || at[wi] > len(m.Values) {
			return fmt.Errorf("yamledit: internal error: a mapping parsed in pieces does not fit together (line %d)", toks[w.firstKey].Position.Line)
		}
		m.Values = slices.Insert(m.Values, at[wi], vals...)
		at[wi] += len(vals)
	}
	return nil
}

// pieceMappings finds the block mappings of parsed pieces by the token of
// their first key, indexing each piece the first time it is asked about.
type pieceMappings map[*piece]map[*token.Token]*ast.MappingNode

// of returns the block mapping of piece p whose first key is token key,
// or nil.
func (pm pieceMappings) of(p *piece, key *token.Token) *ast.MappingNode {
	byKey, ok := pm[p]
	if !ok {
		byKey = map[*token.Token]*ast.MappingNode{}
		for _, doc := range p.file.Docs {
			walk(doc.Body, func(n ast.Node) {
				if m, ok := n.(*ast.MappingNode); ok && !m.IsFlowStyle && len(m.Values) > 0 {
					if k := firstKeyToken(m.Values[0]); k != nil {
						byKey[k] = m
					}
				}
			})
		}
		pm[p] = byKey
	}
	return byKey[key]
}

// firstKeyToken is the token of a member's key, or of the comment lines
// right before it (the token scanTokens remembers for the key).
func firstKeyToken(mv *ast.MappingValueNode) *token.Token {
	if isNil(mv.Key) {
		return nil
	}
	return mv.Key.GetToken()
}

// pieceMembers returns the members of the mapping a piece holds, checking
// that it is one block mapping starting with the piece's first key.
func pieceMembers(f *ast.File, toks token.Tokens) ([]*ast.MappingValueNode, bool) {
	var key *token.Token
	for _, tk := range toks {
		if tk.Type != token.CommentType {
			key = tk
			break
		}
	}
	for _, doc := range f.Docs {
		if isTrivia(doc.Body) {
			continue
		}
		var vals []*ast.MappingValueNode
		switch b := doc.Body.(type) {
		case *ast.MappingNode:
			if b.IsFlowStyle {
				return nil, false
			}
			vals = b.Values
		case *ast.MappingValueNode:
			vals = []*ast.MappingValueNode{b}
		default:
			return nil, false
		}
		if len(vals) == 0 || firstKeyToken(vals[0]) != key {
			return nil, false
		}
		return vals, true
	}
	return nil, false
}
