package provider

import (
	"context"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

// maxGroupMembers is the contract's MAX_GROUP_MEMBERS (ReplaceMembers.members maxItems).
const maxGroupMembers = 1000

var awsAccountID = regexp.MustCompile(`^\d{12}$`)

// NewCloudGroupResource is cloudcost_cloud_group: a Cloud Group with its members.
func NewCloudGroupResource() resource.Resource { return &cloudGroupResource{} }

type cloudGroupResource struct{ data *providerData }

type cloudGroupModel struct {
	ID                   types.String `tfsdk:"id"`
	Name                 types.String `tfsdk:"name"`
	Description          types.String `tfsdk:"description"`
	AWSAccountIDs        types.Set    `tfsdk:"aws_account_ids"`
	AzureSubscriptionIDs types.Set    `tfsdk:"azure_subscription_ids"`
	Source               types.String `tfsdk:"source"`
	CreatedAt            types.String `tfsdk:"created_at"`
	UpdatedAt            types.String `tfsdk:"updated_at"`
}

func (r *cloudGroupResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cloud_group"
}

func (r *cloudGroupResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	emptySet := setdefault.StaticValue(types.SetValueMust(types.StringType, []attr.Value{}))
	resp.Schema = schema.Schema{
		Description: "A Cloud Group: a named set of connected AWS accounts and Azure subscriptions that alerts, reports and cost reads can be scoped to. " +
			"Name, description and members change in place.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				Description:   "The group's ID (grp_…).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required: true,
				Description: "Not blank; 1 to 100 characters once the service removes surrounding whitespace; unique in the organization, case-insensitively. " +
					"State keeps the name as written while the service's name is the same trimmed.",
				Validators: []validator.String{trimmedName(maxNameLength)},
			},
			"description": schema.StringAttribute{
				Optional:    true,
				Computed:    true,
				Default:     stringdefault.StaticString(""),
				Description: "At most 500 characters; default: \"\".",
				Validators:  []validator.String{maxLength(maxDescriptionLength)},
			},
			"aws_account_ids": schema.SetAttribute{
				ElementType: types.StringType,
				Optional:    true,
				Computed:    true,
				Default:     emptySet,
				Description: "Members: AWS account IDs, 12 digits each, each a connected account of the organization; at most 1,000 members with the Azure subscriptions; default: none.",
				Validators: []validator.Set{setvalidator.ValueStringsAre(
					stringvalidator.RegexMatches(awsAccountID, "must be a 12-digit AWS account ID"))},
			},
			"azure_subscription_ids": schema.SetAttribute{
				ElementType: types.StringType,
				Optional:    true,
				Computed:    true,
				Default:     emptySet,
				Description: "Members: Azure subscription IDs (GUIDs, in either case: the service compares them case-insensitively and stores them in lower case; " +
					"state keeps them as written), each a connected subscription of the organization; default: none.",
				Validators: []validator.Set{setvalidator.ValueStringsAre(subscriptionGUID{})},
			},
			"source": schema.StringAttribute{
				Computed:      true,
				Description:   "Where the group was created: api or portal; it behaves the same either way.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"created_at": schema.StringAttribute{
				Computed:      true,
				Description:   "RFC 3339 timestamp, UTC.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"updated_at": schema.StringAttribute{
				Computed:    true,
				Description: "RFC 3339 timestamp, UTC; changes with every update.",
			},
		},
	}
}

// ValidateConfig checks what the contract states across attributes: at most 1,000 members in all.
func (r *cloudGroupResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m cloudGroupModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.AWSAccountIDs.IsUnknown() || m.AzureSubscriptionIDs.IsUnknown() {
		return
	}
	if n := len(m.AWSAccountIDs.Elements()) + len(m.AzureSubscriptionIDs.Elements()); n > maxGroupMembers {
		resp.Diagnostics.AddAttributeError(path.Root("azure_subscription_ids"), "Too many members",
			"together with aws_account_ids, at most 1000 members (got "+itoa(n)+")")
	}
}

func (r *cloudGroupResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = dataFrom(req.ProviderData, &resp.Diagnostics)
}

// members lists the model's accounts as the membership endpoint takes them, in a fixed order (the create
// key hashes them). Azure IDs go in the service's spelling, lower case, so one subscription written in two
// cases is one member.
func (m *cloudGroupModel) members(ctx context.Context, diags *diag.Diagnostics) []client.Member {
	var aws, azure []string
	diags.Append(m.AWSAccountIDs.ElementsAs(ctx, &aws, false)...)
	diags.Append(m.AzureSubscriptionIDs.ElementsAs(ctx, &azure, false)...)
	sort.Strings(aws)
	azure = foldedSet(azure)
	out := make([]client.Member, 0, len(aws)+len(azure))
	for _, id := range aws {
		out = append(out, client.Member{Provider: "aws", AccountID: id})
	}
	for _, id := range azure {
		out = append(out, client.Member{Provider: "azure", AccountID: id})
	}
	return out
}

