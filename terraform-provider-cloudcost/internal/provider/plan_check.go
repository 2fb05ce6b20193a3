package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

// Issue 38: the service's own rules at plan time. A rule that needs the organization (a group name already
// taken, an account not connected or not in the group, no account of a provider, a tag key that is not a cost
// allocation tag, a Cloud Group that does not exist) is judged by the contract's dry-run (validateGroup,
// validateAlert, validateReport: the real request's handlers, rolled back), so a plan fails where the apply
// would, on the same attribute and with the same message — and nothing is written.

// planChange says whether a plan needs the service's check, and why not when it does not: a destroy, a
// no-op (the plan is the prior state: a refresh-only or unchanged resource costs no request), an input still
// unknown (it depends on an object not made yet: the check runs again when apply plans with it known), or a
// provider that could not be configured (its own settings unknown at plan).
func planChange(ctx context.Context, data *providerData, req resource.ModifyPlanRequest, typeName string) bool {
	reason := ""
	switch {
	case req.Plan.Raw.IsNull():
		reason = "a destroy"
	case !req.State.Raw.IsNull() && req.Plan.Raw.Equal(req.State.Raw):
		reason = "no change"
	case !req.Config.Raw.IsFullyKnown():
		reason = "an input is unknown until apply"
	case data == nil:
		reason = "the provider is not configured yet"
	}
	if reason != "" {
		tflog.Debug(ctx, "dry-run skipped at plan", map[string]any{"resource": typeName, "reason": reason})
		return false
	}
	return true
}

// refusedAtPlan turns the dry-run's answer into diagnostics: a problem the apply would meet (400, 404, 409,
// 422) is an error on the attribute it names, worded as apply words it (summary, attributePath: the same as
// the Create or Update that would send the request); a failure to ask (no network, credentials refused,
// the service unavailable) is a warning only — the plan goes on, and apply checks as it always did.
func refusedAtPlan(ctx context.Context, diags *diag.Diagnostics, typeName string, err error, summary func(*client.APIError) string, attributePath func(string) (path.Path, bool)) {
	if err == nil {
		tflog.Debug(ctx, "dry-run at plan: the service would accept the change", map[string]any{"resource": typeName})
		return
	}
	var api *client.APIError
	if errors.As(err, &api) {
		switch api.Status {
		case http.StatusBadRequest, http.StatusConflict, http.StatusUnprocessableEntity:
			tflog.Debug(ctx, "dry-run at plan: the service would refuse the change", map[string]any{"resource": typeName, "status": api.Status, "request_id": api.RequestID})
			AddAPIError(diags, summary(api), err, attributePath)
			return
		}
	}
	tflog.Warn(ctx, "dry-run at plan failed; apply checks instead", map[string]any{"resource": typeName, "error": err.Error()})
	diags.AddWarning("The service's rules could not be checked at plan time",
		fmt.Sprintf("%s: the dry-run failed (%s); apply checks them when it sends the change.", typeName, err))
}

// planWebhookObject is ModifyPlan of the budget alert and the scheduled report: the dry-run of the create or
// of the replace that Update would send, with the body Create or Update would build.
func planWebhookObject[M any, P webhookModel[M, A, Q], A any, Q any](ctx context.Context, typeName string, o webhookObject[A, Q], validate func(context.Context, Q, string) error, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var m M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	webhook, _ := webhookOf(ctx, P(&m).webhookURL(), req.Config, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	id, summary := "", "Could not create the "+o.noun
	if !req.State.Raw.IsNull() {
		var prior M
		resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
		id = P(&prior).objectID()
		summary = "Could not update the " + o.noun + " " + id
	}
	err := validate(ctx, P(&m).request(webhook), id)
	refusedAtPlan(ctx, &resp.Diagnostics, typeName, err, func(*client.APIError) string { return summary }, o.sets)
}
