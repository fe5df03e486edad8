package fastyaml

import (
	"strconv"
	"strings"
	"time"
)

// resolvePlainTag returns the tag yaml.v3 gives a plain scalar: a port of
// resolve("", in) in go.yaml.in/yaml/v3's resolve.go, returning only the
// tag and avoiding the work (and the allocations of strconv errors) for
// values that cannot be numbers.
func resolvePlainTag(in string) string {
	if in == "" {
		return tagNull
	}
	switch c := in[0]; {
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		if t := resolveMapTag(in); t != "" {
			return t
		}
		return resolveNumberTag(in)
	case c == '.':
		if t := resolveMapTag(in); t != "" {
			return t
		}
		if floatChars(in) {
			if _, err := strconv.ParseFloat(in, 64); err == nil {
				return tagFloat
			}
		}
		return tagStr
	case strings.IndexByte("yYnNtTfFoO~<", c) >= 0:
		if t := resolveMapTag(in); t != "" {
			return t
		}
	}
	return tagStr
}

// resolveMapTag looks in yaml.v3's resolveMap: "" when in is not there.
func resolveMapTag(in string) string {
	switch in {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return tagBool
	case "", "~", "null", "Null", "NULL":
		return tagNull
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF",
		"+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return tagFloat
	case "<<":
		return tagMerge
	}
	return ""
}

// floatChars reports whether s holds only characters strconv.ParseFloat
// may accept in a decimal number without a base prefix (it takes Go's
// digit separators: ".0_0" is a float).
func floatChars(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == '.', c == 'e', c == 'E', c == '+', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}

// resolveNumberTag is the 'D' and 'S' branch of yaml.v3's resolve.
func resolveNumberTag(in string) string {
	if isTimestamp(in) {
		return tagTimestamp
	}
	plain := strings.ReplaceAll(in, "_", "")
	// Every form below is built from digits, letters a-f, x, o, signs and
	// dots; anything else is a string.
	for i := 0; i < len(plain); i++ {
		switch c := plain[i]; {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F',
			c == 'x', c == 'X', c == 'o', c == 'O', c == '+', c == '-', c == '.':
		default:
			return tagStr
		}
	}
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return tagInt
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return tagInt
	}
	if yamlStyleFloat(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return tagFloat
		}
	}
	if strings.HasPrefix(plain, "0b") {
		if _, err := strconv.ParseInt(plain[2:], 2, 64); err == nil {
			return tagInt
		}
		if _, err := strconv.ParseUint(plain[2:], 2, 64); err == nil {
			return tagInt
		}
	} else if strings.HasPrefix(plain, "-0b") {
		if _, err := strconv.ParseInt("-"+plain[3:], 2, 64); err == nil {
			return tagInt
		}
	}
	if strings.HasPrefix(plain, "0o") {
		if _, err := strconv.ParseInt(plain[2:], 8, 64); err == nil {
			return tagInt
		}
		if _, err := strconv.ParseUint(plain[2:], 8, 64); err == nil {
			return tagInt
		}
	} else if strings.HasPrefix(plain, "-0o") {
		if _, err := strconv.ParseInt("-"+plain[3:], 8, 64); err == nil {
			return tagInt
		}
	}
	return tagStr
}

// yamlStyleFloat matches ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$,
// yaml.v3's yamlStyleFloat.
func yamlStyleFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// isTimestamp is yaml.v3's parseTimestamp, reporting only success.
func isTimestamp(s string) bool {
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			break
		}
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, format := range [...]string{
		"2006-1-2T15:4:5.999999999Z07:00",
		"2006-1-2t15:4:5.999999999Z07:00",
		"2006-1-2 15:4:5.999999999",
		"2006-1-2",
	} {
		if _, err := time.Parse(format, s); err == nil {
			return true
		}
	}
	return false
}