// fill puts the service's answer into m, keeping what m holds (the plan after a create or update, the prior
// state after a refresh) for every field the answer only respells (keep_written.go): the name trimmed, Azure
// IDs lower-cased. After an import m holds nothing written, so state takes the answer.
func (m *cloudGroupModel) fill(ctx context.Context, g *client.CloudGroup, diags *diag.Diagnostics) {
	var aws, azure []attr.Value
	var answeredAzure []string
	for _, member := range g.Members {
		switch member.Provider {
		case "aws":
			aws = append(aws, types.StringValue(member.AccountID))
		case "azure":
			azure = append(azure, types.StringValue(strings.ToLower(member.AccountID)))
			answeredAzure = append(answeredAzure, member.AccountID)
		}
	}
	m.ID = types.StringValue(g.ID)
	m.Name = keepWritten(m.Name, types.StringValue(g.Name), func(w, x types.String) bool { return !w.IsNull() && sameTrimmed(w.ValueString(), x.ValueString()) })
	m.Description = types.StringValue(g.Description)
	m.AWSAccountIDs = types.SetValueMust(types.StringType, nonNil(aws))
	m.AzureSubscriptionIDs = keepWritten(m.AzureSubscriptionIDs, types.SetValueMust(types.StringType, nonNil(azure)), func(w, _ types.Set) bool {
		if w.IsNull() || w.IsUnknown() {
			return false
		}
		var written []string
		diags.Append(w.ElementsAs(ctx, &written, false)...)
		return sameSubscriptionIDs(written, answeredAzure)
	})
	m.Source = types.StringValue(g.Source)
	m.CreatedAt = types.StringValue(g.CreatedAt)
	m.UpdatedAt = types.StringValue(g.UpdatedAt)
}

// groupFieldPath maps a contract field path of createGroup, updateGroup or replaceMembers to an attribute;
// `body.members.<i>…` names the set the i-th member sent came from.
func groupFieldPath(sent []client.Member) func(string) (path.Path, bool) {
	return func(p string) (path.Path, bool) {
		if rest, ok := strings.CutPrefix(p, "body.members"); ok {
			if i, ok := leadingIndex(rest); ok && i < len(sent) && sent[i].Provider == "azure" {
				return path.Root("azure_subscription_ids"), true
			}
			return path.Root("aws_account_ids"), true
		}
		return FieldPath(p, nil)
	}
}

