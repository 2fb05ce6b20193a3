package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

// NewCostForecastDataSource is cloudcost_cost_forecast (getCostForecast).
func NewCostForecastDataSource() datasource.DataSource {
	return &costDataSource{
		name:        "cost_forecast",
		description: "Actual and forecast cost per day for a window (GET /cost/forecast).",
		outputs: map[string]schema.Attribute{
			"actual":    schema.Float64Attribute{Computed: true, Description: "Cost so far."},
			"projected": schema.Float64Attribute{Computed: true, Description: "Forecast cost of the rest of the window."},
			"total":     schema.Float64Attribute{Computed: true, Description: "actual + projected."},
			"lower":     schema.Float64Attribute{Computed: true, Description: "Lower end of the total's band."},
			"upper":     schema.Float64Attribute{Computed: true, Description: "Upper end of the total's band."},
			"days": schema.ListNestedAttribute{Computed: true, Description: "Each day: actual or forecast, with its band.", NestedObject: schema.NestedAttributeObject{
				Attributes: map[string]schema.Attribute{
					"date": schema.StringAttribute{Computed: true}, "amount": schema.Float64Attribute{Computed: true},
					"kind":  schema.StringAttribute{Computed: true, Description: "actual or forecast"},
					"lower": schema.Float64Attribute{Computed: true}, "upper": schema.Float64Attribute{Computed: true},
				}}},
		},
		newModel: func() costModel { return &costForecastModel{} },
	}
}

type forecastDayModel struct {
	Date   types.String  `tfsdk:"date"`
	Amount types.Float64 `tfsdk:"amount"`
	Kind   types.String  `tfsdk:"kind"`
	Lower  types.Float64 `tfsdk:"lower"`
	Upper  types.Float64 `tfsdk:"upper"`
}

type costForecastModel struct {
	costQueryModel
	Actual    types.Float64      `tfsdk:"actual"`
	Projected types.Float64      `tfsdk:"projected"`
	Total     types.Float64      `tfsdk:"total"`
	Lower     types.Float64      `tfsdk:"lower"`
	Upper     types.Float64      `tfsdk:"upper"`
	Days      []forecastDayModel `tfsdk:"days"`
}

func (m *costForecastModel) query() *costQueryModel { return &m.costQueryModel }

func (m *costForecastModel) read(ctx context.Context, c *client.Client, q client.CostQuery) (client.CostFilters, string, error) {
	r, err := c.GetCostForecast(ctx, q)
	if err != nil {
		return client.CostFilters{}, "", err
	}
	m.Actual, m.Projected, m.Total = types.Float64Value(r.Actual), types.Float64Value(r.Projected), types.Float64Value(r.Total)
	m.Lower, m.Upper = types.Float64Value(r.Lower), types.Float64Value(r.Upper)
	m.Days = make([]forecastDayModel, len(r.Days))
	for i, d := range r.Days {
		m.Days[i] = forecastDayModel{Date: types.StringValue(d.Date), Amount: types.Float64Value(d.Amount), Kind: types.StringValue(d.Kind),
			Lower: types.Float64Value(d.Lower), Upper: types.Float64Value(d.Upper)}
	}
	return r.Filters, r.Currency, nil
}
