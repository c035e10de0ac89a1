package extensions

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/pelletier/go-toml/v2"

	"github.com/repo-manager/repo/internal/cleanpath"
	"github.com/repo-manager/repo/internal/regfile"
)

// Config is repo's part of the workspace's .repository/config.toml: the
// [mcp] table. The rest of the file belongs to the repo manager and is not
// read here.
type Config struct {
	Tools []string `toml:"tools"` // tool ids written by default
	Set   bool     // whether the file has an [mcp] table with tools
	// Portable: a tool with a variable for the workspace folder gets it
	// instead of the absolute root, so that its file is the same on every
	// clone (see README "Committed and ignored files"). Nil when the file
	// does not say: the command decides (cmd/policy.go); false is the
	// team's no.
	Portable *bool
	// Gitignore: the files whose content depends on the machine are each
	// developer's own. repo keeps a block listing them in the workspace's
	// .gitignore and records their entries per clone, not in the committed
	// record (see writers.Env.Gitignore). Nil when the file does not say;
	// false: the team commits them, with the paths of whoever synced.
	Gitignore *bool
}

// ConfigFile is the workspace config, relative to the root.
const ConfigFile = ".repository/config.toml"

// LoadConfig reads the [mcp] table strictly; a missing file or table is an
// empty config.
func LoadConfig(root string) (Config, error) {
	data, err := regfile.ReadFile(cleanpath.Join(root, filepath.FromSlash(ConfigFile)))
	if errors.Is(err, fs.ErrNotExist) {
		return Config{}, nil
	}
	if err != nil {
		return Config{}, &Error{File: ConfigFile, Msg: "cannot read: " + describe(err)}
	}
	// Tool ids are printed; the repo manager's own tables are its own.
	if err := printable(data, ConfigFile, "", func(key []string) bool { return key[0] == "mcp" }); err != nil {
		return Config{}, err
	}
	// First pass: the whole file, loosely, to find [mcp] without judging
	// the repo manager's own keys.
	var loose struct {
		MCP map[string]any `toml:"mcp"`
	}
	if err := toml.Unmarshal(data, &loose); err != nil {
		return Config{}, tomlError(err, data, configTypes.Get(), ConfigFile, "")
	}
	if loose.MCP == nil {
		return Config{}, nil
	}
	// Second pass: [mcp] strictly, so a misspelt key is reported.
	var strict struct {
		MCP struct {
			Tools     []string `toml:"tools"`
			Portable  *bool    `toml:"portable"`
			Gitignore *bool    `toml:"gitignore"`
		} `toml:"mcp"`
	}
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&strict); err != nil {
		var serr *toml.StrictMissingError
		if errors.As(err, &serr) {
			for _, e := range serr.Errors {
				if k := e.Key(); len(k) > 0 && k[0] == "mcp" {
					row, col := e.Position()
					return Config{}, &Error{File: ConfigFile, Line: row, Col: col, Field: joinKey(k), Msg: "unknown key (the [mcp] table takes: tools, portable, gitignore)"}
				}
			}
			// unknown keys outside [mcp] belong to the repo manager
		} else {
			return Config{}, tomlError(err, data, configTypes.Get(), ConfigFile, "")
		}
	}
	return Config{Tools: strict.MCP.Tools, Set: strict.MCP.Tools != nil, Portable: strict.MCP.Portable, Gitignore: strict.MCP.Gitignore}, nil
}

func joinKey(k []string) string {
	out := ""
	for i, s := range k {
		if i > 0 {
			out += "."
		}
		out += s
	}
	return out
}
