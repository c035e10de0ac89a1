package plan

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/internal/canon"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/record"
)

// Members a tool or its user owns inside a managed entry (a profile's
// preserve: enable toggles, approval lists, timeouts) meet what repo offers
// for them — an author's setting, or the profile's fixed value — in a
// three-way merge whose base is the offer repo last made (Owned.Defaults):
//
//   - A member whose value in the file is still the last offer was not
//     changed by the user: it takes the new offer (and goes when nothing is
//     offered any more). So an author's new default reaches every entry
//     nobody touched.
//   - Any other value — a toggle flipped in the tool's UI, a list edited,
//     the member removed — is the user's, and stays: a sync never fights
//     the user. If the offer changed as well, a warning says so.
//
// Without a recorded offer the base is the profile's fixed value (entry.set)
// or no member, which is what repo offered before settings existed: so an
// entry written by an earlier release, with OpenCode's "enabled": true,
// reads as untouched, and its record needs no change.

// keptMember is a preserved member the user changed while the offer for it
// changed too: the user's value is kept.
type keptMember struct {
	member string
	file   []byte // the value in the file; nil: removed
	offer  []byte // the new offer
}

func (k keptMember) warning(display, entry string) string {
	state := fmt.Sprintf("%s %s", k.member, k.file)
	if k.file == nil {
		state = "no " + k.member
	}
	return fmt.Sprintf("%s: entry %q keeps %s, set outside repo since repo wrote it; the extension now asks for %s %s (delete the entry to take the extension's values)",
		display, entry, state, k.member, k.offer)
}

// mergePreserved decides each preserved member of want, the entry repo
// wants, against cur, the entry in the file, as the package comment above
// says. fixed are the profile's fixed members, bases the record's offers
// (Owned.Defaults; nil for none). It returns the entry to write, the offers
// to record, and the members kept against a changed offer. The digests are
// the run's (nil: none remembered).
func mergePreserved(ds *record.Digests, want ordered.Object, cur fileMembers, preserve []string, fixed ordered.Object, bases map[string]string) (ordered.Object, map[string]string, []keptMember) {
	offered := offers(ds, want, preserve, fixed)
	found, ok := currentMembers(cur, preserve)
	if !ok {
		return want, offered, nil
	}
	out := slices.Clone(want)
	var kept []keptMember
	for _, m := range preserve {
		fileValue, inFile := found[m]
		offer, isOffered := want.Get(m)
		var offerText []byte
		if isOffered {
			offerText = ordered.JSON(offer)
		}
		base, recorded := bases[m]
		if !recorded {
			base = memberDigest(ds, fixed, m)
		}
		fileDigest := ""
		if inFile {
			fileDigest = ds.Raw(fileValue)
		}
		if fileDigest == base {
			continue // untouched: the offer (or its absence) stands
		}
		// The user's value.
		if inFile {
			out = out.Set(m, json.RawMessage(fileValue))
		} else {
			out = out.Without(m)
		}
		// Worth a word only when the author asks for another value now; an
		// author who stopped setting the member has no wish left to miss.
		if !isOffered {
			continue
		}
		if d := ds.Raw(offerText); d != base && d != fileDigest {
			k := keptMember{member: m, offer: offerText}
			if inFile {
				k.file = canon.JSON(fileValue)
			}
			kept = append(kept, k)
		}
	}
	return out, offered, kept
}

// offers are the digests to record for the preserved members of want:
// those whose offer differs from the profile's fixed value ("" for an offer
// of no member). nil when there is none, so a record without settings
// stays as earlier releases wrote it.
func offers(ds *record.Digests, want ordered.Object, preserve []string, fixed ordered.Object) map[string]string {
	var out map[string]string
	for _, m := range preserve {
		d := memberDigest(ds, want, m)
		if d == memberDigest(ds, fixed, m) {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[m] = d
	}
	return out
}

// memberDigest is the digest of member m of o, or "" when o has none.
func memberDigest(ds *record.Digests, o ordered.Object, m string) string {
	v, ok := o.Get(m)
	if !ok {
		return ""
	}
	return ds.Raw(ordered.JSON(v))
}

// fileMembers are the members of an entry in the file, in file order,
// repeated ones too: read once per entry, with gjson rather than decoded
// into a map, for both the merge of preserved members and keepUnwritten
// (it runs for every entry of every tool on every sync). ok is false for
// an entry that is not a valid JSON object, from which nothing is taken.
type fileMembers struct {
	list []fileMember
	ok   bool
}

type fileMember struct{ key, raw string }

func readMembers(cur []byte) fileMembers {
	if !gjson.ValidBytes(cur) {
		return fileMembers{}
	}
	r := gjson.ParseBytes(cur)
	if !r.IsObject() {
		return fileMembers{}
	}
	m := fileMembers{ok: true}
	r.ForEach(func(k, v gjson.Result) bool {
		m.list = append(m.list, fileMember{k.String(), v.Raw})
		return true
	})
	return m
}

// currentMembers are the preserved members of the entry in the file. As
// decoding would, it takes the last of repeated members.
func currentMembers(cur fileMembers, preserve []string) (map[string][]byte, bool) {
	if len(preserve) == 0 || !cur.ok {
		return nil, false
	}
	found := make(map[string][]byte, len(preserve))
	for _, m := range cur.list {
		if slices.Contains(preserve, m.key) {
			found[m.key] = []byte(m.raw)
		}
	}
	return found, true
}

// keepUnwritten returns want with the members of cur, the entry in the
// file, that no tool of the target writes (written): what the tool or the
// user added to a managed entry — Claude Code's oauth, a $schema — which
// is theirs and stays, in the order the file has them, after repo's
// members. Each counts once, with its last value, as decoding would take
// it. An entry that is not a JSON object keeps nothing.
func keepUnwritten(want ordered.Object, cur fileMembers, written []string) ordered.Object {
	if !cur.ok {
		return want
	}
	var kept ordered.Object
	for _, m := range cur.list {
		if slices.Contains(written, m.key) {
			continue
		}
		if _, ok := want.Get(m.key); ok {
			continue
		}
		kept = kept.Set(m.key, json.RawMessage(m.raw))
	}
	if len(kept) == 0 {
		return want
	}
	return append(slices.Clip(want), kept...)
}
