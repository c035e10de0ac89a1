package cmd

import "time"

// lockTimeout is how long a run waits for a lock another repo run holds:
// REPO_LOCK_TIMEOUT, else 30 s.
func lockTimeout(f *Factory) (time.Duration, error) {
	v := f.Getenv("REPO_LOCK_TIMEOUT")
	if v == "" {
		return 30 * time.Second, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, usagef("REPO_LOCK_TIMEOUT=%q: give a duration such as 30s", v)
	}
	return d, nil
}
