package client

import (
	"context"
	"net/url"
)

// BasePath is the path every operation lives under (`{base_url}` = origin + BasePath).
const BasePath = "/api/v1"

type route struct {
	method string
	// path is relative to BasePath, with `{name}` placeholders filled in order.
	path   string
	status int
	// idempotent: the operation honours Idempotency-Key.
	idempotent bool
}

// operations is the part of the contract's operation table the provider calls; contract_test.go checks each
// entry's method, path, success status and idempotency against api/openapi.json, and that every operation of
// the document is either here or named in notCalled with the reason.
var operations = map[string]route{
	"getCostSummary":          {"GET", "/cost/summary", 200, false},
	"getCostByService":        {"GET", "/cost/services", 200, false},
	"getCostByDay":            {"GET", "/cost/daily", 200, false},
	"getCostForecast":         {"GET", "/cost/forecast", 200, false},
	"getCostComparison":       {"GET", "/cost/comparison", 200, false},
	"getOrganization":         {"GET", "/organization", 200, false},
	"listAccounts":            {"GET", "/accounts", 200, false},
	"listGroups":              {"GET", "/groups", 200, false},
	"createGroup":             {"POST", "/groups", 201, true},
	"validateGroup":           {"POST", "/groups:validate", 204, false},
	"getGroup":                {"GET", "/groups/{groupId}", 200, false},
	"updateGroup":             {"PATCH", "/groups/{groupId}", 200, false},
	"deleteGroup":             {"DELETE", "/groups/{groupId}", 204, false},
	"listMembers":             {"GET", "/groups/{groupId}/members", 200, false},
	"replaceMembers":          {"PUT", "/groups/{groupId}/members", 200, false},
	"listAlerts":              {"GET", "/alerts", 200, false},
	"createAlert":             {"POST", "/alerts", 201, true},
	"getAlert":                {"GET", "/alerts/{alertId}", 200, false},
	"replaceAlert":            {"PUT", "/alerts/{alertId}", 200, false},
	"deleteAlert":             {"DELETE", "/alerts/{alertId}", 204, false},
	"validateAlert":           {"POST", "/alerts:validate", 204, false},
	"listReports":             {"GET", "/reports", 200, false},
	"createReport":            {"POST", "/reports", 201, true},
	"getReport":               {"GET", "/reports/{reportId}", 200, false},
	"replaceReport":           {"PUT", "/reports/{reportId}", 200, false},
	"deleteReport":            {"DELETE", "/reports/{reportId}", 204, false},
	"validateReport":          {"POST", "/reports:validate", 204, false},
	"getWebhookSigningSecret": {"GET", "/webhooks/signing-secret", 200, false},
	"listIdempotencyKeys":     {"GET", "/idempotency-keys", 200, false},
}

// ---- Cloud Groups ----

func (c *Client) ListGroups(ctx context.Context) ([]CloudGroup, error) {
	return listAll[CloudGroup](ctx, c, "listGroups", nil)
}

func (c *Client) CreateGroup(ctx context.Context, body CreateGroup, o *CreateOptions) (*CloudGroup, error) {
	var out CloudGroup
	return &out, c.call(ctx, "createGroup", nil, nil, body, &out, o)
}

func (c *Client) GetGroup(ctx context.Context, id string) (*CloudGroup, error) {
	var out CloudGroup
	return &out, c.call(ctx, "getGroup", []string{id}, nil, nil, &out, nil)
}

func (c *Client) UpdateGroup(ctx context.Context, id string, body UpdateGroup) (*CloudGroup, error) {
	var out CloudGroup
	return &out, c.call(ctx, "updateGroup", []string{id}, nil, body, &out, nil)
}

func (c *Client) DeleteGroup(ctx context.Context, id string) error {
	return c.call(ctx, "deleteGroup", []string{id}, nil, nil, nil, nil)
}

func (c *Client) ListMembers(ctx context.Context, id string) ([]Member, error) {
	var out MemberList
	return out.Items, c.call(ctx, "listMembers", []string{id}, nil, nil, &out, nil)
}

func (c *Client) ReplaceMembers(ctx context.Context, id string, members []Member) (*CloudGroup, error) {
	var out CloudGroup
	if members == nil {
		members = []Member{}
	}
	return &out, c.call(ctx, "replaceMembers", []string{id}, nil, ReplaceMembers{Members: members}, &out, nil)
}

// ---- Budget alerts ----

func (c *Client) ListAlerts(ctx context.Context) ([]BudgetAlert, error) {
	return listAll[BudgetAlert](ctx, c, "listAlerts", nil)
}

func (c *Client) CreateAlert(ctx context.Context, body AlertInput, o *CreateOptions) (*BudgetAlert, error) {
	var out BudgetAlert
	return &out, c.call(ctx, "createAlert", nil, nil, body, &out, o)
}

