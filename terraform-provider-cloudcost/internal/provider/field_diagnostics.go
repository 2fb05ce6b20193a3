package provider

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

// addAPIError reports a failed call: each field error of a validation problem on the attribute it names
// (`body.thresholds.1.percent` → `thresholds`, `body.schedule.dayOfWeek` → `schedule.day_of_week`), the rest
// as one error that keeps the problem's title, detail and request id. Never a token: APIError carries none.
func addAPIError(diags *diag.Diagnostics, summary string, err error) {
	var apiErr *client.APIError
	if errors.As(err, &apiErr) && len(apiErr.Errors) > 0 {
		for _, f := range apiErr.Errors {
			if p, ok := attributePath(f.Path); ok {
				diags.AddAttributeError(p, summary, fmt.Sprintf("%s %s (%s; request id %s)", attributeName(f.Path), f.Message, apiErr.Title, apiErr.RequestID))
				continue
			}
			diags.AddError(summary, fmt.Sprintf("%s: %s (%s; request id %s)", f.Path, f.Message, apiErr.Title, apiErr.RequestID))
		}
		return
	}
	diags.AddError(summary, err.Error())
}

// attributePath maps a field error's path in the request body to the attribute's path. Every collection of
// these resources is a set, which a path cannot index, so the path stops at the set (the message says which
// element: the service's index means nothing in a set).
func attributePath(apiPath string) (path.Path, bool) {
	parts := strings.Split(apiPath, ".")
	if len(parts) < 2 || parts[0] != "body" {
		return path.Empty(), false
	}
	p := path.Root(snakeCase(parts[1]))
	for _, part := range parts[2:] {
		if _, err := strconv.Atoi(part); err == nil {
			break
		}
		p = p.AtName(snakeCase(part))
	}
	return p, true
}

// attributeName is the field error's path in the configuration's spelling, element indexes kept (the
// service's order: the order the request listed them in).
func attributeName(apiPath string) string {
	parts := strings.Split(strings.TrimPrefix(apiPath, "body."), ".")
	for i, part := range parts {
		if _, err := strconv.Atoi(part); err == nil {
			parts[i] = "[" + part + "]"
		} else {
			parts[i] = snakeCase(part)
		}
	}
	return strings.ReplaceAll(strings.Join(parts, "."), ".[", "[")
}

// snakeCase is the contract's camelCase name in Terraform's convention: `accountIds` → `account_ids`.
func snakeCase(name string) string {
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
