package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

// NewCostSummaryDataSource is cloudcost_cost_summary (getCostSummary).
func NewCostSummaryDataSource() datasource.DataSource {
	return &costDataSource{
		name:        "cost_summary",
		description: "Totals, per-provider split and forecast for a window (GET /cost/summary).",
		outputs: map[string]schema.Attribute{
			"total":       schema.Float64Attribute{Computed: true, Description: "Cost of the window."},
			"by_provider": providerAmountsAttribute("Cost per provider."),
			"forecast": schema.SingleNestedAttribute{Computed: true, Description: "Actual and projected cost of the window, with the band.",
				Attributes: map[string]schema.Attribute{
					"actual": schema.Float64Attribute{Computed: true}, "projected": schema.Float64Attribute{Computed: true},
					"total": schema.Float64Attribute{Computed: true}, "lower": schema.Float64Attribute{Computed: true},
					"upper": schema.Float64Attribute{Computed: true},
				}},
		},
		newModel: func() costModel { return &costSummaryModel{} },
	}
}

type providerAmountModel struct {
	Provider types.String  `tfsdk:"provider"`
	Amount   types.Float64 `tfsdk:"amount"`
}

func providerAmountsAttribute(description string) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Computed: true, Description: description, NestedObject: schema.NestedAttributeObject{
		Attributes: map[string]schema.Attribute{
			"provider": schema.StringAttribute{Computed: true}, "amount": schema.Float64Attribute{Computed: true},
		}}}
}

func providerAmounts(in []client.ProviderAmount) []providerAmountModel {
	out := make([]providerAmountModel, len(in))
	for i, p := range in {
		out[i] = providerAmountModel{Provider: types.StringValue(p.Provider), Amount: types.Float64Value(p.Amount)}
	}
	return out
}

type forecastTotalsModel struct {
	Actual    types.Float64 `tfsdk:"actual"`
	Projected types.Float64 `tfsdk:"projected"`
	Total     types.Float64 `tfsdk:"total"`
	Lower     types.Float64 `tfsdk:"lower"`
	Upper     types.Float64 `tfsdk:"upper"`
}

type costSummaryModel struct {
	costQueryModel
	Total      types.Float64         `tfsdk:"total"`
	ByProvider []providerAmountModel `tfsdk:"by_provider"`
	Forecast   *forecastTotalsModel  `tfsdk:"forecast"`
}

func (m *costSummaryModel) query() *costQueryModel { return &m.costQueryModel }

func (m *costSummaryModel) read(ctx context.Context, c *client.Client, q client.CostQuery) (client.CostFilters, string, error) {
	r, err := c.GetCostSummary(ctx, q)
	if err != nil {
		return client.CostFilters{}, "", err
	}
	m.Total = types.Float64Value(r.Total)
	m.ByProvider = providerAmounts(r.ByProvider)
	f := r.Forecast
	m.Forecast = &forecastTotalsModel{Actual: types.Float64Value(f.Actual), Projected: types.Float64Value(f.Projected),
		Total: types.Float64Value(f.Total), Lower: types.Float64Value(f.Lower), Upper: types.Float64Value(f.Upper)}
	return r.Filters, r.Currency, nil
}
