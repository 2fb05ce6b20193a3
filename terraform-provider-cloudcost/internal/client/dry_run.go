package client

import (
	"context"
	"net/url"
)

// The dry-runs of the contract (issue 38, api/src/contract/dry-run.ts): the body of a create or change judged
// by the service's own handlers and rolled back. nil when the real request would be accepted; otherwise the
// *APIError the real request would get — the same status, field codes, messages and paths. Nothing is
// written. The provider's plan calls them (ModifyPlan) only for objects being created or changed.

// GroupDraft is the contract's GroupDraft: a whole Cloud Group, its create (or change) and its member set.
type GroupDraft struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Members     []Member `json:"members,omitempty"`
}

// draftOf is the query naming the object a draft changes; empty for a create.
func draftOf(name, id string) url.Values {
	if id == "" {
		return nil
	}
	return url.Values{name: {id}}
}

// ValidateGroup dry-runs the create of draft, or with groupID the change of that group.
func (c *Client) ValidateGroup(ctx context.Context, draft GroupDraft, groupID string) error {
	return c.call(ctx, "validateGroup", nil, draftOf("groupId", groupID), draft, nil, nil)
}

// ValidateAlert dry-runs the create of body, or with alertID the replace of that alert.
func (c *Client) ValidateAlert(ctx context.Context, body AlertInput, alertID string) error {
	return c.call(ctx, "validateAlert", nil, draftOf("alertId", alertID), body, nil, nil)
}

// ValidateReport dry-runs the create of body, or with reportID the replace of that report.
func (c *Client) ValidateReport(ctx context.Context, body ReportInput, reportID string) error {
	return c.call(ctx, "validateReport", nil, draftOf("reportId", reportID), body, nil, nil)
}
