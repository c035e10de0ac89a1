package toolprofiles

// fakeEnv is an Env with home /h and exactly the variables in vars.
func fakeEnv(goos string, vars map[string]string) Env {
	return Env{
		Home:   "/h",
		GOOS:   goos,
		Getenv: func(name string) string { return vars[name] },
	}
}