func (c *Client) GetAlert(ctx context.Context, id string) (*BudgetAlert, error) {
	var out BudgetAlert
	return &out, c.call(ctx, "getAlert", []string{id}, nil, nil, &out, nil)
}

func (c *Client) ReplaceAlert(ctx context.Context, id string, body AlertInput) (*BudgetAlert, error) {
	var out BudgetAlert
	return &out, c.call(ctx, "replaceAlert", []string{id}, nil, body, &out, nil)
}

func (c *Client) DeleteAlert(ctx context.Context, id string) error {
	return c.call(ctx, "deleteAlert", []string{id}, nil, nil, nil, nil)
}

// ---- Scheduled reports ----

func (c *Client) ListReports(ctx context.Context) ([]ScheduledReport, error) {
	return listAll[ScheduledReport](ctx, c, "listReports", nil)
}

func (c *Client) CreateReport(ctx context.Context, body ReportInput, o *CreateOptions) (*ScheduledReport, error) {
	var out ScheduledReport
	return &out, c.call(ctx, "createReport", nil, nil, body, &out, o)
}

func (c *Client) GetReport(ctx context.Context, id string) (*ScheduledReport, error) {
	var out ScheduledReport
	return &out, c.call(ctx, "getReport", []string{id}, nil, nil, &out, nil)
}

func (c *Client) ReplaceReport(ctx context.Context, id string, body ReportInput) (*ScheduledReport, error) {
	var out ScheduledReport
	return &out, c.call(ctx, "replaceReport", []string{id}, nil, body, &out, nil)
}

func (c *Client) DeleteReport(ctx context.Context, id string) error {
	return c.call(ctx, "deleteReport", []string{id}, nil, nil, nil, nil)
}

// ---- Accounts, organization, webhooks, idempotency records ----

func (c *Client) GetOrganization(ctx context.Context) (*Organization, error) {
	var out Organization
	return &out, c.call(ctx, "getOrganization", nil, nil, nil, &out, nil)
}

func (c *Client) ListAccounts(ctx context.Context) ([]ConnectedAccount, error) {
	return listAll[ConnectedAccount](ctx, c, "listAccounts", nil)
}

// GetWebhookSigningSecret needs the `write` scope: it is a secret.
func (c *Client) GetWebhookSigningSecret(ctx context.Context) (*SigningSecret, error) {
	var out SigningSecret
	return &out, c.call(ctx, "getWebhookSigningSecret", nil, nil, nil, &out, nil)
}

// ListIdempotencyKeys lists the create keys the service remembers that begin with prefix ("" for all).
func (c *Client) ListIdempotencyKeys(ctx context.Context, prefix string) ([]IdempotencyRecord, error) {
	q := url.Values{}
	if prefix != "" {
		q.Set("prefix", prefix)
	}
	return listAll[IdempotencyRecord](ctx, c, "listIdempotencyKeys", q)
}

// ---- Cost reads ----

// CostQuery is the query of every cost read (the contract's CostQuery): a window of calendar dates and
// optional filters; Tags are `key=value` pairs (the `tag` parameter, repeated).
type CostQuery struct {
	From       string
	To         string
	GroupID    string
	Providers  []string
	AccountIDs []string
	Services   []string
	Regions    []string
	Tags       []string
}

// Values is the query string of q (`style: form, explode: true`: a list repeats its parameter).
func (q CostQuery) Values() url.Values {
	v := url.Values{"from": {q.From}, "to": {q.To}}
	if q.GroupID != "" {
		v.Set("groupId", q.GroupID)
	}
	for name, list := range map[string][]string{"providers": q.Providers, "accountIds": q.AccountIDs, "services": q.Services, "regions": q.Regions, "tag": q.Tags} {
		if len(list) > 0 {
			v[name] = append([]string(nil), list...)
		}
	}
	return v
}

func (c *Client) GetCostSummary(ctx context.Context, q CostQuery) (*CostSummary, error) {
	var out CostSummary
	return &out, c.call(ctx, "getCostSummary", nil, q.Values(), nil, &out, nil)
}

func (c *Client) GetCostByService(ctx context.Context, q CostQuery) (*CostByService, error) {
	var out CostByService
	return &out, c.call(ctx, "getCostByService", nil, q.Values(), nil, &out, nil)
}

func (c *Client) GetCostByDay(ctx context.Context, q CostQuery) (*CostByDay, error) {
	var out CostByDay
	return &out, c.call(ctx, "getCostByDay", nil, q.Values(), nil, &out, nil)
}

func (c *Client) GetCostForecast(ctx context.Context, q CostQuery) (*CostForecast, error) {
	var out CostForecast
	return &out, c.call(ctx, "getCostForecast", nil, q.Values(), nil, &out, nil)
}

func (c *Client) GetCostComparison(ctx context.Context, q CostQuery) (*CostComparison, error) {
	var out CostComparison
	return &out, c.call(ctx, "getCostComparison", nil, q.Values(), nil, &out, nil)
}
