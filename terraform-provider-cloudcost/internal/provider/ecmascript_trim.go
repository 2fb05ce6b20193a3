package provider

import (
	"strings"
	"unicode"
)

// The service trims names and e-mail addresses with JavaScript's String.prototype.trim (zod's `trim()`),
// which removes ECMAScript WhiteSpace and LineTerminator code points (ECMA-262 §12.2 and §12.3): TAB, VT,
// FF, ZWNBSP (U+FEFF, the byte order mark), every Space_Separator (Zs), LF, CR, LS and PS. Go's
// strings.TrimSpace differs on two: it keeps U+FEFF and removes U+0085 (NEL). A name that one trims and
// the other does not is a different name to each, so every trim of this provider is this one
// (test/contract/fixtures/ecmascript-whitespace.json holds it to the runtime the service runs on).

// isECMAScriptWhitespace is ECMAScript's WhiteSpace or LineTerminator.
func isECMAScriptWhitespace(r rune) bool {
	switch r {
	case '\t', '\v', '\f', '\uFEFF', '\n', '\r', '\u2028', '\u2029':
		return true
	}
	return unicode.Is(unicode.Zs, r)
}

// trimECMAScript is String.prototype.trim.
func trimECMAScript(s string) string { return strings.TrimFunc(s, isECMAScriptWhitespace) }
