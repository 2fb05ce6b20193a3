package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// NewAccountsDataSource is cloudcost_accounts (listAccounts, every page).
func NewAccountsDataSource() datasource.DataSource { return &accountsDataSource{} }

type accountsDataSource struct{ data *providerData }

type accountModel struct {
	Provider  types.String `tfsdk:"provider"`
	AccountID types.String `tfsdk:"account_id"`
	Name      types.String `tfsdk:"name"`
}

type accountsModel struct {
	Accounts []accountModel `tfsdk:"accounts"`
}

func (d *accountsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_accounts"
}

func (d *accountsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "The cloud accounts connected to the organization (GET /accounts, every page).",
		Attributes: map[string]schema.Attribute{
			"accounts": schema.ListNestedAttribute{Computed: true, Description: "Sorted by provider, then account ID.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"provider":   schema.StringAttribute{Computed: true, Description: "aws or azure"},
					"account_id": schema.StringAttribute{Computed: true, Description: "12-digit AWS account ID or Azure subscription ID"},
					"name":       schema.StringAttribute{Computed: true},
				}}},
		},
	}
}

func (d *accountsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = dataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *accountsDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !ready(d.data, &resp.Diagnostics) {
		return
	}
	accounts, err := d.data.client.ListAccounts(ctx)
	if err != nil {
		AddAPIError(&resp.Diagnostics, "Could not list the accounts", err, nil)
		return
	}
	m := accountsModel{Accounts: make([]accountModel, len(accounts))}
	for i, a := range accounts {
		m.Accounts[i] = accountModel{Provider: types.StringValue(a.Provider), AccountID: types.StringValue(a.AccountID), Name: types.StringValue(a.Name)}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

var _ datasource.DataSourceWithConfigure = (*accountsDataSource)(nil)
