package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

var (
	_ resource.ResourceWithConfigure      = (*budgetAlertResource)(nil)
	_ resource.ResourceWithImportState    = (*budgetAlertResource)(nil)
	_ resource.ResourceWithValidateConfig = (*budgetAlertResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*budgetAlertResource)(nil)
)

// NewBudgetAlertResource is `cloudcost_budget_alert`: the contract's BudgetAlert (POST /alerts, GET, PUT,
// DELETE /alerts/{alertId}). Requests: create 1, read 1, update 1 (a PUT of every field), delete 1.
func NewBudgetAlertResource() resource.Resource { return &budgetAlertResource{} }

type budgetAlertResource struct{ data *providerData }

type thresholdModel struct {
	Percent *float64 `tfsdk:"percent"`
	Amount  *float64 `tfsdk:"amount"`
	Basis   string   `tfsdk:"basis"`
	// nil: left out (the alert's recipients get it); empty: nobody (webhook only).
	Recipients []string `tfsdk:"recipients"`
}

type plannedAmountModel struct {
	PeriodStart string  `tfsdk:"period_start"`
	Amount      float64 `tfsdk:"amount"`
}

type autoAdjustModel struct {
	LookbackPeriods int64 `tfsdk:"lookback_periods"`
}

type budgetAlertModel struct {
	ID                    types.String         `tfsdk:"id"`
	Name                  types.String         `tfsdk:"name"`
	Amount                types.Float64        `tfsdk:"amount"`
	Currency              types.String         `tfsdk:"currency"`
	Period                types.String         `tfsdk:"period"`
	GroupID               types.String         `tfsdk:"group_id"`
	Filters               *costFiltersModel    `tfsdk:"filters"`
	Thresholds            []thresholdModel     `tfsdk:"thresholds"`
	Recipients            []string             `tfsdk:"recipients"`
	WebhookURL            types.String         `tfsdk:"webhook_url"`
	WebhookURLWO          types.String         `tfsdk:"webhook_url_wo"`
	WebhookURLWOVersion   types.Int64          `tfsdk:"webhook_url_wo_version"`
	Enabled               types.Bool           `tfsdk:"enabled"`
	PlannedAmounts        []plannedAmountModel `tfsdk:"planned_amounts"`
	AutoAdjust            *autoAdjustModel     `tfsdk:"auto_adjust"`
	StartDate             types.String         `tfsdk:"start_date"`
	EndDate               types.String         `tfsdk:"end_date"`
	EffectiveAmount       types.Float64        `tfsdk:"effective_amount"`
	EffectiveAmountSource types.String         `tfsdk:"effective_amount_source"`
	Active                types.Bool           `tfsdk:"active"`
	CurrentSpend          types.Float64        `tfsdk:"current_spend"`
	ForecastedSpend       types.Float64        `tfsdk:"forecasted_spend"`
	SpendCurrency         types.String         `tfsdk:"spend_currency"`
	PeriodStart           types.String         `tfsdk:"period_start"`
	PeriodEnd             types.String         `tfsdk:"period_end"`
	CreatedAt             types.String         `tfsdk:"created_at"`
	UpdatedAt             types.String         `tfsdk:"updated_at"`
}

func (r *budgetAlertResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_budget_alert"
}

func emailSetAttribute(description string) schema.SetAttribute {
	return schema.SetAttribute{
		ElementType: types.StringType,
		Optional:    true,
		Description: description,
		Validators: []validator.Set{
			setvalidator.SizeAtMost(maxRecipients),
			setvalidator.ValueStringsAre(checkString(emailRule, "e-mail address")),
			uniqueFold{what: "e-mail address"},
		},
	}
}

func computedString(description string, keep bool) schema.StringAttribute {
	a := schema.StringAttribute{Computed: true, Description: description}
	if keep {
		a.PlanModifiers = []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	}
	return a
}

