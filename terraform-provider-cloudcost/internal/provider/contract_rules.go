package provider

import (
	"fmt"
	"math"
	"net"
	"net/url"
	"regexp"
	"strings"
	"time"

	"context"
	"github.com/hashicorp/terraform-plugin-framework-validators/helpers/validatordiag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The contract's per-field rules (api/src/contract), checked at plan time so a bad value is refused with the
// attribute's path before any request. Each function answers "" when the value is fine, else the message the
// contract gives. The service checks them again; these only move the error earlier.

var (
	awsAccountPattern   = regexp.MustCompile(`^\d{12}$`)
	azureSubscription   = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	tagKeyPattern       = regexp.MustCompile(`^[\p{L}\p{N}_.:+\-@](?:[\p{L}\p{N} _.:+\-@]{0,126}[\p{L}\p{N}_.:+\-@])?$`)
	tagValuePattern     = regexp.MustCompile(`^[\p{L}\p{N} _.:/=+\-@]{0,256}$`)
	calendarDatePattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	timeOfDayPattern    = regexp.MustCompile(`^([01]\d|2[0-3]):[0-5]\d$`)
	currencyPattern     = regexp.MustCompile(`^[A-Z]{3}$`)
	emailLocal          = regexp.MustCompile(`^[A-Za-z0-9_'+\-.]*[A-Za-z0-9_+-]$`)
	emailDomain         = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$`)
)

// The contract's limits (api/src/contract: MAX_RECIPIENTS, MAX_THRESHOLDS, MAX_PLANNED_AMOUNTS, the filter maxima).
const (
	maxRecipients        = 50
	maxThresholds        = 10
	maxPlannedAmounts    = 60
	maxFilterAccounts    = 100
	maxFilterValues      = 50
	maxFilterTags        = 20
	maxTagValues         = 50
	maxBudgetMoney       = 1e12
	maxNameLength        = 100
	maxDescriptionLength = 500
	maxWebhookLength     = 2048
)

func oneOf(list []string, what string) func(string) string {
	return func(v string) string {
		for _, item := range list {
			if item == v {
				return ""
			}
		}
		return fmt.Sprintf("is not %s (one of: %s)", what, strings.Join(list, ", "))
	}
}

// emailRule is zod's e-mail check (what the service applies), after the trim and lower-casing the contract does.
func emailRule(v string) string {
	e := trimECMAScript(v)
	at := strings.LastIndex(e, "@")
	if len(e) > 254 || at <= 0 || strings.HasPrefix(e, ".") || strings.Contains(e, "..") ||
		!emailLocal.MatchString(e[:at]) || !emailDomain.MatchString(e[at+1:]) {
		return "must be an e-mail address"
	}
	return ""
}

func currencyRule(v string) string {
	if !currencyPattern.MatchString(v) {
		return "must be an ISO 4217 currency code in upper case, e.g. USD"
	}
	return oneOf(currencyCodes, "an ISO 4217 currency code")(v)
}

func calendarDateRule(v string) string {
	if !calendarDatePattern.MatchString(v) {
		return "must be a date in the form YYYY-MM-DD"
	}
	if _, err := time.Parse("2006-01-02", v); err != nil {
		return "is not a real calendar date"
	}
	return ""
}

func timeOfDayRule(v string) string {
	if !timeOfDayPattern.MatchString(v) {
		return "must be a time of day HH:MM (24-hour)"
	}
	return ""
}

func timezoneRule(v string) string {
	if !timeZoneNames[v] {
		return "must be an IANA time-zone name, e.g. Europe/Berlin (case-sensitive)"
	}
	return ""
}

func filterAccountRule(v string) string {
	if awsAccountPattern.MatchString(v) || azureSubscription.MatchString(v) {
		return ""
	}
	return "must be a 12-digit AWS account ID or an Azure subscription ID (a GUID)"
}

func tagKeyRule(v string) string {
	if !tagKeyPattern.MatchString(v) {
		return "must be 1 to 128 letters, digits, spaces or _ . : + - @, not starting or ending with a space"
	}
	return ""
}

func tagValueRule(v string) string {
	if !tagValuePattern.MatchString(v) {
		return "must be at most 256 letters, digits, spaces or _ . : / = + - @"
	}
	return ""
}

// webhookURLRule: https anywhere, plain http only to a loopback host, judged by the parsed host (as the contract does).
func webhookURLRule(v string) string {
	if len(v) > maxWebhookLength {
		return fmt.Sprintf("must be at most %d characters", maxWebhookLength)
	}
	u, err := url.Parse(v)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return "must be an absolute URL"
	}
	if u.Scheme == "https" {
		return ""
	}
	host := u.Hostname()
	if u.Scheme == "http" && (strings.EqualFold(host, "localhost") || host == "127.0.0.1" || host == "::1") {
		return ""
	}
	if ip := net.ParseIP(host); u.Scheme == "http" && ip != nil && ip.Equal(net.IPv4(127, 0, 0, 1)) {
		return ""
	}
	return "must be an https URL (plain http only to localhost, 127.0.0.1 or [::1])"
}

// hasAtMostTwoDecimals is the contract's whole-cents rule, with its relative tolerance for binary noise.
func hasAtMostTwoDecimals(n float64) bool {
	h := n * 100
	return math.Abs(h-math.Round(h)) <= 4*2.220446049250313e-16*math.Max(1, math.Abs(h))
}

func budgetMoneyRule(n float64) string {
	if n <= 0 || n > maxBudgetMoney {
		return "must be > 0 and at most 10^12"
	}
	if !hasAtMostTwoDecimals(n) {
		return "must have at most two decimal places"
	}
	return ""
}

func percentRule(n float64) string {
	if n <= 0 || n > 1000 {
		return "must be > 0 and at most 1000"
	}
	return ""
}

// isPeriodStart: monthly the 1st, quarterly 1 January/April/July/October, annual 1 January (UTC calendar).
func isPeriodStart(period, date string) bool {
	d, err := time.Parse("2006-01-02", date)
	if err != nil || d.Day() != 1 {
		return false
	}
	switch period {
	case "monthly":
		return true
	case "quarterly":
		return (int(d.Month())-1)%3 == 0
	case "annual":
		return d.Month() == time.January
	}
	return false
}

const periodStartRule = "monthly: the 1st of a month; quarterly: 1 January, April, July or October; annual: 1 January"

// ---- the rules above as framework validators ----

type stringRule struct {
	rule        func(string) string
	description string
	// secret: the refused value is never quoted (a webhook URL carries its token; diagnostics reach CI logs).
	secret bool
}

func (v stringRule) Description(context.Context) string             { return v.description }
func (v stringRule) MarkdownDescription(ctx context.Context) string { return v.description }
func (v stringRule) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	msg := v.rule(req.ConfigValue.ValueString())
	switch {
	case msg == "":
	case v.secret:
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Value",
			fmt.Sprintf("Attribute %s %s: %s (the value is a secret, so it is not shown)", req.Path, v.description, msg))
	default:
		resp.Diagnostics.Append(validatordiag.InvalidAttributeValueDiagnostic(req.Path, v.description+": "+msg, fmt.Sprintf("%q", req.ConfigValue.ValueString())))
	}
}

func checkString(rule func(string) string, description string) validator.String {
	return stringRule{rule: rule, description: description}
}

// checkSecretString is checkString for a value that must never appear in a message.
func checkSecretString(rule func(string) string, description string) validator.String {
	return stringRule{rule: rule, description: description, secret: true}
}

type floatRule struct {
	rule        func(float64) string
	description string
}

func (v floatRule) Description(context.Context) string             { return v.description }
func (v floatRule) MarkdownDescription(ctx context.Context) string { return v.description }
func (v floatRule) ValidateFloat64(_ context.Context, req validator.Float64Request, resp *validator.Float64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if msg := v.rule(req.ConfigValue.ValueFloat64()); msg != "" {
		resp.Diagnostics.Append(validatordiag.InvalidAttributeValueDiagnostic(req.Path, v.description+": "+msg, fmt.Sprint(req.ConfigValue.ValueFloat64())))
	}
}

func checkFloat(rule func(float64) string, description string) validator.Float64 {
	return floatRule{rule: rule, description: description}
}

// uniqueFold refuses a set of strings two of which are one value to the service (e-mail addresses compare
// case-insensitively after trimming): the service would refuse the duplicate, so the plan does first.
type uniqueFold struct{ what string }

func (v uniqueFold) Description(context.Context) string {
	return v.what + " compare case-insensitively: no two may differ only in case or surrounding spaces"
}
func (v uniqueFold) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }
func (v uniqueFold) ValidateSet(_ context.Context, req validator.SetRequest, resp *validator.SetResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	seen := map[string]string{}
	for _, e := range req.ConfigValue.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			continue
		}
		key := strings.ToLower(trimECMAScript(s.ValueString()))
		if first, dup := seen[key]; dup {
			resp.Diagnostics.AddAttributeError(req.Path, "Duplicate "+v.what,
				fmt.Sprintf("%q and %q are the same %s to the service (compared case-insensitively, after trimming): list it once.", first, s.ValueString(), v.what))
			return
		}
		seen[key] = s.ValueString()
	}
}
