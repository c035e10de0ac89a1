package toolprofiles

// The supported-tools page is generated from the built-in profiles;
// TestSupportedToolsDoc fails when it is out of date.
//go:generate go run ./internal/gendocs -o ../docs/supported-tools.md
