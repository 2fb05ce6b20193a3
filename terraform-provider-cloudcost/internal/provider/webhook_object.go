package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

// webhookObject is what the budget alert and the scheduled report have in common: an object of the API that is
// read, replaced in place (PUT) and deleted by id, and that may carry a webhook URL, plain or write-only. Their
// Create, Read, Update and Delete are the functions below (called once the provider is configured: the calls are bound to
// its client); only the calls, the noun and the set attributes differ.
type webhookObject[A any, Q any] struct {
	noun    string                         // "budget alert": what a diagnostic calls it
	sets    func(string) (path.Path, bool) // the set attributes, where a field error inside one is reported
	idOf    func(A) string
	urlOf   func(A) *string // the webhook URL the service holds
	create  func(context.Context, Q, *client.CreateOptions) (A, error)
	get     func(context.Context, string) (A, error)
	listing *readListing[A] // answers Reads (read_listing.go)
	replace func(context.Context, string, Q) (A, error)
	remove  func(context.Context, string) error
}

// webhookModel is a resource model whose pointer turns itself into a request and takes the API's answer.
type webhookModel[M any, A any, Q any] interface {
	*M
	objectID() string
	webhookURL() types.String
	request(webhook *string) Q
	fromAPI(a A, writeOnlyWebhook bool)
}

func createWebhookObject[M any, P webhookModel[M, A, Q], A any, Q any](ctx context.Context, o webhookObject[A, Q], keys *CreateKeys, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	webhook, writeOnly := webhookOf(ctx, P(&m).webhookURL(), req.Config, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	body := P(&m).request(webhook)
	var replayed bool
	created, err := o.create(ctx, body, &client.CreateOptions{IdempotencyKey: keys.Next(), Replayed: &replayed})
	if err != nil {
		AddAPIError(&resp.Diagnostics, "Could not create the "+o.noun, err, o.sets)
		return
	}
	if replayed {
		// An earlier attempt of this very create made it, and its answer was lost (create_key.go): read what
		// the object is now.
		if created, err = o.get(ctx, o.idOf(created)); err != nil {
			AddAPIError(&resp.Diagnostics, "Could not read the "+o.noun+" an earlier attempt of this create made", err, nil)
			return
		}
	}
	P(&m).fromAPI(created, writeOnly)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	resp.Diagnostics.Append(saveWebhookRecord(ctx, resp.Private, webhookRecord{}.written(webhook, writeOnly, o.urlOf(created)))...)
}

func readWebhookObject[M any, P webhookModel[M, A, Q], A any, Q any](ctx context.Context, o webhookObject[A, Q], req resource.ReadRequest, resp *resource.ReadResponse) {
	var m M
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := P(&m).objectID()
	a, err := o.listing.read(ctx, id)
	if client.IsNotFound(err) {
		resp.State.RemoveResource(ctx) // deleted outside: the next plan creates it again
		return
	}
	if err != nil {
		AddAPIError(&resp.Diagnostics, "Could not read the "+o.noun+" "+id, err, o.sets)
		return
	}
	// The service's URL reaches the state only where the state holds the plain form (write_only_webhook.go).
	record, diags := loadWebhookRecord(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	held := o.urlOf(a)
	P(&m).fromAPI(a, !record.urlInState())
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	if record.Form == formImported && held != nil {
		// Imported: a webhook to name in the configuration. webhook_url_wo_version = 1 tells it apart in a
		// generated configuration (whose sensitive arguments all read `null # sensitive`).
		var version types.Int64
		resp.Diagnostics.Append(resp.State.GetAttribute(ctx, path.Root("webhook_url_wo_version"), &version)...)
		if version.IsNull() {
			resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("webhook_url_wo_version"), types.Int64Value(1))...)
		}
	}
	resp.Diagnostics.Append(saveWebhookRecord(ctx, resp.Private, record.refreshed(held))...)
}

func updateWebhookObject[M any, P webhookModel[M, A, Q], A any, Q any](ctx context.Context, o webhookObject[A, Q], req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	webhook, writeOnly := webhookOf(ctx, P(&m).webhookURL(), req.Config, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	id := P(&m).objectID()
	o.listing.wrote(id)
	updated, err := o.replace(ctx, id, P(&m).request(webhook))
	if err != nil {
		AddAPIError(&resp.Diagnostics, "Could not update the "+o.noun+" "+id, err, o.sets)
		return
	}
	P(&m).fromAPI(updated, writeOnly)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	record, diags := loadWebhookRecord(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(saveWebhookRecord(ctx, resp.Private, record.written(webhook, writeOnly, o.urlOf(updated)))...)
}

func deleteWebhookObject[M any, P webhookModel[M, A, Q], A any, Q any](ctx context.Context, o webhookObject[A, Q], req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m M
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := P(&m).objectID()
	o.listing.wrote(id)
	if err := o.remove(ctx, id); err != nil && !client.IsNotFound(err) {
		AddAPIError(&resp.Diagnostics, "Could not delete the "+o.noun+" "+id, err, o.sets)
	}
}
