package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// planWebhook is the ModifyPlan of the resources that carry a webhook (write_only_webhook.go says what the
// private state records). A write-only value is not part of the plan, so the plan alone cannot show that it
// changed; this compares the configuration's `webhook_url_wo` with the digest of the URL last sent and plans
// an update when they differ, counting the URLs sent in `webhook_url_wo_version` (1, 2, …) unless the
// configuration sets that itself. needsDelivery: the kind needs recipients or a webhook (a report); checked
// here rather than in ValidateConfig because an imported object's configuration may leave its webhook out
// (a generated configuration does: `null # sensitive`) without anything being sent.
func planWebhook(ctx context.Context, noun string, needsDelivery bool, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var wo, plain types.String
	var configVersion, stateVersion types.Int64
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("webhook_url_wo"), &wo)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("webhook_url"), &plain)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("webhook_url_wo_version"), &configVersion)...)
	creating := req.State.Raw.IsNull()
	record := webhookRecord{Form: formPlain}
	if !creating {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("webhook_url_wo_version"), &stateVersion)...)
		loaded, diags := loadWebhookRecord(ctx, req.Private)
		resp.Diagnostics.Append(diags...)
		record = loaded
	}
	if resp.Diagnostics.HasError() {
		return
	}
	namesNone := wo.IsNull() && plain.IsNull()
	unnamed := !creating && namesNone && record.Form == formImported && len(record.Held) > 0
	// changed: an update must be sent that no other argument shows.
	changed := false
	switch {
	case creating:
	case wo.IsUnknown():
		changed = true
	case !wo.IsNull():
		changed = !record.sentIs(wo.ValueString())
	case namesNone && record.Form == formWriteOnly && len(record.Held) > 0:
		changed = true // webhook_url_wo left out: the update removes the webhook
	}

	version := configVersion
	if configVersion.IsNull() {
		switch {
		case !wo.IsNull() && (creating || stateVersion.IsNull()):
			version = types.Int64Value(1)
		case !wo.IsNull() && changed:
			version = types.Int64Value(stateVersion.ValueInt64() + 1)
		case !wo.IsNull() || unnamed:
			version = stateVersion
		default:
			version = types.Int64Null()
		}
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("webhook_url_wo_version"), version)...)
	if changed {
		// Never the URL: only that the write-only one differs from what was sent.
		tflog.Debug(ctx, "the write-only webhook URL is not the one last sent: planning an update", map[string]any{"webhook_url_wo_version": version.String()})
		planUpdate(ctx, resp)
	}

	sends := creating || !resp.Plan.Raw.Equal(req.State.Raw)
	if unnamed {
		detail := "The service delivers this " + noun + " to a webhook that the configuration does not name (it was imported, and " +
			"the provider never copies a webhook URL into the state on import). Set webhook_url_wo (from an ephemeral variable) or " +
			"webhook_url to the URL it should keep."
		if sends {
			detail += " This plan updates the " + noun + " without one: applying it removes the webhook."
		}
		resp.Diagnostics.AddAttributeWarning(path.Root("webhook_url_wo"), "A webhook to name", detail)
	}
	if needsDelivery && sends && namesNone {
		var recipients types.Set
		resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("recipients"), &recipients)...)
		if !recipients.IsUnknown() && len(recipients.Elements()) == 0 {
			resp.Diagnostics.AddAttributeError(path.Root("recipients"), "Nobody to deliver to",
				"recipients needs at least one address unless webhook_url (or webhook_url_wo) is set.")
		}
	}
}

// planUpdate marks what an update answers anew as unknown, as the framework does when an argument changes
// (here none may have: the change is the write-only URL's). Kept through updates: id and created_at.
func planUpdate(ctx context.Context, resp *resource.ModifyPlanResponse) {
	for name, a := range resp.Plan.Schema.GetAttributes() {
		if !a.IsComputed() || a.IsOptional() || name == "id" || name == "created_at" {
			continue
		}
		unknown, err := a.GetType().ValueFromTerraform(ctx, tftypes.NewValue(a.GetType().TerraformType(ctx), tftypes.UnknownValue))
		if err != nil {
			resp.Diagnostics.AddError("Could not plan the update", err.Error())
			return
		}
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(name), unknown)...)
	}
}

// plainImportSuffix ends an import id that asks for the plain form: `rpt_…:webhook_url`.
const plainImportSuffix = ":webhook_url"

// importWebhookObject imports by id and records that the state does not know how the webhook is configured:
// the refresh that follows keeps its URL out of the state (write_only_webhook.go). An id ending in
// `:webhook_url` says the configuration uses the plain form: the refresh stores the URL in webhook_url, as
// an apply of that configuration would, so its plan after the import is empty too.
func importWebhookObject(ctx context.Context, kind resourceID, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id, plain := strings.CutSuffix(req.ID, plainImportSuffix)
	if msg := kind.rule(id); msg != "" {
		resp.Diagnostics.AddError("Not a "+string(kind)+"_ ID", "The import ID "+msg+".")
		return
	}
	record := webhookRecord{Form: formImported}
	if plain {
		record.Form = formPlain
	}
	tflog.Debug(ctx, "importing an object that may carry a webhook", map[string]any{"id": id, "webhook_form": string(record.Form)})
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(saveWebhookRecord(ctx, resp.Private, record)...)
}
