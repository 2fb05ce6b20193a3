package provider

import (
	"context"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

var (
	_ resource.ResourceWithConfigure      = (*scheduledReportResource)(nil)
	_ resource.ResourceWithImportState    = (*scheduledReportResource)(nil)
	_ resource.ResourceWithValidateConfig = (*scheduledReportResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*scheduledReportResource)(nil)
)

// NewScheduledReportResource is `cloudcost_scheduled_report`: the contract's ScheduledReport (POST /reports,
// GET, PUT, DELETE /reports/{reportId}). Requests: create 1, read 1, update 1 (a PUT of every field), delete 1.
func NewScheduledReportResource() resource.Resource { return &scheduledReportResource{} }

type scheduledReportResource struct{ data *providerData }

type scheduleModel struct {
	Frequency  string  `tfsdk:"frequency"`
	DayOfWeek  *string `tfsdk:"day_of_week"`
	DayOfMonth *int64  `tfsdk:"day_of_month"`
	Time       string  `tfsdk:"time"`
	Timezone   string  `tfsdk:"timezone"`
}

type scheduledReportModel struct {
	ID                  types.String      `tfsdk:"id"`
	Name                types.String      `tfsdk:"name"`
	Report              types.String      `tfsdk:"report"`
	GroupID             types.String      `tfsdk:"group_id"`
	Filters             *costFiltersModel `tfsdk:"filters"`
	Schedule            *scheduleModel    `tfsdk:"schedule"`
	Format              types.String      `tfsdk:"format"`
	Recipients          []string          `tfsdk:"recipients"`
	WebhookURL          types.String      `tfsdk:"webhook_url"`
	WebhookURLWO        types.String      `tfsdk:"webhook_url_wo"`
	WebhookURLWOVersion types.Int64       `tfsdk:"webhook_url_wo_version"`
	Enabled             types.Bool        `tfsdk:"enabled"`
	NextRunAt           types.String      `tfsdk:"next_run_at"`
	LastRunAt           types.String      `tfsdk:"last_run_at"`
	CreatedAt           types.String      `tfsdk:"created_at"`
	UpdatedAt           types.String      `tfsdk:"updated_at"`
}

func (r *scheduledReportResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_scheduled_report"
}

func (r *scheduledReportResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A cost report the service delivers on a schedule by e-mail and, with a webhook, as a signed " +
			"`scheduled_report.delivered` event (a spend feed). Every field updates in place.",
		Attributes: map[string]schema.Attribute{
			"id": computedString("the report's id (`rpt_…`)", true),
			"name": schema.StringAttribute{Required: true, Description: "not blank; surrounding whitespace is removed, then 1 to 100 characters",
				Validators: []validator.String{trimmedName(maxNameLength)}},
			"report": schema.StringAttribute{Required: true,
				Description: "what is delivered: `summary`, `services`, `daily`, `forecast`, `comparison` (the `/cost/*` read of that name) or `budget_status` (each budget alert of the scope with its spend and thresholds crossed)",
				Validators:  []validator.String{stringvalidator.OneOf(reportKinds...)}},
			"group_id": schema.StringAttribute{Optional: true, Description: "the Cloud Group the report covers (`grp_…`); left out: the whole organization",
				Validators: []validator.String{groupIDPrefix}},
			"filters": costFiltersAttribute("what the report counts (as a budget alert's `filters`); none for `budget_status`, where each alert's own filters apply"),
			"schedule": schema.SingleNestedAttribute{
				Required:    true,
				Description: "when the report runs; `day_of_week` is required for (and only allowed with) weekly schedules, `day_of_month` for monthly ones",
				Attributes: map[string]schema.Attribute{
					"frequency": schema.StringAttribute{Required: true, Description: "`daily`, `weekly` or `monthly`",
						Validators: []validator.String{stringvalidator.OneOf(frequencies...)}},
					"day_of_week": schema.StringAttribute{Optional: true, Description: "weekly only: `monday` … `sunday`",
						Validators: []validator.String{stringvalidator.OneOf(daysOfWeek...)}},
					"day_of_month": schema.Int64Attribute{Optional: true, Description: "monthly only: 1 to 31 (29–31 fall on the last day of shorter months)",
						Validators: []validator.Int64{int64validator.Between(1, 31)}},
					"time": schema.StringAttribute{Required: true, Description: "time of day, `HH:MM` (24-hour), in `timezone`",
						Validators: []validator.String{checkString(timeOfDayRule, "time")}},
					"timezone": schema.StringAttribute{Required: true, Description: "an IANA time-zone name, e.g. `Europe/Berlin` or `UTC`",
						Validators: []validator.String{checkString(timezoneRule, "timezone")}},
				},
			},
			"format": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("csv"),
				Description: "`csv` or `pdf`; default `csv`", Validators: []validator.String{stringvalidator.OneOf(reportFormats...)}},
			"recipients": emailSetAttribute("e-mail addresses (compared case-insensitively), at most 50; at least one unless a webhook URL is set"),
			"webhook_url": schema.StringAttribute{Optional: true, Sensitive: true,
				Description: "receives every run as a signed `scheduled_report.delivered` event with the report's rows; https (plain http only to localhost, 127.0.0.1 or [::1]). Sensitive, but stored in state: use `webhook_url_wo` to keep it out",
				Validators: []validator.String{checkSecretString(webhookURLRule, "webhook URL"),
					stringvalidator.ConflictsWith(path.MatchRoot("webhook_url_wo"))}},
			"webhook_url_wo": schema.StringAttribute{Optional: true, Sensitive: true, WriteOnly: true,
				Description: "`webhook_url`, write-only (OpenTofu 1.11+, Terraform 1.11+): sent to the service, never stored in state or a plan; a changed value is sent on the next apply (the provider keeps a salted digest of it in private state). Give it from an `ephemeral` variable so the URL is not in a saved plan either",
				Validators:  []validator.String{checkSecretString(webhookURLRule, "webhook URL")}},
			"webhook_url_wo_version": schema.Int64Attribute{Optional: true, Computed: true,
				Description: "how many `webhook_url_wo` values were sent (1, 2, …; an imported object with a webhook starts at 1): a plan that sends a new one shows it growing. Setting it is not needed; a changed value still sends `webhook_url_wo` again"},
			"enabled": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(true),
				Description: "a disabled report is not delivered and has no `next_run_at`; default true"},
			"next_run_at": computedString("next delivery (RFC 3339, UTC) on the organization's clock; null while disabled", false),
			"last_run_at": computedString("last delivery (RFC 3339, UTC); null until the first run", false),
			"created_at":  computedString("RFC 3339, UTC", true),
			"updated_at":  computedString("RFC 3339, UTC", false),
		},
	}
}

