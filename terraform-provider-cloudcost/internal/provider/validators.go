package provider

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf16"

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

// trimmedName is the contract's TrimmedName(max): the service removes surrounding whitespace and then wants
// 1 to max characters. Whitespace around the value is refused at plan time instead of trimmed, because the
// value would come back other than configured (an error of the provider in Terraform's eyes).
type trimmedName int

func (t trimmedName) Description(context.Context) string {
	return "not blank, at most " + itoa(int(t)) + " characters, without surrounding whitespace"
}
func (t trimmedName) MarkdownDescription(ctx context.Context) string { return t.Description(ctx) }

func (t trimmedName) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	v := req.ConfigValue.ValueString()
	switch trimmed := strings.TrimSpace(v); {
	case trimmed == "":
		resp.Diagnostics.AddAttributeError(req.Path, "Blank name", "must not be blank")
	case trimmed != v:
		resp.Diagnostics.AddAttributeError(req.Path, "Whitespace around the name",
			"must not begin or end with whitespace (the service would remove it): write "+strconv.Quote(trimmed))
	case utf16Length(v) > int(t):
		resp.Diagnostics.AddAttributeError(req.Path, "Name too long",
			"must be at most "+itoa(int(t))+" characters (got "+itoa(utf16Length(v))+")")
	}
}

// utf16Length counts as the service does: its limits are JavaScript string lengths (UTF-16 code units), so
// a character outside the Basic Multilingual Plane (most emoji) counts twice.
func utf16Length(s string) int { return len(utf16.Encode([]rune(s))) }

// maxLength is the contract's `max(n)` of a string, counted as the service counts (utf16Length).
type maxLength int

func (m maxLength) Description(context.Context) string {
	return "at most " + itoa(int(m)) + " characters (UTF-16 code units, as the service counts)"
}
func (m maxLength) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (m maxLength) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if n := utf16Length(req.ConfigValue.ValueString()); n > int(m) {
		resp.Diagnostics.AddAttributeError(req.Path, "Too long", "must be at most "+itoa(int(m))+" characters (got "+itoa(n)+
			"; a character outside the Basic Multilingual Plane, such as most emoji, counts as two)")
	}
}

// lowerCaseGUID: Azure subscription IDs compare case-insensitively and the service stores them in lower
// case, so an upper-case ID would come back changed; it is refused with the value to write.
type lowerCaseGUID struct{}

func (lowerCaseGUID) Description(context.Context) string {
	return "an Azure subscription ID (a GUID) in lower case"
}
func (l lowerCaseGUID) MarkdownDescription(ctx context.Context) string { return l.Description(ctx) }

func (lowerCaseGUID) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	v := req.ConfigValue.ValueString()
	switch {
	case azureSubID.MatchString(v):
	case azureSubIDCase.MatchString(v):
		resp.Diagnostics.AddAttributeError(req.Path, "Subscription ID not in lower case",
			"the service stores subscription IDs in lower case: write "+strconv.Quote(strings.ToLower(v)))
	default:
		resp.Diagnostics.AddAttributeError(req.Path, "Not an Azure subscription ID", "must be an Azure subscription ID (a GUID); got "+strconv.Quote(v))
	}
}
