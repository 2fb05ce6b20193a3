package client

import (
	"errors"
	"mime"
	"strconv"
	"strings"
)

// Issue 37 §4: a failure that is the URL's fault, not the call's — nothing answers there, or something that is
// not the API does — says which setting points where and what was found there, so the user knows what to fix
// ("GET /accounts: connection failed" named neither the host nor `api_url`).

// located adds to a transport failure, or to an answer that is not the API's (not a problem+json refusal, not
// the contract's body), where BaseURL came from and what answered there. Other errors are returned as they are.
func (c *Client) located(err error, res *response) error {
	var api *APIError
	if !errors.As(err, &api) || api.Where != "" {
		return err
	}
	setting := c.baseSetting
	if setting == "" {
		setting = "the API URL"
	}
	at := setting + " is " + c.base.String()
	switch {
	case api.Status == 0:
		api.Where = at + ": no server answered there (" + transportReason(api) + "); check the host and port, and that the service is running"
	case res != nil && !isJSON(res.header.Get("Content-Type")):
		api.Where = at + ": what answered there is not the cloudcost API (" + describeAnswer(res) + "; the API answers JSON under /api/v1)"
	case api.Type == "" && api.Title != "" && res != nil:
		api.Where = at + ": what answered there did not answer as the cloudcost API does (" + describeAnswer(res) + ")"
	}
	return err
}

func isJSON(contentType string) bool {
	media, _, err := mime.ParseMediaType(contentType)
	return err == nil && (media == "application/json" || media == "application/problem+json" || strings.HasSuffix(media, "+json"))
}

// describeAnswer is the status and media type of an answer, e.g. "a 200 text/html response".
func describeAnswer(res *response) string {
	media, _, err := mime.ParseMediaType(res.header.Get("Content-Type"))
	if err != nil || media == "" {
		media = "untyped"
	}
	return "a " + strconv.Itoa(res.status) + " " + media + " response"
}

// transportReason is the last part of the transport error: "connection refused", "no such host", a timeout.
func transportReason(api *APIError) string {
	detail := api.Detail
	if i := strings.LastIndex(detail, ": "); i >= 0 {
		detail = detail[i+2:]
	}
	if detail == "" {
		return api.Title
	}
	return detail
}