func (r *scheduledReportResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = dataFrom(req.ProviderData, &resp.Diagnostics)
}

// ValidateConfig applies the contract's Schedule union and reportRules when the fields they read are known;
// reportRules' "recipients or a webhook" is checked in ModifyPlan (webhook_plan.go), which sees the state.
func (r *scheduledReportResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var frequency, dayOfWeek, report types.String
	var dayOfMonth types.Int64
	var filters types.Set
	var filtersObject types.Object
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("schedule").AtName("frequency"), &frequency)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("schedule").AtName("day_of_week"), &dayOfWeek)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("schedule").AtName("day_of_month"), &dayOfMonth)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("report"), &report)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("filters"), &filtersObject)...)
	_ = filters
	if resp.Diagnostics.HasError() {
		return
	}
	if !frequency.IsUnknown() && !frequency.IsNull() {
		f := frequency.ValueString()
		dayPath := path.Root("schedule")
		switch {
		case f == "weekly" && dayOfWeek.IsNull():
			resp.Diagnostics.AddAttributeError(dayPath.AtName("day_of_week"), "Missing day of week", "schedule.day_of_week is required for weekly schedules.")
		case f != "weekly" && !dayOfWeek.IsNull():
			resp.Diagnostics.AddAttributeError(dayPath.AtName("day_of_week"), "Day of week not allowed", "schedule.day_of_week is only allowed for weekly schedules.")
		}
		switch {
		case f == "monthly" && dayOfMonth.IsNull():
			resp.Diagnostics.AddAttributeError(dayPath.AtName("day_of_month"), "Missing day of month", "schedule.day_of_month is required for monthly schedules.")
		case f != "monthly" && !dayOfMonth.IsNull():
			resp.Diagnostics.AddAttributeError(dayPath.AtName("day_of_month"), "Day of month not allowed", "schedule.day_of_month is only allowed for monthly schedules.")
		}
	}
	if report.ValueString() == "budget_status" && !filtersObject.IsNull() && !filtersObject.IsUnknown() && filtersRestrict(filtersObject) {
		resp.Diagnostics.AddAttributeError(path.Root("filters"), "Filters on a budget_status report",
			"filters must be empty for budget_status reports: each alert's own filters apply.")
	}
}

// filtersRestrict: some key of the filters object holds a value (an unknown one counts: it may).
func filtersRestrict(o types.Object) bool {
	for _, v := range o.Attributes() {
		if v.IsUnknown() {
			return true
		}
		if s, ok := v.(types.Set); ok && !s.IsNull() && len(s.Elements()) > 0 {
			return true
		}
	}
	return false
}

