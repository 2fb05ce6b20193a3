package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// tokenSource hands out bearer tokens.
type tokenSource interface {
	token(ctx context.Context) (string, error)
	// invalidate is called after a 401 for tok; true when a fresh one can be fetched (the caller retries once).
	invalidate(tok string) bool
}

// staticToken is an API token from the portal: sent as is, never refreshed.
type staticToken string

func (s staticToken) token(context.Context) (string, error) { return string(s), nil }
func (staticToken) invalidate(string) bool                  { return false }

// clientCredentials is the OAuth 2.0 client credentials grant (RFC 6749 §4.4): the access token is fetched
// once and cached until shortly before `expires_in`; concurrent callers share one fetch (the mutex), and a 401
// drops the cached token so the next caller fetches a new one.
type clientCredentials struct {
	c            *Client
	tokenURL     string
	clientID     string
	clientSecret string

	mu        sync.Mutex
	value     string
	refreshAt time.Time
}

type tokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int    `json:"expires_in"`
	Scope       string `json:"scope"`
	// RefreshToken is never sent for client credentials (RFC 6749 §4.4.3); decoded only to match the contract.
	RefreshToken string `json:"refresh_token,omitempty"`
}

type oauthError struct {
	Error            string `json:"error"`
	ErrorDescription string `json:"error_description"`
}

func (s *clientCredentials) token(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.value != "" && time.Now().Before(s.refreshAt) {
		return s.value, nil
	}
	started := time.Now()
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {s.clientID}, "client_secret": {s.clientSecret}}
	const operation = "POST /oauth/token"
	// Asking for another token is harmless, so the token request is retried like an idempotent one.
	res, attempts, err := s.c.send(ctx, request{
		method:      http.MethodPost,
		url:         s.tokenURL,
		contentType: "application/x-www-form-urlencoded",
		body:        []byte(form.Encode()),
		idempotent:  true,
		operation:   operation,
	})
	if err != nil {
		return "", err
	}
	if res.status != http.StatusOK {
		var o oauthError
		if json.Unmarshal(res.body, &o) == nil && o.Error != "" {
			detail := o.ErrorDescription
			if o.Error == "invalid_client" {
				detail = strings.TrimPrefix(detail+"; check client_id and client_secret (or CLOUDCOST_CLIENT_ID and CLOUDCOST_CLIENT_SECRET)", "; ")
			}
			return "", &APIError{Status: res.status, Title: "token request refused: " + o.Error, Detail: detail, OAuthError: o.Error,
				RequestID: res.header.Get("X-Request-Id"), Operation: operation, Attempts: attempts}
		}
		return "", &APIError{Status: res.status, Title: "token request failed", RequestID: res.header.Get("X-Request-Id"), Operation: operation, Attempts: attempts}
	}
	var t tokenResponse
	if err := json.Unmarshal(res.body, &t); err != nil || t.AccessToken == "" || t.ExpiresIn <= 0 {
		return "", &APIError{Status: res.status, Title: "token response did not match RFC 6749 §5.1", Operation: operation, Attempts: attempts, Cause: err}
	}
	// Renewed 10% of the lifetime (at most 60 s) before it runs out.
	margin := min(60*time.Second, time.Duration(t.ExpiresIn)*time.Second/10)
	s.value = t.AccessToken
	s.refreshAt = started.Add(time.Duration(t.ExpiresIn)*time.Second - margin)
	return s.value, nil
}

func (s *clientCredentials) invalidate(tok string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.value == tok {
		s.value = ""
	}
	return true
}
