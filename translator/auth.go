package translator

import (
	"strconv"
	"strings"

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
	e := &t.profile.Entry
	format := e.Remote.Auth
	var members, missing []string
	set := func(path []string, v any) {
		entry = setPath(entry, path, v)
		if len(path) > 0 && !contains(members, path[0]) {
			members = append(members, path[0])
		}
	}
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
	var parts []toolprofiles.AuthPart
	if format != nil {
		parts = format.Parts()
	} else {
		parts = (*toolprofiles.AuthFormat)(nil).Parts()
	}
	oauthWritten := false
	for _, p := range parts {
		v, ok := given[p.Name]
		if !ok {
			continue
		}
		f := p.Field
		if f == nil {
			missing = append(missing, p.Name)
			continue
		}
		switch p.Name {
		case "oauth.clientSecret":
			name := strings.TrimSuffix(strings.TrimPrefix(v.(string), "${"), "}")
			if !f.Ref || noRef || e.EnvRef == "" {
				// Only a reference may be written, and the tool reads none here.
				missing = append(missing, p.Name+" (it takes no environment reference there)")
				continue
			}
			v = strings.ReplaceAll(e.EnvRef, "NAME", name)
		case "oauth.callbackPort":
			if f.Format != "" {
				v = strings.ReplaceAll(f.Format, "{port}", strconv.Itoa(v.(int)))
			}
		case "oauth.scopes":
			if f.Join != "" {
				v = strings.Join(v.([]string), f.Join)
			}
		}
		set(f.Path, v)
		if strings.HasPrefix(p.Name, "oauth.") {
			oauthWritten = true
		}
	}
	if oauthWritten && format != nil && len(format.Enable) > 0 {
		set(format.Enable, true)
	}
	if a.OAuth != nil && len(given) == 0 && format != nil && len(format.Enable) > 0 {
		// An empty oauth asks for OAuth with the tool's defaults: where
		// the tool has a switch for it, it is switched on.
		set(format.Enable, true)
	}
	if len(missing) > 0 {
		t.warn("%s has no field for %s: not written, so the tool authenticates without it", t.profile.Name, strings.Join(missing, ", "))
	}
	return entry, members
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
