package client

// The request and response bodies of the operations the provider uses, one Go type per schema of
// api/openapi.json (named alike; contract_test.go checks every field's JSON name, type, nullability and
// requiredness against the document, so a field added to the contract fails the test until it is here).
// Nullable fields are pointers; optional request fields carry omitempty.

// Member is one account of a Cloud Group (the contract's Member: an AWS account or an Azure subscription).
type Member struct {
	Provider  string `json:"provider"`
	AccountID string `json:"accountId"`
}

// CloudGroup is the contract's CloudGroup.
type CloudGroup struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Members     []Member `json:"members"`
	Source      string   `json:"source"`
	CreatedAt   string   `json:"createdAt"`
	UpdatedAt   string   `json:"updatedAt"`
}

// CreateGroup is the body of createGroup.
type CreateGroup struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// UpdateGroup is the body of updateGroup: at least one of the two.
type UpdateGroup struct {
	Name        *string `json:"name,omitempty"`
	Description *string `json:"description,omitempty"`
}

// ReplaceMembers is the body of replaceMembers.
type ReplaceMembers struct {
	Members []Member `json:"members"`
}

// MemberList is the answer of listMembers.
type MemberList struct {
	Items []Member `json:"items"`
}

// TagFilter is one tag key with the values it matches.
type TagFilter struct {
	Key    string   `json:"key"`
	Values []string `json:"values"`
}

// CostFilters narrow an alert, a report or a cost read; every list is a set.
type CostFilters struct {
	Providers  []string    `json:"providers,omitempty"`
	AccountIDs []string    `json:"accountIds,omitempty"`
	Services   []string    `json:"services,omitempty"`
	Regions    []string    `json:"regions,omitempty"`
	Tags       []TagFilter `json:"tags,omitempty"`
}

// Threshold of a budget alert: a percent of the budget or an absolute amount, with its own recipients.
type Threshold struct {
	Percent *float64 `json:"percent,omitempty"`
	Amount  *float64 `json:"amount,omitempty"`
	Basis   string   `json:"basis"`
	// Recipients are answered as sent: absent stays absent, [] stays [] (the pointer keeps the difference).
	Recipients *[]string `json:"recipients,omitempty"`
}

// PlannedAmount is the budget of one period that overrides the alert's amount.
type PlannedAmount struct {
	PeriodStart string  `json:"periodStart"`
	Amount      float64 `json:"amount"`
}

// AutoAdjust derives the budget from the spend of past periods.
type AutoAdjust struct {
	LookbackPeriods int `json:"lookbackPeriods"`
}

// AlertInput is the body of createAlert and replaceAlert (the contract's AlertInput).
type AlertInput struct {
	Name           string          `json:"name"`
	Amount         float64         `json:"amount"`
	Currency       string          `json:"currency"`
	Period         string          `json:"period"`
	GroupID        *string         `json:"groupId,omitempty"`
	Filters        *CostFilters    `json:"filters,omitempty"`
	Thresholds     []Threshold     `json:"thresholds"`
	Recipients     []string        `json:"recipients,omitempty"`
	WebhookURL     *string         `json:"webhookUrl,omitempty"`
	Enabled        *bool           `json:"enabled,omitempty"`
	PlannedAmounts []PlannedAmount `json:"plannedAmounts,omitempty"`
	AutoAdjust     *AutoAdjust     `json:"autoAdjust,omitempty"`
	StartDate      *string         `json:"startDate,omitempty"`
	EndDate        *string         `json:"endDate,omitempty"`
}

// BudgetAlert is the contract's BudgetAlert.
type BudgetAlert struct {
	ID                    string          `json:"id"`
	Name                  string          `json:"name"`
	Amount                float64         `json:"amount"`
	Currency              string          `json:"currency"`
	Period                string          `json:"period"`
	GroupID               *string         `json:"groupId"`
	Filters               CostFilters     `json:"filters"`
	Thresholds            []Threshold     `json:"thresholds"`
	Recipients            []string        `json:"recipients"`
	WebhookURL            *string         `json:"webhookUrl"`
	Enabled               bool            `json:"enabled"`
	PlannedAmounts        []PlannedAmount `json:"plannedAmounts"`
	AutoAdjust            *AutoAdjust     `json:"autoAdjust"`
	StartDate             *string         `json:"startDate"`
	EndDate               *string         `json:"endDate"`
	EffectiveAmount       float64         `json:"effectiveAmount"`
	EffectiveAmountSource string          `json:"effectiveAmountSource"`
	Active                bool            `json:"active"`
	CurrentSpend          float64         `json:"currentSpend"`
	ForecastedSpend       float64         `json:"forecastedSpend"`
	SpendCurrency         string          `json:"spendCurrency"`
	PeriodStart           string          `json:"periodStart"`
	PeriodEnd             string          `json:"periodEnd"`
	CreatedAt             string          `json:"createdAt"`
	UpdatedAt             string          `json:"updatedAt"`
}

// Schedule of a report: the union of the contract's DailySchedule, WeeklySchedule and MonthlySchedule
// (discriminated by Frequency; the day fields of the other frequencies are absent).
type Schedule struct {
	Frequency  string  `json:"frequency"`
	DayOfWeek  *string `json:"dayOfWeek,omitempty"`
	DayOfMonth *int    `json:"dayOfMonth,omitempty"`
	Time       string  `json:"time"`
	Timezone   string  `json:"timezone"`
}

// ReportInput is the body of createReport and replaceReport (the contract's ReportInput).
type ReportInput struct {
	Name       string       `json:"name"`
	Report     string       `json:"report"`
	GroupID    *string      `json:"groupId,omitempty"`
	Filters    *CostFilters `json:"filters,omitempty"`
	Schedule   Schedule     `json:"schedule"`
	Format     string       `json:"format,omitempty"`
	Recipients []string     `json:"recipients,omitempty"`
	WebhookURL *string      `json:"webhookUrl,omitempty"`
	Enabled    *bool        `json:"enabled,omitempty"`
}

