package provider

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

// costFiltersModel is the contract's CostFilters as Terraform holds it: every list a set (order and exact
// duplicates never show as a diff); nil is null. An empty set and a left-out key mean the same to the
// service (it answers the canonical form, empty lists left out), so keepEquivalent keeps what was written.
type costFiltersModel struct {
	Providers  []string         `tfsdk:"providers"`
	AccountIDs []string         `tfsdk:"account_ids"`
	Services   []string         `tfsdk:"services"`
	Regions    []string         `tfsdk:"regions"`
	Tags       []tagFilterModel `tfsdk:"tags"`
}

type tagFilterModel struct {
	Key    string   `tfsdk:"key"`
	Values []string `tfsdk:"values"`
}

func stringSet(description string, max int, rule func(string) string, ruleName string) schema.SetAttribute {
	return schema.SetAttribute{
		ElementType: types.StringType,
		Optional:    true,
		Description: description,
		Validators: []validator.Set{
			setvalidator.SizeAtMost(max),
			setvalidator.ValueStringsAre(checkString(rule, ruleName)),
		},
	}
}

// costFiltersAttribute is one schema for an alert's and a report's `filters` (one contract shape).
func costFiltersAttribute(description string) schema.SingleNestedAttribute {
	accounts := stringSet("12-digit AWS account IDs or Azure subscription GUIDs (compared case-insensitively); each must be connected to the organization",
		maxFilterAccounts, filterAccountRule, "account ID")
	accounts.Validators = append(accounts.Validators, uniqueFold{what: "account ID"})
	return schema.SingleNestedAttribute{
		Optional:    true,
		Description: description,
		Attributes: map[string]schema.Attribute{
			"providers":   stringSet("cloud providers: `aws`, `azure`", 2, oneOf(cloudProviders, "a cloud provider"), "provider"),
			"account_ids": accounts,
			"services":    stringSet("services as the cost data names them, e.g. `Amazon EC2`, `Virtual Machines`", maxFilterValues, oneOf(serviceNames, "a service the service bills"), "service"),
			"regions":     stringSet("region codes, e.g. `us-east-1`, `westeurope` (AWS `global` for global services)", maxFilterValues, oneOf(regionNames, "an AWS or Azure region code"), "region"),
			"tags": schema.SetNestedAttribute{
				Optional:    true,
				Description: "cost allocation tags, each key at most once; cost whose tag `key` has any of `values`",
				Validators:  []validator.Set{setvalidator.SizeAtMost(maxFilterTags)},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"key": schema.StringAttribute{Required: true, Description: "case-sensitive tag key",
						Validators: []validator.String{checkString(tagKeyRule, "tag key")}},
					"values": schema.SetAttribute{ElementType: types.StringType, Required: true, Description: "1 to 50 case-sensitive values",
						Validators: []validator.Set{setvalidator.SizeBetween(1, maxTagValues), setvalidator.ValueStringsAre(checkString(tagValueRule, "tag value"))}},
				}},
			},
		},
	}
}

// toAPI is the request's filters; nil when none are set.
func (f *costFiltersModel) toAPI() *client.CostFilters {
	if f == nil {
		return nil
	}
	// Sorted copies: one configuration sends the same bytes; the service compares them as sets.
	sorted := func(xs []string) []string {
		if xs == nil {
			return nil
		}
		out := append([]string{}, xs...)
		sort.Strings(out)
		return out
	}
	out := &client.CostFilters{Providers: sorted(f.Providers), AccountIDs: sorted(f.AccountIDs), Services: sorted(f.Services), Regions: sorted(f.Regions)}
	for _, t := range f.Tags {
		out.Tags = append(out.Tags, client.TagFilter{Key: t.Key, Values: sorted(t.Values)})
	}
	sort.Slice(out.Tags, func(i, j int) bool { return out.Tags[i].Key < out.Tags[j].Key })
	return out
}

// costFiltersFromAPI is what an import or a changed object puts in state: nil for the service's `{}`.
func costFiltersFromAPI(f client.CostFilters) *costFiltersModel {
	if len(f.Providers)+len(f.AccountIDs)+len(f.Services)+len(f.Regions)+len(f.Tags) == 0 {
		return nil
	}
	out := &costFiltersModel{Providers: nilIfEmpty(f.Providers), AccountIDs: nilIfEmpty(f.AccountIDs), Services: nilIfEmpty(f.Services),
		Regions: nilIfEmpty(f.Regions)}
	for _, t := range f.Tags {
		out.Tags = append(out.Tags, tagFilterModel{Key: t.Key, Values: t.Values})
	}
	return out
}

// canonicalFilters is the filters as the service compares them: sorted sets, account IDs lower-cased, empty
// lists and a missing object the same.
func canonicalFilters(f *client.CostFilters) string {
	if f == nil {
		f = &client.CostFilters{}
	}
	lower := func(xs []string) []string {
		out := make([]string, len(xs))
		for i, x := range xs {
			out[i] = strings.ToLower(x)
		}
		return out
	}
	tags := map[string][]string{}
	for _, t := range f.Tags {
		tags[t.Key] = sortedSet(t.Values)
	}
	data, _ := json.Marshal(map[string]any{
		"providers": sortedSet(f.Providers), "accountIds": sortedSet(lower(f.AccountIDs)), "services": sortedSet(f.Services),
		"regions": sortedSet(f.Regions), "tags": tags,
	})
	return string(data)
}

// sortedSet is a list as a set: sorted, duplicates removed, never nil (so an empty and a missing list compare equal).
func sortedSet(xs []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

func nilIfEmpty[T any](xs []T) []T {
	if len(xs) == 0 {
		return nil
	}
	return xs
}
