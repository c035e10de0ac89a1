package jsonedit

import (
	"bytes"
	"strings"
	"testing"
)

// The golden cases specify the formatting behaviour: the expected outputs are
// written out literally.

const claudeJSON = `{
  "numStartups": 42,
  "installMethod": "native",
  "projects": {
    "/home/u/work/app": {
      "allowedTools": [],
      "mcpServers": {
        "existing": {
          "type": "stdio",
          "command": "npx",
          "args": ["-y", "@acme/server"],
          "env": {}
        }
      },
      "hasTrustDialogAccepted": true
    },
    "/home/u/work/other": {
      "allowedTools": [],
      "mcpServers": {}
    }
  },
  "userID": "abc"
}
`

const vscodeMCP = `{
  // 💡 Inputs are prompted on first server start, then stored securely by VS Code.
  "inputs": [
    {
      "type": "promptString",
      "id": "perplexity-key",
      "description": "Perplexity API Key",
      "password": true,
    },
  ],
  "servers": {
    // https://github.com/ppl-ai/modelcontextprotocol/
    "Perplexity": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "server-perplexity-ask"],
      "env": {
        "PERPLEXITY_API_KEY": "${input:perplexity-key}",
      },
    },
  },
}
`

const zedSettings = `// Zed settings
//
// For information on how to configure Zed, see the Zed
// documentation: https://zed.dev/docs/configuring-zed
{
  "ui_font_size": 16,
  "theme": {
    "mode": "system",
    "light": "One Light",
    "dark": "One Dark"
  },
  // "context_servers": {"old": {"command": {"path": "old"}}},
  "context_servers": {
    "postgres": {
      "command": "npx",
      "args": ["-y", "@zed/postgres-context-server"]
    }
  }
}
`

const openCode = `{
  "$schema": "https://opencode.ai/config.json",
  // MCP servers
  "mcp": {
    "jira": {
      "type": "remote",
      "url": "https://jira.example.com/mcp",
      "enabled": true
    }
  }
}
`

const geminiSettings = `{
  // Theme
  "theme": "GitHub",
  "mcpServers": {
    "pythonTools": {
      "command": "python",
      "args": ["-m", "my_mcp_server"], // the module
      "cwd": "./mcp-servers/python"
    }
  }
}
`

const mcpJSON = `{
  "mcpServers": {
    "a": {
      "command": "x"
    }
  }
}
`

type editCase struct {
	name    string
	dialect Dialect
	in      string
	del     bool // Delete instead of Set
	path    []string
	key     string
	value   string
	want    string
}

