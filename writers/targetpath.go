package writers

import "github.com/repo-manager/repo/toolprofiles"

// TargetPath is the file a sync writes for t: the first of its candidate
// paths that exists, else the first (repo tools shows it).
func TargetPath(t *toolprofiles.Target, env Env) (string, error) {
	return choosePath(t, env)
}
