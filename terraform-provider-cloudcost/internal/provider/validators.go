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
// 1 to max characters. Surrounding whitespace is allowed: state keeps the name as written when the service's
// answer is the same name trimmed (keep_written.go).
type trimmedName int

func (t trimmedName) Description(context.Context) string {
	return "not blank, at most " + itoa(int(t)) + " characters once surrounding whitespace is removed"
}
func (t trimmedName) MarkdownDescription(ctx context.Context) string { return t.Description(ctx) }

func (t trimmedName) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	switch trimmed := strings.TrimSpace(req.ConfigValue.ValueString()); {
	case trimmed == "":
		resp.Diagnostics.AddAttributeError(req.Path, "Blank name", "must not be blank")
	case utf16Length(trimmed) > int(t):
		resp.Diagnostics.AddAttributeError(req.Path, "Name too long",
			"must be at most "+itoa(int(t))+" characters after trimming surrounding whitespace (got "+itoa(utf16Length(trimmed))+")")
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