func (r *budgetAlertResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A budget with thresholds: the service e-mails the recipients (and calls the webhook) when the actual or " +
			"forecast spend of its scope reaches a threshold in a period. Every field updates in place.",
		Attributes: map[string]schema.Attribute{
			"id": computedString("the alert's id (`alr_…`)", true),
			"name": schema.StringAttribute{Required: true, Description: "not blank; surrounding whitespace is removed, then 1 to 100 characters",
				Validators: []validator.String{trimmedName(maxNameLength)}},
			"amount": schema.Float64Attribute{Required: true,
				Description: "the budget per period, > 0 and at most 10^12, whole cents; `planned_amounts` replace it for the periods they name, `auto_adjust` sets it from history",
				Validators:  []validator.Float64{checkFloat(budgetMoneyRule, "amount")}},
			"currency": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("USD"),
				Description: "ISO 4217 code, upper case; default `USD`", Validators: []validator.String{checkString(currencyRule, "currency")}},
			"period": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("monthly"),
				Description: "`monthly`, `quarterly` or `annual` (calendar periods, UTC); default `monthly`",
				Validators:  []validator.String{stringvalidator.OneOf(budgetPeriods...)}},
			"group_id": schema.StringAttribute{Optional: true, Description: "the Cloud Group the budget covers (`grp_…`); left out: the whole organization",
				Validators: []validator.String{groupIDPrefix}},
			"filters": costFiltersAttribute("counts only the spend that matches every key given (AND), each key any of its values (OR); within `group_id` when set"),
			"thresholds": schema.SetNestedAttribute{
				Required:    true,
				Description: "1 to 10 thresholds, each exactly one of `percent` (of the period's `effective_amount`) and `amount`; no two with the same level and basis",
				Validators:  []validator.Set{setvalidator.SizeBetween(1, maxThresholds)},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"percent": schema.Float64Attribute{Optional: true, Description: "percent of the period's amount, > 0 and at most 1000",
						Validators: []validator.Float64{checkFloat(percentRule, "percent"),
							float64validator.ExactlyOneOf(path.MatchRelative().AtParent().AtName("amount"))}},
					"amount": schema.Float64Attribute{Optional: true, Description: "an absolute spend in the alert's currency, whole cents, > 0",
						Validators: []validator.Float64{checkFloat(budgetMoneyRule, "amount")}},
					"basis": schema.StringAttribute{Required: true, Description: "`actual`: spend so far reaches it; `forecast`: the period's forecast reaches it",
						Validators: []validator.String{stringvalidator.OneOf(thresholdBases...)}},
					"recipients": emailSetAttribute("who gets this threshold's e-mail instead of the alert's `recipients`; `[]`: nobody (webhook only); left out: the alert's"),
				}},
			},
			"recipients": emailSetAttribute("e-mail addresses (compared case-insensitively), at most 50; left out: none"),
			"webhook_url": schema.StringAttribute{Optional: true, Sensitive: true,
				Description: "called when a threshold is crossed: an https URL (plain http only to localhost, 127.0.0.1 or [::1]). Sensitive, but stored in state: use `webhook_url_wo` to keep it out",
				Validators: []validator.String{checkSecretString(webhookURLRule, "webhook URL"),
					stringvalidator.ConflictsWith(path.MatchRoot("webhook_url_wo"))}},
			"webhook_url_wo": schema.StringAttribute{Optional: true, Sensitive: true, WriteOnly: true,
				Description: "`webhook_url`, write-only (OpenTofu 1.11+, Terraform 1.11+): sent to the service, never stored in state or a plan; a changed value is sent on the next apply (the provider keeps a salted digest of it in private state). Give it from an `ephemeral` variable so the URL is not in a saved plan either",
				Validators:  []validator.String{checkSecretString(webhookURLRule, "webhook URL")}},
			"webhook_url_wo_version": schema.Int64Attribute{Optional: true, Computed: true,
				Description: "how many `webhook_url_wo` values were sent (1, 2, …; an imported object with a webhook starts at 1): a plan that sends a new one shows it growing. Setting it is not needed; a changed value still sends `webhook_url_wo` again"},
			"enabled": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(true),
				Description: "a disabled alert notifies no one; default true"},
			"planned_amounts": schema.SetNestedAttribute{
				Optional:    true,
				Description: "per-period amounts (at most 60, each `period_start` once): each replaces `amount` for the period starting that day; not with `auto_adjust`",
				Validators:  []validator.Set{setvalidator.SizeAtMost(maxPlannedAmounts)},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"period_start": schema.StringAttribute{Required: true, Description: "first day of a period of the alert's kind (" + periodStartRule + ")",
						Validators: []validator.String{checkString(calendarDateRule, "period start")}},
					"amount": schema.Float64Attribute{Required: true, Description: "the period's budget, > 0, whole cents",
						Validators: []validator.Float64{checkFloat(budgetMoneyRule, "amount")}},
				}},
			},
			"auto_adjust": schema.SingleNestedAttribute{
				Optional:    true,
				Description: "set each period's amount to the mean actual spend of the last `lookback_periods` complete periods (`amount` while history is empty); not with `planned_amounts`",
				Attributes: map[string]schema.Attribute{
					"lookback_periods": schema.Int64Attribute{Required: true, Description: "complete periods to average, 1 to 12",
						Validators: []validator.Int64{int64validator.Between(1, 12)}},
				},
			},
			"start_date": schema.StringAttribute{Optional: true, Description: "`YYYY-MM-DD`, the first day the alert is active (any day); left out: since ever",
				Validators: []validator.String{checkString(calendarDateRule, "start date")}},
			"end_date": schema.StringAttribute{Optional: true, Description: "`YYYY-MM-DD`, the last day the alert is active, not before `start_date`; left out: no end",
				Validators: []validator.String{checkString(calendarDateRule, "end date")}},
			"effective_amount":        schema.Float64Attribute{Computed: true, Description: "the current period's amount: its planned amount, the history mean (`auto_adjust`) or `amount`"},
			"effective_amount_source": computedString("where `effective_amount` came from: `amount`, `planned` or `autoAdjust`", false),
			"active":                  schema.BoolAttribute{Computed: true, Description: "enabled and today (the organization's clock) within `start_date`…`end_date`"},
			"current_spend":           schema.Float64Attribute{Computed: true, Description: "spend of the alert's scope and filters in the current period so far, in `spend_currency`"},
			"forecasted_spend":        schema.Float64Attribute{Computed: true, Description: "forecast spend for the whole current period, in `spend_currency`"},
			"spend_currency":          computedString("the organization's billing currency", false),
			"period_start":            computedString("first day of the current period (UTC)", false),
			"period_end":              computedString("last day of the current period (UTC)", false),
			"created_at":              computedString("RFC 3339, UTC", true),
			"updated_at":              computedString("RFC 3339, UTC", false),
		},
	}
}

