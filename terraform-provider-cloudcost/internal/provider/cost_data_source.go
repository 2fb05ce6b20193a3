package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

// costModel is the model of one cost data source: the shared query and echo (costQueryModel) plus what the
// read of its kind answers.
type costModel interface {
	query() *costQueryModel
	// fill sets the kind's outputs from the service's answer; read makes the call.
	read(ctx context.Context, c *client.Client, q client.CostQuery) (client.CostFilters, string, error)
}

// costDataSource is one of the contract's cost reads as a data source: the five share inputs, the
// echo of the filters and the error handling, and differ in the call and the outputs.
type costDataSource struct {
	data        *providerData
	name        string
	description string
	outputs     map[string]schema.Attribute
	newModel    func() costModel
}

func (d *costDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + d.name
}

func (d *costDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := costQueryAttributes()
	for name, a := range d.outputs {
		attrs[name] = a
	}
	resp.Schema = schema.Schema{Description: d.description, Attributes: attrs}
}

func (d *costDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = dataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *costDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !ready(d.data, &resp.Diagnostics) {
		return
	}
	m := d.newModel()
	resp.Diagnostics.Append(req.Config.Get(ctx, m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	q := m.query().query(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	filters, currency, err := m.read(ctx, d.data.client, q)
	if err != nil {
		AddAPIError(&resp.Diagnostics, "Could not read the costs", err, costFieldPath)
		return
	}
	m.query().Currency = types.StringValue(currency)
	m.query().Filters = filtersValue(filters)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

var _ datasource.DataSourceWithConfigure = (*costDataSource)(nil)
