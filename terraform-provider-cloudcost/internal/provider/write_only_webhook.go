package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// An alert's and a report's webhook URL is a secret. `webhook_url` is sensitive (hidden in plans and
// output) but stored in state as written; `webhook_url_wo` is write-only: the CLI hands it to the provider
// in the configuration of an apply and never stores it. Whether the URL came from the write-only argument
// is kept in the resource's private state, so a refresh does not copy the service's answer into
// `webhook_url` (which the configuration leaves null: that would be a diff on every plan).

const writeOnlyWebhookKey = "webhook_url_wo"

type privateState interface {
	GetKey(context.Context, string) ([]byte, diag.Diagnostics)
	SetKey(context.Context, string, []byte) diag.Diagnostics
}

type configReader interface {
	GetAttribute(context.Context, path.Path, any) diag.Diagnostics
}

// webhookOf is the URL to send: `webhook_url`, else the write-only `webhook_url_wo` (only in the configuration).
func webhookOf(ctx context.Context, m types.String, config configReader, diags *diag.Diagnostics) (url *string, writeOnly bool) {
	if !m.IsNull() {
		return m.ValueStringPointer(), false
	}
	var wo types.String
	diags.Append(config.GetAttribute(ctx, path.Root("webhook_url_wo"), &wo)...)
	if wo.IsNull() || wo.IsUnknown() {
		return nil, false
	}
	return wo.ValueStringPointer(), true
}

func rememberWriteOnlyWebhook(ctx context.Context, private privateState, writeOnly bool) diag.Diagnostics {
	value := []byte("false")
	if writeOnly {
		value = []byte("true")
	}
	return private.SetKey(ctx, writeOnlyWebhookKey, value)
}

func webhookWasWriteOnly(ctx context.Context, private privateState) (bool, diag.Diagnostics) {
	value, diags := private.GetKey(ctx, writeOnlyWebhookKey)
	return string(value) == "true", diags
}
