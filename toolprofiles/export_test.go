package toolprofiles

// BuiltinFirst is what the first call of Builtin in a process gets, for
// the tests that check that call in a fresh process.
var BuiltinFirst = &builtinFirst
