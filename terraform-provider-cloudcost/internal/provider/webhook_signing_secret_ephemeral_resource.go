package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// NewWebhookSigningSecretEphemeralResource is the ephemeral cloudcost_webhook_signing_secret (OpenTofu 1.11+):
// read at each plan and apply, handed to whatever needs it (a provider configuration, a write-only argument)
// and never written to a plan or the state.
func NewWebhookSigningSecretEphemeralResource() ephemeral.EphemeralResource {
	return &signingSecretEphemeralResource{}
}

type signingSecretEphemeralResource struct{ data *providerData }

func (e *signingSecretEphemeralResource) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_webhook_signing_secret"
}

func (e *signingSecretEphemeralResource) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: signingSecretDescription + " Never stored in a plan or the state.",
		Attributes: map[string]schema.Attribute{
			"secret": schema.StringAttribute{Computed: true, Sensitive: true, Description: "whsec_ followed by base64."},
		},
	}
}

func (e *signingSecretEphemeralResource) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	e.data = dataFrom(req.ProviderData, &resp.Diagnostics)
}

func (e *signingSecretEphemeralResource) Open(ctx context.Context, _ ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	if !ready(e.data, &resp.Diagnostics) {
		return
	}
	s, err := e.data.client.GetWebhookSigningSecret(ctx)
	if err != nil {
		AddAPIError(&resp.Diagnostics, "Could not read the webhook signing secret", err, nil)
		return
	}
	resp.Diagnostics.Append(resp.Result.Set(ctx, &signingSecretModel{Secret: types.StringValue(s.Secret)})...)
}

var _ ephemeral.EphemeralResourceWithConfigure = (*signingSecretEphemeralResource)(nil)
