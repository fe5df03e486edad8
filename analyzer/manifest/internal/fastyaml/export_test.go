package fastyaml

// Exported for the tests of package fastyaml_test, which import manifest
// (to split files into documents as it does) and so cannot be in package
// fastyaml.
var (
	ResolvePlainTag = resolvePlainTag
	CheckText       = checkText
)
