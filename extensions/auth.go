package extensions

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/internal/lazy"
)

// Auth is how a remote server authenticates, in words no tool owns: an
// OAuth client the tool registers as, and a command that prints headers.
// Each tool gets the parts it has fields for (toolprofiles.AuthFormat).
// Nothing in it is resolved: it is written as the author gave it.
type Auth struct {
	// OAuth, when given: the client the tool signs in as. Its members are
	// each optional; an empty OAuth asks for none of them.
	OAuth *OAuth
	// HeadersHelper is a command the tool runs to get headers (a short-lived
	// token): it prints a JSON object of header names and values.
	HeadersHelper string
}

// OAuth is a pre-registered OAuth client for a remote server.
type OAuth struct {
	ClientID string
	// ClientSecret is an environment reference (${NAME}), never the secret:
	// the tool reads it where it can, and is told nothing elsewhere.
	ClientSecret string
	// CallbackPort is the fixed loopback port of the redirect the client is
	// registered with; 0: the tool picks one.
	CallbackPort int
	Scopes       []string
	// AuthServerMetadataURL is where the authorization server's metadata is
	// (https), for servers that do not advertise it.
	AuthServerMetadataURL string
}

// IsZero reports whether nothing of the authentication was given.
func (a *Auth) IsZero() bool { return a == nil || a.OAuth == nil && a.HeadersHelper == "" }

var authFields = []string{"oauth", "headersHelper"}

var oauthFields = "clientId, clientSecret, callbackPort, scopes, authServerMetadataUrl"

// secretRef is the only form a client secret may take: one environment
// reference, so that the secret itself never reaches a file. Compiled on
// first use, not at start-up (bench/run.sh, startup cases).
var secretRef = lazy.Regexp{Expr: `^\$\{[A-Za-z_][A-Za-z0-9_]*\}$`}

// parseAuth reads member field (oauth or headersHelper) of a server entry
// into d.Auth; ok is false when field is neither.
func parseAuth(d *Declaration, server, field string, f gjson.Result, fail failFunc) (ok bool, err error) {
	switch field {
	case "headersHelper":
		if f.Type != gjson.String {
			return true, fail(f.Index, server, field, "must be a string (a command that prints the headers as a JSON object), not "+kind(f))
		}
		if strings.TrimSpace(f.String()) == "" {
			return true, fail(f.Index, server, field, "must not be empty")
		}
		d.auth().HeadersHelper = f.String()
	case "oauth":
		o, err := parseOAuth(server, f, fail)
		if err != nil {
			return true, err
		}
		d.auth().OAuth = o
	default:
		return false, nil
	}
	return true, nil
}

func (d *Declaration) auth() *Auth {
	if d.Auth == nil {
		d.Auth = &Auth{}
	}
	return d.Auth
}

func parseOAuth(server string, f gjson.Result, fail failFunc) (*OAuth, error) {
	if !f.IsObject() {
		return nil, fail(f.Index, server, "oauth", "must be an object ("+oauthFields+"), not "+kind(f))
	}
	o := &OAuth{}
	seen := map[string]bool{}
	var err error
	f.ForEach(func(k, v gjson.Result) bool {
		name := "oauth." + k.String()
		if seen[k.String()] {
			err = fail(k.Index, server, name, "appears twice")
			return false
		}
		seen[k.String()] = true
		str := func() (string, bool) {
			if v.Type != gjson.String {
				err = fail(v.Index, server, name, "must be a string, not "+kind(v))
				return "", false
			}
			if strings.TrimSpace(v.String()) == "" {
				err = fail(v.Index, server, name, "must not be empty")
				return "", false
			}
			return v.String(), true
		}
		switch k.String() {
		case "clientId":
			o.ClientID, _ = str()
		case "clientSecret":
			s, ok := str()
			if ok && !secretRef.Get().MatchString(s) {
				err = fail(v.Index, server, name, "must be an environment reference such as \"${MY_CLIENT_SECRET}\", never the secret itself: the files repo writes are committed or shared")
			}
			o.ClientSecret = s
		case "callbackPort":
			n := v.Float()
			if v.Type != gjson.Number || n != float64(int(n)) || n < 1 || n > 65535 {
				err = fail(v.Index, server, name, fmt.Sprintf("%s: give a port number, 1 to 65535", v.Raw))
			}
			o.CallbackPort = int(n)
		case "scopes":
			o.Scopes, err = toolNames(v, server, name, fail)
			if err == nil && len(o.Scopes) == 0 {
				err = fail(v.Index, server, name, "an empty list asks for no scope: leave scopes out for the server's default")
			}
			for i, s := range o.Scopes {
				if err == nil && strings.ContainsAny(s, " \t") {
					err = fail(v.Index, server, fmt.Sprintf("%s[%d]", name, i), fmt.Sprintf("%q: one scope per string", s))
				}
			}
		case "authServerMetadataUrl":
			s, ok := str()
			if ok && !strings.HasPrefix(s, "https://") {
				err = fail(v.Index, server, name, fmt.Sprintf("%q: the metadata URL must use https://", s))
			}
			o.AuthServerMetadataURL = s
		default:
			err = fail(k.Index, server, name, "unknown field (known: "+oauthFields+")")
		}
		return err == nil
	})
	if err != nil {
		return nil, err
	}
	if o.ClientSecret != "" && o.ClientID == "" {
		return nil, fail(f.Index, server, "oauth.clientSecret", "a client secret needs its clientId")
	}
	return o, nil
}
