package analyzer

import (
	"fmt"
	"strconv"
	"strings"
)

// KubernetesVersion is a Kubernetes minor version, such as 1.35: the
// clusters a repository's manifests are applied to (.scalelint.yaml
// kubernetes-version).
type KubernetesVersion struct{ Major, Minor int }

// DefaultKubernetesVersion is the oldest Kubernetes minor version still
// supported upstream on 2 December 2026, when this default was set: 1.35,
// whose end of life is 28 February 2027
// (https://kubernetes.io/releases/1.35/); 1.34 reached its end of life on
// 27 October 2026 (https://kubernetes.io/releases/1.34/). The supported
// releases are listed at https://kubernetes.io/releases/. Raise it as
// releases reach their end of life; a repository that deploys to older
// clusters says so with kubernetes-version.
var DefaultKubernetesVersion = KubernetesVersion{1, 35}

// String writes the version as 1.35.
func (v KubernetesVersion) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// AtLeast reports whether v is the version major.minor or later.
func (v KubernetesVersion) AtLeast(major, minor int) bool {
	return v.Major > major || (v.Major == major && v.Minor >= minor)
}

// ParseKubernetesVersion reads 1.35, v1.35 or 1.35.2 (the patch is
// ignored).
func ParseKubernetesVersion(s string) (KubernetesVersion, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return KubernetesVersion{}, false
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || p == "" || (len(p) > 1 && p[0] == '0') {
			return KubernetesVersion{}, false
		}
		n[i] = v
	}
	if n[0] != 1 {
		return KubernetesVersion{}, false // there is only Kubernetes 1
	}
	return KubernetesVersion{n[0], n[1]}, true
}
