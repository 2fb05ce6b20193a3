package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

// NewCostByDayDataSource is cloudcost_cost_by_day (getCostByDay).
func NewCostByDayDataSource() datasource.DataSource {
	return &costDataSource{
		name:        "cost_by_day",
		description: "Cost per day for a window (GET /cost/daily).",
		outputs: map[string]schema.Attribute{
			"total": schema.Float64Attribute{Computed: true, Description: "Cost of the window."},
			"days": schema.ListNestedAttribute{Computed: true, Description: "Cost per day, oldest first.", NestedObject: schema.NestedAttributeObject{
				Attributes: map[string]schema.Attribute{
					"date": schema.StringAttribute{Computed: true}, "amount": schema.Float64Attribute{Computed: true},
					"by_provider": providerAmountsAttribute("The day's cost per provider."),
				}}},
		},
		newModel: func() costModel { return &costByDayModel{} },
	}
}

type dailyCostModel struct {
	Date       types.String          `tfsdk:"date"`
	Amount     types.Float64         `tfsdk:"amount"`
	ByProvider []providerAmountModel `tfsdk:"by_provider"`
}

type costByDayModel struct {
	costQueryModel
	Total types.Float64    `tfsdk:"total"`
	Days  []dailyCostModel `tfsdk:"days"`
}

func (m *costByDayModel) query() *costQueryModel { return &m.costQueryModel }

func (m *costByDayModel) read(ctx context.Context, c *client.Client, q client.CostQuery) (client.CostFilters, string, error) {
	r, err := c.GetCostByDay(ctx, q)
	if err != nil {
		return client.CostFilters{}, "", err
	}
	m.Total = types.Float64Value(r.Total)
	m.Days = make([]dailyCostModel, len(r.Days))
	for i, d := range r.Days {
		m.Days[i] = dailyCostModel{Date: types.StringValue(d.Date), Amount: types.Float64Value(d.Amount), ByProvider: providerAmounts(d.ByProvider)}
	}
	return r.Filters, r.Currency, nil
}
