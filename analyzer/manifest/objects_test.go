package manifest

// Objects returns the objects of every document of the file, parsing
// skipped documents: what the tests of this package look at. Production
// code goes through the workspace's index, which parses only what it
// needs.
func (f *File) Objects() []*Object {
	if f.Template {
		return nil
	}
	var out []*Object
	for _, d := range f.Docs {
		out = append(out, d.Objects()...)
	}
	return out
}