// ScheduledReport is the contract's ScheduledReport.
type ScheduledReport struct {
	ID         string      `json:"id"`
	Name       string      `json:"name"`
	Report     string      `json:"report"`
	GroupID    *string     `json:"groupId"`
	Filters    CostFilters `json:"filters"`
	Schedule   Schedule    `json:"schedule"`
	Format     string      `json:"format"`
	Recipients []string    `json:"recipients"`
	WebhookURL *string     `json:"webhookUrl"`
	Enabled    bool        `json:"enabled"`
	NextRunAt  *string     `json:"nextRunAt"`
	LastRunAt  *string     `json:"lastRunAt"`
	CreatedAt  string      `json:"createdAt"`
	UpdatedAt  string      `json:"updatedAt"`
}

// Organization is the organization the credentials belong to.
type Organization struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// ConnectedAccount is a cloud account connected to the organization.
type ConnectedAccount struct {
	Provider  string `json:"provider"`
	AccountID string `json:"accountId"`
	Name      string `json:"name"`
}

// SigningSecret is the organization's webhook signing secret (Standard Webhooks `whsec_…`).
type SigningSecret struct {
	Secret string `json:"secret"`
}

// IdempotencyRecord is what the service remembers of a create sent with an Idempotency-Key (24 hours, or
// until the object it created is deleted).
type IdempotencyRecord struct {
	Key        string  `json:"key"`
	Status     int     `json:"status"`
	ResourceID *string `json:"resourceId"`
	CreatedAt  string  `json:"createdAt"`
	ExpiresAt  string  `json:"expiresAt"`
	ReplayedAt *string `json:"replayedAt"`
}

// ProviderAmount is one provider's share.
type ProviderAmount struct {
	Provider string  `json:"provider"`
	Amount   float64 `json:"amount"`
}

// ForecastTotals of a cost summary.
type ForecastTotals struct {
	Actual    float64 `json:"actual"`
	Projected float64 `json:"projected"`
	Total     float64 `json:"total"`
	Lower     float64 `json:"lower"`
	Upper     float64 `json:"upper"`
}

// CostSummary is the answer of getCostSummary.
type CostSummary struct {
	From       string           `json:"from"`
	To         string           `json:"to"`
	Currency   string           `json:"currency"`
	GroupID    *string          `json:"groupId"`
	Filters    CostFilters      `json:"filters"`
	Total      float64          `json:"total"`
	ByProvider []ProviderAmount `json:"byProvider"`
	Forecast   ForecastTotals   `json:"forecast"`
}

// ServiceCost is one service's cost.
type ServiceCost struct {
	Service  string  `json:"service"`
	Provider string  `json:"provider"`
	Amount   float64 `json:"amount"`
}

// CostByService is the answer of getCostByService.
type CostByService struct {
	From     string        `json:"from"`
	To       string        `json:"to"`
	Currency string        `json:"currency"`
	GroupID  *string       `json:"groupId"`
	Filters  CostFilters   `json:"filters"`
	Total    float64       `json:"total"`
	Items    []ServiceCost `json:"items"`
}

// DailyCost is one day's cost.
type DailyCost struct {
	Date       string           `json:"date"`
	Amount     float64          `json:"amount"`
	ByProvider []ProviderAmount `json:"byProvider"`
}

// CostByDay is the answer of getCostByDay.
type CostByDay struct {
	From     string      `json:"from"`
	To       string      `json:"to"`
	Currency string      `json:"currency"`
	GroupID  *string     `json:"groupId"`
	Filters  CostFilters `json:"filters"`
	Total    float64     `json:"total"`
	Days     []DailyCost `json:"days"`
}

// ForecastDay is one day of a forecast: actual or forecast, with its band.
type ForecastDay struct {
	Date   string  `json:"date"`
	Amount float64 `json:"amount"`
	Kind   string  `json:"kind"`
	Lower  float64 `json:"lower"`
	Upper  float64 `json:"upper"`
}

// CostForecast is the answer of getCostForecast.
type CostForecast struct {
	From      string        `json:"from"`
	To        string        `json:"to"`
	Currency  string        `json:"currency"`
	GroupID   *string       `json:"groupId"`
	Filters   CostFilters   `json:"filters"`
	Actual    float64       `json:"actual"`
	Projected float64       `json:"projected"`
	Total     float64       `json:"total"`
	Lower     float64       `json:"lower"`
	Upper     float64       `json:"upper"`
	Days      []ForecastDay `json:"days"`
}

// ComparisonWindow is one of the two windows of a comparison.
type ComparisonWindow struct {
	From   string  `json:"from"`
	To     string  `json:"to"`
	Amount float64 `json:"amount"`
}

// ComparisonByProvider is one provider's part of a comparison.
type ComparisonByProvider struct {
	Provider string  `json:"provider"`
	Current  float64 `json:"current"`
	Previous float64 `json:"previous"`
	Change   float64 `json:"change"`
}

// CostComparison is the answer of getCostComparison.
type CostComparison struct {
	From          string                 `json:"from"`
	To            string                 `json:"to"`
	Currency      string                 `json:"currency"`
	GroupID       *string                `json:"groupId"`
	Filters       CostFilters            `json:"filters"`
	Current       ComparisonWindow       `json:"current"`
	Previous      ComparisonWindow       `json:"previous"`
	Change        float64                `json:"change"`
	ChangePercent *float64               `json:"changePercent"`
	ByProvider    []ComparisonByProvider `json:"byProvider"`
}