func (m *scheduledReportModel) request(webhook *string) client.ReportInput {
	in := client.ReportInput{
		Name: m.Name.ValueString(), Report: m.Report.ValueString(), GroupID: m.GroupID.ValueStringPointer(), Filters: m.Filters.toAPI(),
		Format: m.Format.ValueString(), Recipients: m.Recipients, WebhookURL: webhook, Enabled: m.Enabled.ValueBoolPointer(),
	}
	if s := m.Schedule; s != nil {
		in.Schedule = client.Schedule{Frequency: s.Frequency, DayOfWeek: s.DayOfWeek, Time: s.Time, Timezone: s.Timezone}
		if s.DayOfMonth != nil {
			d := int(*s.DayOfMonth)
			in.Schedule.DayOfMonth = &d
		}
	}
	sort.Strings(in.Recipients) // a fixed order: one configuration sends the same bytes
	return in
}

func (m *scheduledReportModel) fromAPI(a *client.ScheduledReport, writeOnlyWebhook bool) {
	m.ID = types.StringValue(a.ID)
	m.Name = keepWritten(m.Name, types.StringValue(a.Name), func(w, x types.String) bool { return !w.IsNull() && sameTrimmed(w.ValueString(), x.ValueString()) })
	m.Report = types.StringValue(a.Report)
	m.GroupID = types.StringPointerValue(a.GroupID)
	answeredFilters := a.Filters
	if canonicalFilters(m.Filters.toAPI()) != canonicalFilters(&answeredFilters) {
		m.Filters = costFiltersFromAPI(a.Filters)
	}
	s := &scheduleModel{Frequency: a.Schedule.Frequency, DayOfWeek: a.Schedule.DayOfWeek, Time: a.Schedule.Time, Timezone: a.Schedule.Timezone}
	if a.Schedule.DayOfMonth != nil {
		d := int64(*a.Schedule.DayOfMonth)
		s.DayOfMonth = &d
	}
	m.Schedule = s
	m.Format = types.StringValue(a.Format)
	m.Recipients = keepWritten(m.Recipients, nilIfEmpty(a.Recipients), sameEmails)
	if writeOnlyWebhook {
		m.WebhookURL = types.StringNull()
	} else {
		m.WebhookURL = types.StringPointerValue(a.WebhookURL)
	}
	m.Enabled = types.BoolValue(a.Enabled)
	m.NextRunAt = types.StringPointerValue(a.NextRunAt)
	m.LastRunAt = types.StringPointerValue(a.LastRunAt)
	m.CreatedAt = types.StringValue(a.CreatedAt)
	m.UpdatedAt = types.StringValue(a.UpdatedAt)
}

func (r *scheduledReportResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if !ready(r.data, &resp.Diagnostics) {
		return
	}
	createWebhookObject[scheduledReportModel](ctx, r.object(), r.data.keys, req, resp)
}

// object is this resource's calls on the API, for the Create, Read, Update and Delete it shares with the other
// resource that carries a webhook (webhook_object.go).
func (r *scheduledReportResource) object() webhookObject[*client.ScheduledReport, client.ReportInput] {
	return webhookObject[*client.ScheduledReport, client.ReportInput]{
		noun: "scheduled report", idOf: func(a *client.ScheduledReport) string { return a.ID },
		urlOf: func(a *client.ScheduledReport) *string { return a.WebhookURL }, create: r.data.client.CreateReport,
		sets: reportSets,
		get:  r.data.client.GetReport, replace: r.data.client.ReplaceReport, remove: r.data.client.DeleteReport,
		listing: r.data.listings.reports,
	}
}

// ModifyPlan plans what the write-only webhook URL needs (webhook_plan.go), then checks the create or replace
// with the service (plan_check.go).
func (r *scheduledReportResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	planWebhook(ctx, "scheduled report", true, req, resp)
	if !resp.Diagnostics.HasError() && planChange(ctx, r.data, req, "cloudcost_scheduled_report") {
		planWebhookObject[scheduledReportModel](ctx, "cloudcost_scheduled_report", r.object(), r.data.client.ValidateReport, req, resp)
	}
}

func (m *scheduledReportModel) objectID() string         { return m.ID.ValueString() }
func (m *scheduledReportModel) webhookURL() types.String { return m.WebhookURL }

func (r *scheduledReportResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if !ready(r.data, &resp.Diagnostics) {
		return
	}
	readWebhookObject[scheduledReportModel](ctx, r.object(), req, resp)
}

func (r *scheduledReportResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if !ready(r.data, &resp.Diagnostics) {
		return
	}
	updateWebhookObject[scheduledReportModel](ctx, r.object(), req, resp)
}

func (r *scheduledReportResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if !ready(r.data, &resp.Diagnostics) {
		return
	}
	deleteWebhookObject[scheduledReportModel](ctx, r.object(), req, resp)
}

func (r *scheduledReportResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importWebhookObject(ctx, reportIDPrefix, req, resp)
}

// reportSets are the attributes that are sets: a field error inside one is reported on the set.
var reportSets = fieldPathIn(map[string]bool{
	"recipients": true, "filters.providers": true, "filters.account_ids": true, "filters.services": true, "filters.regions": true,
	"filters.tags": true,
})
