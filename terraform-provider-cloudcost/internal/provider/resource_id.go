package provider

import (
	"context"
	"regexp"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// resourceID is the contract's ResourceId(prefix) (api/src/contract/common.ts): `<prefix>_` and 10 to 40
// lower-case letters or digits. Checked at plan, so `group_id = "Production"` (a name, not an ID) is refused
// with the attribute's path before any request; contract_values_test.go holds each pattern to api/openapi.json.
type resourceID string

const (
	groupIDPrefix  resourceID = "grp"
	alertIDPrefix  resourceID = "alr"
	reportIDPrefix resourceID = "rpt"
)

func (p resourceID) pattern() *regexp.Regexp {
	return regexp.MustCompile(`^` + string(p) + `_[0-9a-z]{10,40}$`)
}

// rule answers "" for an ID of this kind, else what is wrong.
func (p resourceID) rule(v string) string {
	if p.pattern().MatchString(v) {
		return ""
	}
	return "must be an ID starting with " + string(p) + "_ followed by 10 to 40 lower-case letters or digits (got " + strconv.Quote(v) + ")"
}

func (p resourceID) Description(context.Context) string {
	return "an ID starting with " + string(p) + "_"
}
func (p resourceID) MarkdownDescription(ctx context.Context) string { return p.Description(ctx) }

func (p resourceID) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if msg := p.rule(req.ConfigValue.ValueString()); msg != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Not a "+string(p)+"_ ID", msg)
	}
}

// importID is ImportStatePassthroughID for an ID of this kind: an import of anything else is refused before
// any request (`tofu import cloudcost_cloud_group.x Production` names a group by its name, not its ID).
func (p resourceID) importID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if msg := p.rule(req.ID); msg != "" {
		resp.Diagnostics.AddError("Not a "+string(p)+"_ ID", "The import ID "+msg+".")
		return
	}
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
