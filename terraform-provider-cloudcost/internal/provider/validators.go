package provider

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

func itoa(n int) string { return strconv.Itoa(n) }

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// leadingIndex reads `.3…` → 3.
func leadingIndex(rest string) (int, bool) {
	rest = strings.TrimPrefix(rest, ".")
	end := strings.IndexByte(rest, '.')
	if end < 0 {
		end = len(rest)
	}
	n, err := strconv.Atoi(rest[:end])
	return n, err == nil
}

// trimmedName is the contract's TrimmedName(max): the service removes surrounding whitespace (its trim,
// ecmascript_trim.go) and then wants 1 to max characters. Surrounding whitespace is allowed: state keeps the
// name as written when the service's answer is the same name trimmed (keep_written.go).
type trimmedName int

func (t trimmedName) Description(context.Context) string {
	return "not blank, at most " + itoa(int(t)) + " characters (Unicode code points) once surrounding whitespace is removed"
}
func (t trimmedName) MarkdownDescription(ctx context.Context) string { return t.Description(ctx) }

func (t trimmedName) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	switch trimmed := trimECMAScript(req.ConfigValue.ValueString()); {
	case trimmed == "":
		resp.Diagnostics.AddAttributeError(req.Path, "Blank name", "must not be blank")
	case characters(trimmed) > int(t):
		resp.Diagnostics.AddAttributeError(req.Path, "Name too long",
			"must be at most "+itoa(int(t))+" characters after trimming surrounding whitespace (got "+itoa(characters(trimmed))+")")
	}
}

// characters counts as the service does: the contract's `max(n)` (zod) and the document's `maxLength`
// (JSON Schema, RFC 8259 characters) count Unicode code points, so an emoji outside the Basic Multilingual
// Plane is one character, as it is to the person who typed it. Terraform strings are valid UTF-8: runes are
// code points.
func characters(s string) int { return utf8.RuneCountInString(s) }

// maxLength is the contract's `max(n)` of a string, counted as the service counts (characters).
type maxLength int

func (m maxLength) Description(context.Context) string {
	return "at most " + itoa(int(m)) + " characters (Unicode code points)"
}
func (m maxLength) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (m maxLength) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if n := characters(req.ConfigValue.ValueString()); n > int(m) {
		resp.Diagnostics.AddAttributeError(req.Path, "Too long", "must be at most "+itoa(int(m))+" characters (got "+itoa(n)+")")
	}
}

// subscriptionGUID: an Azure subscription ID in either case. The service compares them case-insensitively
// and answers them in lower case; state keeps the spelling written (keep_written.go).
type subscriptionGUID struct{}

func (subscriptionGUID) Description(context.Context) string {
	return "an Azure subscription ID (a GUID), in either case"
}
func (g subscriptionGUID) MarkdownDescription(ctx context.Context) string { return g.Description(ctx) }

func (subscriptionGUID) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if v := req.ConfigValue.ValueString(); !azureSubscription.MatchString(v) {
		resp.Diagnostics.AddAttributeError(req.Path, "Not an Azure subscription ID", "must be an Azure subscription ID (a GUID); got "+strconv.Quote(v))
	}
}