func (r *budgetAlertResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = dataFrom(req.ProviderData, &resp.Diagnostics)
}

// ValidateConfig applies the contract's rules across fields (alertRules, the threshold rules) when the
// fields they read are known; unknown values are checked at apply by the service.
func (r *budgetAlertResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var period types.String
	var planned types.Set
	var auto types.Object
	var start, end types.String
	var thresholds types.Set
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("period"), &period)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("planned_amounts"), &planned)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("auto_adjust"), &auto)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("start_date"), &start)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("end_date"), &end)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("thresholds"), &thresholds)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !auto.IsNull() && !planned.IsNull() && !planned.IsUnknown() && len(planned.Elements()) > 0 {
		resp.Diagnostics.AddAttributeError(path.Root("auto_adjust"), "Two sources of amounts",
			"auto_adjust cannot be combined with planned_amounts: choose one source of amounts.")
	}
	if !start.IsNull() && !start.IsUnknown() && !end.IsNull() && !end.IsUnknown() && end.ValueString() < start.ValueString() {
		resp.Diagnostics.AddAttributeError(path.Root("end_date"), "End before start",
			fmt.Sprintf("end_date %s must not be before start_date %s.", end.ValueString(), start.ValueString()))
	}
	var plannedItems []plannedAmountModel
	if !planned.IsNull() && !planned.IsUnknown() && planned.ElementsAs(ctx, &plannedItems, false) == nil {
		seen := map[string]bool{}
		p := period.ValueString()
		if period.IsNull() {
			p = "monthly"
		}
		for _, item := range plannedItems {
			if seen[item.PeriodStart] {
				resp.Diagnostics.AddAttributeError(path.Root("planned_amounts"), "Duplicate period",
					fmt.Sprintf("planned_amounts names the period starting %s twice: give each period one amount.", item.PeriodStart))
			}
			seen[item.PeriodStart] = true
			if !period.IsUnknown() && calendarDateRule(item.PeriodStart) == "" && !isPeriodStart(p, item.PeriodStart) {
				resp.Diagnostics.AddAttributeError(path.Root("planned_amounts"), "Not the start of a period",
					fmt.Sprintf("period_start %s must be the first day of a %s period (%s).", item.PeriodStart, p, periodStartRule))
			}
		}
	}
	var items []thresholdModel
	if !thresholds.IsNull() && !thresholds.IsUnknown() && thresholds.ElementsAs(ctx, &items, false) == nil {
		seen := map[string]bool{}
		for _, t := range items {
			key := thresholdKey(t)
			if seen[key] {
				resp.Diagnostics.AddAttributeError(path.Root("thresholds"), "Duplicate threshold",
					fmt.Sprintf("two thresholds have the same level and basis (%s): the service tells them apart by those alone, whatever their recipients.", key))
			}
			seen[key] = true
		}
	}
}

