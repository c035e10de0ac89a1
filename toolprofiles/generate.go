package toolprofiles

// The built-in profiles are compiled from profiles/*.toml, and the
// supported-tools page is generated from them (so this order);
// TestBuiltinMatchesTOML and TestSupportedToolsDoc fail when either is out
// of date.
//go:generate go run -tags repodev ./internal/genprofiles -o builtin_gen.go
//go:generate go run -tags repodev ./internal/gendocs -o ../docs/supported-tools.md -authors ../docs/extension-authors.md