var goldenCases = []editCase{
	{
		name:  "claude/insert after existing server",
		in:    claudeJSON,
		path:  []string{"projects", "/home/u/work/app", "mcpServers"},
		key:   "repo",
		value: `{"type":"stdio","command":"repo","args":["mcp","serve"],"env":{"A":"1"}}`,
		want: `{
  "numStartups": 42,
  "installMethod": "native",
  "projects": {
    "/home/u/work/app": {
      "allowedTools": [],
      "mcpServers": {
        "existing": {
          "type": "stdio",
          "command": "npx",
          "args": ["-y", "@acme/server"],
          "env": {}
        },
        "repo": {
          "type": "stdio",
          "command": "repo",
          "args": ["mcp", "serve"],
          "env": {
            "A": "1"
          }
        }
      },
      "hasTrustDialogAccepted": true
    },
    "/home/u/work/other": {
      "allowedTools": [],
      "mcpServers": {}
    }
  },
  "userID": "abc"
}
`,
	},
	{
		name:  "claude/insert into empty mcpServers",
		in:    claudeJSON,
		path:  []string{"projects", "/home/u/work/other", "mcpServers"},
		key:   "repo",
		value: `{"command":"repo"}`,
		want: `{
  "numStartups": 42,
  "installMethod": "native",
  "projects": {
    "/home/u/work/app": {
      "allowedTools": [],
      "mcpServers": {
        "existing": {
          "type": "stdio",
          "command": "npx",
          "args": ["-y", "@acme/server"],
          "env": {}
        }
      },
      "hasTrustDialogAccepted": true
    },
    "/home/u/work/other": {
      "allowedTools": [],
      "mcpServers": {
        "repo": {
          "command": "repo"
        }
      }
    }
  },
  "userID": "abc"
}
`,
	},
	{
		name:  "claude/create project and mcpServers under existing projects",
		in:    claudeJSON,
		path:  []string{"projects", "/abs/root", "mcpServers"},
		key:   "repo",
		value: `{"command":"repo","args":["mcp"]}`,
		want: `{
  "numStartups": 42,
  "installMethod": "native",
  "projects": {
    "/home/u/work/app": {
      "allowedTools": [],
      "mcpServers": {
        "existing": {
          "type": "stdio",
          "command": "npx",
          "args": ["-y", "@acme/server"],
          "env": {}
        }
      },
      "hasTrustDialogAccepted": true
    },
    "/home/u/work/other": {
      "allowedTools": [],
      "mcpServers": {}
    },
    "/abs/root": {
      "mcpServers": {
        "repo": {
          "command": "repo",
          "args": ["mcp"]
        }
      }
    }
  },
  "userID": "abc"
}
`,
	},
	{
		name:  "claude/replace existing server value only",
		in:    claudeJSON,
		path:  []string{"projects", "/home/u/work/app", "mcpServers"},
		key:   "existing",
		value: `{"command":"npx","args":["-y","@acme/server@2"]}`,
		want: `{
  "numStartups": 42,
  "installMethod": "native",
  "projects": {
    "/home/u/work/app": {
      "allowedTools": [],
      "mcpServers": {
        "existing": {
          "command": "npx",
          "args": ["-y", "@acme/server@2"]
        }
      },
      "hasTrustDialogAccepted": true
    },
    "/home/u/work/other": {
      "allowedTools": [],
      "mcpServers": {}
    }
  },
  "userID": "abc"
}
`,
	},
	{
		name: "claude/delete only server leaves {}",
		in:   claudeJSON,
		del:  true,
		path: []string{"projects", "/home/u/work/app", "mcpServers"},
		key:  "existing",
		want: `{
  "numStartups": 42,
  "installMethod": "native",
  "projects": {
    "/home/u/work/app": {
      "allowedTools": [],
      "mcpServers": {},
      "hasTrustDialogAccepted": true
    },
    "/home/u/work/other": {
      "allowedTools": [],
      "mcpServers": {}
    }
  },
  "userID": "abc"
}
`,
	},
	{
		name: "claude/delete last project removes the previous comma",
		in:   claudeJSON,
		del:  true,
		path: []string{"projects"},
		key:  "/home/u/work/other",
		want: `{
  "numStartups": 42,
  "installMethod": "native",
  "projects": {
    "/home/u/work/app": {
      "allowedTools": [],
      "mcpServers": {
        "existing": {
          "type": "stdio",
          "command": "npx",
          "args": ["-y", "@acme/server"],
          "env": {}
        }
      },
      "hasTrustDialogAccepted": true
    }
  },
  "userID": "abc"
}
`,
	},
	{
		name:  "claude/create top-level mcpServers",
		in:    claudeJSON,
		path:  []string{"mcpServers"},
		key:   "repo",
		value: `{"command":"repo"}`,
		want: strings.TrimSuffix(claudeJSON, "\"userID\": \"abc\"\n}\n") + `"userID": "abc",
  "mcpServers": {
    "repo": {
      "command": "repo"
    }
  }
}
`,
	},
	{
		name:    "vscode/insert keeps trailing-comma style and comments",
		dialect: JSONC,
		in:      vscodeMCP,
		path:    []string{"servers"},
		key:     "repo",
		value:   `{"type":"stdio","command":"repo","args":["mcp"]}`,
		want: `{
  // 💡 Inputs are prompted on first server start, then stored securely by VS Code.
  "inputs": [
    {
      "type": "promptString",
      "id": "perplexity-key",
      "description": "Perplexity API Key",
      "password": true,
    },
  ],
  "servers": {
    // https://github.com/ppl-ai/modelcontextprotocol/
    "Perplexity": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "server-perplexity-ask"],
      "env": {
        "PERPLEXITY_API_KEY": "${input:perplexity-key}",
      },
    },
    "repo": {
      "type": "stdio",
      "command": "repo",
      "args": ["mcp"]
    },
  },
}
`,
	},
	{
		name:    "vscode/delete keeps the comment above",
		dialect: JSONC,
		in:      vscodeMCP,
		del:     true,
		path:    []string{"servers"},
		key:     "Perplexity",
		want: `{
  // 💡 Inputs are prompted on first server start, then stored securely by VS Code.
  "inputs": [
    {
      "type": "promptString",
      "id": "perplexity-key",
      "description": "Perplexity API Key",
      "password": true,
    },
  ],
  "servers": {
    // https://github.com/ppl-ai/modelcontextprotocol/
  },
}
`,
	},
	{
		name:    "vscode/replace drops comments inside the replaced value only",
		dialect: JSONC,
		in:      vscodeMCP,
		path:    []string{"servers", "Perplexity"},
		key:     "env",
		value:   `{"PERPLEXITY_API_KEY":"${input:perplexity-key}","DEBUG":"1"}`,
		want: `{
  // 💡 Inputs are prompted on first server start, then stored securely by VS Code.
  "inputs": [
    {
      "type": "promptString",
      "id": "perplexity-key",
      "description": "Perplexity API Key",
      "password": true,
    },
  ],
  "servers": {
    // https://github.com/ppl-ai/modelcontextprotocol/
    "Perplexity": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "server-perplexity-ask"],
      "env": {
        "PERPLEXITY_API_KEY": "${input:perplexity-key}",
        "DEBUG": "1"
      },
    },
  },
}
`,
	},
	{
		name:    "zed/insert into real context_servers, not the commented-out one",
		dialect: JSONC,
		in:      zedSettings,
		path:    []string{"context_servers"},
		key:     "repo",
		value:   `{"command":"repo","args":["mcp","serve"]}`,
		want: `// Zed settings
//
// For information on how to configure Zed, see the Zed
// documentation: https://zed.dev/docs/configuring-zed
{
  "ui_font_size": 16,
  "theme": {
    "mode": "system",
    "light": "One Light",
    "dark": "One Dark"
  },
  // "context_servers": {"old": {"command": {"path": "old"}}},
  "context_servers": {
    "postgres": {
      "command": "npx",
      "args": ["-y", "@zed/postgres-context-server"]
    },
    "repo": {
      "command": "repo",
      "args": ["mcp", "serve"]
    }
  }
}
`,
	},
	{
		name:    "zed/create context_servers when only a commented-out one exists",
		dialect: JSONC,
		in: `// Zed settings
{
  "ui_font_size": 16,
  // "context_servers": {
  //   "old": {}
  // },
  "vim_mode": true
}
`,
		path:  []string{"context_servers"},
		key:   "repo",
		value: `{"command":"repo"}`,
		want: `// Zed settings
{
  "ui_font_size": 16,
  // "context_servers": {
  //   "old": {}
  // },
  "vim_mode": true,
  "context_servers": {
    "repo": {
      "command": "repo"
    }
  }
}
`,
	},
	{
		name:    "opencode/insert",
		dialect: JSONC,
		in:      openCode,
		path:    []string{"mcp"},
		key:     "repo",
		value:   `{"type":"local","command":["repo","mcp","serve"],"enabled":true,"environment":{"X":"1"}}`,
		want: `{
  "$schema": "https://opencode.ai/config.json",
  // MCP servers
  "mcp": {
    "jira": {
      "type": "remote",
      "url": "https://jira.example.com/mcp",
      "enabled": true
    },
    "repo": {
      "type": "local",
      "command": ["repo", "mcp", "serve"],
      "enabled": true,
      "environment": {
        "X": "1"
      }
    }
  }
}
`,
	},
	{
		name:    "gemini/replace keeps comments around the server",
		dialect: Comments,
		in:      geminiSettings,
		path:    []string{"mcpServers"},
		key:     "pythonTools",
		value:   `{"command":"python3","args":["-m","my_mcp_server"]}`,
		want: `{
  // Theme
  "theme": "GitHub",
  "mcpServers": {
    "pythonTools": {
      "command": "python3",
      "args": ["-m", "my_mcp_server"]
    }
  }
}
`,
	},
	{
		name:    "gemini/insert",
		dialect: Comments,
		in:      geminiSettings,
		path:    []string{"mcpServers"},
		key:     "repo",
		value:   `{"command":"repo"}`,
		want: `{
  // Theme
  "theme": "GitHub",
  "mcpServers": {
    "pythonTools": {
      "command": "python",
      "args": ["-m", "my_mcp_server"], // the module
      "cwd": "./mcp-servers/python"
    },
    "repo": {
      "command": "repo"
    }
  }
}
`,
	},
	{
		name:    "gemini/delete only member leaves {}",
		dialect: Comments,
		in:      geminiSettings,
		del:     true,
		path:    []string{"mcpServers"},
		key:     "pythonTools",
		want: `{
  // Theme
  "theme": "GitHub",
  "mcpServers": {}
}
`,
	},
	{
		name:  "crlf/insert uses CRLF",
		in:    crlf(mcpJSON),
		path:  []string{"mcpServers"},
		key:   "b",
		value: `{"command":"y","args":["1"]}`,
		want: crlf(`{
  "mcpServers": {
    "a": {
      "command": "x"
    },
    "b": {
      "command": "y",
      "args": ["1"]
    }
  }
}
`),
	},
	{
		name: "crlf/delete",
		in: crlf(`{
  "mcpServers": {
    "a": {
      "command": "x"
    },
    "b": {
      "command": "y"
    }
  }
}
`),
		del:  true,
		path: []string{"mcpServers"},
		key:  "a",
		want: crlf(`{
  "mcpServers": {
    "b": {
      "command": "y"
    }
  }
}
`),
	},
	{
		name:  "crlf/new nested path",
		in:    crlf("{\n  \"x\": 1\n}\n"),
		path:  []string{"mcpServers"},
		key:   "b",
		value: `{"command":"y"}`,
		want: crlf(`{
  "x": 1,
  "mcpServers": {
    "b": {
      "command": "y"
    }
  }
}
`),
	},
	{
		name:  "bom/insert keeps the BOM",
		in:    bomStr + mcpJSON,
		path:  []string{"mcpServers"},
		key:   "b",
		value: `{"command":"y"}`,
		want: bomStr + `{
  "mcpServers": {
    "a": {
      "command": "x"
    },
    "b": {
      "command": "y"
    }
  }
}
`,
	},
	{
		name:  "bom/empty object",
		in:    bomStr + "{}",
		path:  []string{"mcpServers"},
		key:   "b",
		value: `{"command":"y"}`,
		want: bomStr + `{
  "mcpServers": {
    "b": {
      "command": "y"
    }
  }
}`,
	},
	{
		name:  "no final newline stays without one",
		in:    strings.TrimSuffix(mcpJSON, "\n"),
		path:  []string{"mcpServers"},
		key:   "b",
		value: `{"command":"y"}`,
		want: `{
  "mcpServers": {
    "a": {
      "command": "x"
    },
    "b": {
      "command": "y"
    }
  }
}`,
	},
	{
		name:  "no final newline/top-level insert",
		in:    "{\n  \"a\": 1\n}",
		path:  nil,
		key:   "b",
		value: `[1,2]`,
		want:  "{\n  \"a\": 1,\n  \"b\": [1, 2]\n}",
	},
	{
		name:  "tabs",
		in:    "{\n\t\"mcpServers\": {\n\t\t\"a\": {\n\t\t\t\"command\": \"x\"\n\t\t}\n\t}\n}\n",
		path:  []string{"mcpServers"},
		key:   "b",
		value: `{"command":"y","env":{"K":"v"}}`,
		want:  "{\n\t\"mcpServers\": {\n\t\t\"a\": {\n\t\t\t\"command\": \"x\"\n\t\t},\n\t\t\"b\": {\n\t\t\t\"command\": \"y\",\n\t\t\t\"env\": {\n\t\t\t\t\"K\": \"v\"\n\t\t\t}\n\t\t}\n\t}\n}\n",
	},
	{
		name:  "tabs/new nested path uses tabs",
		in:    "{\n\t\"x\": true\n}\n",
		path:  []string{"mcpServers"},
		key:   "b",
		value: `{"command":"y"}`,
		want:  "{\n\t\"x\": true,\n\t\"mcpServers\": {\n\t\t\"b\": {\n\t\t\t\"command\": \"y\"\n\t\t}\n\t}\n}\n",
	},
	{
		name: "four spaces",
		in: `{
    "mcpServers": {
        "a": {
            "command": "x"
        }
    }
}
`,
		path:  []string{"mcpServers"},
		key:   "b",
		value: `{"command":"y","args":["--flag"]}`,
		want: `{
    "mcpServers": {
        "a": {
            "command": "x"
        },
        "b": {
            "command": "y",
            "args": ["--flag"]
        }
    }
}
`,
	},
	{
		name: "four spaces/empty mcpServers",
		in: `{
    "mcpServers": {}
}
`,
		path:  []string{"mcpServers"},
		key:   "b",
		value: `{"command":"y"}`,
		want: `{
    "mcpServers": {
        "b": {
            "command": "y"
        }
    }
}
`,
	},
	{
		name:  "minified/insert stays on one line",
		in:    `{"mcpServers":{"a":{"command":"x"}},"other":1}`,
		path:  []string{"mcpServers"},
		key:   "b",
		value: `{"command": "y", "args": ["1"]}`,
		want:  `{"mcpServers":{"a":{"command":"x"},"b":{"command":"y","args":["1"]}},"other":1}`,
	},
	{
		name:  "minified/create path",
		in:    `{"other":1}`,
		path:  []string{"mcpServers"},
		key:   "b",
		value: `{"command":"y"}`,
		want:  `{"other":1,"mcpServers":{"b":{"command":"y"}}}`,
	},
	{
		name:  "minified/into empty nested object",
		in:    `{"mcpServers":{},"other":1}` + "\n",
		path:  []string{"mcpServers"},
		key:   "b",
		value: `{"command":"y"}`,
		want:  `{"mcpServers":{"b":{"command":"y"}},"other":1}` + "\n",
	},
	{
		name: "minified/delete middle",
		del:  true,
		in:   `{"mcpServers":{"a":1,"b":2,"c":3}}`,
		path: []string{"mcpServers"},
		key:  "b",
		want: `{"mcpServers":{"a":1,"c":3}}`,
	},
	{
		name: "minified/delete last",
		del:  true,
		in:   `{"mcpServers":{"a":1,"b":2,"c":3}}`,
		path: []string{"mcpServers"},
		key:  "c",
		want: `{"mcpServers":{"a":1,"b":2}}`,
	},
	{
		name: "minified/delete only",
		del:  true,
		in:   `{"mcpServers":{"a":1}}`,
		path: []string{"mcpServers"},
		key:  "a",
		want: `{"mcpServers":{}}`,
	},
	{
		name:  "single-line object in multi-line file copies its spacing",
		in:    "{\n  \"env\": { \"A\": \"1\", \"B\": \"2\" }\n}\n",
		path:  []string{"env"},
		key:   "C",
		value: `"3"`,
		want:  "{\n  \"env\": { \"A\": \"1\", \"B\": \"2\", \"C\": \"3\" }\n}\n",
	},
	{
		name: "single-line object/delete first",
		del:  true,
		in:   "{\n  \"env\": { \"A\": \"1\", \"B\": \"2\" }\n}\n",
		path: []string{"env"},
		key:  "A",
		want: "{\n  \"env\": { \"B\": \"2\" }\n}\n",
	},
	{
		name:  "single-line object/replace is compact",
		in:    "{\n  \"env\": {\"A\": {\"x\": 1}}\n}\n",
		path:  []string{"env"},
		key:   "A",
		value: `{"x": 2, "y": [1, 2]}`,
		want:  "{\n  \"env\": {\"A\": {\"x\":2,\"y\":[1,2]}}\n}\n",
	},
	{
		name:    "single-line JSONC object with trailing comma",
		dialect: JSONC,
		in:      "{\n  \"env\": {\"A\": \"1\",}\n}\n",
		path:    []string{"env"},
		key:     "B",
		value:   `"2"`,
		want:    "{\n  \"env\": {\"A\": \"1\", \"B\": \"2\",}\n}\n",
	},
	{
		name:    "amp.mcpServers is a literal top-level key",
		dialect: JSONC,
		in:      "{\n  \"editor.fontSize\": 14,\n  \"amp.mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n  },\n  \"amp\": {\"mcpServers\": {}}\n}\n",
		path:    []string{"amp.mcpServers"},
		key:     "b",
		value:   `{"command":"y"}`,
		want:    "{\n  \"editor.fontSize\": 14,\n  \"amp.mcpServers\": {\n    \"a\": {\"command\": \"x\"},\n    \"b\": {\n      \"command\": \"y\"\n    }\n  },\n  \"amp\": {\"mcpServers\": {}}\n}\n",
	},
	{
		name:    "amp.mcpServers created as one key",
		dialect: JSONC,
		in:      "{\n  \"editor.fontSize\": 14\n}\n",
		path:    []string{"amp.mcpServers"},
		key:     "b",
		value:   `{"command":"y"}`,
		want:    "{\n  \"editor.fontSize\": 14,\n  \"amp.mcpServers\": {\n    \"b\": {\n      \"command\": \"y\"\n    }\n  }\n}\n",
	},
	{
		name:  "new document",
		in:    "{}\n",
		path:  []string{"mcpServers"},
		key:   "a",
		value: `{"command":"x","args":["y"]}`,
		want:  "{\n  \"mcpServers\": {\n    \"a\": {\n      \"command\": \"x\",\n      \"args\": [\"y\"]\n    }\n  }\n}\n",
	},
	{
		name:    "comments right next to the edited object",
		dialect: JSONC,
		in: `{
  /* before */ "mcpServers": /* between */ { // opening
    "a": {"command": "x"} // after a
    // trailing comment line
  } /* after */,
  "z": 1
}
`,
		path:  []string{"mcpServers"},
		key:   "b",
		value: `{"command":"y"}`,
		want: `{
  /* before */ "mcpServers": /* between */ { // opening
    "a": {"command": "x"}, // after a
    // trailing comment line
    "b": {
      "command": "y"
    }
  } /* after */,
  "z": 1
}
`,
	},
	{
		name:    "comment inside empty object stays",
		dialect: JSONC,
		in: `{
  "mcpServers": {
    // add servers here
  }
}
`,
		path:  []string{"mcpServers"},
		key:   "b",
		value: `{"command":"y"}`,
		want: `{
  "mcpServers": {
    // add servers here
    "b": {
      "command": "y"
    }
  }
}
`,
	},
	{
		name: "closing brace on the last member's line",
		in: `{
  "mcpServers": {
    "a": 1}
}
`,
		path:  []string{"mcpServers"},
		key:   "b",
		value: `2`,
		want: `{
  "mcpServers": {
    "a": 1,
    "b": 2
  }
}
`,
	},
	{
		name:    "block comment spanning lines before the closing brace",
		dialect: JSONC,
		in: `{
  "a": 1 /* one
  two */
}
`,
		path:  nil,
		key:   "b",
		value: `2`,
		want: `{
  "a": 1, /* one
  two */
  "b": 2
}
`,
	},
	{
		name:    "trailing comma at top level is kept, new member gets one",
		dialect: JSONC,
		in:      "{\n  \"a\": 1,\n}\n",
		path:    nil,
		key:     "b",
		value:   `{"c":[]}`,
		want:    "{\n  \"a\": 1,\n  \"b\": {\n    \"c\": []\n  },\n}\n",
	},
	{
		name: "delete first member",
		del:  true,
		in:   "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3\n}\n",
		path: nil,
		key:  "a",
		want: "{\n  \"b\": 2,\n  \"c\": 3\n}\n",
	},
	{
		name:    "delete middle member with its same-line comment",
		dialect: JSONC,
		del:     true,
		in:      "{\n  \"a\": 1,\n  \"b\": 2, // about b\n  \"c\": 3\n}\n",
		path:    nil,
		key:     "b",
		want:    "{\n  \"a\": 1,\n  \"c\": 3\n}\n",
	},
	{
		name:    "delete last member keeps the previous member's comment",
		dialect: JSONC,
		del:     true,
		in:      "{\n  \"a\": 1, // about a\n  \"b\": 2\n}\n",
		path:    nil,
		key:     "b",
		want:    "{\n  \"a\": 1 // about a\n}\n",
	},
	{
		name:    "delete last member with trailing comma keeps trailing-comma style",
		dialect: JSONC,
		del:     true,
		in:      "{\n  \"a\": 1,\n  \"b\": 2,\n}\n",
		path:    nil,
		key:     "b",
		want:    "{\n  \"a\": 1,\n}\n",
	},
	{
		name:    "delete member with comments inside it",
		dialect: JSONC,
		del:     true,
		in:      "{\n  // keep me\n  \"a\": {\n    // goes\n    \"x\": 1 /* goes */\n  },\n  /* keep */ \"b\": 2\n}\n",
		path:    nil,
		key:     "a",
		want:    "{\n  // keep me\n  /* keep */ \"b\": 2\n}\n",
	},
	{
		name:    "delete only member next to a comment keeps the comment",
		dialect: JSONC,
		del:     true,
		in:      "{\n  \"s\": {\n    // the servers\n    \"a\": 1\n  }\n}\n",
		path:    []string{"s"},
		key:     "a",
		want:    "{\n  \"s\": {\n    // the servers\n  }\n}\n",
	},
	{
		name: "delete member sharing a line with the brace",
		del:  true,
		in:   "{ \"a\": 1,\n  \"b\": 2\n}\n",
		path: nil,
		key:  "a",
		want: "{\n  \"b\": 2\n}\n",
	},
	{
		name:  "replace keeps an escaped key's bytes",
		in:    "{\n  \"\\u0061\": {\n    \"x\": 1\n  }\n}\n",
		path:  nil,
		key:   "a",
		value: `{"x":2}`,
		want:  "{\n  \"\\u0061\": {\n    \"x\": 2\n  }\n}\n",
	},
	{
		name:  "replace scalar with object",
		in:    "{\n  \"a\": null,\n  \"b\": 1\n}\n",
		path:  nil,
		key:   "a",
		value: `{"x":[{"y":1}]}`,
		want:  "{\n  \"a\": {\n    \"x\": [\n      {\n        \"y\": 1\n      }\n    ]\n  },\n  \"b\": 1\n}\n",
	},
	{
		name:  "long arrays wrap",
		in:    "{}",
		path:  nil,
		key:   "args",
		value: `["aaaaaaaaaaaaaaaaaaaa","bbbbbbbbbbbbbbbbbbbb","cccccccccccccccccccc","dddddddddd"]`,
		want:  "{\n  \"args\": [\n    \"aaaaaaaaaaaaaaaaaaaa\",\n    \"bbbbbbbbbbbbbbbbbbbb\",\n    \"cccccccccccccccccccc\",\n    \"dddddddddd\"\n  ]\n}",
	},
	{
		name:  "hostile keys are literal",
		in:    mcpJSON,
		path:  []string{"mcpServers"},
		key:   `@x.y*z?#|:0 "q" \`,
		value: `{"command":"y"}`,
		want: `{
  "mcpServers": {
    "a": {
      "command": "x"
    },
    "@x.y*z?#|:0 \"q\" \\": {
      "command": "y"
    }
  }
}
`,
	},
	{
		name:  "all-digit and empty keys in the path",
		in:    "{\n  \"x\": 1\n}\n",
		path:  []string{"0", "", "-1"},
		key:   "42",
		value: `true`,
		want:  "{\n  \"x\": 1,\n  \"0\": {\n    \"\": {\n      \"-1\": {\n        \"42\": true\n      }\n    }\n  }\n}\n",
	},
}

// TestGolden runs every case twice: with the index as it is, and with
// every container in the index (so that edits shift an index full of
// containers around, inside and after the edited object).
func TestGolden(t *testing.T) {
	t.Run("index=512", testGolden)
	defer func(n int) { indexMin = n }(indexMin)
	indexMin = 1
	t.Run("index=all", testGolden)
}

func testGolden(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			d := mustParse(t, tc.in, tc.dialect)
			var (
				nd  *Doc
				err error
			)
			if tc.del {
				nd, err = d.Delete(tc.path, tc.key)
			} else {
				nd, err = d.set(tc.path, tc.key, []byte(tc.value))
			}
			if err != nil {
				t.Fatalf("edit: %v", err)
			}
			if got := string(nd.Bytes()); got != tc.want {
				t.Fatal(diff(got, tc.want))
			}
			if string(d.Bytes()) != tc.in {
				t.Fatal("the original Doc changed")
			}
			if tc.del {
				checkDeleteProperties(t, d, nd, tc.path, tc.key)
				return
			}
			checkSetProperties(t, d, nd, tc.path, tc.key, []byte(tc.value))
			// A new member in a restorable object can be deleted back to the
			// exact original bytes.
			if memberValue(t, d, tc.path, tc.key) == nil && restorable(t, d, tc.path) {
				back, err := nd.Delete(tc.path, tc.key)
				if err != nil {
					t.Fatalf("Delete: %v", err)
				}
				if !bytes.Equal(back.Bytes(), d.Bytes()) {
					t.Fatalf("Delete did not restore the original:\n%s", diff(string(back.Bytes()), tc.in))
				}
			}
		})
	}
}
