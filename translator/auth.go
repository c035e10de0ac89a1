package translator

import (
	"strconv"
	"strings"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/toolprofiles"
)

// auth writes a remote server's authentication into entry, each part in
// the member the profile names for it (entry.remote.auth), and returns
// the entry with the top-level members it wrote. A part the tool has no
// field for is named in one warning.
func (t *translation) auth(entry ordered.Object, noRef bool) (ordered.Object, []string) {
	a := t.server.Auth
	if a.IsZero() {
		return entry, nil
	}
	format := t.profile.Entry.Remote.Auth
	w := authWrite{entry: entry}
	given := givenAuth(a)
	var missing []string
	oauthWritten := false
	for _, p := range format.Parts() {
		v, ok := given[p.Name]
		if !ok {
			continue
		}
		v, why := t.authValue(p, v, noRef)
		if why != "" {
			missing = append(missing, why)
			continue
		}
		w.set(p.Field.Path, v)
		oauthWritten = oauthWritten || strings.HasPrefix(p.Name, "oauth.")
	}
	// Where the tool has a switch for OAuth, it is switched on when a part
	// of OAuth was written, and for an empty oauth, which asks for OAuth
	// with the tool's defaults.
	if format != nil && len(format.Enable) > 0 && (oauthWritten || a.OAuth != nil && len(given) == 0) {
		w.set(format.Enable, true)
	}
	if len(missing) > 0 {
		t.warn("%s has no field for %s: not written, so the tool authenticates without it", t.profile.Name, strings.Join(missing, ", "))
	}
	return w.entry, w.members
}

// authWrite is an entry being given authentication, and the top-level
// members written to it so far.
type authWrite struct {
	entry   ordered.Object
	members []string
}

// set writes v at path, making the objects on the way.
func (w *authWrite) set(path []string, v any) {
	w.entry = setPath(w.entry, path, v)
	if len(path) > 0 && !contains(w.members, path[0]) {
		w.members = append(w.members, path[0])
	}
}

// givenAuth returns the parts of the authentication a gives, by the names
// of toolprofiles.AuthPart.
func givenAuth(a *extensions.Auth) map[string]any {
	given := map[string]any{}
	if o := a.OAuth; o != nil {
		if o.ClientID != "" {
			given["oauth.clientId"] = o.ClientID
		}
		if o.ClientSecret != "" {
			given["oauth.clientSecret"] = o.ClientSecret
		}
		if o.CallbackPort != 0 {
			given["oauth.callbackPort"] = o.CallbackPort
		}
		if o.Scopes != nil {
			given["oauth.scopes"] = o.Scopes
		}
		if o.AuthServerMetadataURL != "" {
			given["oauth.authServerMetadataUrl"] = o.AuthServerMetadataURL
		}
	}
	if a.HeadersHelper != "" {
		given["headersHelper"] = a.HeadersHelper
	}
	return given
}

// authValue returns the given value v of part p as the tool's field takes
// it, or why it is not written (what the warning names): the tool has no
// field for it, or, for the client secret, takes no environment reference
// there (noRef: none at all).
func (t *translation) authValue(p toolprofiles.AuthPart, v any, noRef bool) (any, string) {
	f := p.Field
	if f == nil {
		return nil, p.Name
	}
	switch p.Name {
	case "oauth.clientSecret":
		e := &t.profile.Entry
		name := strings.TrimSuffix(strings.TrimPrefix(v.(string), "${"), "}")
		if !f.Ref || noRef || e.EnvRef == "" {
			// Only a reference may be written, and the tool reads none here.
			return nil, p.Name + " (it takes no environment reference there)"
		}
		return strings.ReplaceAll(e.EnvRef, "NAME", name), ""
	case "oauth.callbackPort":
		if f.Format != "" {
			return strings.ReplaceAll(f.Format, "{port}", strconv.Itoa(v.(int))), ""
		}
	case "oauth.scopes":
		if f.Join != "" {
			return strings.Join(v.([]string), f.Join), ""
		}
	}
	return v, ""
}

// setPath sets the member at path in o, making the objects on the way.
func setPath(o ordered.Object, path []string, v any) ordered.Object {
	if len(path) == 1 {
		return o.Set(path[0], v)
	}
	child, _ := o.Get(path[0])
	inner, _ := child.(ordered.Object)
	return o.Set(path[0], setPath(inner, path[1:], v))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