// thresholdKey is the contract's thresholdKey: what makes two thresholds the same, recipients aside.
func thresholdKey(t thresholdModel) string {
	if t.Percent != nil {
		return fmt.Sprintf("%s:%v%%", t.Basis, *t.Percent)
	}
	if t.Amount != nil {
		return fmt.Sprintf("%s:amount %v", t.Basis, *t.Amount)
	}
	return t.Basis
}

// request is the PUT/POST body: every field, so a PUT replaces exactly what the configuration says.
func (m *budgetAlertModel) request(webhook *string) client.AlertInput {
	in := client.AlertInput{
		Name: m.Name.ValueString(), Amount: m.Amount.ValueFloat64(), Currency: m.Currency.ValueString(), Period: m.Period.ValueString(),
		GroupID: m.GroupID.ValueStringPointer(), Filters: m.Filters.toAPI(), Recipients: m.Recipients, WebhookURL: webhook,
		Enabled: m.Enabled.ValueBoolPointer(), StartDate: m.StartDate.ValueStringPointer(), EndDate: m.EndDate.ValueStringPointer(),
	}
	for _, t := range m.Thresholds {
		th := client.Threshold{Percent: t.Percent, Amount: t.Amount, Basis: t.Basis}
		if t.Recipients != nil {
			rs := append([]string{}, t.Recipients...)
			th.Recipients = &rs
		}
		in.Thresholds = append(in.Thresholds, th)
	}
	for _, p := range m.PlannedAmounts {
		in.PlannedAmounts = append(in.PlannedAmounts, client.PlannedAmount{PeriodStart: p.PeriodStart, Amount: p.Amount})
	}
	if m.AutoAdjust != nil {
		in.AutoAdjust = &client.AutoAdjust{LookbackPeriods: int(m.AutoAdjust.LookbackPeriods)}
	}
	// Sets in a fixed order: one configuration sends the same bytes however the CLI orders a set (what the
	// logs and the request counts of the tests compare).
	sort.Strings(in.Recipients)
	sort.Slice(in.Thresholds, func(i, j int) bool { return thresholdOrder(in.Thresholds[i]) < thresholdOrder(in.Thresholds[j]) })
	for _, t := range in.Thresholds {
		if t.Recipients != nil {
			sort.Strings(*t.Recipients)
		}
	}
	sort.Slice(in.PlannedAmounts, func(i, j int) bool { return in.PlannedAmounts[i].PeriodStart < in.PlannedAmounts[j].PeriodStart })
	return in
}

