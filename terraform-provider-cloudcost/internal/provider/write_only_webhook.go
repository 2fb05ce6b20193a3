package provider

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// An alert's and a report's webhook URL is a secret. `webhook_url` is sensitive (hidden in plans and output)
// but stored in state as written; `webhook_url_wo` is write-only: the CLI hands it to the provider in the
// configuration of a plan and an apply and never stores it. The provider keeps, in the resource's private
// state, how the URL is configured and a salted digest of it (never the URL), so that:
//   - a refresh does not copy the service's URL into `webhook_url` unless the state holds the plain form;
//   - a changed `webhook_url_wo` plans an update by itself (ModifyPlan compares digests), as
//     hashicorp/terraform-provider-tfe does for its write-only tokens: no version to bump;
//   - an import stores no URL at all (it cannot know which form the configuration uses): the next plan
//     compares the configuration's URL, either form, with the digest of what the service holds.

// webhookForm is how the state knows the URL: from `webhook_url`, from `webhook_url_wo`, or not at all
// (imported: the configuration has not been applied yet).
type webhookForm string

const (
	formPlain     webhookForm = "plain" // webhook_url, or no webhook: the state holds the URL (or null)
	formWriteOnly webhookForm = "write-only"
	formImported  webhookForm = "imported"
)

// webhookRecord is the private state's record of an object's webhook. Digests are HMAC-SHA-256 keyed with
// a random per-object salt, so equal URLs of two objects do not show as equal and no table of common URLs
// applies; a URL without a secret part (a fixed host and path) can still be confirmed by guessing it, as any
// digest can: the private state is part of the state file and a saved plan, and the digest is there only to
// tell whether the configuration changed.
type webhookRecord struct {
	Form webhookForm `json:"form"`
	Salt []byte      `json:"salt,omitempty"`
	// Sent: the digest of the write-only URL the service was last given; empty when not known (a refresh saw
	// the service hold another URL: the configuration's is sent again).
	Sent []byte `json:"sent,omitempty"`
	// Held: the digest of the URL the service held at the last read or write; empty: no webhook.
	Held []byte `json:"held,omitempty"`
}

const (
	webhookRecordKey = "webhook"
	// legacyWriteOnlyKey: what earlier versions kept ("true" / "false"); read, never written.
	legacyWriteOnlyKey = "webhook_url_wo"
)

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

// loadWebhookRecord reads the record; a state written by an earlier version has only the legacy flag (its
// digests are filled in by the next refresh).
func loadWebhookRecord(ctx context.Context, private privateState) (webhookRecord, diag.Diagnostics) {
	var r webhookRecord
	data, diags := private.GetKey(ctx, webhookRecordKey)
	if len(data) > 0 {
		if err := json.Unmarshal(data, &r); err == nil && r.Form != "" {
			return r, diags
		}
	}
	legacy, more := private.GetKey(ctx, legacyWriteOnlyKey)
	diags.Append(more...)
	r = webhookRecord{Form: formPlain}
	if string(legacy) == "true" {
		r.Form = formWriteOnly
	}
	return r, diags
}

func saveWebhookRecord(ctx context.Context, private privateState, r webhookRecord) diag.Diagnostics {
	data, err := json.Marshal(r)
	if err != nil {
		var diags diag.Diagnostics
		diags.AddError("Could not record the webhook", err.Error())
		return diags
	}
	return private.SetKey(ctx, webhookRecordKey, data)
}

// digest is the URL's HMAC under the record's salt (made on first use); nil for no URL.
func (r *webhookRecord) digest(url *string) []byte {
	if url == nil {
		return nil
	}
	if len(r.Salt) == 0 {
		r.Salt = make([]byte, 32)
		_, _ = rand.Read(r.Salt) // crypto/rand.Read never fails (Go 1.24+)
	}
	mac := hmac.New(sha256.New, r.Salt)
	mac.Write([]byte(*url))
	return mac.Sum(nil)
}

// sentIs: the write-only URL the service was last given is url, as far as the record knows.
func (r webhookRecord) sentIs(url string) bool {
	if len(r.Salt) == 0 || len(r.Sent) == 0 {
		return false
	}
	return hmac.Equal(r.digest(&url), r.Sent)
}

// written is the record after a create or update sent url (writeOnly: from webhook_url_wo) and the service
// answered holding held.
func (r webhookRecord) written(url *string, writeOnly bool, held *string) webhookRecord {
	r.Form, r.Sent = formPlain, nil
	if writeOnly {
		r.Form, r.Sent = formWriteOnly, r.digest(url)
	}
	r.Held = r.digest(held)
	return r
}

// refreshed is the record after a read found the service holding held.
func (r webhookRecord) refreshed(held *string) webhookRecord {
	now := r.digest(held)
	switch r.Form {
	case formWriteOnly:
		switch {
		case len(r.Sent) == 0 && len(r.Held) == 0:
			r.Sent = now // written by an earlier version: what the service holds is what was sent
		case !hmac.Equal(now, r.Held):
			r.Sent = nil // changed outside: the configuration's URL is sent again
		}
	case formImported:
		r.Sent = now // the configuration is taken to name what the service holds until it says otherwise
	}
	r.Held = now
	return r
}

// urlInState: the state's `webhook_url` holds the service's URL (the plain form only).
func (r webhookRecord) urlInState() bool { return r.Form == formPlain }
