package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// NewWebhookSigningSecretDataSource is cloudcost_webhook_signing_secret: the secret as a sensitive value.
// A data source's result is written to the state, so the ephemeral resource of the same name is the way to
// keep it out (webhook_signing_secret_ephemeral_resource.go).
func NewWebhookSigningSecretDataSource() datasource.DataSource { return &signingSecretDataSource{} }

type signingSecretDataSource struct{ data *providerData }

type signingSecretModel struct {
	Secret types.String `tfsdk:"secret"`
}

const signingSecretDescription = "The organization's webhook signing secret (Standard Webhooks `whsec_…`), to verify the signatures " +
	"of the alert and report webhooks. Needs the `write` scope, as it is a secret."

func (d *signingSecretDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_webhook_signing_secret"
}

func (d *signingSecretDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: signingSecretDescription + " The value is stored in the state (marked sensitive); the ephemeral resource " +
			"cloudcost_webhook_signing_secret never is.",
		Attributes: map[string]schema.Attribute{
			"secret": schema.StringAttribute{Computed: true, Sensitive: true, Description: "whsec_ followed by base64."},
		},
	}
}

func (d *signingSecretDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = dataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *signingSecretDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !ready(d.data, &resp.Diagnostics) {
		return
	}
	s, err := d.data.client.GetWebhookSigningSecret(ctx)
	if err != nil {
		AddAPIError(&resp.Diagnostics, "Could not read the webhook signing secret", err, nil)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &signingSecretModel{Secret: types.StringValue(s.Secret)})...)
}

var _ datasource.DataSourceWithConfigure = (*signingSecretDataSource)(nil)