// ModifyPlan checks with the service at plan time (plan_check.go): the dry-run of the create, or of the rename and the member set that
// Update would send.
func (r *cloudGroupResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !planChange(ctx, r.data, req, "cloudcost_cloud_group") {
		return
	}
	var plan cloudGroupModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	members := plan.members(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	draft := client.GroupDraft{Name: plan.Name.ValueString(), Description: plan.Description.ValueString(), Members: members}
	id, stepSummary := "", "Could not create the Cloud Group"
	if !req.State.Raw.IsNull() {
		var state cloudGroupModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		id, stepSummary = state.ID.ValueString(), "Could not update the Cloud Group"
		// As Update: an unchanged member set is not sent, so it is not judged either; an update that only
		// respells (Update sends nothing but a read) costs no dry-run.
		if slices.Equal(members, state.members(ctx, &resp.Diagnostics)) {
			draft.Members = nil
			if sameTrimmed(plan.Name.ValueString(), state.Name.ValueString()) && plan.Description.Equal(state.Description) {
				return
			}
		}
	}
	summary := func(api *client.APIError) string {
		for _, f := range api.Errors {
			if strings.HasPrefix(f.Path, "body.members") {
				return "Could not set the Cloud Group's members"
			}
		}
		return stepSummary
	}
	err := r.data.client.ValidateGroup(ctx, draft, id)
	refusedAtPlan(ctx, &resp.Diagnostics, "cloudcost_cloud_group", err, summary, groupFieldPath(members))
	if id == "" {
		hintAtALeftover(&resp.Diagnostics, err)
	}
}

func (r *cloudGroupResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if !ready(r.data, &resp.Diagnostics) {
		return
	}
	var plan cloudGroupModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	members := plan.members(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	body := client.CreateGroup{Name: plan.Name.ValueString(), Description: plan.Description.ValueString()}
	var replayed bool
	group, err := r.data.client.CreateGroup(ctx, body, &client.CreateOptions{IdempotencyKey: r.data.keys.Next(), Replayed: &replayed})
	if err != nil {
		AddAPIError(&resp.Diagnostics, "Could not create the Cloud Group", err, groupFieldPath(members))
		hintAtALeftover(&resp.Diagnostics, err)
		return
	}
	if replayed {
		// An earlier attempt of this very create made it, and its answer was lost (create_key.go): read what
		// the group is now.
		if group, err = r.data.client.GetGroup(ctx, group.ID); err != nil {
			AddAPIError(&resp.Diagnostics, "Could not read the Cloud Group an earlier attempt of this create made", err, nil)
			return
		}
	}
	if len(members) > 0 || len(group.Members) > 0 {
		updated, err := r.data.client.ReplaceMembers(ctx, group.ID, members)
		if err != nil {
			// All or nothing: a group without its members would not be in state.
			_ = r.data.client.DeleteGroup(ctx, group.ID)
			AddAPIError(&resp.Diagnostics, "Could not set the Cloud Group's members", err, groupFieldPath(members))
			return
		}
		group = updated
	}
	plan.fill(ctx, group, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *cloudGroupResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if !ready(r.data, &resp.Diagnostics) {
		return
	}
	var state cloudGroupModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	group, err := r.data.listings.groups.read(ctx, state.ID.ValueString())
	if client.IsNotFound(err) {
		// Deleted outside: the plan creates it again.
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		AddAPIError(&resp.Diagnostics, "Could not read the Cloud Group", err, nil)
		return
	}
	state.fill(ctx, group, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *cloudGroupResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if !ready(r.data, &resp.Diagnostics) {
		return
	}
	var plan, state cloudGroupModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	members := plan.members(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	r.data.listings.groups.wrote(id)
	var group *client.CloudGroup
	var err error
	// Only what changed is sent: 1 PATCH and/or 1 PUT of the members.
	var patch client.UpdateGroup
	// A respelling (surrounding spaces, the case of an Azure ID) is no change to the service: not sent.
	if !sameTrimmed(plan.Name.ValueString(), state.Name.ValueString()) {
		patch.Name = plan.Name.ValueStringPointer()
	}
	if !plan.Description.Equal(state.Description) {
		patch.Description = plan.Description.ValueStringPointer()
	}
	if patch.Name != nil || patch.Description != nil {
		if group, err = r.data.client.UpdateGroup(ctx, id, patch); err != nil {
			AddAPIError(&resp.Diagnostics, "Could not update the Cloud Group", err, groupFieldPath(nil))
			return
		}
	}
	if !slices.Equal(members, state.members(ctx, &resp.Diagnostics)) {
		if group, err = r.data.client.ReplaceMembers(ctx, id, members); err != nil {
			AddAPIError(&resp.Diagnostics, "Could not set the Cloud Group's members", err, groupFieldPath(members))
			return
		}
	}
	if group == nil {
		if group, err = r.data.client.GetGroup(ctx, id); err != nil {
			AddAPIError(&resp.Diagnostics, "Could not read the Cloud Group", err, nil)
			return
		}
	}
	plan.fill(ctx, group, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *cloudGroupResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if !ready(r.data, &resp.Diagnostics) {
		return
	}
	var state cloudGroupModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.data.listings.groups.wrote(state.ID.ValueString())
	if err := r.data.client.DeleteGroup(ctx, state.ID.ValueString()); err != nil && !client.IsNotFound(err) {
		AddAPIError(&resp.Diagnostics, "Could not delete the Cloud Group (the service refuses while alerts or reports use it)", err, nil)
	}
}

// ImportState takes the group's ID (`tofu import cloudcost_cloud_group.x grp_…`, or an import block).
func (r *cloudGroupResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	groupIDPrefix.importID(ctx, req, resp)
}

var (
	_ resource.ResourceWithConfigure      = (*cloudGroupResource)(nil)
	_ resource.ResourceWithImportState    = (*cloudGroupResource)(nil)
	_ resource.ResourceWithValidateConfig = (*cloudGroupResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*cloudGroupResource)(nil)
)

// hintAtALeftover follows a new group's refused name with the way to tell whether an interrupted apply of this
// configuration left the group that holds it (the next apply never recognises that create, create_key.go). The
// provider sees no state, so the advice goes through cloudcost-unmanaged, which does: a group some address holds
// (a renamed address without a `moved` block, a replacement) is never listed, so never adopted twice.
func hintAtALeftover(diags *diag.Diagnostics, err error) {
	if taken, ok := problemWithFieldCode(err, "duplicate_name"); ok {
		diags.AddAttributeWarning(path.Root("name"), "Left by an interrupted apply?", taken.Detail+" "+
			"Run `cloudcost-unmanaged` (provider README, \"If tofu apply is interrupted\"): it compares the organization with your "+
			"state. If it lists that group, an interrupted apply of this configuration made it: adopt it with the import block it "+
			"prints. If it does not, another address or configuration holds the name: for an address you renamed, add a `moved` "+
			"block; otherwise choose another name.")
	}
}
