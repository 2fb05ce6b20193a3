package client

import (
	"fmt"
	"strings"
)

// FieldError is one field-level failure of a validation problem (the contract's FieldError).
type FieldError struct {
	// Path says where the problem is: `body.thresholds.1.percent`, `query.from`, …
	Path    string `json:"path"`
	Message string `json:"message"`
	Code    string `json:"code"`
}

// Problem is an RFC 9457 problem details body as the API sends it (the contract's Problem).
type Problem struct {
	Type      string       `json:"type"`
	Title     string       `json:"title"`
	Status    int          `json:"status"`
	Detail    string       `json:"detail,omitempty"`
	Instance  string       `json:"instance,omitempty"`
	RequestID string       `json:"requestId"`
	Errors    []FieldError `json:"errors,omitempty"`
}

// APIError is an unsuccessful call: an RFC 9457 problem response, an OAuth (RFC 6749 §5.2) refusal, or a
// transport failure (Status 0). Like the TypeScript client's ApiError it keeps the problem's type, title,
// detail, instance, field errors and request id, and the transport failure as its cause. It never carries a
// token or a secret.
type APIError struct {
	// Status is the HTTP status; 0 when no response arrived (connection failure or timeout).
	Status int
	// Type is RFC 9457's `type` URI (empty when no problem arrived).
	Type     string
	Title    string
	Detail   string
	Instance string
	Errors   []FieldError
	// RequestID is the server's `X-Request-Id`, to quote in support requests.
	RequestID string
	// OAuthError is the RFC 6749 §5.2 `error` code when the token endpoint refused.
	OAuthError string
	// Operation is `METHOD path`, the path relative to the base URL.
	Operation string
	Attempts  int
	// Cause is what the client caught (transport failure, undecodable body); kept, never replaced.
	Cause error
	// Where says which setting points where and what answered there, when the failure is the URL's fault
	// (nothing answered, or not the API: api_location.go); empty otherwise.
	Where string
}

func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString(e.Operation)
	b.WriteString(": ")
	if e.Status != 0 {
		fmt.Fprintf(&b, "%d ", e.Status)
	}
	b.WriteString(e.Title)
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	if len(e.Errors) > 0 {
		parts := make([]string, len(e.Errors))
		for i, f := range e.Errors {
			parts[i] = f.Path + ": " + f.Message
		}
		b.WriteString(": ")
		b.WriteString(strings.Join(parts, "; "))
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " (request id %s)", e.RequestID)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts", e.Attempts)
	}
	if e.Where != "" {
		b.WriteString(". ")
		b.WriteString(e.Where)
	}
	return b.String()
}

func (e *APIError) Unwrap() error { return e.Cause }

// IsNotFound reports whether err is the API's 404: the object is gone.
func IsNotFound(err error) bool {
	var api *APIError
	return asAPIError(err, &api) && api.Status == 404
}
