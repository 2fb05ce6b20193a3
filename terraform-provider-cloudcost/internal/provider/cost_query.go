package provider

import (
	"context"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

// What every cost read takes (the contract's CostQuery) and what it echoes back, shared by the five cost
// data sources. Lists of the query are sets: their order means nothing to the service.

var (
	calendarDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	accountID    = regexp.MustCompile(`^\d{12}$|^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	tagPair      = regexp.MustCompile(`^[^=]+=`)
)

type costQueryModel struct {
	From       types.String `tfsdk:"from"`
	To         types.String `tfsdk:"to"`
	GroupID    types.String `tfsdk:"group_id"`
	Providers  types.Set    `tfsdk:"providers"`
	AccountIDs types.Set    `tfsdk:"account_ids"`
	Services   types.Set    `tfsdk:"services"`
	Regions    types.Set    `tfsdk:"regions"`
	Tag        types.Set    `tfsdk:"tag"`
	Currency   types.String `tfsdk:"currency"`
	Filters    types.Object `tfsdk:"filters"`
}

func costQueryAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"from": schema.StringAttribute{Required: true, Description: "First day of the window, YYYY-MM-DD.",
			Validators: []validator.String{stringvalidator.RegexMatches(calendarDate, "must be a date in the form YYYY-MM-DD")}},
		"to": schema.StringAttribute{Required: true, Description: "Last day of the window, YYYY-MM-DD.",
			Validators: []validator.String{stringvalidator.RegexMatches(calendarDate, "must be a date in the form YYYY-MM-DD")}},
		"group_id": schema.StringAttribute{Optional: true, Description: "Only the accounts of this Cloud Group (grp_…).",
			Validators: []validator.String{groupIDPrefix}},
		"providers": schema.SetAttribute{ElementType: types.StringType, Optional: true, Description: "Only these providers: aws, azure.",
			Validators: []validator.Set{setvalidator.ValueStringsAre(stringvalidator.OneOf("aws", "azure"))}},
		"account_ids": schema.SetAttribute{ElementType: types.StringType, Optional: true,
			Description: "Only these accounts: 12-digit AWS account IDs or Azure subscription IDs; at most 100.",
			Validators: []validator.Set{setvalidator.SizeAtMost(100),
				setvalidator.ValueStringsAre(stringvalidator.RegexMatches(accountID, "must be an AWS account ID or an Azure subscription ID"))}},
		"services": schema.SetAttribute{ElementType: types.StringType, Optional: true, Description: "Only these services, as the cost data names them; at most 50.",
			Validators: []validator.Set{setvalidator.SizeAtMost(50)}},
		"regions": schema.SetAttribute{ElementType: types.StringType, Optional: true, Description: "Only these regions; at most 50.",
			Validators: []validator.Set{setvalidator.SizeAtMost(50)}},
		"tag": schema.SetAttribute{ElementType: types.StringType, Optional: true,
			Description: "Only costs with these tags, each `key=value`; values of one key are alternatives, keys must all match.",
			Validators: []validator.Set{setvalidator.SizeAtMost(1000),
				setvalidator.ValueStringsAre(stringvalidator.RegexMatches(tagPair, "must be key=value"))}},
		"currency": schema.StringAttribute{Computed: true, Description: "ISO 4217 code of every amount."},
		"filters": schema.SingleNestedAttribute{Computed: true, Description: "The filters the service applied.",
			Attributes: map[string]schema.Attribute{
				"providers":   schema.ListAttribute{ElementType: types.StringType, Computed: true},
				"account_ids": schema.ListAttribute{ElementType: types.StringType, Computed: true},
				"services":    schema.ListAttribute{ElementType: types.StringType, Computed: true},
				"regions":     schema.ListAttribute{ElementType: types.StringType, Computed: true},
				"tags": schema.ListNestedAttribute{Computed: true, NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"key":    schema.StringAttribute{Computed: true},
					"values": schema.ListAttribute{ElementType: types.StringType, Computed: true},
				}}},
			}},
	}
}

var tagFilterType = types.ObjectType{AttrTypes: map[string]attr.Type{"key": types.StringType, "values": types.ListType{ElemType: types.StringType}}}

var filtersType = map[string]attr.Type{
	"providers":   types.ListType{ElemType: types.StringType},
	"account_ids": types.ListType{ElemType: types.StringType},
	"services":    types.ListType{ElemType: types.StringType},
	"regions":     types.ListType{ElemType: types.StringType},
	"tags":        types.ListType{ElemType: tagFilterType},
}

func stringList(values []string) types.List {
	elems := make([]attr.Value, len(values))
	for i, v := range values {
		elems[i] = types.StringValue(v)
	}
	return types.ListValueMust(types.StringType, elems)
}

func filtersValue(f client.CostFilters) types.Object {
	tags := make([]attr.Value, len(f.Tags))
	for i, t := range f.Tags {
		tags[i] = types.ObjectValueMust(tagFilterType.AttrTypes, map[string]attr.Value{"key": types.StringValue(t.Key), "values": stringList(t.Values)})
	}
	return types.ObjectValueMust(filtersType, map[string]attr.Value{
		"providers": stringList(f.Providers), "account_ids": stringList(f.AccountIDs), "services": stringList(f.Services),
		"regions": stringList(f.Regions), "tags": types.ListValueMust(tagFilterType, tags),
	})
}

func sortedStrings(ctx context.Context, s types.Set, diags *diag.Diagnostics) []string {
	if s.IsNull() || s.IsUnknown() {
		return nil
	}
	var out []string
	diags.Append(s.ElementsAs(ctx, &out, false)...)
	sort.Strings(out)
	return out
}

func (m *costQueryModel) query(ctx context.Context, diags *diag.Diagnostics) client.CostQuery {
	return client.CostQuery{
		From: m.From.ValueString(), To: m.To.ValueString(), GroupID: m.GroupID.ValueString(),
		Providers: sortedStrings(ctx, m.Providers, diags), AccountIDs: sortedStrings(ctx, m.AccountIDs, diags),
		Services: sortedStrings(ctx, m.Services, diags), Regions: sortedStrings(ctx, m.Regions, diags), Tags: sortedStrings(ctx, m.Tag, diags),
	}
}

// costFieldPath maps `query.accountIds.3` to account_ids, `query.from` to from.
func costFieldPath(p string) (path.Path, bool) {
	if rest, found := strings.CutPrefix(p, "query."); found {
		return FieldPath("body."+rest, map[string]bool{"providers": true, "account_ids": true, "services": true, "regions": true, "tag": true})
	}
	return FieldPath(p, nil)
}
