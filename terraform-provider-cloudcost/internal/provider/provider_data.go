package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// dataFrom is what a resource's, data source's or ephemeral resource's Configure does with the provider's
// data: nil before the provider is configured (validation runs that early), an error for anything else.
func dataFrom(v any, diags *diag.Diagnostics) *providerData {
	if v == nil {
		return nil
	}
	d, ok := v.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("expected *providerData, got %T: please report this", v))
		return nil
	}
	return d
}

// ready reports an error when the provider could not be configured (its settings were unknown).
func ready(d *providerData, diags *diag.Diagnostics) bool {
	if d == nil {
		diags.AddError("Provider not configured", errNotConfigured.Error())
		return false
	}
	return true
}
