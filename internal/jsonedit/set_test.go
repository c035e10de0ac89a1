package jsonedit

// set is the one-entry edit the tests are written in: Insert or Replace,
// as the object has the key or not. The batch edits are held to the bytes
// of a set of each entry in turn.

// set inserts the member key: value into the object at path, or replaces the
// value if key exists. Missing objects along path are created. value must be
// valid JSON (normally compact); it is pretty-printed at the member's
// indentation, keeping its member order. set returns a new Doc; d is
// unchanged. A path segment that is not an object is a *TypeError, a
// duplicate key in an object on the path a *DuplicateKeyError.
func (d *Doc) set(path []string, key string, value []byte) (*Doc, error) {
	kvs := []KeyValue{{key, value}}
	if err := checkMembers("Set", path, kvs); err != nil {
		return nil, err
	}
	objs, null, err := d.walkNull(path)
	if err != nil {
		return nil, err
	}
	if len(objs) == len(path)+1 && objs[len(path)].index(key) >= 0 {
		return d.replace(objs, path, kvs)
	}
	return d.insert(objs, null, path, kvs)
}
