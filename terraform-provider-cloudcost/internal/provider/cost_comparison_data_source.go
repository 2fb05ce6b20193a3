package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

// NewCostComparisonDataSource is cloudcost_cost_comparison (getCostComparison).
func NewCostComparisonDataSource() datasource.DataSource {
	window := func(description string) schema.SingleNestedAttribute {
		return schema.SingleNestedAttribute{Computed: true, Description: description, Attributes: map[string]schema.Attribute{
			"from": schema.StringAttribute{Computed: true}, "to": schema.StringAttribute{Computed: true},
			"amount": schema.Float64Attribute{Computed: true},
		}}
	}
	return &costDataSource{
		name:        "cost_comparison",
		description: "A window compared with the window of the same length before it (GET /cost/comparison).",
		outputs: map[string]schema.Attribute{
			"current":        window("The window asked for."),
			"previous":       window("The window of the same length before it."),
			"change":         schema.Float64Attribute{Computed: true, Description: "current - previous."},
			"change_percent": schema.Float64Attribute{Computed: true, Description: "The change in percent of previous; null when previous is 0."},
			"by_provider": schema.ListNestedAttribute{Computed: true, Description: "The comparison per provider.", NestedObject: schema.NestedAttributeObject{
				Attributes: map[string]schema.Attribute{
					"provider": schema.StringAttribute{Computed: true}, "current": schema.Float64Attribute{Computed: true},
					"previous": schema.Float64Attribute{Computed: true}, "change": schema.Float64Attribute{Computed: true},
				}}},
		},
		newModel: func() costModel { return &costComparisonModel{} },
	}
}

type comparisonWindowModel struct {
	From   types.String  `tfsdk:"from"`
	To     types.String  `tfsdk:"to"`
	Amount types.Float64 `tfsdk:"amount"`
}

type comparisonByProviderModel struct {
	Provider types.String  `tfsdk:"provider"`
	Current  types.Float64 `tfsdk:"current"`
	Previous types.Float64 `tfsdk:"previous"`
	Change   types.Float64 `tfsdk:"change"`
}

type costComparisonModel struct {
	costQueryModel
	Current       *comparisonWindowModel      `tfsdk:"current"`
	Previous      *comparisonWindowModel      `tfsdk:"previous"`
	Change        types.Float64               `tfsdk:"change"`
	ChangePercent types.Float64               `tfsdk:"change_percent"`
	ByProvider    []comparisonByProviderModel `tfsdk:"by_provider"`
}

func (m *costComparisonModel) query() *costQueryModel { return &m.costQueryModel }

func windowModel(w client.ComparisonWindow) *comparisonWindowModel {
	return &comparisonWindowModel{From: types.StringValue(w.From), To: types.StringValue(w.To), Amount: types.Float64Value(w.Amount)}
}

func (m *costComparisonModel) read(ctx context.Context, c *client.Client, q client.CostQuery) (client.CostFilters, string, error) {
	r, err := c.GetCostComparison(ctx, q)
	if err != nil {
		return client.CostFilters{}, "", err
	}
	m.Current, m.Previous = windowModel(r.Current), windowModel(r.Previous)
	m.Change = types.Float64Value(r.Change)
	m.ChangePercent = types.Float64PointerValue(r.ChangePercent)
	m.ByProvider = make([]comparisonByProviderModel, len(r.ByProvider))
	for i, p := range r.ByProvider {
		m.ByProvider[i] = comparisonByProviderModel{Provider: types.StringValue(p.Provider), Current: types.Float64Value(p.Current),
			Previous: types.Float64Value(p.Previous), Change: types.Float64Value(p.Change)}
	}
	return r.Filters, r.Currency, nil
}
