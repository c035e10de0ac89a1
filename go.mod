module github.com/repo-manager/repo

go 1.24.0

require (
	github.com/aymanbagabas/go-udiff v0.4.1
	github.com/goccy/go-yaml v1.19.2
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/rogpeppe/go-internal v1.14.1
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/spf13/cobra v1.10.2
	github.com/tidwall/gjson v1.20.0
	github.com/tidwall/jsonc v0.3.3
	github.com/tidwall/pretty v1.2.0
	github.com/tidwall/sjson v1.2.5
	golang.org/x/sys v0.26.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	golang.org/x/text v0.14.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