func thresholdOrder(t client.Threshold) string {
	data, _ := json.Marshal(t)
	return string(data)
}

// canonicalThresholds is a threshold set as the service compares it (sorted, recipients canonical, a
// missing recipients list kept apart from an empty one).
func canonicalThresholds(ts []thresholdModel) string {
	keys := make([]string, len(ts))
	for i, t := range ts {
		var rs any
		if t.Recipients != nil {
			rs = canonicalEmails(t.Recipients)
		}
		cents := func(f *float64) any {
			if f == nil {
				return nil
			}
			return int64(*f*100 + 0.5)
		}
		data, _ := json.Marshal([]any{t.Basis, t.Percent, cents(t.Amount), rs})
		keys[i] = string(data)
	}
	sort.Strings(keys)
	data, _ := json.Marshal(keys)
	return string(data)
}

func canonicalPlanned(ps []plannedAmountModel) string {
	keys := make([]string, len(ps))
	for i, p := range ps {
		keys[i] = fmt.Sprintf("%s=%d", p.PeriodStart, int64(p.Amount*100+0.5))
	}
	sort.Strings(keys)
	return fmt.Sprint(keys)
}

// fromAPI puts the service's answer into m, keeping what m holds (the plan or the prior state) for every
// field the answer only respells (keep_written.go). writeOnlyWebhook: the URL came from `webhook_url_wo`,
// so state holds none.
func (m *budgetAlertModel) fromAPI(a *client.BudgetAlert, writeOnlyWebhook bool) {
	m.ID = types.StringValue(a.ID)
	m.Name = keepWritten(m.Name, types.StringValue(a.Name), func(w, x types.String) bool { return !w.IsNull() && sameTrimmed(w.ValueString(), x.ValueString()) })
	m.Amount = keepWritten(m.Amount, types.Float64Value(a.Amount), func(w, x types.Float64) bool {
		return !w.IsNull() && !w.IsUnknown() && sameCents(w.ValueFloat64(), x.ValueFloat64())
	})
	m.Currency = types.StringValue(a.Currency)
	m.Period = types.StringValue(a.Period)
	m.GroupID = types.StringPointerValue(a.GroupID)
	answeredFilters := a.Filters
	if canonicalFilters(m.Filters.toAPI()) != canonicalFilters(&answeredFilters) {
		m.Filters = costFiltersFromAPI(a.Filters)
	}
	answered := make([]thresholdModel, len(a.Thresholds))
	for i, t := range a.Thresholds {
		answered[i] = thresholdModel{Percent: t.Percent, Amount: t.Amount, Basis: t.Basis}
		if t.Recipients != nil {
			answered[i].Recipients = append([]string{}, *t.Recipients...)
		}
	}
	m.Thresholds = keepWritten(m.Thresholds, answered, func(w, x []thresholdModel) bool { return canonicalThresholds(w) == canonicalThresholds(x) })
	m.Recipients = keepWritten(m.Recipients, nilIfEmpty(a.Recipients), sameEmails)
	if writeOnlyWebhook {
		m.WebhookURL = types.StringNull()
	} else {
		m.WebhookURL = types.StringPointerValue(a.WebhookURL)
	}
	m.Enabled = types.BoolValue(a.Enabled)
	planned := make([]plannedAmountModel, len(a.PlannedAmounts))
	for i, p := range a.PlannedAmounts {
		planned[i] = plannedAmountModel{PeriodStart: p.PeriodStart, Amount: p.Amount}
	}
	// An empty set and none are the same to the service (it answers none): `planned_amounts = []` stays [].
	m.PlannedAmounts = keepWritten(m.PlannedAmounts, nilIfEmpty(planned), func(w, x []plannedAmountModel) bool {
		return canonicalPlanned(w) == canonicalPlanned(x)
	})
	if a.AutoAdjust == nil {
		m.AutoAdjust = nil
	} else {
		m.AutoAdjust = &autoAdjustModel{LookbackPeriods: int64(a.AutoAdjust.LookbackPeriods)}
	}
	m.StartDate = types.StringPointerValue(a.StartDate)
	m.EndDate = types.StringPointerValue(a.EndDate)
	m.EffectiveAmount = types.Float64Value(a.EffectiveAmount)
	m.EffectiveAmountSource = types.StringValue(a.EffectiveAmountSource)
	m.Active = types.BoolValue(a.Active)
	m.CurrentSpend = types.Float64Value(a.CurrentSpend)
	m.ForecastedSpend = types.Float64Value(a.ForecastedSpend)
	m.SpendCurrency = types.StringValue(a.SpendCurrency)
	m.PeriodStart = types.StringValue(a.PeriodStart)
	m.PeriodEnd = types.StringValue(a.PeriodEnd)
	m.CreatedAt = types.StringValue(a.CreatedAt)
	m.UpdatedAt = types.StringValue(a.UpdatedAt)
}

