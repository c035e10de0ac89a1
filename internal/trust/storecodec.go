package trust

import (
	"github.com/repo-manager/repo/internal/setting"
	"github.com/repo-manager/repo/internal/stdjson"
)

// decodeStore reads the store's file as Store.Bytes writes it, without
// reflection: a sync opens the store on every run, and a store of a
// thousand trusted servers (700 KB: each keeps the definition the user
// saw) took encoding/json about a tenth of such a sync's time.
//
// It takes the members Store.Bytes writes, each once (map keys sorted, as
// the encoder writes them), the strings and numbers internal/stdjson
// reads, null only for a list of tools (as the encoder writes a missing
// include_tools; null leaves a list empty either way), and any white
// space. Anything else — a member it does not know or sees twice, another
// spelling of a name, another form of a value — gives ok false, and Open
// reads the file with encoding/json as before: so for every file this
// reader takes, encoding/json reads the same (FuzzStoreDecode; and
// TestStoreReaderKnowsEveryMember fails for a member added to the types
// and not here — the settings come from internal/setting's table), and
// encoding/json alone says what is wrong with a damaged file.
func decodeStore(data []byte) (f storeFile, ok bool) {
	r := stdjson.NewReader(data)
	ok = r.Object(func(key string) bool {
		switch key {
		case "version":
			f.Version, ok = r.Int()
		case "root":
			f.Root, ok = r.Str()
		case "trusted":
			f.Trusted = map[string]Entry{}
			ok = r.SortedObject(func(name string) bool {
				var e Entry
				ok := entry(r, &e)
				f.Trusted[name] = e
				return ok
			})
		case "synced":
			f.Synced, ok = r.StringMap()
		case "approved":
			f.Approved = map[string]map[string]string{}
			ok = r.SortedObject(func(tool string) bool {
				m, ok := r.StringMap()
				f.Approved[tool] = m
				return ok
			})
		default:
			return false
		}
		return ok
	})
	return f, ok && r.AtEnd()
}

func entry(r *stdjson.Reader, e *Entry) bool {
	return r.Object(func(key string) bool {
		switch key {
		case "digest":
			var ok bool
			e.Digest, ok = r.Str()
			return ok
		case "definition":
			return definition(r, &e.Definition)
		}
		return false
	})
}

func definition(r *stdjson.Reader, d *Definition) bool {
	return r.Object(func(key string) bool {
		var ok bool
		switch key {
		case "extension":
			d.Extension, ok = r.Str()
		case "transport":
			d.Transport, ok = r.Str()
		case "command":
			d.Command, ok = r.Str()
		case "args":
			d.Args, ok = r.Strings()
		case "cwd":
			d.Cwd, ok = r.Str()
		case "env":
			d.Env, ok = readPairs(r)
		case "url":
			d.URL, ok = r.Str()
		case "headers":
			d.Headers, ok = readPairs(r)
		case "headers_helper":
			d.HeadersHelper, ok = r.Str()
		case "oauth":
			d.OAuth = &OAuth{}
			ok = oauth(r, d.OAuth)
		case "profiles":
			ok = r.Array(func() bool {
				var p Profile
				ok := r.Object(func(key string) bool {
					var ok bool
					switch key {
					case "id":
						p.ID, ok = r.Str()
					case "origin":
						p.Origin, ok = r.Str()
					case "digest":
						p.Digest, ok = r.Str()
					}
					return ok
				})
				d.Profiles = append(d.Profiles, p)
				return ok
			})
			if ok && d.Profiles == nil {
				d.Profiles = []Profile{} // [] reads as an empty list, not none
			}
		default:
			// the settings (settings_gen.go), by the table: a row added
			// there needs nothing here
			ok = readSetting(r, &d.Settings, key)
		}
		return ok
	})
}

// readSetting reads the setting whose member in a definition is key.
func readSetting(r *stdjson.Reader, s *Settings, key string) bool {
	for _, row := range trustedSettings.Get() {
		if row.Trust != key {
			continue
		}
		switch row.Kind {
		case setting.Bool:
			v, ok := r.Bool()
			s.setBool(row.Name, v)
			return ok
		case setting.Tools:
			if r.Lit("null") {
				return true // none, as the field starts
			}
			v, ok := r.Strings()
			s.setTools(row.Name, v)
			return ok
		}
		return false
	}
	return false
}

func oauth(r *stdjson.Reader, o *OAuth) bool {
	return r.Object(func(key string) bool {
		var ok bool
		switch key {
		case "client_id":
			o.ClientID, ok = r.Str()
		case "client_secret":
			o.ClientSecret, ok = r.Str()
		case "callback_port":
			o.CallbackPort, ok = r.Int()
		case "scopes":
			o.Scopes, ok = r.Strings()
		case "auth_server_metadata_url":
			o.AuthServerMetadataURL, ok = r.Str()
		}
		return ok
	})
}

func readPairs(r *stdjson.Reader) ([]Pair, bool) {
	out := []Pair{} // [] reads as an empty list, not none
	ok := r.Array(func() bool {
		var p Pair
		ok := r.Object(func(key string) bool {
			var ok bool
			switch key {
			case "name":
				p.Name, ok = r.Str()
			case "value":
				p.Value, ok = r.Str()
			}
			return ok
		})
		out = append(out, p)
		return ok
	})
	return out, ok
}
