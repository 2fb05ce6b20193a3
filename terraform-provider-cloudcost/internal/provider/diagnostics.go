package provider

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

// diagAdder is what configure writes to (*diag.Diagnostics).
type diagAdder interface {
	AddAttributeError(path.Path, string, string)
	AddError(string, string)
}

var _ diagAdder = (*diag.Diagnostics)(nil)

// authOrigin is auth_url as the token request needs it: the origin serving /oauth/token.
func authOrigin(value string) (string, error) {
	u, err := url.Parse(value)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("must be an absolute http or https URL, the origin serving /oauth/token (such as https://cloudcost.example.com); got %q", value)
	}
	if u.User != nil {
		return "", errors.New("must not contain a user name or password; use client_id and client_secret")
	}
	return u.Scheme + "://" + u.Host, nil
}

// snake turns a contract name into the attribute name of this door: `groupId` → `group_id`,
// `accountIds` → `account_ids`, `webhookUrl` → `webhook_url`.
func snake(name string) string {
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// FieldPath turns a contract field path of the request body (`body.thresholds.1.percent`) into the
// attribute path it came from. sets names the attributes that are sets: Terraform cannot point into a set
// by position, so a failure inside one is reported on the set. rename maps a contract field to an attribute
// of another name (cloud_group's `members` → the two id sets, decided by the caller). ok is false when the
// failure is not in the body.
func FieldPath(contractPath string, sets map[string]bool) (path.Path, bool) {
	parts := strings.Split(contractPath, ".")
	if len(parts) < 2 || parts[0] != "body" {
		return path.Empty(), false
	}
	var p path.Path
	started := false
	walked := ""
	for _, part := range parts[1:] {
		if n, err := strconv.Atoi(part); err == nil {
			if !started {
				return path.Empty(), false
			}
			if sets[walked] {
				return p, true
			}
			p = p.AtListIndex(n)
			continue
		}
		name := snake(part)
		if walked == "" {
			walked = name
		} else {
			walked += "." + name
		}
		if !started {
			p = path.Root(name)
			started = true
		} else {
			p = p.AtName(name)
		}
		if sets[walked] {
			// Inside a set only the set itself can be named.
			return p, true
		}
	}
	return p, started
}

// AddAPIError reports a failed call: each field error of a validation problem on the attribute it names
// (attributePath maps the contract path; nil for a failure that names no attribute), the rest as one
// error with the problem's title, detail, type and request id. The message never holds a credential.
//
// A field error inside a nested attribute (`body.filters.accountIds.0`) is said in Terraform's names
// (`filters.account_ids: …`) and placed on the top-level attribute (`filters`): Terraform and OpenTofu find a
// diagnostic's place in the configuration by walking nested *blocks* only (tfdiags.ElaborateFromConfigBody),
// so a path into a nested attribute lands on the `resource` line, while the top-level attribute's expression
// is found and quoted.
func AddAPIError(diags *diag.Diagnostics, summary string, err error, attributePath func(string) (path.Path, bool)) {
	var api *client.APIError
	if !errors.As(err, &api) {
		diags.AddError(summary, err.Error())
		return
	}
	placed := 0
	if attributePath != nil {
		for _, f := range api.Errors {
			if p, ok := attributePath(f.Path); ok {
				diags.AddAttributeError(topLevel(p), summary, fmt.Sprintf("%s: %s (%s%s)", p, f.Message, f.Code, requestIDNote(api)))
				placed++
			}
		}
	}
	if placed < len(api.Errors) || placed == 0 {
		diags.AddError(summary, describeAPIError(api))
	}
}

func requestIDNote(api *client.APIError) string {
	if api.RequestID == "" {
		return ""
	}
	return "; request id " + api.RequestID
}

// topLevel is the attribute of the resource that p is in (p itself when it names one).
func topLevel(p path.Path) path.Path {
	if steps := p.Steps(); len(steps) > 1 {
		if name, ok := steps[0].(path.PathStepAttributeName); ok {
			return path.Root(string(name))
		}
	}
	return p
}

func describeAPIError(api *client.APIError) string {
	text := api.Error()
	if api.Type != "" {
		text += "\nProblem type: " + api.Type
	}
	return text
}

// problemWithFieldCode returns the API problem err carries when one of its field errors has this code.
func problemWithFieldCode(err error, code string) (*client.APIError, bool) {
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) {
		return nil, false
	}
	for _, f := range apiErr.Errors {
		if f.Code == code {
			return apiErr, true
		}
	}
	return nil, false
}