func (r *budgetAlertResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if !ready(r.data, &resp.Diagnostics) {
		return
	}
	createWebhookObject[budgetAlertModel](ctx, r.object(), r.data.keys, req, resp)
}

// object is this resource's calls on the API, for the Create, Read, Update and Delete it shares with the other
// resource that carries a webhook (webhook_object.go).
func (r *budgetAlertResource) object() webhookObject[*client.BudgetAlert, client.AlertInput] {
	return webhookObject[*client.BudgetAlert, client.AlertInput]{
		noun: "budget alert", idOf: func(a *client.BudgetAlert) string { return a.ID },
		urlOf: func(a *client.BudgetAlert) *string { return a.WebhookURL }, create: r.data.client.CreateAlert,
		sets: alertSets,
		get:  r.data.client.GetAlert, replace: r.data.client.ReplaceAlert, remove: r.data.client.DeleteAlert,
		listing: r.data.listings.alerts,
	}
}

// ModifyPlan plans what the write-only webhook URL needs (webhook_plan.go), then checks the create or replace
// with the service (plan_check.go).
func (r *budgetAlertResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	planWebhook(ctx, "budget alert", false, req, resp)
	if !resp.Diagnostics.HasError() && planChange(ctx, r.data, req, "cloudcost_budget_alert") {
		planWebhookObject[budgetAlertModel](ctx, "cloudcost_budget_alert", r.object(), r.data.client.ValidateAlert, req, resp)
	}
}

func (m *budgetAlertModel) objectID() string         { return m.ID.ValueString() }
func (m *budgetAlertModel) webhookURL() types.String { return m.WebhookURL }

func (r *budgetAlertResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if !ready(r.data, &resp.Diagnostics) {
		return
	}
	readWebhookObject[budgetAlertModel](ctx, r.object(), req, resp)
}

func (r *budgetAlertResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if !ready(r.data, &resp.Diagnostics) {
		return
	}
	updateWebhookObject[budgetAlertModel](ctx, r.object(), req, resp)
}

func (r *budgetAlertResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if !ready(r.data, &resp.Diagnostics) {
		return
	}
	deleteWebhookObject[budgetAlertModel](ctx, r.object(), req, resp)
}

func (r *budgetAlertResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importWebhookObject(ctx, alertIDPrefix, req, resp)
}

// alertSets are the attributes that are sets: a field error inside one is reported on the set.
var alertSets = fieldPathIn(map[string]bool{
	"thresholds": true, "recipients": true, "planned_amounts": true, "filters.providers": true, "filters.account_ids": true,
	"filters.services": true, "filters.regions": true, "filters.tags": true,
})

// fieldPathIn is FieldPath for a resource whose set attributes are sets.
func fieldPathIn(sets map[string]bool) func(string) (path.Path, bool) {
	return func(contractPath string) (path.Path, bool) { return FieldPath(contractPath, sets) }
}
