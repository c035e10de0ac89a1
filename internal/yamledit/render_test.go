package yamledit

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/repo-manager/repo/internal/jsonvalue"
)

func TestQuoteString(t *testing.T) {
	for in, want := range map[string]string{
		"plain":            "plain",
		"a.b":              "a.b",
		"ünï":              "ünï",
		"日本語":              "日本語",
		"with space":       "with space",
		"a#b":              "a#b",
		"a-b":              "a-b",
		"@scope/pkg":       `"@scope/pkg"`,
		"-y":               `"-y"`,
		"--flag":           `"--flag"`,
		"${{ secrets.X }}": "${{ secrets.X }}",
		`C:\Users\me`:      `C:\Users\me`,
		`say "hi"`:         `say "hi"`,
		"it's":             "it's",
		"":                 `""`,
		" lead":            `" lead"`,
		"trail ":           `"trail "`,
		"a: b":             `"a: b"`,
		"a:":               `"a:"`,
		"a #b":             `"a #b"`,
		"#x":               `"#x"`,
		"- x":              `"- x"`,
		"42":               `"42"`,
		"1e3":              `"1e3"`,
		"0x1F":             `"0x1F"`,
		".5":               `".5"`,
		".env":             ".env",
		"+1":               `"+1"`,
		"true":             `"true"`,
		"True":             `"True"`,
		"no":               `"no"`,
		"Y":                `"Y"`,
		"off":              `"off"`,
		"null":             `"null"`,
		"~":                `"~"`,
		".inf":             `".inf"`,
		".NaN":             `".NaN"`,
		"<<":               `"<<"`,
		"---":              `"---"`,
		"...x":             `"...x"`,
		`"quoted"`:         `"\"quoted\""`,
		"'single'":         `"'single'"`,
		"[x]":              `"[x]"`,
		"{x}":              `"{x}"`,
		"*x":               `"*x"`,
		"&x":               `"&x"`,
		"!x":               `"!x"`,
		"|x":               `"|x"`,
		">x":               `">x"`,
		"%x":               `"%x"`,
		"`x":               "\"`x\"",
		"?x":               `"?x"`,
		",x":               `",x"`,
		"tab\there":        `"tab\there"`,
		"new\nline":        `"new\nline"`,
		"cr\rx":            `"cr\rx"`,
		"ctl\x01":          `"ctl\u0001"`,
		"del\x7f":          `"del\u007F"`,
		"nbsp\u00a0x":      `"nbsp\u00A0x"`,
		"bom\ufeffx":       `"bom\uFEFFx"`,
		"ls\u2028x":        `"ls\u2028x"`,
		"tag\U000E0001":    `"tag\U000E0001"`,
		"emoji😀":           "emoji😀",
		`back\slash "q"#1`: `back\slash "q"#1`,
	} {
		if got := quoteString(in); got != want {
			t.Errorf("quoteString(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestRenderNumber(t *testing.T) {
	for in, want := range map[string]string{
		"0":                       "0",
		"-0":                      "-0",
		"300":                     "300",
		"-17":                     "-17",
		"18446744073709551615":    "18446744073709551615",
		"18446744073709551616":    "1.8446744073709551616e+19",
		"-9223372036854775809":    "-9.223372036854775809e+18",
		"1.5":                     "1.5",
		"-0.25":                   "-0.25",
		"1.5e+3":                  "1.5e+3",
		"1.5E-3":                  "1.5E-3",
		"1e3":                     "1.0e+3",
		"1E3":                     "1.0e+3",
		"1.5e3":                   "1.5e+3",
		"0.001e5":                 "1.0e+2",
		"100e-2":                  "1.0e+0",
		"123.456e2":               "1.23456e+4",
		"0e0":                     "0.0e+0",
		"1e-400":                  "1.0e-400",
		"12345678901234567890123": "1.2345678901234567890123e+22",
	} {
		got, err := renderNumber(in)
		if err != nil || got != want {
			t.Errorf("renderNumber(%s) = %s, %v; want %s", in, got, err, want)
		}
		// Whatever the form, it reads back as the same number.
		if fj, ok := floatOrInt(got); ok {
			if !jsonvalue.SameNumber(json.Number(in), json.Number(fj)) {
				t.Errorf("renderNumber(%s) = %s reads back as %s", in, got, fj)
			}
		}
	}
	for _, in := range []string{"1e400", "-1e309", "1e99999999999999999999"} {
		var ve *ValueError
		if _, err := renderNumber(in); !errors.As(err, &ve) {
			t.Errorf("renderNumber(%s): got %v, want a *ValueError", in, err)
		}
	}
}

// floatOrInt converts a rendered number as the converter would read it.
func floatOrInt(s string) (string, bool) {
	d, err := Parse([]byte("v: " + s + "\n"))
	if err != nil {
		return "", false
	}
	js, err := d.newConverter().toJSON(d.root.Values[0].Value)
	if err != nil {
		return "", false
	}
	return string(js), true
}

func TestMarkerName(t *testing.T) {
	for in, want := range map[string]string{
		"srv":        "srv",
		"a: b":       "a: b",
		"#x":         "#x",
		"ünï":        "ünï",
		"":           `""`,
		" lead":      `" lead"`,
		"new\nline":  `"new\nline"`,
		`"quoted"`:   `"\"quoted\""`,
		"tab\there":  `"tab\there"`,
		"emoji😀":     "emoji😀",
		"x # <<< y":  "x # <<< y",
		"with space": "with space",
	} {
		if got := markerName(in); got != want {
			t.Errorf("markerName(%q) = %s, want %s", in, got, want)
		}
	}
}
