package client

import (
	"fmt"
	"net/url"
	"strings"
)

// NormaliseAPIURL is provider/src/runtime/api-url.ts in Go: an absolute http(s) URL ending in /api/v1,
// without a trailing slash. A bare origin is completed (`https://host` → `https://host/api/v1`) and trailing
// slashes dropped; anything else (the portal's URL, another path, a query, credentials in the URL) is refused
// with the exact value to set, so a wrong URL never turns into a misleading 404 or 403 later. setting names
// the setting in the message.
func NormaliseAPIURL(value, setting string) (string, error) {
	u, err := url.Parse(value)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("%s must be an absolute URL such as https://cloudcost.example.com%s; got %q", setting, BasePath, value)
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return "", fmt.Errorf("%s must be an http or https URL such as https://cloudcost.example.com%s; got a %s: URL", setting, BasePath, u.Scheme)
	}
	shown := u.Scheme + "://" + u.Host
	suggestion := shown + BasePath
	// Never echo credentials: they would end up in logs (the rest of the message names host and path only).
	if u.User != nil {
		return "", fmt.Errorf("%s must not contain a user name or password; set it to %s and use api_token or client credentials", setting, suggestion)
	}
	path := strings.TrimRight(u.EscapedPath(), "/")
	if u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return "", fmt.Errorf("%s must not have a query or fragment; set it to %s%s", setting, shown, path)
	}
	switch {
	case path == "":
		return suggestion, nil
	case strings.HasSuffix(path, BasePath):
		return shown + path, nil
	case path == "/portal" || strings.HasPrefix(path, "/portal/"):
		return "", fmt.Errorf("%s points at the portal (%s%s); set it to the API base URL %s", setting, shown, path, suggestion)
	}
	return "", fmt.Errorf("%s must be the API base URL ending in %s, such as %s; got %s%s", setting, BasePath, suggestion, shown, path)
}
