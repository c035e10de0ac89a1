package setting

// The structs that hold settings, the docs' settings tables and the JSON
// schemas' settings are generated from Table (so before ./toolprofiles,
// whose generators compile the generated struct); TestGeneratedAreCurrent
// fails when one is stale.
//go:generate go run -tags repodev ./internal/gensettings -root ../..
