// Package kustomize builds kustomizations in-process with kustomize's own
// library (sigs.k8s.io/kustomize/api krusty), as `kustomize build` does
// with its defaults: load restrictions on (files only from a
// kustomization's own directory tree), no plugins, no exec or container
// functions, no Helm inflation. It never reaches the network: the tree is
// read, confined to its root, into an in-memory filesystem, and remote
// resources and bases are left out of the build (reported once each). That
// filesystem creates only names of [a-zA-Z0-9-_.:]; namedFS holds other
// names ("prod+eu", "my deploy.yaml") escaped and gives them to kustomize
// as they are on disk.
//
// Data flow:
//
//	tree root -> NewTree    files read once (symbolic links out refused);
//	                        kustomization files read; remote entries found
//	                        and cut; origin annotations turned on
//	          -> Roots      the kustomizations no other includes
//	          -> Build      krusty, bounded in time and output
//	          -> render.Output: the built stream, with a locator mapping
//	             each field back to the patch that set it (strategic merge
//	             or JSON 6902), else to the resource file it came from
package kustomize
