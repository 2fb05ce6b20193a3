package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

// NewCostByServiceDataSource is cloudcost_cost_by_service (getCostByService).
func NewCostByServiceDataSource() datasource.DataSource {
	return &costDataSource{
		name:        "cost_by_service",
		description: "Cost per service for a window (GET /cost/services).",
		outputs: map[string]schema.Attribute{
			"total": schema.Float64Attribute{Computed: true, Description: "Cost of the window."},
			"items": schema.ListNestedAttribute{Computed: true, Description: "Cost per service.", NestedObject: schema.NestedAttributeObject{
				Attributes: map[string]schema.Attribute{
					"service": schema.StringAttribute{Computed: true}, "provider": schema.StringAttribute{Computed: true},
					"amount": schema.Float64Attribute{Computed: true},
				}}},
		},
		newModel: func() costModel { return &costByServiceModel{} },
	}
}

type serviceCostModel struct {
	Service  types.String  `tfsdk:"service"`
	Provider types.String  `tfsdk:"provider"`
	Amount   types.Float64 `tfsdk:"amount"`
}

type costByServiceModel struct {
	costQueryModel
	Total types.Float64      `tfsdk:"total"`
	Items []serviceCostModel `tfsdk:"items"`
}

func (m *costByServiceModel) query() *costQueryModel { return &m.costQueryModel }

func (m *costByServiceModel) read(ctx context.Context, c *client.Client, q client.CostQuery) (client.CostFilters, string, error) {
	r, err := c.GetCostByService(ctx, q)
	if err != nil {
		return client.CostFilters{}, "", err
	}
	m.Total = types.Float64Value(r.Total)
	m.Items = make([]serviceCostModel, len(r.Items))
	for i, s := range r.Items {
		m.Items[i] = serviceCostModel{Service: types.StringValue(s.Service), Provider: types.StringValue(s.Provider), Amount: types.Float64Value(s.Amount)}
	}
	return r.Filters, r.Currency, nil
}
